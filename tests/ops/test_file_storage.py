"""Stored files through Django's storage API (issue 25 items 5 and 6; :mod:`scoring.files`): round
packs and uploaded imports are saved, downloaded and cleaned the same way in the default local
folder and in an S3 bucket (moto's in-process mock of S3, ``mock_aws``), and with S3 nothing is
written under ``MEDIA_ROOT``. A long pack is built in parts joined into one PDF with its pages
numbered on."""
from __future__ import annotations

import io
import os
import subprocess
import sys
from datetime import timedelta

import boto3
import pytest
from django.conf import settings as django_settings
from django.urls import reverse
from django.utils import timezone, translation
from moto import mock_aws
from pypdf import PdfReader

from scoring import files, tasks
from scoring.models import Round, TaskState
from scoring.printing import sheets
from scoring.results import sheet
from tests.factories import TAI_PAN_HAND, MatchFactory, RoundFactory, TeamFactory, TournamentFactory, staff

pytestmark = pytest.mark.django_db

BUCKET = "nskt-test-files"


@pytest.fixture(params=["local", "s3"])
def storage(request, settings, tmp_path, monkeypatch):
    """The file storage under test: ``"local"`` (the default, a folder under ``MEDIA_ROOT``) or
    ``"s3"`` (django-storages on moto's mocked S3, ``MEDIA_ROOT`` an empty folder that must stay
    empty)."""
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.LANGUAGE_CODE = "en"
    if request.param == "local":
        with translation.override("en"):
            yield "local"
        return
    for name, value in (("AWS_ACCESS_KEY_ID", "testing"), ("AWS_SECRET_ACCESS_KEY", "testing"),
                        ("AWS_DEFAULT_REGION", "us-east-1")):
        monkeypatch.setenv(name, value)
    with mock_aws():
        boto3.client("s3", region_name="us-east-1").create_bucket(Bucket=BUCKET)
        settings.STORAGES = {**settings.STORAGES, "default": {
            "BACKEND": "storages.backends.s3.S3Storage",
            "OPTIONS": {"bucket_name": BUCKET, "region_name": "us-east-1", "default_acl": None}}}
        with translation.override("en"):
            yield "s3"
        assert not (tmp_path / "media").exists() or not any((tmp_path / "media").rglob("*"))  # nothing local


def bucket_keys() -> list[str]:
    return sorted(o["Key"] for o in boto3.client("s3", region_name="us-east-1").list_objects_v2(Bucket=BUCKET).get("Contents", []))


@pytest.fixture
def rnd():
    t = TournamentFactory(name="Storage Cup", slug="storage-cup")
    teams = [TeamFactory(tournament=t, name=f"Team {c}") for c in "ABCDEFGHIJ"]
    r = RoundFactory(tournament=t, number=1, status=Round.Status.PUBLISHED)
    for i in range(5):
        MatchFactory(round=r, table=i + 1, team_ns=teams[2 * i], team_ew=teams[2 * i + 1])
    return r


def body(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def text_of(data: bytes) -> str:
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(data)).pages)


def test_a_pack_is_stored_and_downloaded_through_the_storage(storage, rnd, client):
    name = tasks.build_round_pack.delay(rnd.pk).get()
    assert name.startswith("packs/round_pack-") and name.endswith(".pdf") and files.exists(name)
    if storage == "s3":
        assert bucket_keys() == [name]
    else:
        assert (django_settings.MEDIA_ROOT / name).is_file()
    state = TaskState.objects.get(key=tasks.round_pack_key(rnd))
    got = client.get(reverse("scoring:round_pack_download", args=["storage-cup", 1, state.pk]))
    assert got.status_code == 200 and got["Content-Type"] == "application/pdf"
    assert got["Content-Disposition"] == 'inline; filename="storage-cup-round-1.pdf"'
    data = body(got)
    assert data == files.read(name) and data.startswith(b"%PDF")
    assert "Team J" in text_of(data)
    assert body(client.get(reverse("scoring:round_pack_pdf", args=["storage-cup", 1]))) == data


