"""The production set-up in deploy/ (issue 25 item 1): the install script in its test mode
(``--destdir``), the process definitions naming commands and options that exist, the Caddyfile
validated by Caddy itself, the nightly backup's rotation, ``make serve``'s settings file, and the
split between the runtime and the development requirements. The stack itself runs over https in
``.ci/stack.sh`` (tests/ops/test_stack_https.py)."""
from __future__ import annotations

import ast
import json
import logging
import os
import re
import shutil
import stat
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
VENV_BIN = Path(sys.executable).parent
PROCESSES = ("web", "events", "worker", "beat", "caddy")
TEST_TOOLS = {"pytest", "pytest-django", "hypothesis", "playwright", "axe-playwright-python", "ruff",
              "import-linter", "pypdfium2", "moto", "zxing-cpp", "factory-boy", "openapi-spec-validator", "polib"}


def _clean_env(**extra: str) -> dict[str, str]:
    drop = ("NSKT_", "SERVE_", "DATABASE_URL", "REDIS_URL", "DEBUG", "SECRET_KEY", "STATIC_ROOT", "MEDIA_ROOT",
            "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS", "TRUSTED_PROXIES", "CELERY_", "WEB_")
    env = {k: v for k, v in os.environ.items() if not k.startswith(drop)}
    env.update(extra)
    return env


def _install(destdir: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(DEPLOY / "install.sh"), "--destdir", str(destdir), *args], cwd=ROOT,
                          env=_clean_env(), capture_output=True, text=True, timeout=120)


def _env_file(path: Path) -> dict[str, str]:
    return dict(line.split("=", 1) for line in path.read_text().splitlines() if line and not line.startswith("#"))


def test_scripts_parse():
    for script in [*DEPLOY.glob("*.sh"), DEPLOY / "nskt-manage", ROOT / ".ci" / "stack.sh"]:
        proc = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True)
        assert proc.returncode == 0, f"{script}: {proc.stderr}"
        assert os.access(script, os.X_OK), f"{script} is executable"


def test_install_writes_settings_units_and_caddy(tmp_path):
    proc = _install(tmp_path, "--host", "tafels.local", "--tls", "internal")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    assert re.search(r"^\+ .*apt-get install .*\bcaddy\b.*\bpostgresql\b.*\bredis-server\b", out, re.M)
    assert f"pip install -q -r {ROOT}/requirements.txt" in out and "requirements-dev" not in out
    for step in ("manage.py migrate --noinput", "manage.py collectstatic --noinput", "manage.py check --deploy",
                 "createdb --owner nskt nskt", "systemctl enable nskt.target", "systemctl reload-or-restart caddy"):
        assert step in out, step

    settings = tmp_path / "etc/nskt/nskt.env"
    assert stat.S_IMODE(settings.stat().st_mode) == 0o600
    values = _env_file(settings)
    assert values["DEBUG"] == "0" and len(values["SECRET_KEY"]) >= 50
    assert values["ALLOWED_HOSTS"] == "tafels.local" and values["CSRF_TRUSTED_ORIGINS"] == "https://tafels.local"
    assert values["TRUSTED_PROXIES"] == "127.0.0.1,::1" and values["NSKT_TLS"] == "internal"
    caddy_env = _env_file(tmp_path / "etc/nskt/caddy.env")
    assert caddy_env == {"NSKT_HOST": "tafels.local", "NSKT_TLS": "internal", "NSKT_WEB_ADDR": "127.0.0.1:8000",
                         "NSKT_EVENTS_ADDR": "127.0.0.1:8001", "NSKT_STATIC_ROOT": "/srv/nskt/static"}

    units = tmp_path / "etc/systemd/system"
    assert {p.name for p in units.glob("nskt*")} == {p.name for p in (DEPLOY / "systemd").iterdir()}
    for unit in units.glob("nskt*"):
        text = unit.read_text()
        assert not re.search(r"@[A-Z_]+@", text), f"{unit.name}: a placeholder is left"
        for line in re.findall(r"^ExecStart=(.*)$", text, re.M):
            assert Path(line.split()[0]).is_file(), line
        if unit.suffix == ".service":
            assert "EnvironmentFile=/etc/nskt/nskt.env" in text and "User=nskt" in text
    assert "EnvironmentFile=/etc/nskt/caddy.env" in (units / "caddy.service.d/nskt.conf").read_text()
    assert f"import {ROOT}/deploy/Caddyfile" in (tmp_path / "etc/caddy/Caddyfile").read_text().splitlines()


