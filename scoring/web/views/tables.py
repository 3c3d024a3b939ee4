"""Four-player tournaments (Sichuan, Taiwanese, Tien Gow): players, seating, tables, deal entry
with a live htmx preview, standings by total points and the table score sheet PDF.

Views stay thin: the work is in :mod:`scoring.results.tables` and the engines. Write views check
the role with :func:`scoring.policy.require_role` (organiser: players and seating; referee: deals).
"""
from __future__ import annotations

import django_tables2 as tables2
from django.contrib import messages
from django.db.models import Prefetch
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _g
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from engines.errors import RuleViolation
from scoring.errors import ServiceError
from scoring.games.labels import item_label
from scoring.models import FOUR_PLAYER_GAMES, Deal, Game, Player, Round, Table, TableSeat, Tournament
from scoring.policy import ORGANISER, REFEREE, can_organise, can_referee, require_role
from scoring.results import tables as svc
from scoring.web.forms.results import violation_message
from scoring.web.forms.tables import (
    SEAT_NAMES,
    ConfirmTableForm,
    PlayerForm,
    ReopenTableForm,
    SeatRoundForm,
    WithdrawForm,
    entry_for,
    tiengow_tile_names,
)

MPSZ_SUITS = [("m", [f"{n}m" for n in range(1, 10)]), ("p", [f"{n}p" for n in range(1, 10)]), ("s", [f"{n}s" for n in range(1, 10)])]
HONOURS = [f"{n}z" for n in range(1, 8)]
FLOWERS = [f"fl{n}" for n in range(1, 5)] + [f"se{n}" for n in range(1, 5)]

#: Names of the honour tiles (MPSZ codes: 1z-4z winds East..North, 5z-7z dragons White, Green,
#: Red as in ``engines.taiwanese.patterns.DRAGON_NUMBERS``), shown as the tile buttons' title.
HONOUR_NAMES = {
    "1z": _("East wind"),
    "2z": _("South wind"),
    "3z": _("West wind"),
    "4z": _("North wind"),
    "5z": _("White dragon"),
    "6z": _("Green dragon"),
    "7z": _("Red dragon"),
}


def tile_title(code: str) -> str:
    """The name of an MPSZ tile button in the active language: suited tiles "3 dots (p)",
    honours "East wind" .. "Red dragon", flowers "flower 1".."flower 4", seasons "season 1"..
    "season 4" (rules/taiwanese-16.txt: flowers and seasons numbered 1-4)."""
    if code in HONOUR_NAMES:
        return str(HONOUR_NAMES[code])
    if code.startswith("fl"):
        return _g("flower {n}").format(n=code[2:])
    if code.startswith("se"):
        return _g("season {n}").format(n=code[2:])
    suits = {"m": _g("characters (m)"), "p": _g("dots (p)"), "s": _g("bamboo (s)")}
    if len(code) == 2 and code[1] in suits:
        return f"{code[0]} {suits[code[1]]}"
    return code


def _four_player(tournament: Tournament) -> None:
    if tournament.game not in FOUR_PLAYER_GAMES:
        raise Http404(_g("This tournament is not played at tables of four."))


def _context(request, tournament: Tournament, **extra):
    if "seats" in extra and "labels" in extra:
        extra["seat_headers"] = [(label, s.player.name) for label, s in zip(extra["labels"], extra["seats"], strict=False)]
    ctx = {
        "tournament": tournament,
        "can_organise": can_organise(request.user, tournament),
        "can_referee": can_referee(request.user, tournament),
    }
    ctx.update(extra)
    return ctx


def _table(tournament: Tournament, pk: int) -> Table:
    table = get_object_or_404(
        Table.objects.select_related("round__tournament").prefetch_related(
            Prefetch("seats", queryset=TableSeat.objects.select_related("player").order_by("seat"))
        ),
        pk=pk,
        round__tournament=tournament,
    )
    return table


def _visible(request, table: Table) -> None:
    if table.round.status == Round.Status.DRAFT and not can_referee(request.user, table.round.tournament):
        raise Http404(_g("This round is not published yet."))


