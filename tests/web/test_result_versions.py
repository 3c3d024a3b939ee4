"""Every web write on a result carries the version of the page it was built from (issue 5: no lost
updates). A missing or forged version is refused exactly like a stale one, and nothing changes:
entering, editing and deleting records, ending at the time limit, resuming, confirming,
reopening and restoring, on Tai Pan matches and four-player (Taiwanese) tables alike.

Changed on purpose (docs/results.md): a refused version answers 409 (was 400 on tables) with the
"changed by someone else, reload" message; the table is ended at the time limit before it is
confirmed (only a finished result can be confirmed)."""
import pytest
from django.urls import reverse
from django.utils import translation

from scoring.kinds import kind_of
from scoring.models import AuditEntry, Confirmation
from scoring.results import sheet
from tests.factories import staff, table_round, taipan_round
from tests.web.entry_data import T01, hand_data, tw_post

pytestmark = pytest.mark.django_db

BAD_VERSIONS = [None, "", "abc", "-1", " ", "1.0", "²"]
#: What a page says when the result changed since it was built (the old tables said "changed by
#: someone else", the old match page "This match changed, reload.").
STALE = "This result changed, reload."

#: Per kind: URL names, the POST of a first record, the POST of another one, the record's key
#: that tells them apart and its value in the first one.
KINDS = {
    "match": {"enter": "match_enter", "edit": "hand_edit", "delete": "hand_delete", "end": "match_end", "resume": "match_resume",
              "confirm": "match_confirm", "reopen": "match_reopen", "restore": "audit_restore", "detail": "match_detail",
              "first": hand_data(None, calls={"N": "tai_pan"}, first_out="N", ns=75), "other": hand_data(None, first_out="E", ns=50),
              "key": "first_out", "value": "N"},
    "table": {"enter": "table_enter", "edit": "deal_edit", "delete": "deal_delete", "end": "table_end", "resume": "table_resume",
              "confirm": "table_confirm", "reopen": "table_reopen", "restore": "table_audit_restore", "detail": "table_detail",
              "first": tw_post("S", **T01), "other": tw_post("draw"), "key": "seat", "value": "S"},
}


@pytest.fixture(autouse=True)
def _english(settings):
    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


@pytest.fixture(params=list(KINDS))
def result(request, client):
    """A match or a Taiwanese table whose first record the referee entered through the page."""
    kind = KINDS[request.param]
    if request.param == "match":
        rnd, (container,) = taipan_round()
    else:
        rnd, (container,) = table_round("taiwanese")
    people = staff(rnd.tournament)
    client.force_login(people["referee"])
    assert client.post(url(kind["enter"], container), {**kind["first"], "version": 0}).status_code == 302
    container.refresh_from_db()
    return {**kind, "container": container, "people": people}


def url(name, container, *extra):
    return reverse(f"scoring:{name}", args=[container.round.tournament.slug, container.pk, *extra])


def with_version(data, version):
    data = {k: v for k, v in data.items() if k != "version"}
    if version is not None:
        data["version"] = version
    return data


def records(container):
    return kind_of(container).records(container)


def refused(response):
    """409 with the one conflict banner (and no "correct what is marked" banner: nothing is
    marked), and its "Reload" (or "Discard my input") link leads to a page that answers a GET."""
    html = response.content.decode()
    if response.status_code != 409 or '<div class="stale"' not in html or 'id="entry-errors"' in html:
        return False
    reload_url = html.split('<div class="stale"', 1)[1].split('href="', 1)[1].split('"', 1)[0]
    return response.client.get(reload_url).status_code == 200


@pytest.mark.parametrize("version", BAD_VERSIONS + ["0"])  # "0": valid but stale (a record was entered since)
def test_enter_without_a_valid_version_is_refused(client, result, version):
    c = result["container"]
    r = client.post(url(result["enter"], c), with_version(result["other"], version))
    assert refused(r)
    c.refresh_from_db()
    assert len(records(c)) == 1 and c.version == 1


@pytest.mark.parametrize("version", BAD_VERSIONS + ["0"])
def test_edit_and_delete_without_a_valid_version_are_refused(client, result, version):
    c = result["container"]
    before = kind_of(c).totals(c)
    r = client.post(url(result["edit"], c, 1), with_version({**result["other"], "reason": "x"}, version))
    assert refused(r)
    assert records(c)[0].record[result["key"]] == result["value"]
    r = client.post(url(result["delete"], c, 1), with_version({"reason": "x"}, version))
    assert refused(r)
    c.refresh_from_db()
    assert len(records(c)) == 1 and kind_of(c).totals(c) == before and c.version == 1