def test_install_twice_keeps_the_settings(tmp_path):
    assert _install(tmp_path, "--host", "tafels.local").returncode == 0
    settings = tmp_path / "etc/nskt/nskt.env"
    first = settings.read_text()
    settings.write_text("\n".join(line for line in first.splitlines() if not line.startswith("BACKUP_KEEP_DAYS")) + "\n")
    proc = _install(tmp_path, "--host", "other.example.org")
    assert proc.returncode == 0, proc.stderr
    assert "keeps NSKT_HOST=tafels.local" in proc.stderr
    second = settings.read_text()
    assert _env_file(settings) == _env_file_text(first), "an existing value is never changed; a missing one comes back"
    assert second.startswith(first.split("BACKUP_KEEP_DAYS")[0])
    assert (tmp_path / "etc/caddy/Caddyfile").read_text().count("import ") == 1


def _env_file_text(text: str) -> dict[str, str]:
    return dict(line.split("=", 1) for line in text.splitlines() if line and not line.startswith("#"))


def test_first_install_needs_a_host(tmp_path):
    proc = _install(tmp_path)
    assert proc.returncode == 2 and "--host" in proc.stderr


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze not installed")
def test_rendered_units_verify(tmp_path):
    assert _install(tmp_path, "--host", "tafels.local").returncode == 0
    units = sorted(str(p) for p in (tmp_path / "etc/systemd/system").glob("nskt*"))
    proc = subprocess.run(["systemd-analyze", "verify", *units], capture_output=True, text=True, timeout=60)
    problems = [line for line in proc.stderr.splitlines() if "nskt" in line and "caddy" not in line]
    assert proc.returncode == 0 and not problems, proc.stderr


def _command(process: str, **env: str) -> list[str]:
    proc = subprocess.run(["bash", str(DEPLOY / "run.sh"), process], env=_clean_env(NSKT_PRINT="1", **env),
                          capture_output=True, text=True, timeout=30, check=True)
    return _split(proc.stdout)


def _split(line: str) -> list[str]:
    """The words of a shell-quoted line (as bash reads them)."""
    out = subprocess.run(["bash", "-c", f'eval "set -- {line.strip()}"; printf "%s\\0" "$@"'],
                         capture_output=True, text=True, check=True).stdout
    return out.split("\0")[:-1]


def test_procfile_and_units_name_the_processes():
    procfile = dict(line.split(": ", 1) for line in (DEPLOY / "Procfile").read_text().splitlines()
                    if line and not line.startswith("#"))
    assert procfile == {name: f"deploy/run.sh {name}" for name in PROCESSES}
    for name in ("web", "events", "worker", "beat"):
        assert f"/deploy/run.sh {name}\n" in (DEPLOY / "systemd" / f"nskt-{name}.service").read_text()
    bad = subprocess.run(["bash", str(DEPLOY / "run.sh"), "nope"], capture_output=True, text=True)
    assert bad.returncode == 2


