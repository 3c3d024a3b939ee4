"""More than one machine (issue 25 item 6), run by ``.ci/multihost.sh``: two web processes (A and
B) and a Celery worker, each with its own empty local folders, share PostgreSQL, Redis and one
S3-compatible store (moto's server). Over HTTP only:

- a round pack started through A is built by the worker, stored in the bucket, and downloaded
  through B and through A: the same bytes, a PDF of the round's sheets;
- an organiser logged in through A (the session is in the shared database) uploads a CSV import
  through B; the worker imports it and A shows the report;
- no process's local folders hold a pack or import file, and nothing was written under their
  ``MEDIA_ROOT``.

Skipped unless the script's variables are set (``MULTIHOST_A_URL`` and the others below)."""
from __future__ import annotations

import io
import os
import re
import time
from pathlib import Path

import boto3
import pytest
import requests
from pypdf import PdfReader

A = os.environ.get("MULTIHOST_A_URL", "")
B = os.environ.get("MULTIHOST_B_URL", "")
pytestmark = pytest.mark.skipif(not (A and B), reason="run by .ci/multihost.sh (two web processes, a worker, moto)")

SLUG = os.environ.get("MULTIHOST_SLUG", "nskt-demo")
TIMEOUT = 60


def local_dirs() -> list[Path]:
    return [Path(p) for p in os.environ.get("MULTIHOST_LOCAL_DIRS", "").split(":") if p]


def bucket_keys() -> list[str]:
    s3 = boto3.client("s3", endpoint_url=os.environ["STORAGE_S3_ENDPOINT_URL"], region_name=os.environ.get("STORAGE_S3_REGION"))
    return sorted(o["Key"] for o in s3.list_objects_v2(Bucket=os.environ["STORAGE_S3_BUCKET"]).get("Contents", []))


def until(check, what: str):
    """Call ``check()`` until it returns something true (within :data:`TIMEOUT`)."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        result = check()
        if result:
            return result
        time.sleep(0.3)
    pytest.fail(f"{what}: not within {TIMEOUT} s")


def assert_no_local_files() -> None:
    for folder in local_dirs():
        assert folder.is_dir(), folder
        left = [p for p in folder.rglob("*") if p.is_file() and p.suffix in (".pdf", ".csv", ".json", ".part")]
        assert left == [], f"local files in {folder}: {left}"
        assert not any((folder / "media").iterdir()), f"{folder}/media is not empty"


def test_a_pack_built_by_the_worker_is_downloaded_through_either_web_process():
    start = requests.get(f"{A}/t/{SLUG}/round/1/pack.pdf", allow_redirects=False, timeout=120)
    assert start.status_code == 302, start.text[:500]  # queued to the worker: its progress page
    task_id = re.search(r"/pack/(\d+)/", start.headers["Location"]).group(1)
    download = f"/t/{SLUG}/round/1/pack/{task_id}/download.pdf"

    def built():
        r = requests.get(B + download, timeout=120)
        return r if r.status_code == 200 else None

    through_b = until(built, "the worker's pack downloaded through web B")
    through_a = requests.get(A + download, timeout=120)
    assert through_a.status_code == 200 and through_b.headers["Content-Type"] == "application/pdf"
    assert through_a.content == through_b.content and through_b.content.startswith(b"%PDF")
    pages = PdfReader(io.BytesIO(through_b.content)).pages
    assert len(pages) == 8  # the demo's 16 teams: 8 tables in round 1
    text = "\n".join(p.extract_text() for p in pages)
    for name in ("Draken", "Feniksen", "Jade", "Pagodes", "Anna de Vries"):  # the demo's teams and players
        assert name in text
    keys = bucket_keys()
    assert [k for k in keys if k.startswith("packs/")] and all(k.endswith(".pdf") for k in keys if k.startswith("packs/"))
    # pack.pdf through B serves the stored file now (no second build)
    again = requests.get(f"{B}/t/{SLUG}/round/1/pack.pdf", allow_redirects=False, timeout=120)
    assert again.status_code == 200 and again.content == through_a.content
    assert_no_local_files()


def login(session: requests.Session, base: str) -> None:
    username, password = os.environ.get("MULTIHOST_LOGIN", "organiser:nskt-organiser-demo").split(":", 1)
    page = session.get(f"{base}/accounts/login/", timeout=120)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
    r = session.post(f"{base}/accounts/login/", data={"csrfmiddlewaretoken": token, "username": username, "password": password},
                     headers={"Referer": f"{base}/accounts/login/"}, allow_redirects=False, timeout=120)
    assert r.status_code == 302, r.text[:500]


def test_an_import_uploaded_through_one_web_process_is_processed_by_the_worker():
    session = requests.Session()
    login(session, A)  # the session lives in the shared database: B knows it
    form = session.get(f"{B}/t/{SLUG}/teams/import/", timeout=120)
    assert form.status_code == 200
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.text).group(1)
    rows = "".join(f"Multihost {i:02d},Speler {i}a,Speler {i}b\n" for i in range(1, 9))
    r = session.post(f"{B}/t/{SLUG}/teams/import/", data={"csrfmiddlewaretoken": token},
                     files={"file": ("teams.csv", "name,player1,player2\n" + rows, "text/csv")},
                     headers={"Referer": f"{B}/t/{SLUG}/teams/import/"}, allow_redirects=False, timeout=120)
    assert r.status_code == 302 and "/import/" in r.headers["Location"], r.text[:500]
    status = r.headers["Location"]

    def finished():
        page = session.get(A + status if status.startswith("/") else status, timeout=120)
        found = re.search(r'data-status="(\w+)"', page.text)
        return page if found and found.group(1) in ("done", "failed") else None

    page = until(finished, "the worker's import, shown through web A")
    assert 'data-status="done"' in page.text and 'class="ok"' in page.text, page.text[:2000]
    teams = session.get(f"{B}/t/{SLUG}/teams/", timeout=120).text
    assert "Multihost 01" in teams and "Multihost 08" in teams
    assert [k for k in bucket_keys() if k.startswith("imports/")]  # its report, in the bucket
    assert_no_local_files()
