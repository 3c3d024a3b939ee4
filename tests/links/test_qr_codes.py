"""Every QR code on every paper of a round, scanned as a phone would (issue 22 item 1): the round's
score sheets (Tai Pan matches and four-player tables) and every entrant's card are rendered to
images (pypdfium2), every QR code on them is decoded (zxing-cpp) and each decoded address is
opened by a fresh browser-like client.

- A sheet's code is the referee's: it opens the result entry through the login and makes the phone
  act as no side.
- A card's code opens that entrant's link, and the phone then acts as that entrant only: its own
  table's entry page, no other table's.
- The papers a side holds (its own card and the sheets lying on every table) reach no other side's
  link, so a team can never confirm through the opponents' link: after Bravo enters a finished
  match, only Alpha's card confirms it; Bravo's own card, the sheets and the other tables' cards
  are refused and change nothing.
"""
from __future__ import annotations

from urllib.parse import urlsplit

import pypdfium2
import pytest
import zxingcpp
from django.test import Client
from django.urls import reverse

from scoring.kinds import kind_of
from scoring.models import Confirmation, EntrantLink, Match
from scoring.participants import links
from scoring.printing import cards, sheets
from scoring.web.links import SESSION_KEY
from tests.factories import GRAND_DOUBLE_VICTORY_NS, entry_data
from tests.links.conftest import db_state

pytestmark = pytest.mark.django_db

BASE = "http://testserver/"


def qr_codes(pdf: bytes) -> list[list[str]]:
    """The texts of the QR codes on each page of ``pdf`` (rendered at 150 dpi)."""
    document = pypdfium2.PdfDocument(pdf)
    try:
        return [[code.text for code in zxingcpp.read_barcodes(document[i].render(scale=150 / 72).to_pil(),
                                                              formats=zxingcpp.BarcodeFormat.QRCode)]
                for i in range(len(document))]
    finally:
        document.close()


def scan(address: str) -> Client:
    """A new phone opening ``address`` as its browser would: the fragment stays on the phone; the
    page's script (``static/js/link.js``) posts it as the code. Returns the phone."""
    parts = urlsplit(address)
    assert parts.scheme == "http" and parts.netloc == "testserver" and not parts.query
    phone = Client()
    phone.cookies["django_language"] = "en"
    page = phone.get(parts.path)
    if parts.fragment:
        assert page.status_code == 200 and parts.path == reverse("scoring:open_link")
        opened = phone.post(parts.path, {"code": parts.fragment})
        assert opened.status_code == 302, address
    return phone


def held(phone: Client) -> list[int]:
    """The link ids the phone's session holds."""
    return sorted(v["link"] for v in (phone.session.get(SESSION_KEY) or {}).values())


def papers(world) -> dict[str, list[str]]:
    """Every paper of round 1 of both tournaments, with the QR codes decoded from it: each table's
    sheet (``"sheet tp 1"``), each entrant's own card (``"card Alpha"``)."""
    out = {}
    for t, rnd in ((world.tp, world.match.round), (world.sc, world.table.round)):
        pack = qr_codes(sheets.round_pack_pdf(rnd, base_url=BASE))
        containers = list(kind_of(world.match if t == world.tp else world.table).in_round(rnd))
        assert len(pack) == len(containers)
        for container, codes in zip(containers, pack, strict=True):
            out[f"sheet {t.slug} {container.pk}"] = codes
            # The sheet printed alone (the result page's PDF) carries the same single code.
            assert qr_codes(sheets.score_sheet_pdf(container, base_url=BASE)) == [codes]
        every_card = [code for page in qr_codes(cards.entrant_cards_pdf(t, base_url=BASE)) for code in page]
        for link in links.ensure_links(t):
            own = qr_codes(cards.entrant_cards_pdf(t, base_url=BASE, only=[link.pk]))
            assert len(own) == 1 and len(own[0]) == 1
            out[f"card {link.entrant}"] = own[0]
            assert own[0][0] in every_card  # the card printed alone is the card of the full sheet of cards
        assert len(every_card) == len(set(every_card)) == len(links.ensure_links(t))
    return out


