"""Dutch 100 % (issue 11 item 11): the main pages of a Tai Pan and a four-player tournament, as the
public, a referee and an organiser see them, show no English leftovers in Dutch (the default
language). A page's visible text (and the titles, labels and placeholders a screen reader or a
hover shows) is searched for common English words that are never Dutch; the names of the
tournament's people, teams and tournaments, and the language switch, are left out first."""
from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from scoring import policy
from scoring.draw.rounds import close_round
from scoring.models import Membership, Round
from tests.factories import (
    DEALS,
    DOUBLE_VICTORY_NS,
    PLAIN_HAND,
    MatchFactory,
    MembershipFactory,
    PlayerFactory,
    RoundFactory,
    TableFactory,
    TeamFactory,
    TournamentFactory,
    play,
)

pytestmark = pytest.mark.django_db

#: English words that Dutch never uses (so no false alarms: "in", "is", "of", "hand", "team",
#: "score", "start", "status", "bye", "export" are Dutch too and left out; "at" is a card, the ace
#: of stars, on the rules check).
ENGLISH = set("""
the and with for from your you this that these those which not yet only until after before
enter entered edit delete deleted save saved confirm confirmed confirmation reopen reopened resume
resumed reload result results round rounds table tables match matches hands deal deals seat seats
player players standings tournament tournaments referee referees organiser organisers settings
members points total totals finished pending playing draft publish published closed winner draw
won lost drawn add new back next previous time limit reason change changed please sign log out
yes none all any every show hide find search name who what when why where how to by on an be
been was were has have will can cannot must may no there here its it's their they we our my
sheet sheets view played wins winning first second last pair paired seated register registered
withdraw withdrawn substitute affiliation rank running preview history undo restore restored
tiebreak tiebreaks seed seeds seeded
""".split())

#: Text of the language switch.
SWITCH = {"NL", "EN"}
#: Identifiers a page names as they must be typed: the columns of the teams CSV file.
IDENTIFIERS = ("joined_round", "player1", "player2", "affiliation", "name", "seed")


#: Elements whose text is code, not language (the CSV columns a file must have, a sample file).
CODE = ("script", "style", "code", "pre", "kbd", "samp")


class _Visible(HTMLParser):
    """Visible text of a page, plus the titles, labels, placeholders and button values; code
    (:data:`CODE`) left out."""

    def __init__(self, game: str | None = None):
        super().__init__()
        self.parts: list[str] = []
        self.skip = 0
        self.game = game
        self.other: list[str] = []  # the open tags from the first element of another game on

    def handle_starttag(self, tag, attrs):
        if tag in CODE:
            self.skip += 1
        attrs = dict(attrs)
        if self.game and (self.other or attrs.get("data-game", self.game) != self.game) and tag not in VOID:
            self.other.append(tag)
        for name in ("title", "placeholder", "aria-label", "alt"):
            if attrs.get(name):
                self.parts.append(attrs[name])
        if tag == "input" and attrs.get("type") in ("submit", "button") and attrs.get("value"):
            self.parts.append(attrs["value"])

    def handle_endtag(self, tag):
        if tag in CODE and self.skip:
            self.skip -= 1
        if self.other and self.other[-1] == tag:
            self.other.pop()

    def handle_data(self, data):
        if not self.skip and not self.other:
            self.parts.append(data)


#: Elements without an end tag (never opened on :attr:`_Visible.other`).
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


def visible_text(html: str, *, game: str | None = None) -> str:
    """The visible text of ``html`` (:class:`_Visible`); ``game``: without the elements of the other
    games (``data-game``: the rules presets of every game in the tournament form)."""
    parser = _Visible(game)
    parser.feed(html)
    return " ".join(parser.parts)


def english_leftovers(html: str, names: list[str]) -> list[str]:
    """The English words of a page (with a little context), names left out."""
    text = visible_text(html)
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    names_re = "|".join(IDENTIFIERS)
    column = rf"\b(?:{names_re})\b(?:\s*\([^)]*\))?"
    text = re.sub(rf"{column}(?:\s*,\s*{column})+", " ", text)  # a list of CSV columns, two or more
    found = []
    for m in re.finditer(r"[^\W\d_]+(?:['-][^\W\d_]+)*", text):
        word = m.group(0)
        if word in SWITCH:
            continue
        if word.lower() in ENGLISH:
            found.append(f"{word!r} in …{' '.join(text[max(0, m.start() - 40): m.end() + 40].split())}…")
    return found