def test_gunicorn_command_loads_the_application():
    cmd = _command("web", NSKT_VENV=str(VENV_BIN.parent), TRUSTED_PROXIES="127.0.0.1,::1,10.0.0.0/24")
    assert cmd[:2] == [str(VENV_BIN / "gunicorn"), "nskt.wsgi"]
    assert cmd[cmd.index("--forwarded-allow-ips") + 1] == "127.0.0.1,::1,10.0.0.0/24"
    proc = subprocess.run([*cmd, "--check-config"], cwd=ROOT, env=_clean_env(DEBUG="1"), capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize("process", ["events", "worker", "beat"])
def test_uvicorn_and_celery_options_parse(process):
    """The options are parsed by the programs' own command-line parsers (click), without starting."""
    cmd = _command(process, NSKT_VENV=str(VENV_BIN.parent), NSKT_EVENTS_ADDR="127.0.0.1:8123", CELERY_CONCURRENCY="3")
    assert Path(cmd[0]).name in {"uvicorn", "celery"} and Path(cmd[0]).parent == VENV_BIN
    if process == "events":
        from uvicorn.main import main as uvicorn_command

        context = uvicorn_command.make_context("uvicorn", cmd[1:])
        assert context.params["app"] == "nskt.asgi:application"
        assert (context.params["host"], context.params["port"]) == ("127.0.0.1", 8123)
        assert context.params["proxy_headers"] is False
    else:
        assert cmd[1:3] == ["-A", "nskt"] and cmd[3] == process
        from celery.bin.base import CLIContext
        from celery.bin.beat import beat
        from celery.bin.worker import worker

        from nskt.celery import app

        command = {"worker": worker, "beat": beat}[process]
        context = command.make_context(process, cmd[4:], obj=CLIContext(app=app, no_color=True, workdir=None))
        assert context.params["loglevel"] == logging.INFO
        if process == "worker":
            assert context.params["concurrency"] == 3 and context.params["hostname"].startswith("nskt@")


def test_caddy_command():
    cmd = _command("caddy")
    assert cmd == ["caddy", "run", "--adapter", "caddyfile", "--config", str(DEPLOY / "Caddyfile")]


def _caddy_adapt(tmp_path, **env: str) -> dict:
    proc = subprocess.run(["caddy", "adapt", "--adapter", "caddyfile", "--config", str(DEPLOY / "Caddyfile")],
                          env=_clean_env(HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path), **env),
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@pytest.mark.skipif(shutil.which("caddy") is None, reason="caddy not installed (apt-get install caddy)")
@pytest.mark.parametrize("tls", ["internal", "admin@example.org"])
def test_caddyfile_validates(tmp_path, tls):
    env = _clean_env(HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path), NSKT_TLS=tls, NSKT_HOST="nskt.example.org",
                     NSKT_CADDY_ADMIN="off")
    for config in (DEPLOY / "Caddyfile", _importing(tmp_path)):
        proc = subprocess.run(["caddy", "validate", "--adapter", "caddyfile", "--config", str(config)],
                              env=env, capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        assert "Valid configuration" in proc.stdout + proc.stderr


def _importing(tmp_path: Path) -> Path:
    """/etc/caddy/Caddyfile as install.sh writes it: one import of the repository's."""
    path = tmp_path / "etc-Caddyfile"
    path.write_text(f"import {DEPLOY / 'Caddyfile'}\n")
    return path


@pytest.mark.skipif(shutil.which("caddy") is None, reason="caddy not installed (apt-get install caddy)")
def test_caddyfile_routes(tmp_path):
    config = _caddy_adapt(tmp_path, NSKT_TLS="admin@example.org", NSKT_HOST="nskt.example.org")
    text = json.dumps(config)
    server = config["apps"]["http"]["servers"]["srv0"]
    assert server["listen"] == [":443"]
    assert ["nskt.example.org"] == server["routes"][0]["match"][0]["host"]
    issuers = config["apps"]["tls"]["automation"]["policies"][0]["issuers"]
    assert {i["module"] for i in issuers} == {"acme", "zerossl"} and issuers[0]["email"] == "admin@example.org"
    assert '"flush_interval": -1' in text and '"dial": "127.0.0.1:8001"' in text and '"dial": "127.0.0.1:8000"' in text
    assert '"/events/*"' in text and '"/static/*"' in text and '"root": "/srv/nskt/static"' in text
    assert text.count('"encodings": {"gzip": {}, "zstd": {}}') == 2
    assert '"public, max-age=31536000, immutable"' in text
    internal = _caddy_adapt(tmp_path, NSKT_TLS="internal", NSKT_HTTPS_PORT="18443", NSKT_STATIC_ROOT="/x/static")
    assert internal["apps"]["tls"]["automation"]["policies"][0]["issuers"] == [{"module": "internal"}]
    assert internal["apps"]["http"]["servers"]["srv0"]["listen"] == [":18443"]
    assert '"root": "/x/static"' in json.dumps(internal)


@pytest.mark.services
@pytest.mark.django_db
def test_backup_dumps_and_rotates(tmp_path):
    from django.db import connection

    if shutil.which("pg_dump") is None:
        pytest.skip("pg_dump not installed")
    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    backups = tmp_path / "backups"
    backups.mkdir()
    old, recent, other = backups / "nskt-2000-01-01-000000.dump", backups / "nskt-recent.dump", backups / "keep.txt"
    for path, days in ((old, 10), (recent, 1), (other, 30)):
        path.write_bytes(b"x")
        os.utime(path, (path.stat().st_atime, path.stat().st_mtime - days * 86400))
    env = _clean_env(DATABASE_URL=url, BACKUP_DIR=str(backups), BACKUP_KEEP_DAYS="3",
                     PGPASSWORD=db.get("PASSWORD") or "")
    proc = subprocess.run(["bash", str(DEPLOY / "backup.sh")], env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    dumps = sorted(p.name for p in backups.iterdir())
    assert not old.exists() and recent.exists() and other.exists()
    new = [name for name in dumps if re.fullmatch(r"nskt-\d{4}-\d\d-\d\d-\d{6}\.dump", name)]
    assert len(new) == 1 and not any(name.endswith(".partial") for name in dumps)
    listing = subprocess.run(["pg_restore", "--list", str(backups / new[0])], capture_output=True, text=True)
    assert listing.returncode == 0 and "scoring_tournament" in listing.stdout
    refused = subprocess.run(["bash", str(DEPLOY / "backup.sh")], env={**env, "BACKUP_KEEP_DAYS": "0"},
                             capture_output=True, text=True)
    assert refused.returncode == 2


def test_serve_settings_file(tmp_path):
    """`make serve` writes its secret once, keeps it, and the real environment wins over the file."""
    serve = tmp_path / "serve"

    def environment(**extra: str) -> dict[str, str]:
        proc = subprocess.run(["bash", str(DEPLOY / "serve.sh"), "run", "env"], cwd=tmp_path,
                              env=_clean_env(SERVE_DIR=str(serve), NSKT_VENV=str(VENV_BIN.parent), **extra),
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        return dict(line.split("=", 1) for line in proc.stdout.splitlines() if "=" in line)

    first = environment(SERVE_HOST="tafels.local", DEBUG="1")
    assert stat.S_IMODE((serve / "serve.env").stat().st_mode) == 0o600
    assert first["DEBUG"] == "0" and first["NSKT_TLS"] == "internal" and len(first["SECRET_KEY"]) >= 50
    assert first["CSRF_TRUSTED_ORIGINS"] == "https://tafels.local:8443"
    assert first["ALLOWED_HOSTS"] == "tafels.local,localhost,127.0.0.1"
    assert first["STATIC_ROOT"] == first["NSKT_STATIC_ROOT"] == str(serve / "static")
    second = environment(DATABASE_URL="postgres://elsewhere/db", SERVE_PORT="443")
    assert second["SECRET_KEY"] == first["SECRET_KEY"] and second["DATABASE_URL"] == "postgres://elsewhere/db"
    assert second["CSRF_TRUSTED_ORIGINS"] == "https://localhost"


def _requirement_names(path: Path) -> set[str]:
    names = set()
    for line in path.read_text().splitlines():
        line = line.split("#")[0].strip()
        if line and not line.startswith("-"):
            assert re.fullmatch(r"[A-Za-z0-9._-]+(\[[a-z0-9,]+\])?==[0-9][0-9A-Za-z.]*", line), f"pin exactly: {line}"
            names.add(re.split(r"[\[=]", line)[0].lower())
    return names


def test_requirements_split():
    runtime = _requirement_names(ROOT / "requirements.txt")
    dev_text = (ROOT / "requirements-dev.txt").read_text()
    dev = _requirement_names(ROOT / "requirements-dev.txt")
    assert "-r requirements.txt" in dev_text.splitlines()
    assert not runtime & TEST_TOOLS, f"test tools in requirements.txt: {runtime & TEST_TOOLS}"
    assert TEST_TOOLS <= dev and not runtime & dev
    assert {"gunicorn", "uvicorn", "celery", "honcho"} <= runtime


def test_production_code_imports_no_dev_tool():
    """scoring/, nskt/ and engines/ import nothing that only requirements-dev.txt brings."""
    dev_only = _requirement_names(ROOT / "requirements-dev.txt")
    modules = {module for module, dists in metadata.packages_distributions().items()
               if {d.lower() for d in dists} & dev_only}
    found = []
    for package in ("scoring", "nskt", "engines"):
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                    [node.module] if isinstance(node, ast.ImportFrom) and node.module and not node.level else [])
                found += [f"{path.relative_to(ROOT)}: {n}" for n in names if n.split(".")[0] in modules]
    assert not found
    assert "pytest" in modules and "polib" in modules


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_targets_install_the_right_file():
    def dry(target: str, newer: str) -> str:
        return subprocess.run(["make", "-n", "-W", newer, target], cwd=ROOT, capture_output=True, text=True,
                              env=_clean_env()).stdout

    assert "install -r requirements-dev.txt" in dry("test", "requirements-dev.txt")
    assert "install -r requirements-dev.txt" in dry("lint", "requirements-dev.txt")
    serve = dry("serve", "requirements.txt")
    assert "install -r requirements.txt" in serve and "requirements-dev" not in serve and "deploy/serve.sh" in serve
    assert "deploy/install.sh" in dry("deploy", "requirements.txt")
    assert "requirements-dev" not in dry("run", "requirements.txt")