def seat_labels(tournament: Tournament) -> list[str]:
    """Seat labels by seat index: winds for mahjong, 1..4 for Tien Gow."""
    if tournament.game == Game.TIENGOW:
        return ["1", "2", "3", "4"]
    return [str(SEAT_NAMES[s]) for s in svc.SEAT_LABELS]


def seat_names(table: Table) -> dict[str, str]:
    """Form seat keys -> player name (``"E"``.. for mahjong, ``"0"``.. for Tien Gow)."""
    seats = list(table.seats.all())
    if table.round.tournament.game == Game.TIENGOW:
        return {str(s.seat): s.player.name for s in seats}
    return {svc.SEAT_LABELS[s.seat]: s.player.name for s in seats}


# --------------------------------------------------------------------------------------------
# Players


class PlayerListTable(tables2.Table):
    """Registered players (organiser view)."""

    name = tables2.Column(verbose_name=_("name"), linkify=lambda record: reverse("scoring:player_edit", args=[record.tournament.slug, record.pk]))
    affiliation = tables2.Column(verbose_name=_("affiliation"))
    seed = tables2.Column(verbose_name=_("seed"))
    joined_round = tables2.Column(verbose_name=_("joined in round"))
    withdrawn_after_round = tables2.Column(verbose_name=_("withdrawn after round"))
    is_substitute = tables2.BooleanColumn(verbose_name=_("substitute"))

    class Meta:
        orderable = False
        attrs = {"class": "players"}


def players(request, slug):
    """Public list of registered players; organisers also get the registration form (POST)."""
    if request.method == "POST":
        return _player_add(request, slug)
    tournament = get_object_or_404(Tournament, slug=slug)
    _four_player(tournament)
    qs = tournament.players.select_related("tournament").order_by("name")
    ctx = _context(request, tournament, form=PlayerForm(initial={"joined_round": svc.seating_status(tournament)["round_number"]}))
    return _render_players(request, tournament, qs, ctx)


def _render_players(request, tournament, qs, ctx, status=200):
    ctx["table"] = PlayerListTable(list(qs)) if ctx["can_organise"] else None
    ctx["players"] = qs
    ctx["status"] = svc.seating_status(tournament)
    return render(request, "scoring/players.html", ctx, status=status)


@require_role(ORGANISER)
def _player_add(request, *, tournament):
    _four_player(tournament)
    form = PlayerForm(request.POST, instance=Player(tournament=tournament))
    if form.is_valid():
        player = form.save(commit=False)
        player.tournament = tournament
        player.save()
        messages.success(request, _g("Player {name} registered.").format(name=player.name))
        return redirect("scoring:players", tournament.slug)
    qs = tournament.players.select_related("tournament").order_by("name")
    return _render_players(request, tournament, qs, _context(request, tournament, form=form), status=400)


@require_role(ORGANISER)
def player_edit(request, pk, *, tournament):
    """Edit a player's registration (late entry round, substitute) and withdraw/reinstate."""
    _four_player(tournament)
    player = get_object_or_404(Player, pk=pk, tournament=tournament)
    status = svc.seating_status(tournament)
    form = PlayerForm(request.POST if request.method == "POST" else None, instance=player)
    withdraw = WithdrawForm(initial={"after_round": max(status["round_number"] - 1, player.joined_round - 1, 1)}, player=player)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _g("Player {name} saved.").format(name=player.name))
        return redirect("scoring:players", tournament.slug)
    return render(
        request,
        "scoring/players_edit.html",
        _context(request, tournament, form=form, withdraw=withdraw, player=player),
        status=400 if request.method == "POST" else 200,
    )


@require_POST
@require_role(ORGANISER)
def player_withdraw(request, pk, *, tournament):
    """Withdraw a player after a round (results kept) or reinstate them."""
    _four_player(tournament)
    player = get_object_or_404(Player, pk=pk, tournament=tournament)
    form = WithdrawForm(request.POST, player=player)
    if not form.is_valid():
        return render(request, "scoring/players_edit.html", _context(request, tournament, form=PlayerForm(instance=player), withdraw=form, player=player), status=400)
    if form.cleaned_data["reinstate"]:
        player.withdrawn_after_round = None
        messages.success(request, _g("{name} is back in the tournament.").format(name=player.name))
    else:
        player.withdrawn_after_round = form.cleaned_data["after_round"]
        messages.success(request, _g("{name} withdrawn after round {number}.").format(name=player.name, number=player.withdrawn_after_round))
    player.save(update_fields=["withdrawn_after_round"])
    return redirect("scoring:players", tournament.slug)


