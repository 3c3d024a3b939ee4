"""The background round pack (Celery, eager without REDIS_URL; :mod:`scoring.tasks`): PDF written
to the file storage (:mod:`scoring.files`, here the default folder), TaskState progress at most once
a second, idempotent by key, retried on failure, polled by the
status page; for rounds of matches and rounds of tables alike."""
import io

import pytest
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from scoring import files, tasks
from scoring.models import Round, TaskState
from scoring.printing import sheets
from scoring.results import sheet
from tests.factories import (
    DEALS,
    TAI_PAN_HAND,
    MatchFactory,
    RoundFactory,
    TeamFactory,
    TournamentFactory,
    staff,
    table_round,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def env(settings, tmp_path):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


@pytest.fixture
def rnd():
    t = TournamentFactory(name="Pack Cup", slug="pack")
    teams = [TeamFactory(tournament=t, name=f"Team {c}") for c in "ABCDEF"]
    r = RoundFactory(tournament=t, number=1, status=Round.Status.PUBLISHED)
    for i in range(3):
        MatchFactory(round=r, table=i + 1, team_ns=teams[2 * i], team_ew=teams[2 * i + 1])
    return r


def pdf_text(name: str) -> str:
    """The text of the stored PDF ``name``."""
    return pack_text(files.read(name))


def body(response) -> bytes:
    """The bytes of a (streamed) response."""
    return b"".join(response.streaming_content) if response.streaming else response.content


def fake_pack(calls: list, data: bytes = b"%PDF-"):
    """A stand-in for :func:`sheets.write_round_pack` that records its calls and writes ``data``."""
    def write(rnd, out, **kwargs):
        calls.append(1)
        out.write(data)
        return 1
    return write


def test_eager_task_builds_pdf_and_state_done(rnd, settings):
    result = tasks.build_round_pack.delay(rnd.pk)
    relative = result.get()
    state = TaskState.objects.get(key=tasks.round_pack_key(rnd))
    assert state.kind == "round_pack"
    assert state.status == "done" and state.progress == 3 and state.total == 3
    assert state.result_path == relative and relative.startswith("packs/")
    assert (settings.MEDIA_ROOT / relative).is_file()  # the default storage: a folder under MEDIA_ROOT
    text = pdf_text(relative)
    for name in ("Team A", "Team B", "Team C", "Team D", "Team E", "Team F"):
        assert name in text


def test_a_round_of_tables_is_packed_the_same_way(settings):
    rnd, tables = table_round("taiwanese", tables=2)
    relative = tasks.build_round_pack.delay(rnd.pk).get()
    state = TaskState.objects.get(key=tasks.round_pack_key(rnd))
    assert (state.status, state.progress, state.total) == ("done", 2, 2)
    text = pdf_text(relative)
    for table in tables:
        for seat in table.seats.select_related("player"):
            assert seat.player.name in text
    key = tasks.round_pack_key(rnd)
    sheet.add_record(tables[0], DEALS["taiwanese"][0], staff(rnd.tournament)["referee"], expected_version=tables[0].version)
    assert tasks.round_pack_key(rnd) != key  # a new deal: a new pack


class FakeClock:
    """A monotonic clock that moves on ``step`` seconds at every reading."""

    def __init__(self, step: float):
        self.now, self.step = 100.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def spy_progress(monkeypatch, tables: int) -> tuple[list, list]:
    """Run the pack with a fake ``write_round_pack`` reporting ``tables`` tables; returns the
    progress each table saw in the database and every progress write."""
    seen, writes = [], []
    real_update = tasks.update_state

    def update(state_id, **fields):
        if "progress" in fields and fields.get("status") in (None, "running") and fields["progress"]:
            writes.append(fields["progress"])
        real_update(state_id, **fields)

    def write(r, out, *, base_url="", progress=None, **kwargs):
        for done in range(1, tables + 1):
            progress(done, tables)
            state = TaskState.objects.get(key=tasks.round_pack_key(r))
            seen.append((state.status, state.progress, state.total))
        out.write(b"%PDF-")
        return tables

    monkeypatch.setattr(tasks, "update_state", update)
    monkeypatch.setattr(sheets, "write_round_pack", write)
    return seen, writes


def test_progress_saved_per_table_when_each_takes_a_second(rnd, monkeypatch):
    monkeypatch.setattr(tasks.Throttle, "default_clock", FakeClock(1.0))
    seen, writes = spy_progress(monkeypatch, 3)
    tasks.build_round_pack.delay(rnd.pk)
    assert seen == [("running", 1, 3), ("running", 2, 3), ("running", 3, 3)]
    assert writes == [1, 2, 3]
    assert TaskState.objects.get(key=tasks.round_pack_key(rnd)).status == "done"


def test_progress_written_at_most_once_a_second(rnd, monkeypatch):
    """1,500 tables at 1/8 s each (187.5 s of fake time): the progress is written once a second
    at most, so 188 times (at table 1, then every 8th table), plus the last table (a finished
    step is always written), never 1,500."""
    monkeypatch.setattr(tasks.Throttle, "default_clock", FakeClock(0.125))
    seen, writes = spy_progress(monkeypatch, 1500)
    tasks.build_round_pack.delay(rnd.pk)
    assert len(writes) == 189
    assert writes[:3] == [1, 9, 17] and writes[-2:] == [1497, 1500]
    assert seen[-1] == ("running", 1500, 1500)
    state = TaskState.objects.get(key=tasks.round_pack_key(rnd))
    assert (state.status, state.progress, state.total) == ("done", 3, 3)  # done: the round's own tables


def test_idempotent_by_key(rnd, monkeypatch):
    tasks.build_round_pack.delay(rnd.pk)
    calls = []
    monkeypatch.setattr(sheets, "write_round_pack", fake_pack(calls))
    tasks.build_round_pack.delay(rnd.pk)
    assert calls == []  # the same round state is not built twice
    assert TaskState.objects.count() == 1
    # a change to a match gives a new key and a new build
    match = rnd.matches.get(table=1)
    sheet.add_record(match, TAI_PAN_HAND, staff(rnd.tournament)["referee"], expected_version=match.version)
    tasks.build_round_pack.delay(rnd.pk)
    assert calls == [1]
    assert TaskState.objects.count() == 2


def test_retried_on_failure(rnd, monkeypatch):
    real = sheets.write_round_pack
    attempts = []

    def flaky(*args, **kwargs):
        attempts.append(1)
        if len(attempts) == 1:
            raise OSError("disk full")
        return real(*args, **kwargs)

    monkeypatch.setattr(sheets, "write_round_pack", flaky)
    # as a worker runs it (eager apply without propagating: Celery's retry loop)
    result = tasks.run_round_pack_eagerly(rnd.pk)
    assert result.successful()
    assert len(attempts) == 2
    assert TaskState.objects.get(key=tasks.round_pack_key(rnd)).status == "done"


def test_fails_after_max_retries(rnd, monkeypatch):
    attempts = []

    def broken(*args, **kwargs):
        attempts.append(1)
        raise OSError("disk full")

    monkeypatch.setattr(sheets, "write_round_pack", broken)
    result = tasks.run_round_pack_eagerly(rnd.pk)
    assert result.failed()
    assert len(attempts) == 1 + tasks.build_round_pack.max_retries == 4
    state = TaskState.objects.get(key=tasks.round_pack_key(rnd))
    assert state.status == "failed" and "disk full" in state.error


def test_failure_shown_on_status_page(client, rnd, monkeypatch):
    def broken(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(sheets, "write_round_pack", broken)
    client.force_login(staff(rnd.tournament)["referee"])
    r = client.post(reverse("scoring:round_pack_build", args=["pack", 1]), follow=True)
    assert r.status_code == 200
    assert "Building the PDF failed" in r.content.decode() and "disk full" in r.content.decode()


def test_build_view_status_page_and_download(client, rnd):
    people = staff(rnd.tournament)
    build = reverse("scoring:round_pack_build", args=["pack", 1])
    assert client.post(build).status_code == 302  # anonymous: to the login page
    client.force_login(people["outsider"])
    assert client.post(build).status_code == 403  # no role in this tournament
    assert not TaskState.objects.exists()
    client.force_login(people["referee"])
    r = client.post(build)
    assert r.status_code == 302
    state = TaskState.objects.get()
    assert r["Location"] == reverse("scoring:round_pack_status", args=["pack", 1, state.pk])
    page = client.get(r["Location"])
    html = page.content.decode()
    assert page.status_code == 200 and "Download the PDF" in html
    download = reverse("scoring:round_pack_download", args=["pack", 1, state.pk])
    assert download in html
    got = client.get(download)
    assert got.status_code == 200 and got["Content-Type"] == "application/pdf"
    assert body(got).startswith(b"%PDF")
    # a second click reuses the finished pack
    client.post(build)
    assert TaskState.objects.count() == 1


def test_a_draft_round_pack_is_not_built_for_referees(client):
    """Draft rounds are hidden from referees everywhere, their round pack included."""
    rnd, _ = table_round("sichuan", tables=1, status=Round.Status.DRAFT)
    people = staff(rnd.tournament)
    build = reverse("scoring:round_pack_build", args=[rnd.tournament.slug, 1])
    client.force_login(people["referee"])
    assert client.post(build).status_code == 404
    assert not TaskState.objects.exists()
    client.force_login(people["organiser"])
    assert client.post(build).status_code == 302
    assert TaskState.objects.get().status == "done"


def test_status_partial_polls_while_running(client, rnd):
    state = TaskState.objects.create(key=tasks.round_pack_key(rnd), kind="round_pack", status="running", progress=1, total=3)
    url = reverse("scoring:round_pack_status", args=["pack", 1, state.pk])
    r = client.get(url, HTTP_HX_REQUEST="true")
    html = r.content.decode()
    assert 'hx-trigger="every 1s"' in html and "1 of 3" in html
    assert "<html" not in html  # only the partial for htmx
    TaskState.objects.filter(pk=state.pk).update(status="failed", error="boom")
    html = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert "every 1s" not in html and "boom" in html


def test_status_of_other_round_is_404(client, rnd):
    other = TaskState.objects.create(key="round_pack:999999:abc", kind="round_pack")
    assert client.get(reverse("scoring:round_pack_status", args=["pack", 1, other.pk])).status_code == 404


# --------------------------------------------------------------------------- a stale pack (issue 12)


def pack_text(data: bytes) -> str:
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(data)).pages)