def test_a_pack_whose_file_is_gone_is_built_again(storage, rnd, client):
    """The cleaning (or a lost bucket) removed the file: the download answers 404 and pack.pdf
    builds it again instead of serving nothing."""
    name = tasks.build_round_pack.delay(rnd.pk).get()
    state = TaskState.objects.get(key=tasks.round_pack_key(rnd))
    files.delete(name)
    assert client.get(reverse("scoring:round_pack_download", args=["storage-cup", 1, state.pk])).status_code == 404
    again = client.get(reverse("scoring:round_pack_pdf", args=["storage-cup", 1]), follow=True)
    state.refresh_from_db()
    assert state.status == "done" and state.result_path != name and files.exists(state.result_path)
    assert again.status_code == 200


def test_build_again_deletes_the_file_it_replaces(storage, rnd, client):
    client.force_login(staff(rnd.tournament)["referee"])
    build = reverse("scoring:round_pack_build", args=["storage-cup", 1])
    client.post(build)
    first = TaskState.objects.get().result_path
    client.post(build)
    second = TaskState.objects.get().result_path
    assert second != first and files.exists(second) and not files.exists(first)
    assert files.listing(files.PACKS) == [second]


def test_cleaning_superseded_expired_and_orphaned_files(storage, rnd):
    first = tasks.build_round_pack.delay(rnd.pk).get()
    match = rnd.matches.get(table=1)
    sheet.add_record(match, TAI_PAN_HAND, staff(rnd.tournament)["referee"], expected_version=match.version)
    current = tasks.build_round_pack.delay(rnd.pk).get()  # a new key: the first pack is superseded
    stray = files.save("packs/left-behind.pdf", b"%PDF- a build that died before recording it")
    now = timezone.now()
    # within the grace nothing goes (a download of the old pack may be under way)
    assert tasks.clean_files(now) == {"expired": 0, "superseded": 0, "orphans": 0}
    assert files.exists(first) and files.exists(stray)
    later = now + timedelta(minutes=django_settings.FILES_GRACE_MINUTES + 1)
    assert tasks.clean_files(later) == {"expired": 0, "superseded": 1, "orphans": 1}
    assert not files.exists(first) and not files.exists(stray) and files.exists(current)
    assert list(TaskState.objects.values_list("result_path", flat=True)) == [current]
    # the current pack goes when nobody touched it for FILES_KEEP_DAYS days
    assert tasks.clean_files(now + timedelta(days=django_settings.FILES_KEEP_DAYS - 1))["expired"] == 0
    assert tasks.clean_files(now + timedelta(days=django_settings.FILES_KEEP_DAYS + 1))["expired"] == 1
    assert not files.exists(current) and not TaskState.objects.exists()
    assert files.listing(files.PACKS) == []


def test_a_pack_current_in_another_language_is_kept(storage, rnd):
    """Both languages' packs of an unchanged round are current: cleaning keeps both."""
    english = tasks.build_round_pack.delay(rnd.pk, language="en").get()
    dutch = tasks.build_round_pack.delay(rnd.pk, language="nl").get()
    later = timezone.now() + timedelta(hours=2)
    assert tasks.clean_files(later)["superseded"] == 0
    assert files.exists(english) and files.exists(dutch)


def test_the_beat_task_and_the_command_clean(storage, rnd, settings):
    assert settings.CELERY_BEAT_SCHEDULE["clean-stored-files"]["task"] == tasks.clean_stored_files.name
    stray = files.save("imports/left-behind.csv", b"name\n")
    TaskState.objects.create(key="round_pack:999999:0", kind="round_pack", status="done", result_path="packs/gone.pdf")
    TaskState.objects.filter(key="round_pack:999999:0").update(updated_at=timezone.now() - timedelta(hours=1))
    assert tasks.clean_stored_files.delay().get() == {"expired": 0, "superseded": 1, "orphans": 0}  # its round is gone
    assert files.exists(stray)  # new: within the grace
    from django.core.management import call_command

    out = io.StringIO()
    settings.FILES_GRACE_MINUTES = -1
    call_command("clean_files", stdout=out)
    assert out.getvalue().strip() == "Deleted: 0 expired, 0 superseded, 1 orphaned."
    assert not files.exists(stray)


