"""Match codes (issue 22 item 1): the short code on a table's score sheet, said or typed to find the
match: round, table and two check characters (Crockford's base32). Typed with any case, spaces,
dashes, dots or look-alikes, or without separators; a wrong round, table or check letter finds
nothing; a referee lands on the entry page, anyone else on the result page; drafts stay hidden."""
from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from scoring.draw import match_codes
from scoring.models import Match
from scoring.participants.links import ALPHABET
from tests.factories import MatchFactory
from tests.links.conftest import build_link_world, open_link

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(db):
    return build_link_world()


def test_a_code_is_round_table_and_two_check_characters(world):
    code = match_codes.code_of(world.match2)
    assert re.fullmatch(rf"1-2-[{ALPHABET}]{{2}}", code)
    assert match_codes.code_of(world.table).startswith("1-1-")
    assert len({match_codes.code_of(c) for c in (world.match, world.match2, world.draft_match)}) == 3


def test_a_code_is_found_however_it_is_typed(world):
    code = match_codes.code_of(world.match2)
    check = code.split("-")[2]
    for typed in (code, code.lower(), f" {code.replace('-', ' ')} ", code.replace("-", "."), f"R1 T2 {check}",
                  f"12{check}", f"1-2-{check.lower()}".replace("0", "o").replace("1", "l"), f"I-2-{check}"):
        assert match_codes.find(world.tp, typed) == world.match2, typed
    assert match_codes.find(world.sc, match_codes.code_of(world.table2)) == world.table2


def test_a_wrong_round_table_or_check_finds_nothing(world):
    code = match_codes.code_of(world.match2)
    check = code.split("-")[2]
    other = next(c for c in ALPHABET if c != check[1])
    for typed in (f"1-1-{check}", f"2-2-{check}", f"1-2-{check[0]}{other}", f"1-2-{check}X", "", "1-2", "x" * 40,
                  f"1-99-{check}"):
        assert match_codes.find(world.tp, typed) is None, typed
    assert match_codes.find(world.sc, code) is None  # another tournament


def test_a_sheet_of_an_earlier_pairing_finds_nothing(world):
    """The round paired again: a new match at the same table has a new code; the old sheet's code
    finds nothing (rather than the new match)."""
    old = match_codes.code_of(world.match2)
    rnd, table, ns, ew = world.match2.round, world.match2.table, world.match2.team_ns, world.match2.team_ew
    Match.objects.filter(pk=world.match2.pk).delete()
    new = MatchFactory(round=rnd, table=table, team_ns=ew, team_ew=ns)
    assert match_codes.find(world.tp, old) is None
    assert match_codes.find(world.tp, match_codes.code_of(new)) == new


def test_typing_the_code_leads_a_referee_to_entry_and_anyone_else_to_the_result(world):
    url = reverse("scoring:find_match", args=["tp"])
    code = match_codes.code_of(world.match)
    enter = reverse("scoring:match_enter", args=["tp", world.match.pk])
    detail = reverse("scoring:match_detail", args=["tp", world.match.pk])
    referee = Client()
    referee.force_login(world.referee)
    assert referee.get(url, {"code": code.lower()})["Location"] == enter
    assert 'name="code"' in referee.get(reverse("scoring:my_tables")).content.decode()
    assert Client().get(url, {"code": code})["Location"] == detail
    phone = Client()
    open_link(phone, world.token("Bravo"))
    assert phone.get(url, {"code": code})["Location"] == detail  # a side: its own pages decide
    # Unknown codes and drafts the visitor may not see: 404 with the form again.
    page = Client().get(url, {"code": "9-9-ZZ"})
    assert page.status_code == 404 and 'name="code"' in page.content.decode() and "No match has this code" in page.content.decode()
    draft = match_codes.code_of(world.draft_match)
    assert Client().get(url, {"code": draft}).status_code == 404
    assert referee.get(url, {"code": draft}).status_code == 404
    organiser = Client()
    organiser.force_login(world.organiser)
    assert organiser.get(url, {"code": draft})["Location"] == reverse("scoring:match_enter", args=["tp", world.draft_match.pk])
    assert Client().get(url).status_code == 200