def test_a_renamed_team_gets_a_new_pack_for_everyone(client, rnd):
    """The tester's steps: the organiser opens pack.pdf, renames a team on its edit page, opens
    pack.pdf again: the new name, for the organiser and for anonymous visitors alike."""
    url = reverse("scoring:round_pack_pdf", args=["pack", 1])
    organiser = staff(rnd.tournament)["organiser"]
    client.force_login(organiser)
    before = client.get(url)
    assert before.status_code == 200 and "Team A" in pack_text(body(before))
    team = rnd.tournament.teams.get(name="Team A")
    edit = client.post(reverse("scoring:team_edit", args=["pack", team.pk]), {
        "name": "Renamed Rovers", "affiliation": "", "first_player_name": team.first_player.name,
        "second_player_name": team.second_player.name, "seed": "", "joined_round": "1", "withdrawn_after_round": ""})
    assert edit.status_code == 302
    after = client.get(url)
    data = body(after)
    assert after.status_code == 200 and data != files.read(TaskState.objects.earliest("pk").result_path)
    text = pack_text(data)
    assert "Renamed Rovers" in text and "Team A" not in text
    client.logout()
    public = pack_text(body(client.get(url)))
    assert "Renamed Rovers" in public and "Team A" not in public
    assert TaskState.objects.filter(kind="round_pack", status="done").count() == 2  # the old state, the new one