# --------------------------------------------------------------------------------------------
# Seating and round tables


@require_role(ORGANISER)
def round_seat(request, *, tournament):
    """Seat the next round (or re-seat the draft round): players four to a table by total
    score, avoiding repeated opponents; tells how many substitutes are needed."""
    _four_player(tournament)
    form = SeatRoundForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            outcome = svc.seat_round(tournament, seed=form.cleaned_data.get("seed"), user=request.user)
        except ServiceError as err:
            form.add_error(err.field if err.field in form.fields else None, err.message)
        else:
            if outcome.repeat_notes:
                messages.warning(request, _g("Repeat meetings that could not be avoided: {notes}").format(notes="; ".join(outcome.repeat_notes)))
            else:
                messages.success(request, _g("Round {number} seated without repeat meetings.").format(number=outcome.round.number))
            return redirect("scoring:round_tables", tournament.slug, outcome.round.number)
    ctx = _context(request, tournament, form=form, status=svc.seating_status(tournament))
    return render(request, "scoring/table_seat.html", ctx, status=400 if request.method == "POST" else 200)


def round_tables(request, slug, number):
    """The tables of a four-player round with seats, totals and seating notes."""
    tournament = get_object_or_404(Tournament, slug=slug)
    _four_player(tournament)
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    if rnd.status == Round.Status.DRAFT and not can_referee(request.user, tournament):
        raise Http404(_g("This round is not published yet."))
    tables = rnd.tables.prefetch_related(Prefetch("seats", queryset=TableSeat.objects.select_related("player").order_by("seat")))
    ctx = _context(request, tournament, round=rnd, tables=tables, labels=seat_labels(tournament))
    return render(request, "scoring/table_round.html", ctx)


@require_POST
@require_role(ORGANISER)
def round_tables_publish(request, number, *, tournament):
    """Publish a draft round of tables (organiser)."""
    _four_player(tournament)
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    try:
        svc.publish_table_round(rnd)
    except ServiceError as err:
        messages.error(request, err.message)
    else:
        messages.success(request, _g("Round {number} published.").format(number=number))
    return redirect("scoring:round_tables", tournament.slug, number)


@require_POST
@require_role(ORGANISER)
def round_tables_close(request, number, *, tournament):
    """Close a round of tables (organiser); every table needs deals."""
    _four_player(tournament)
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    try:
        svc.close_table_round(rnd)
    except ServiceError as err:
        messages.error(request, err.message)
    else:
        messages.success(request, _g("Round {number} closed.").format(number=number))
    return redirect("scoring:round_tables", tournament.slug, number)


# --------------------------------------------------------------------------------------------
# Table and deals


def _rows(table: Table, deals: list[Deal]) -> list[dict]:
    running = [0, 0, 0, 0]
    rows = []
    for d in deals:
        net = list(d.net or [0, 0, 0, 0])
        running = [a + b for a, b in zip(running, net, strict=True)]
        rows.append({"deal": d, "net": net, "running": list(running), "cells": list(zip(net, running, strict=True)), "summary": deal_summary(table.round.tournament.game, d.record)})
    return rows