@pytest.fixture
def dutch_world(db, client, settings):
    """Dutch pages (the default; no language cookie). A Tai Pan championship (round 1 closed,
    round 2 open: table 1 under way, table 2 finished and waiting for confirmation, a draft
    round 3) and a Sichuan tournament (table 1 ended at the time limit, table 2 under way), with
    an organiser, a referee who entered everything and a second referee who confirms."""
    settings.LANGUAGE_CODE = "nl"
    client.cookies.pop("django_language", None)
    tp = TournamentFactory(name="Kampioenschap Utrecht", slug="nskt", venue="Utrecht")
    teams = [TeamFactory(tournament=tp, name=n, affiliation="Asopos", first_player__name=a, second_player__name=b)
             for n, a, b in (("Draken", "Anna de Vries", "Bram Jansen"), ("Jade", "Eva Smit", "Floris Meijer"),
                             ("Pagodes", "Gijs de Boer", "Hanna Mulder"), ("Zwaarden", "Iris de Groot", "Joris Bos"))]
    organiser = MembershipFactory(tournament=tp, user__username="wedstrijdleiding", user__is_staff=True,
                                  role=Membership.Role.ORGANISER).user  # staff: may create tournaments
    referee = MembershipFactory(tournament=tp, user__username="scheids1").user
    confirmer = MembershipFactory(tournament=tp, user__username="scheids2").user
    r1 = RoundFactory(tournament=tp, number=1)
    for table, (a, b) in enumerate([(0, 1), (2, 3)], start=1):
        play(MatchFactory(round=r1, table=table, team_ns=teams[a], team_ew=teams[b]), [DOUBLE_VICTORY_NS] * 4, referee,
             confirmer=confirmer)
    close_round(r1, organiser)
    r2 = RoundFactory(tournament=tp, number=2)
    playing = play(MatchFactory(round=r2, table=1, team_ns=teams[0], team_ew=teams[2]), [PLAIN_HAND, PLAIN_HAND], referee)
    finished = play(MatchFactory(round=r2, table=2, team_ns=teams[1], team_ew=teams[3]), [DOUBLE_VICTORY_NS] * 4, referee)
    r3 = RoundFactory(tournament=tp, number=3, status=Round.Status.DRAFT)
    MatchFactory(round=r3, table=1, team_ns=teams[0], team_ew=teams[3])

    sc = TournamentFactory(name="Sichuan Delft", slug="sichuan", game="sichuan")
    for user, role in ((organiser, Membership.Role.ORGANISER), (referee, Membership.Role.REFEREE), (confirmer, Membership.Role.REFEREE)):
        MembershipFactory(tournament=sc, user=user, role=role)
        policy.forget_roles(user)
    names = ["Bo Chen", "Chloé Martin", "Daan de Jong", "Eline Bos", "Femke van Rijn", "Gert Smit", "Karin Zhou", "Lieke Oost"]
    players = [PlayerFactory(tournament=sc, name=n, affiliation="Virgiel") for n in names]
    rs = RoundFactory(tournament=sc, number=1)
    ended = play(TableFactory(round=rs, number=1, players=players[:4]), [DEALS["sichuan"][0]], referee, end_reason="tijd")
    under_way = play(TableFactory(round=rs, number=2, players=players[4:]), [DEALS["sichuan"][0]], referee)
    all_names = [tp.name, sc.name, "Asopos", "Virgiel", *[t.name for t in teams], *names,
                 *[p.name for t in teams for p in (t.first_player, t.second_player)],
                 organiser.username, referee.username, confirmer.username]
    return {"tp": tp, "sc": sc, "teams": teams, "players": players, "playing": playing, "finished": finished,
            "ended": ended, "under_way": under_way, "organiser": organiser, "referee": referee,
            "confirmer": confirmer, "names": all_names}


def _u(name, *args, query=""):
    return reverse(f"scoring:{name}", args=list(args)) + query