CSV = "name,player1,player2\n" + "".join(f"Team {i:03d},Ann {i},Ben {i}\n" for i in range(1, 13))


def test_an_import_goes_through_the_storage(storage, rnd):
    state = tasks.start_import(rnd.tournament, "teams", CSV.encode())
    state.refresh_from_db()
    assert state.status == "done" and state.result_path.startswith("imports/") and state.result_path.endswith(".json")
    report = tasks.import_report(state)
    assert report is not None and report.ok and report.created == 12
    assert rnd.tournament.teams.filter(name__startswith="Team 0").count() == 12
    assert files.listing(files.IMPORTS) == [state.result_path]  # the uploaded CSV is gone once imported
    if storage == "s3":
        assert bucket_keys() == [state.result_path]


def test_an_import_uploaded_through_the_page(storage, rnd, client, settings):
    settings.IMPORT_INLINE_ROWS = 5
    client.force_login(staff(rnd.tournament)["organiser"])
    upload = io.BytesIO(CSV.encode())
    upload.name = "teams.csv"
    r = client.post(reverse("scoring:teams_import", args=["storage-cup"]), {"file": upload}, follow=True)
    assert r.status_code == 200 and "12" in r.content.decode()
    state = TaskState.objects.get(kind="import")
    assert state.status == "done" and tasks.import_report(state).created == 12


def test_a_long_pack_is_built_in_parts_numbered_on(rnd):
    """Five sheets in parts of two: one PDF of five pages, titled, each page's footer numbering
    on from the part before."""
    with translation.override("en"):
        out = io.BytesIO()
        seen = []
        pages = sheets.write_round_pack(rnd, out, part_sheets=2, progress=lambda done, total: seen.append((done, total)))
    reader = PdfReader(io.BytesIO(out.getvalue()))
    assert pages == len(reader.pages) == 5
    assert reader.metadata.title == "Storage Cup - round 1"
    for number, page in enumerate(reader.pages, 1):
        assert f"Storage Cup - round 1 · {number}" in page.extract_text()
    assert seen == [(i, 5) for i in range(1, 6)]
    assert "Team A" in reader.pages[0].extract_text() and "Team J" in reader.pages[4].extract_text()


def test_the_settings_choose_s3_from_the_environment(tmp_path):
    """``STORAGE_S3_BUCKET`` (with its endpoint, region, prefix) makes the default storage S3;
    without it the storage is the local folder under ``MEDIA_ROOT``."""
    code = ("import django; django.setup(); from django.core.files.storage import default_storage as s; "
            "print(s.__class__.__name__, getattr(s, 'bucket_name', '-'), getattr(s, 'endpoint_url', '-'), s.location)")
    base = {k: v for k, v in os.environ.items() if not k.startswith(("STORAGE_", "AWS_"))}
    base.update(DJANGO_SETTINGS_MODULE="nskt.settings", DEBUG="1", MEDIA_ROOT=str(tmp_path))
    local = subprocess.run([sys.executable, "-c", code], env=base, capture_output=True, text=True, check=True, cwd=django_settings.BASE_DIR)
    assert local.stdout.split() == ["FileSystemStorage", "-", "-", str(tmp_path)]
    s3 = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=django_settings.BASE_DIR,
                        env=dict(base, STORAGE_S3_BUCKET="packs-bucket", STORAGE_S3_ENDPOINT_URL="http://127.0.0.1:9000",
                                 STORAGE_S3_REGION="eu-west-1", STORAGE_S3_PREFIX="nskt"))
    assert s3.stdout.split() == ["S3Storage", "packs-bucket", "http://127.0.0.1:9000", "nskt"]