def deal_summary(game: str, record: dict) -> str:
    """A short line describing a stored deal (for the table page and the PDF)."""
    if game == Game.TAIWANESE:
        if record.get("draw"):
            return _g("draw")
        win = record.get("win") or {}
        who = SEAT_NAMES.get(record.get("seat"), record.get("seat"))
        return f"{who} {win.get('how', '')} {win.get('tile', '')}".strip()
    if game == Game.SICHUAN:
        parts = []
        for ev in record.get("events") or []:
            who = SEAT_NAMES.get(ev.get("player"), ev.get("player"))
            if ev.get("type") == "kong":
                parts.append(f"{_g('kong')} {who} {ev.get('kind', '')} {ev.get('tile', '')}")
            else:
                win = (ev.get("hand") or {}).get("win") or {}
                parts.append(f"{_g('win')} {who} {win.get('how', '')} {win.get('tile', '')}")
        if record.get("exhaustion") is not None:
            parts.append(_g("wall exhausted"))
        return "; ".join(parts)
    if game == Game.TIENGOW:
        if record.get("mode") == "deal":
            return _g("trick by trick (banker {banker})").format(banker=int(record.get("banker", 0)) + 1)
        cols = record.get("columns")
        banker = int(record.get("banker", 0)) + 1
        if cols:
            return _g("banker {banker} · columns {columns}").format(banker=banker, columns="/".join(str(c) for c in cols))
        return _g("banker {banker}").format(banker=banker)
    return ""


def _state_text(tournament: Tournament, state: dict) -> str:
    if tournament.game == Game.TAIWANESE and state:
        return _g("Dealer {dealer}, streak {streak}, round wind {wind}").format(
            dealer=SEAT_NAMES.get(state.get("dealer"), ""), streak=state.get("streak", 0), wind=SEAT_NAMES.get(state.get("round_wind", "E"), "")
        )
    if tournament.game == Game.TIENGOW and state:
        return _g("Banker: seat {seat}").format(seat=int(state.get("banker", 0)) + 1)
    return ""


def _detail_context(request, tournament, table, *, reopen_form=None, error=None):
    deals = list(table.deals.order_by("number"))
    labels = seat_labels(tournament)
    seats = list(table.seats.all())
    return _context(
        request,
        tournament,
        table=table,
        seats=seats,
        rows=_rows(table, deals),
        labels=labels,
        state_text=_state_text(tournament, table.state),
        confirmation=table.confirmations.filter(active=True).select_related("confirmed_by").first(),
        reopen_form=reopen_form or ReopenTableForm(),
        error=error,
        locked=is_locked(table),
    )


def is_locked(table: Table) -> bool:
    """True when no deal of ``table`` may be entered, changed or deleted: its result is confirmed
    or its round closed (``services.tables._check_open``). The pages then show no entry form and
    no edit/delete links."""
    return table.status == Table.Status.CONFIRMED or table.round.status == Round.Status.CLOSED