def _pages(w) -> dict[str, list[str]]:
    tp, sc = w["tp"].slug, w["sc"].slug
    m, f = w["playing"].pk, w["finished"].pk
    t1, t2 = w["ended"].pk, w["under_way"].pk
    public = [
        "/", _u("tournament_detail", tp), _u("standings", tp), _u("standings", tp, query="?projector=1"),
        _u("round_pairings", tp, 1), _u("round_pairings", tp, 2), _u("round_pairings", tp, 2, query="?projector=1"),
        _u("team_breakdown", tp, w["teams"][0].pk), _u("find_table", tp, query="?q=anna"), _u("find_table", tp, query="?q=x"),
        _u("find_table", tp, query="?q=onbekend"), _u("match_detail", tp, m), _u("match_detail", tp, f),
        _u("tournament_detail", sc), _u("standings", sc), _u("round_pairings", sc, 1), _u("table_detail", sc, t1),
        _u("table_detail", sc, t2), _u("player_page", sc, w["players"][0].pk), _u("find_table", sc, query="?q=chloe"),
        _u("rules_check", "taipan"),
    ]
    referee = [
        _u("tournament_detail", tp), _u("round_pairings", tp, 2), _u("match_detail", tp, m), _u("match_enter", tp, m),
        _u("hand_edit", tp, m, 1), _u("hand_delete", tp, m, 1), _u("match_detail", tp, f),
        _u("table_detail", sc, t2), _u("table_enter", sc, t2), _u("deal_edit", sc, t2, 1), _u("table_detail", sc, t1),
    ]
    confirmer = [_u("match_detail", tp, f), _u("match_confirm", tp, f), _u("table_confirm", sc, t1)]
    organiser = [
        _u("tournament_detail", tp), _u("team_list", tp), _u("team_create", tp), _u("team_edit", tp, w["teams"][0].pk),
        _u("teams_import", tp), _u("members", tp), _u("tournament_edit", tp), _u("round_pairings", tp, 3),
        _u("round_edit", tp, 3), _u("round_pair", tp), reverse("scoring:tournament_create"),
        _u("tournament_detail", sc), _u("players", sc), _u("player_edit", sc, w["players"][0].pk), _u("round_seat", sc),
        _u("round_pairings", sc, 1), _u("tournament_edit", sc),
    ]
    return {"public": public, "referee": referee, "confirmer": confirmer, "organiser": organiser}


def test_main_pages_have_no_english_leftovers_in_dutch(client, dutch_world):
    w = dutch_world
    problems = []
    for who, urls in _pages(w).items():
        client.logout()
        if who != "public":
            client.force_login(w[who])
        for url in urls:
            response = client.get(url, follow=True)
            assert response.status_code == 200, (who, url, response.status_code)
            html = response.content.decode()
            assert 'lang="nl"' in html, (who, url)
            problems += [f"{who} {url}: {p}" for p in english_leftovers(html, w["names"])]
    assert problems == [], "\n".join(problems)


def test_the_leftover_check_finds_english():
    """The check itself: an English sentence is found, a Dutch one and a name are not."""
    html = '<main><p>Resume play</p><p title="Reload the page">Verder spelen</p><script>var the = 1</script></main>'
    found = english_leftovers(html, [])
    assert len(found) == 3 and found[0].startswith("'Resume'")  # Resume, play, the (title); not the script
    assert english_leftovers("<p>Stand na ronde 2 van Play Ground</p>", ["Play Ground"]) == []


def test_tai_pan_pages_say_handen_never_spellen(client, dutch_world):
    """A Tai Pan match is played in hands ("handen"); "spellen" (deals) belongs to the four-player
    games. A match page said "de ingevoerde spellen" in its edit rule."""
    w = dutch_world
    problems = []
    for who, urls in _pages(w).items():
        client.logout()
        if who != "public":
            client.force_login(w[who])
        for url in urls:
            if "/t/nskt/" not in url:
                continue
            text = visible_text(client.get(url, follow=True).content.decode(), game="taipan")
            problems += [f"{who} {url}: …{text[max(0, m.start() - 60): m.end() + 20]}…"
                         for m in re.finditer(r"\bspellen\b", text)]
    assert problems == [], "\n".join(problems)


def test_the_handbook_uses_the_labels_of_the_forms():
    """docs/nl/handleiding-organisator.md names the fields and choices of the tournament form and
    the pairing form exactly as the Dutch forms show them (it said `target`, "plaats en datum" and
    "willekeurig" where the forms say "Spelen tot de doelscore", "Datum" / "Locatie" and
    "loting")."""
    from pathlib import Path

    from django.conf import settings
    from django.utils import translation

    from scoring.web.forms.organiser import PairRoundForm, TournamentForm

    text = " ".join((Path(settings.BASE_DIR) / "docs" / "nl" / "handleiding-organisator.md").read_text(encoding="utf-8").split())
    with translation.override("nl"):
        form, pair = TournamentForm(), PairRoundForm()
        labels = [str(form.fields[name].label) for name in ("name", "slug", "game", "round_format", "hands_per_round", "seed",
                                                            "blind_confirmation", "venue", "starts_on", "rules_preset")]
        labels += [str(form.fields["tiebreak_1"].label), str(form.fields["tiebreak_7"].label)]
        labels += [str(text_) for _value, text_ in form.fields["round_format"].choices]
        labels += [str(pair.fields["method"].label), *(str(text_) for _value, text_ in pair.fields["method"].choices)]
        labels += [translation.gettext("Tie-breaks (in order, after match points)")]
    missing = [label for label in labels if label.lower() not in text.lower()]
    assert missing == []
    for stale in ("`target`", "plaats en datum", "willekeurig", "tie-break", "seed-getal"):
        assert stale not in text, stale
