"""The referee's home, "My tables": the tables of the current round of every tournament where the
user is a referee or organiser, each with its state and a direct link to its entry page (issue 11
item 3). Read-only; every action is on the result pages (:mod:`scoring.web.views.results`). Also
the referee guide, as a page and as a PDF, and "Find a match by its code" (the match code printed
on a table's score sheet, :mod:`scoring.draw.match_codes`)."""
from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.db.models import Count, Exists, F, OuterRef, Q
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _t
from django.views.decorators.http import require_safe

from scoring import policy
from scoring.draw import match_codes
from scoring.hall import clock, zones
from scoring.kinds import kind_for, kind_of
from scoring.models import Dispute, Membership, RefereeCall, ResultContainer, Round, Tournament
from scoring.policy import Perm
from scoring.printing import referee_guide
from scoring.results import sheet
from scoring.results.sheet import Action
from scoring.web.context import tournament_context
from scoring.web.decorators import tournament_view
from scoring.web.views.printing import pdf_response
from scoring.web.views.result_context import urls_of


def round_tables(request, tournament: Tournament, rnd: Round) -> list[dict]:
    """The round's tables as rows: number, sides, status, records so far, totals, and the links
    the user may follow (enter, the result page, confirm)."""
    kind, adapter = kind_for(tournament.adapter), tournament.adapter
    open_dispute = Dispute.objects.filter(confirmation=None, resolved_at=None, **{kind.key: OuterRef("pk")})
    # Verification per hand: records whose current revision is not acknowledged (in the same query).
    r = kind.records_name
    unacknowledged = Q(**{f"{r}__acknowledged_revision__isnull": True}) | Q(
        **{f"{r}__acknowledged_revision__lt": F(f"{r}__revision")})
    qs = kind.in_round(rnd).annotate(n_records=Count(r, distinct=True), disputed=Exists(open_dispute),
                                     n_pending=Count(r, filter=unacknowledged, distinct=True))
    rows = []
    for c in qs:
        c.round = rnd
        bye = kind.is_bye(c)
        urls = urls_of(kind, tournament, c)
        rs = sheet.load(c)
        rows.append({
            "container": c, "number": kind.number(c), "bye": bye, "title": kind.title(c),
            "sides": kind.sides(c, adapter), "totals": kind.totals(c), "records": c.n_records,
            "can_add": rs.allows(Action.ADD, request.user), "can_confirm": rs.allows(Action.CONFIRM, request.user),
            "urls": urls,
            "disputed": c.disputed,
            "pending": c.n_pending if tournament.verifies_each_record and c.status != c.Status.CONFIRMED else 0,
        })
    return rows


@require_safe
@login_required
def my_tables(request):
    """"My tables": per tournament where the user is a referee or organiser (superusers: every
    running tournament), the current round's tables with their state and a link to enter: first
    the tables in the user's zone or claimed by them (:mod:`scoring.hall.zones`), then the rest
    (collapsed when the user has tables), each with its referee, a call for a referee and a
    "claim" button."""
    user = request.user
    if user.is_superuser:
        tournaments = list(Tournament.objects.filter(status=Tournament.Status.RUNNING).order_by("name"))
    else:
        ids = Membership.objects.filter(user=user).values_list("tournament_id", flat=True)
        tournaments = list(Tournament.objects.filter(pk__in=ids).order_by("name"))
    sections = []
    for tournament in tournaments:
        if not policy.has_perm(user, Perm.ENTER_RESULTS, tournament):
            continue
        rnd = clock.current_round(tournament)
        rows = round_tables(request, tournament, rnd) if rnd else []
        open_first = sorted(rows, key=lambda r: (r["container"].status in ("confirmed",) or r["bye"], r["number"]))
        assigned = zones.assignments(rnd) if rnd else {}
        open_calls = {c.table for c in RefereeCall.objects.filter(round=rnd, answered_at=None)} if rnd else set()
        for row in open_first:
            a = assigned.get(row["number"])
            row.update(referee=a.referee.get_username() if a else "", claimed=bool(a and a.claimed),
                       mine=bool(a and a.referee_id == user.pk),
                       # A call asks for a referee only while the table still plays (as on the board).
                       called=row["number"] in open_calls and not row["bye"]
                       and row["container"].status in (ResultContainer.Status.PENDING, ResultContainer.Status.PLAYING))
        sections.append({"tournament": tournament, "round": rnd, "record_noun": tournament.adapter.record_noun,
                         "mine": [r for r in open_first if r["mine"]], "rest": [r for r in open_first if not r["mine"]],
                         "board": policy.has_perm(user, Perm.VIEW_BOARD, tournament)})
    # hall_tournaments: the tournaments listed, for the round clock and announcements of base.html.
    return render(request, "referee/my_tables.html",
                  {"sections": sections, "hall_tournaments": [s["tournament"] for s in sections]})


@require_safe
def guide(request):
    """The referee guide (public: a referee may read it before logging in): Dutch, then English
    (:mod:`scoring.printing.referee_guide`), with the PDF to print."""
    return render(request, "referee/guide.html", {"guides": referee_guide.guides()})


@require_safe
def guide_pdf(request):
    """The referee guide as a PDF: Dutch on page 1, English on page 2."""
    return pdf_response(referee_guide.referee_guide_pdf(), "handleiding-scheidsrechter.pdf")


@require_safe
@tournament_view()
def find_match(request, *, tournament):
    """Find a match or table by the match code printed on its score sheet (``?code=3-12-XK``, typed
    with any case, spaces or dashes): a referee or organiser goes to its entry page, anyone else to
    its result page. The code grants nothing (it lies on the table): the pages decide as for anyone.
    An unknown code, or one of a round the visitor may not see, is answered 404 with the form
    again."""
    code = request.GET.get("code", "").strip()
    container = match_codes.find(tournament, code) if code else None
    if container is not None and policy.round_visible(request.actor, container.round):
        urls = urls_of(kind_of(container), tournament, container)
        member = policy.has_perm(request.actor, Perm.ENTER_RESULTS, tournament)
        return redirect(urls["enter"] if member else urls["detail"])
    error = _t("No match has this code in this tournament: check the round, the table and the two letters.") if code else ""
    context = tournament_context(request, tournament, code=code, error=error)
    return render(request, "referee/find_match.html", context, status=404 if code else 200)