def table_detail(request, slug, pk):
    """A table: seats with players, every deal with per-seat results and running totals, and the
    confirmation (confirm / reopen forms for members)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    _four_player(tournament)
    table = _table(tournament, pk)
    _visible(request, table)
    return render(request, "scoring/table_detail.html", _detail_context(request, tournament, table))


@require_role(REFEREE)
def table_confirm(request, pk, *, tournament):
    """Confirm a table's result as a second person. The page shows the seats but not the deals or
    totals, so that with blind confirmation the confirmer re-types the totals from the sheet."""
    _four_player(tournament)
    table = _table(tournament, pk)
    labels = seat_labels(tournament)
    form = ConfirmTableForm(
        request.POST if request.method == "POST" else None,
        labels=[f"{lab} {s.player.name}" for lab, s in zip(labels, table.seats.all(), strict=False)],
        blind=tournament.blind_confirmation,
    )
    ctx = _context(request, tournament, table=table, confirm_form=form)
    if request.method != "POST":
        return render(request, "scoring/table_confirm.html", ctx)
    if form.is_valid():
        try:
            version = svc.parse_version(request.POST.get("version"))
            svc.confirm_table(table, request.user, totals=form.totals(), expected_version=version)
        except ServiceError as err:
            form.add_error(None, err.message)
            table.refresh_from_db()
        else:
            messages.success(request, _g("Table {number} confirmed.").format(number=table.number))
            return redirect("scoring:table_detail", tournament.slug, table.pk)
    return render(request, "scoring/table_confirm.html", ctx, status=400)


@require_POST
@require_role(ORGANISER)
def table_reopen(request, pk, *, tournament):
    """Reopen a confirmed table (organiser), with a reason."""
    _four_player(tournament)
    table = _table(tournament, pk)
    form = ReopenTableForm(request.POST)
    if form.is_valid():
        try:
            version = svc.parse_version(request.POST.get("version"))
            svc.reopen_table(table, request.user, form.cleaned_data["reason"], expected_version=version)
        except ServiceError as err:
            form.add_error(err.field if err.field in form.fields else None, err.message)
        else:
            messages.success(request, _g("Table {number} reopened.").format(number=table.number))
            return redirect("scoring:table_detail", tournament.slug, table.pk)
    return render(request, "scoring/table_detail.html", _detail_context(request, tournament, table, reopen_form=form), status=400)


def _entry_context(request, tournament, table, entry, *, deal=None, preview=None):
    deals = list(table.deals.order_by("number"))
    return _context(
        request,
        tournament,
        table=table,
        seats=list(table.seats.all()),
        entry=entry,
        deal=deal,
        rows=_rows(table, deals),
        labels=seat_labels(tournament),
        state_text=_state_text(tournament, table.state),
        preview=preview,
        mpsz_suits=[(suit, [(t, tile_title(t)) for t in tiles]) for suit, tiles in MPSZ_SUITS],
        honours=[(t, tile_title(t)) for t in HONOURS] if tournament.game == Game.TAIWANESE else [],
        flowers=[(t, tile_title(t)) for t in FLOWERS] if tournament.game == Game.TAIWANESE else [],
        locked=is_locked(table),
        confirmation=table.confirmations.filter(active=True).select_related("confirmed_by").first() if is_locked(table) else None,
        reopen_form=ReopenTableForm(),
        tiengow_tiles=[(code, name) for code, name in tiengow_tile_names().items()] if tournament.game == Game.TIENGOW else [],
    )


def _save(request, tournament, table, *, deal=None):
    entry = entry_for(tournament.game, request.POST, names=seat_names(table))
    if entry.is_valid():
        record = entry.record()
        try:
            expected = svc.parse_version(request.POST.get("version"))
            if deal is None:
                saved = svc.add_deal(table, record, request.user, expected_version=expected)
                messages.success(request, _g("Deal {number} saved.").format(number=saved.number))
            else:
                svc.update_deal(deal, record, request.user, expected_version=expected, reason=request.POST.get("reason", ""))
                messages.success(request, _g("Deal {number} changed.").format(number=deal.number))
        except RuleViolation as exc:
            entry.add_violations(exc)
        except ServiceError as err:
            entry.add_error(err.field, err.message)
        else:
            return redirect("scoring:table_enter" if deal is None else "scoring:table_detail", tournament.slug, table.pk)
    table.refresh_from_db()
    return render(request, "scoring/table_enter.html", _entry_context(request, tournament, table, entry, deal=deal), status=400)


@require_role(REFEREE)
def table_enter(request, pk, *, tournament):
    """Deal entry for a table (quick on a phone), with the live preview (``deal_preview``)."""
    _four_player(tournament)
    table = _table(tournament, pk)
    if request.method == "POST":
        return _save(request, tournament, table)
    entry = entry_for(tournament.game, names=seat_names(table))
    return render(request, "scoring/table_enter.html", _entry_context(request, tournament, table, entry))


@require_role(REFEREE)
def deal_edit(request, pk, number, *, tournament):
    """Edit a stored deal; later deals and the totals follow."""
    _four_player(tournament)
    table = _table(tournament, pk)
    deal = get_object_or_404(Deal, table=table, number=number)
    if request.method == "POST":
        return _save(request, tournament, table, deal=deal)
    entry = entry_for(tournament.game, names=seat_names(table), initial=deal.record)
    return render(request, "scoring/table_enter.html", _entry_context(request, tournament, table, entry, deal=deal))


@require_role(REFEREE)
def deal_delete(request, pk, number, *, tournament):
    """Delete a deal (GET: confirm page; POST: delete). Later deals are renumbered."""
    _four_player(tournament)
    table = _table(tournament, pk)
    deal = get_object_or_404(Deal, table=table, number=number)
    error = None
    if request.method == "POST":
        try:
            version = svc.parse_version(request.POST.get("version"))
            svc.delete_deal(deal, request.user, expected_version=version, reason=request.POST.get("reason", ""))
        except (ServiceError, RuleViolation) as err:
            error = err.message if isinstance(err, ServiceError) else "; ".join(violation_message(v) for v in err.violations)
        else:
            messages.success(request, _g("Deal {number} deleted.").format(number=number))
            return redirect("scoring:table_detail", tournament.slug, table.pk)
    return render(
        request,
        "scoring/deal_delete.html",
        _context(request, tournament, table=table, deal=deal, error=error, summary=deal_summary(tournament.game, deal.record), locked=is_locked(table)),
        status=400 if error else 200,
    )


@require_POST
@require_role(REFEREE)
def deal_preview(request, pk, *, tournament):
    """htmx: the engine's items and payments for the form as typed, nothing saved."""
    _four_player(tournament)
    table = _table(tournament, pk)
    entry = entry_for(tournament.game, request.POST, names=seat_names(table))
    replace = request.POST.get("replace_number")
    ctx = _context(request, tournament, table=table, labels=seat_labels(tournament), seats=list(table.seats.all()))
    if not entry.is_valid():
        ctx["errors"] = _collect_errors(entry)
        return render(request, "scoring/deal_preview.html", ctx)
    try:
        preview = svc.preview_deal(table, entry.record(), replace_number=int(replace) if replace and replace.isdigit() else None)
    except RuleViolation as exc:
        entry.add_violations(exc)
        ctx["errors"] = _collect_errors(entry)
    except ServiceError as err:
        ctx["errors"] = [str(err.message)]
    else:
        ctx["preview"] = preview
        ctx["items"] = _items(tournament.game, preview["output"])
        ctx["payments"] = _payments(tournament.game, preview["output"], table)
        ctx["state_after"] = _state_text(tournament, preview["state_after"])
    return render(request, "scoring/deal_preview.html", ctx)