@pytest.mark.parametrize("version", BAD_VERSIONS + ["0"])
def test_end_and_resume_without_a_valid_version_are_refused(client, result, version):
    c = result["container"]
    r = client.post(url(result["end"], c), with_version({"end-reason": "time"}, version))
    assert refused(r)
    c.refresh_from_db()
    assert c.status == c.Status.PLAYING and c.ended == ""
    sheet.end_at_time(c, result["people"]["referee"], reason="time")
    r = client.post(url(result["resume"], c), with_version({"end-reason": "clock was wrong"}, version))
    assert refused(r)
    c.refresh_from_db()
    assert c.status == c.Status.FINISHED and c.ended == c.Ended.TIME


@pytest.mark.parametrize("version", BAD_VERSIONS + ["1"])  # "1": valid but stale (ended since)
def test_confirm_and_reopen_without_a_valid_version_are_refused(client, result, version):
    c = result["container"]
    sheet.end_at_time(c, result["people"]["referee"], reason="time")
    client.force_login(result["people"]["organiser"])
    r = client.post(url(result["confirm"], c), with_version({}, version))
    assert refused(r)
    c.refresh_from_db()
    assert c.status != c.Status.CONFIRMED and not Confirmation.objects.exists()
    # confirmed properly, then a reopen with a bad version is refused too
    assert client.post(url(result["confirm"], c), {"version": c.version}).status_code == 302
    r = client.post(url(result["reopen"], c), with_version({"reopen-reason": "typo"}, version))
    assert refused(r)
    c.refresh_from_db()
    assert c.status == c.Status.CONFIRMED and Confirmation.objects.get().active


@pytest.mark.parametrize("version", BAD_VERSIONS + ["0"])
def test_restore_without_a_valid_version_is_refused(client, result, version):
    c = result["container"]
    client.post(url(result["delete"], c, 1), {"version": c.version, "reason": "entered twice"})
    c.refresh_from_db()
    assert len(records(c)) == 0
    entry = AuditEntry.objects.get(action="delete", **kind_of(c).audit_link(c))
    r = client.post(url(result["restore"], c, entry.pk), with_version({"restore-reason": "back"}, version))
    assert refused(r)
    c.refresh_from_db()
    assert len(records(c)) == 0 and not AuditEntry.objects.filter(action="restore").exists()


def test_pages_carry_the_version(client, result):
    c = result["container"]
    hidden = f'name="version" value="{c.version}"'
    for name, args in [(result["enter"], []), (result["edit"], [1]), (result["delete"], [1])]:
        assert hidden in client.get(url(name, c, *args)).content.decode(), name
    # The result page's forms: restoring the deleted record 1 (a restore that goes through).
    client.post(url(result["delete"], c, 1), {"version": c.version, "reason": "entered twice"})
    c.refresh_from_db()
    assert f'name="version" value="{c.version}"' in client.get(url(result["detail"], c)).content.decode()
    entry = AuditEntry.objects.get(action="delete", **kind_of(c).audit_link(c))
    assert client.post(url(result["restore"], c, entry.pk), {"version": c.version, "restore-reason": "back"}).status_code == 302
    c.refresh_from_db()
    sheet.end_at_time(c, result["people"]["referee"], reason="time")
    c.refresh_from_db()
    client.force_login(result["people"]["organiser"])
    assert f'name="version" value="{c.version}"' in client.get(url(result["confirm"], c)).content.decode()
    sheet.confirm(c, result["people"]["organiser"])
    c.refresh_from_db()
    page = client.get(url(result["detail"], c)).content.decode()
    assert f'name="version" value="{c.version}"' in page  # the reopen form


def test_edit_or_delete_of_a_record_a_colleague_just_deleted_is_a_conflict(client, result):
    """The race loser of "save an edit" against "delete" gets the same 409 "changed by someone else,
    reload" as every other race loser (was: a bare 404), and nothing changes."""
    c = result["container"]
    assert client.post(url(result["enter"], c), {**result["other"], "version": c.version}).status_code == 302
    c.refresh_from_db()
    seen = c.version  # both colleagues opened record 2 at this version
    sheet.delete_record(c, 2, result["people"]["organiser"], expected_version=seen, reason="entered twice")
    c.refresh_from_db()
    r = client.post(url(result["edit"], c, 2), {**result["other"], "reason": "typo", "version": seen})
    assert refused(r)
    assert STALE in r.content.decode() and "Someone else saved a change after you opened the page" in r.content.decode()
    r = client.post(url(result["delete"], c, 2), {"reason": "entered twice", "version": seen})
    assert refused(r)
    assert len(records(c)) == 1 and Confirmation.objects.count() == 0
    c.refresh_from_db()
    assert c.version == seen + 1
    # with the current version a record that is not there is simply not found
    assert client.post(url(result["edit"], c, 2), {**result["other"], "reason": "x", "version": c.version}).status_code == 404
    assert client.post(url(result["delete"], c, 2), {"reason": "x", "version": c.version}).status_code == 404
    assert client.get(url(result["edit"], c, 2)).status_code == 404