def test_the_key_covers_what_the_pack_prints(rnd):
    """A renamed player, a new affiliation, another venue or tournament name, the other language:
    each one is printed, so each one gives a new key; the same state gives the same key."""
    key = tasks.round_pack_key(rnd)
    assert tasks.round_pack_key(Round.objects.select_related("tournament").get(pk=rnd.pk)) == key
    team = rnd.tournament.teams.get(name="Team C")
    player = team.first_player
    player.name = "Someone Else"
    player.save()
    renamed = tasks.round_pack_key(rnd)
    assert renamed != key
    team.affiliation = "Club Noord"
    team.save()
    affiliated = tasks.round_pack_key(rnd)
    assert affiliated != renamed
    rnd.tournament.venue = "Utrecht"
    assert tasks.round_pack_key(rnd) != affiliated
    rnd.tournament.name = "Other Cup"
    assert tasks.round_pack_key(rnd) not in (key, renamed, affiliated)
    assert tasks.round_pack_key(rnd, "nl") != tasks.round_pack_key(rnd, "en")


def test_a_renamed_player_at_a_four_player_table_gets_a_new_pack(settings):
    rnd, tables = table_round("taiwanese", tables=2)
    first = tasks.build_round_pack.delay(rnd.pk).get()
    seat = tables[1].seats.select_related("player").get(seat=2)
    assert seat.player.name in pdf_text(first)
    seat.player.name = "Renamed Player"
    seat.player.save()
    second = tasks.build_round_pack.delay(rnd.pk).get()
    assert second != first and "Renamed Player" in pdf_text(second)