def _payments(game: str, output: dict, table: Table) -> list[dict]:
    """Payments of the engine output as ``{"from", "to", "amount", "reason"}`` with player names
    (Sichuan/Taiwanese ``payments``; Tien Gow immediate and final transfers)."""
    seats = list(table.seats.all())
    if game == Game.TIENGOW:
        names = {s.seat: s.player.name for s in seats}
        rows = []
        for tr in (output.get("final") or {}).get("transfers") or []:
            rows.append({"from": names.get(tr.get("from"), tr.get("from")), "to": names.get(tr.get("to"), tr.get("to")), "amount": tr.get("amount"), "reason": ", ".join(item_label(f) for f in tr.get("factors") or [])})
        return rows
    names = {svc.SEAT_LABELS[s.seat]: s.player.name for s in seats}
    rows = []
    for p in output.get("payments") or []:
        rows.append({"from": names.get(p.get("from"), p.get("from")), "to": names.get(p.get("to"), p.get("to")), "amount": p.get("amount"), "reason": item_label(p.get("reason", "")) if p.get("reason") else ""})
    return rows


def _collect_errors(entry) -> list[str]:
    """Every error of the entry as "label: message" lines, in form order: the field's label (for
    Sichuan event rows "Event n · label"), never an internal field path; each message once."""
    out: list[str] = []
    event_forms = list(getattr(entry, "formset", None) or [])
    for form in entry.forms:
        prefix = _g("Event %(n)s") % {"n": event_forms.index(form) + 1} if form in event_forms else ""  # the fieldset legend
        groups = getattr(form, "group_errors", {})
        items = [(form.fields[name].label if name in form.fields else "", errs) for name, errs in form.errors.items()]
        items += [(form.GROUP_LABELS[key], errs) for key, errs in groups.items()]
        for label, errs in items:
            label = " · ".join(str(x) for x in (prefix, label) if x)
            for e in errs:
                line = f"{label}: {e}" if label else str(e)
                if line not in out:
                    out.append(line)
    return out


def _pretty(name: str) -> str:
    """The translated label of an engine item identifier (``"half_flush"`` -> ``"half flush"``)."""
    return item_label(name)


