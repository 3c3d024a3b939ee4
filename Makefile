# Two commands do all set-up on a fresh machine (README): `make run` and `make test`.
# `make run` binds to HOST:PORT (default 127.0.0.1:8000): `PORT=8001 make run` or `make run PORT=8001`.
# `make run`, `make serve` and `make deploy` install only what runs (requirements.txt); `make test`,
# `make lint` and `make test-services` add the test and lint tools (requirements-dev.txt).
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
STAMP := $(VENV)/.installed
STAMP_DEV := $(VENV)/.installed-dev
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run serve deploy test test-services install install-dev env migrate demo lint bench bench-readme messages screenshots clean

$(PY):
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "Python 3.11 is needed ($(PYTHON) not found)"; exit 1; }
	$(PYTHON) -m venv $(VENV)

$(STAMP): requirements.txt | $(PY)
	$(PIP) install --upgrade pip >/dev/null
	$(PIP) install -r requirements.txt
	touch $(STAMP)

$(STAMP_DEV): requirements-dev.txt $(STAMP)
	$(PIP) install -r requirements-dev.txt
	touch $(STAMP_DEV)

install: $(STAMP)

install-dev: $(STAMP_DEV)

## The development settings file (ignored by git), written once: DEBUG on and a generated secret
## key, so that `.venv/bin/python manage.py ...` works with nothing else set. Never overwritten;
## the real environment wins over it, and it is ignored whenever DEBUG is off (nskt/settings.py).
.env: | $(PY)
	@$(PY) -c "import secrets; open('.env', 'x').write('# Development settings written by make (never used with DEBUG off; the real environment wins).\nDEBUG=1\nSECRET_KEY=' + secrets.token_urlsafe(50) + '\n')"
	@echo "Wrote .env (DEBUG=1 and a generated SECRET_KEY) for development."

env: .env

migrate: install .env
	DEBUG=1 $(PY) manage.py migrate --noinput

## The demo tournament and its logins (printed), unless it exists.
demo: migrate
	DEBUG=1 $(PY) manage.py load_demo --if-empty

## Server with a demo tournament on the embedded default (SQLite, eager Celery).
run: demo
	DEBUG=1 $(PY) manage.py runserver $(HOST):$(PORT)

## The whole production stack on this machine, for a venue laptop (docs/operations.md, "Venue laptop"):
## Caddy with its own certificate on https://SERVE_HOST:SERVE_PORT/ (localhost:8443), gunicorn,
## uvicorn, a Celery worker and beat (deploy/Procfile under honcho); PostgreSQL and Redis must run.
serve: install
	bash deploy/serve.sh

## Production on this Debian server, as root (docs/operations.md, "Deploy"):
## `make deploy NSKT_HOST=nskt.example.org NSKT_TLS=admin@example.org`. It makes its own virtualenv.
deploy:
	bash deploy/install.sh

## The whole test suite on the embedded default.
test: install-dev
	$(PY) -m pytest -q -p no:cacheprovider

## The same suite against PostgreSQL, Redis and a real Celery worker (see README).
test-services: install-dev
	bash .ci/services.sh

## ruff, and the layer and cycle contracts of pyproject.toml (import-linter).
lint: install-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports

## Every benchmarks/bench_*.py, each figure next to its baseline from the same run (benchmarks/README.md);
## the output is also kept in var/bench/last-run.txt.
bench: install-dev
	@mkdir -p var/bench
	@BENCH_RUN=$$(date -u +%Y-%m-%dT%H:%M:%SZ) bash -o pipefail -c 'echo "make bench run $$BENCH_RUN"; for f in benchmarks/bench_*.py; do echo "== $$f"; $(PY) $$f || exit 1; done 2>&1 | tee var/bench/last-run.txt'

## Copy the tables of the last `make bench` run (var/bench/last-run.txt) into README.md's performance section.
bench-readme:
	$(PY) benchmarks/readme_tables.py var/bench/last-run.txt

## The Dutch and English catalogues from the source, compiled. The project's makemessages
## (scoring/management/commands/makemessages.py) does not wrap, names files without line numbers
## and never fuzzy-matches, so on an unchanged tree only the POT-Creation-Date lines change.
messages: install-dev
	DEBUG=1 $(PY) manage.py makemessages -l nl -l en --no-obsolete
	DEBUG=1 $(PY) manage.py compilemessages --ignore=.venv

## The handbook's and the README's screenshots refreshed in docs/ (tests/browser/test_handbook_screenshots.py
## with SCREENSHOTS_DIR=docs; needs Chromium). Only pictures whose pixels changed are rewritten; a plain
## test run writes them to a temporary folder instead.
screenshots: install-dev
	SCREENSHOTS_DIR=docs REQUIRE_BROWSER=1 $(PY) -m pytest -q -p no:cacheprovider tests/browser/test_handbook_screenshots.py

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles var .pytest_cache