def test_an_unchanged_round_serves_the_stored_pack(client, rnd, monkeypatch):
    """Nothing printed changed: pack.pdf serves the same stored file, without building it again."""
    real, calls = sheets.write_round_pack, []
    monkeypatch.setattr(sheets, "write_round_pack", lambda *a, **k: calls.append(1) or real(*a, **k))
    url = reverse("scoring:round_pack_pdf", args=["pack", 1])
    first = body(client.get(url))
    client.force_login(staff(rnd.tournament)["organiser"])
    second = body(client.get(url))
    assert first == second and first.startswith(b"%PDF") and calls == [1]
    assert TaskState.objects.count() == 1


def test_build_again_builds_anew(client, rnd, monkeypatch, settings):
    """"Build again" on an unchanged round builds the pack once more (same key, same state, a
    new file; the old file is deleted) and shows the button on the finished pack's page."""
    real, calls = sheets.write_round_pack, []
    monkeypatch.setattr(sheets, "write_round_pack", lambda *a, **k: calls.append(1) or real(*a, **k))
    client.force_login(staff(rnd.tournament)["referee"])
    build = reverse("scoring:round_pack_build", args=["pack", 1])
    page = client.post(build, follow=True).content.decode()
    assert calls == [1] and "Download the PDF" in page and "Build again" in page
    state = TaskState.objects.get()
    old = state.result_path
    client.post(build)
    assert calls == [1, 1]
    state.refresh_from_db()
    assert state.status == "done" and TaskState.objects.count() == 1
    assert state.result_path != old and not files.exists(old)  # a new file; the replaced one is gone
    assert "Team A" in pdf_text(state.result_path)
    assert files.listing(files.PACKS) == [state.result_path]
    assert body(client.get(reverse("scoring:round_pack_pdf", args=["pack", 1]))) == files.read(state.result_path)


def test_build_again_leaves_a_running_build_alone(rnd, monkeypatch):
    state = TaskState.objects.create(key=tasks.round_pack_key(rnd), kind="round_pack", status="running", progress=1, total=3)
    calls = []
    monkeypatch.setattr(sheets, "write_round_pack", fake_pack(calls))
    assert tasks.start_round_pack(rnd, rebuild=True).pk == state.pk
    assert calls == [] and TaskState.objects.get(pk=state.pk).status == "running"