def _items(game: str, output: dict) -> list[tuple[str, object]]:
    """Fan/tai items of the engine output as ``(name, value)`` pairs (Sichuan: per win)."""
    if game == Game.TAIWANESE:
        items = [(_pretty(k), v) for k, v in (output.get("tai_items") or {}).items()]
        if output.get("dealer_tai"):
            items.append((_g("dealer tai"), output["dealer_tai"]))
        return items
    if game == Game.SICHUAN:
        items = []
        for win in output.get("wins") or []:
            for name, value in (win.get("fan_items") or {}).items():
                items.append((f"{win.get('player', '')} {_pretty(name)}", value))
            if "fan" in win:
                items.append((f"{win.get('player', '')} {_g('fan')}", win["fan"]))
        return items
    if game == Game.TIENGOW:
        out = []
        if output.get("columns") is not None:
            out.append((_g("columns"), "/".join(str(c) for c in output["columns"])))
        for imm in output.get("immediate") or []:
            if isinstance(imm, dict):
                out.append((_g("immediate"), ", ".join(f"{k}: {v}" for k, v in imm.items())))
        return out
    return []


# --------------------------------------------------------------------------------------------
# Standings and PDF


class PlayerStandingsTable(tables2.Table):
    """Four-player standings by total points (django-tables2)."""

    rank = tables2.Column(verbose_name=_("rank"), attrs={"td": {"class": "num"}, "th": {"class": "num"}})
    name = tables2.Column(verbose_name=_("player"))
    affiliation = tables2.Column(verbose_name=_("affiliation"))
    played = tables2.Column(verbose_name=_("tables"), attrs={"td": {"class": "num"}, "th": {"class": "num"}})
    total = tables2.Column(verbose_name=_("total points"), attrs={"td": {"class": "num"}, "th": {"class": "num"}})

    class Meta:
        orderable = False
        attrs = {"class": "standings"}

    def render_name(self, value, record):
        marks = []
        if record.substitute:
            marks.append(str(_("substitute")))
        if record.withdrawn:
            marks.append(str(_("withdrawn")))
        return f"{value} ({', '.join(marks)})" if marks else value


def player_standings(request, slug):
    """Standings by total points of a four-player tournament, in a fixed number of queries."""
    tournament = get_object_or_404(Tournament, slug=slug)
    _four_player(tournament)
    rows = svc.standings(tournament)
    table = PlayerStandingsTable(rows)
    return render(request, "scoring/players_standings.html", _context(request, tournament, table=table))


def table_sheet(request, slug, pk):
    """The PDF score sheet of a table (``scoring.printing.tables.table_sheet_pdf``)."""
    from scoring.printing.tables import table_sheet_pdf

    tournament = get_object_or_404(Tournament, slug=slug)
    _four_player(tournament)
    table = _table(tournament, pk)
    _visible(request, table)
    response = HttpResponse(table_sheet_pdf(table), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{tournament.slug}-r{table.round.number}-t{table.number}.pdf"'
    return response


def round_tables_sheets(request, slug, number):
    """Every table score sheet of a round in one PDF (``scoring.printing.tables.round_tables_pdf``)."""
    from scoring.printing.tables import round_tables_pdf

    tournament = get_object_or_404(Tournament, slug=slug)
    _four_player(tournament)
    rnd = get_object_or_404(Round.objects.select_related("tournament"), tournament=tournament, number=number)
    if rnd.status == Round.Status.DRAFT and not can_referee(request.user, tournament):
        raise Http404(_g("This round is not published yet."))
    response = HttpResponse(round_tables_pdf(rnd), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{tournament.slug}-r{rnd.number}-tables.pdf"'
    return response


__all__ = [
    "deal_delete",
    "deal_edit",
    "deal_preview",
    "player_edit",
    "player_standings",
    "player_withdraw",
    "players",
    "round_seat",
    "round_tables",
    "round_tables_sheets",
    "round_tables_close",
    "round_tables_publish",
    "table_confirm",
    "table_detail",
    "table_reopen",
    "table_enter",
    "table_sheet",
]
