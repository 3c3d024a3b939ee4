"""The referee guide: one page for the referee at the table (issue 14 item 4), in Dutch with
English second, as a page in the app (``templates/referee/guide.html``) and as a printable A4 PDF
(:func:`referee_guide_pdf`). The text lives here once, as translatable messages (English message
ids, the Dutch catalogue gives the Dutch text), so the page and the PDF always say the same.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.utils import translation
from django.utils.translation import gettext_lazy as _
from reportlab.platypus import PageBreak

from scoring.printing.common import build, para, styles

#: The guide's languages in the order shown: Dutch first, English second.
LANGUAGES = ("nl", "en")

TITLE = _("Referee guide")
INTRO = _("One page for the referee at the table: enter what the score sheet says, let a second person "
          "confirm, and call the organisers when in doubt.")


@dataclass(frozen=True)
class Section:
    """A heading and its paragraphs (lazy translations)."""

    key: str
    title: object
    paragraphs: tuple


SECTIONS = (
    Section("sheet", _("Reading a score sheet"), (
        _("The sheet names the tournament, the round and the table, the two teams (NS and EW) or the four "
          "players in their seats, the referee's QR code (“Referee: enter result”: scanning it opens the entry "
          "page of exactly this table) and the match code, e.g. 3-12-XK (round, table, two check letters): "
          "type it on “My tables” to reach the same page. The sheet never carries a team's private link."),
        _("Each line is one hand: the calls per seat (TP = Tai Pan, GTP = Grand Tai Pan), who went out first, "
          "a double victory (then there are no card points), and the card points of NS and EW, which add up "
          "to 100. The players sign the sheet when the match is over."),
    )),
    Section("enter", _("Entering a hand"), (
        _("Log in and open “My tables”, or scan the QR code. Tap the calls, who went out first and a double "
          "victory, then type the card points of NS: the preview shows the hand's score and the new totals "
          "before you save. Save every hand once, in the order played."),
        _("A mahjong deal (four players): tap who won, from whom (or “self”) and the fan or tai on the keypad, "
          "then “Save”. A second win in the same Sichuan deal goes under “Another win or a kong”. For a "
          "dispute, or when the tournament wants every hand checked, “all tiles” takes the hand tile by tile."),
        _("A mistake in a saved hand: open that hand, correct it, give a reason and tap “Save the change”. "
          "Every change is kept with your name, the time and the reason."),
    )),
    Section("errors", _("Errors"), (
        _("“The hand was not saved: correct what is marked.” Nothing was stored. The field with the mistake says which "
          "rule it breaks, for example card points that are not a multiple of 5 or do not add up to 100. "
          "Correct it and save again. A dispute about a play: the rules check page judges it card by card; "
          "otherwise call the organisers."),
    )),
    Section("confirm", _("Confirming"), (
        _("When the match is finished (a team reached the target) or ended at the time limit, a second "
          "person, another referee or an organiser but never the one who entered or changed the result, "
          "compares it with the signed sheet and taps “Confirm the result”. When the tournament asks for "
          "it, they first type the final totals from the sheet."),
        _("A confirmed result changes only through “Reopen”, with a reason."),
    )),
    Section("time", _("The time limit"), (
        _("Time is up and the match has not reached the target: enter the hands that were completed, then "
          "choose “End at the time limit…” (under “More actions”) and give a reason. The higher total "
          "wins; equal totals are a draw. Nothing can be added afterwards. A four-player table without a "
          "fixed number of deals always ends this way."),
        _("Ended by mistake, or play goes on after all? “Resume play” undoes it, as long as the result is "
          "not confirmed."),
    )),
    Section("hall", _("In the hall: zones, calls, time's up"), (
        _("“My tables” shows your zone first: the tables the organiser gave you in the current round, open "
          "ones first; the other tables follow, collapsed. “Claim” makes a table yours (it answers a call "
          "there)."),
        _("A side taps “Call a referee” on its phone (or you do, on the entry page): “My tables” and "
          "the progress board show “Needs a referee”. Go to the table; when it is settled, tap “Answered”."),
        _("Time's up with “finish the hand in play”: the entry page says until when. Finish and enter that "
          "hand; then the organiser ends every unfinished table at the time limit. A hand saved after that is "
          "refused with a message: nothing of it is stored."),
    )),
    Section("stale", _("“Changed by someone else”"), (
        _("“This result changed, reload.” means that someone else saved a change at this table after you "
          "opened the page. Nothing of yours was saved. Tap “Reload”, look at the hands now listed, and "
          "enter yours again only if it is not there. Agree at the table who enters, and it will not "
          "happen."),
    )),
)


def guide_in(language: str) -> dict:
    """The guide's text in ``language``: ``{"language", "title", "intro", "sections": [{"key",
    "title", "paragraphs"}]}`` (plain strings)."""
    with translation.override(language):
        return {
            "language": language,
            "title": str(TITLE),
            "intro": str(INTRO),
            "sections": [{"key": s.key, "title": str(s.title), "paragraphs": [str(p) for p in s.paragraphs]}
                         for s in SECTIONS],
        }


def guides() -> list[dict]:
    """The guide in each of :data:`LANGUAGES`, Dutch first."""
    return [guide_in(language) for language in LANGUAGES]


def referee_guide_pdf() -> bytes:
    """The guide as a PDF: the Dutch text on page 1, the English one on page 2 (A4; print it on both
    sides of one sheet)."""
    st = styles()
    flowables: list = []
    for k, guide in enumerate(guides()):
        if k:
            flowables.append(PageBreak())
        flowables += [para(guide["title"], st["title"]), para(guide["intro"], st["body"])]
        for section in guide["sections"]:
            flowables.append(para(section["title"], st["h2"]))
            flowables += [para(text, st["body"]) for text in section["paragraphs"]]
    with translation.override(LANGUAGES[0]):
        title = str(TITLE)
    return build(flowables, title)