def test_every_sheet_carries_one_code_and_it_acts_as_no_side(world):
    found = papers(world)
    sheet_codes = {name: codes for name, codes in found.items() if name.startswith("sheet")}
    assert len(sheet_codes) == 4
    for name, codes in sheet_codes.items():
        assert len(codes) == 1, name
        _sheet, slug, pk = name.split()
        assert urlsplit(codes[0]).path.endswith(f"/{pk}/enter/") and f"/t/{slug}/" in codes[0]
        assert "/p/" not in codes[0] and "#" not in codes[0]
        phone = Client()
        r = phone.get(urlsplit(codes[0]).path)
        assert r.status_code == 302 and r["Location"].startswith(reverse("login")), name  # the referee's login
        assert held(phone) == [], name
        # Nothing of a side: no entrant page, no entry form.
        assert phone.get(reverse("scoring:entrant_home", args=[slug])).status_code == 403


def test_every_card_acts_as_its_own_entrant_only(world):
    found = papers(world)
    own_result = {"Alpha": world.match, "Bravo": world.match, "Charlie": world.match2, "Delta": world.match2,
                  **{n: world.table for n in ("Ann", "Ben", "Cas", "Dee")},
                  **{n: world.table2 for n in ("Eve", "Fay", "Gus", "Hal")}}
    assert sorted(name.split(" ", 1)[1] for name in found if name.startswith("card")) == sorted(own_result)
    for name, result in own_result.items():
        (address,) = found[f"card {name}"]
        phone = scan(address)
        assert held(phone) == [world.links[name].pk], name
        slug = result.round.tournament.slug
        home = phone.get(reverse("scoring:entrant_home", args=[slug]))
        assert home.status_code == 200 and home.context["entrant"].link_id == world.links[name].pk
        kind = kind_of(result)
        for other in kind.in_round(result.round):
            page = phone.get(reverse(kind.url_name("enter"), args=[slug, other.pk]))
            if other.pk == result.pk:
                assert page.status_code == 200 and b'id="entry-form"' in page.content, name
            else:
                assert page.status_code == 302 and page["Location"] == reverse(kind.url_name("detail"), args=[slug, other.pk])


def test_a_team_never_reaches_the_opponents_link_and_only_the_opponents_card_confirms(world):
    found = papers(world)
    tokens = {name.split(" ", 1)[1]: urlsplit(codes[0]).fragment for name, codes in found.items() if name.startswith("card")}
    # The papers Bravo holds: its own card and the sheets on every table. They resolve to Bravo's
    # link and to nothing else.
    bravo_papers = found["card Bravo"] + [c for name, codes in found.items() if name.startswith("sheet") for c in codes]
    reachable = {links.resolve(urlsplit(c).fragment).pk for c in bravo_papers if urlsplit(c).fragment}
    assert reachable == {world.links["Bravo"].pk}
    # Bravo enters a finished match (two Grand Tai Pan double victories: 800 : 0) on its phone.
    bravo = scan(found["card Bravo"][0])
    m = world.match
    for i in range(2):
        m.refresh_from_db()
        r = bravo.post(reverse("scoring:match_enter", args=["tp", m.pk]),
                       entry_data(m, GRAND_DOUBLE_VICTORY_NS, submission=f"{i}" * 32))
        assert r.status_code == 302
    m.refresh_from_db()
    assert (m.total_ns, m.total_ew, m.status) == (800, 0, "finished")
    confirm = reverse("scoring:match_confirm", args=["tp", m.pk])
    # Every other paper's code, scanned and used to confirm: refused, nothing changes.
    before = db_state()
    for name, codes in found.items():
        if name == "card Alpha":
            continue
        phone = scan(codes[0]) if name.startswith("card") else Client()
        if name.startswith("sheet"):
            phone.get(urlsplit(codes[0]).path)
        r = phone.post(confirm, {"version": m.version})
        assert r.status_code in (302, 400, 403, 404) and not Confirmation.objects.filter(match=m).exists(), name
        if r.status_code == 302:  # anonymous: to the login
            assert r["Location"].startswith(reverse("login")), name
    assert Match.objects.get(pk=m.pk).status == "finished"
    assert db_state() == before
    # Alpha, the opponents, confirm on their own card's link.
    alpha = scan(found["card Alpha"][0])
    assert alpha.post(confirm, {"version": m.version}).status_code == 302
    assert Match.objects.get(pk=m.pk).status == "confirmed"
    assert Confirmation.objects.get(match=m).via_link_id == world.links["Alpha"].pk
    assert tokens["Alpha"] == links.token_of(EntrantLink.objects.get(pk=world.links["Alpha"].pk))
