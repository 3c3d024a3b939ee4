"""What a result page shows (one context for Tai Pan matches and four-player tables): the URLs of
its pages and actions, the record rows with running totals (:mod:`scoring.results.presenter`),
the audit trail and disputes in words, and what the actor may do, every flag asked of the result
sheet (:meth:`scoring.results.result.ResultSheet.refusal`): nothing here decides a permission or
a state rule."""
from __future__ import annotations

from collections.abc import Iterator, Mapping

from django.urls import reverse
from django.utils.translation import gettext as _t

from scoring import policy
from scoring.kinds import PAGE_ACTIONS, ResultKind
from scoring.models import AuditEntry, ResultContainer, Tournament
from scoring.results import presenter, sheet
from scoring.results.sheet import Action, Code
from scoring.web.decorators import actor_of
from scoring.web.forms.results import ReasonForm


class ResultURLs(Mapping):
    """The URLs of a result's pages and actions by key (:data:`scoring.kinds.PAGE_ACTIONS` and
    ``round``; record URLs take a number: :func:`record_url`), each reversed when first read: a
    round's page shows one or two of them per table, not all of them."""

    __slots__ = ("_kind", "_slug", "_container", "_urls")

    def __init__(self, kind: ResultKind, tournament: Tournament, container: ResultContainer) -> None:
        self._kind, self._slug, self._container, self._urls = kind, tournament.slug, container, {}

    def _names(self) -> list[str]:
        return [*PAGE_ACTIONS, "round"]

    def __getitem__(self, key: str) -> str:
        url = self._urls.get(key)
        if url is None:
            if key == "round":
                url = reverse("scoring:round_pairings", args=[self._slug, self._container.round.number])
            elif key in PAGE_ACTIONS:
                url = reverse(self._kind.url_name(key), args=[self._slug, self._container.pk])
            else:
                raise KeyError(key)
            self._urls[key] = url
        return url

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __len__(self) -> int:
        return len(self._names())


def urls_of(kind: ResultKind, tournament: Tournament, container: ResultContainer) -> ResultURLs:
    """The URLs of a result's pages and actions, a read-only mapping reversed on demand
    (:class:`ResultURLs`; record URLs take a number: :func:`record_url`)."""
    return ResultURLs(kind, tournament, container)


def record_url(kind: ResultKind, action: str, tournament: Tournament, container: ResultContainer, number: int) -> str:
    """The URL of a record action (``edit``, ``delete``; ``restore`` takes an audit entry's id)."""
    return reverse(kind.url_name(action), args=[tournament.slug, container.pk, number])


# --------------------------------------------------------------------------- rows


def record_rows(kind: ResultKind, tournament: Tournament, container: ResultContainer, records, *,
                rs: sheet.ResultSheet | None = None, actor=None) -> list[dict]:
    """Display rows of ``records`` (in order, :func:`scoring.results.presenter.record_rows`):
    ``record``, ``number``, ``cells`` (under ``adapter.record_headers()``), ``summary``,
    ``scores`` and ``running`` per side, ``pairs`` of both, edit/delete URLs. With the result's
    sheet ``rs`` and verification per hand also ``verification`` (the state,
    :func:`scoring.results.presenter.verification_state`) and its ``verification_text``, and what
    ``actor`` may do with the row (``can_acknowledge``, ``can_disagree``, the sheet's answers)
    with their URLs; ``verification`` is ``""`` otherwise."""
    # Shown until the result is confirmed (the confirmation then stands for every record).
    verifies = (rs is not None and tournament.verifies_each_record and not rs.is_bye
                and container.status != container.Status.CONFIRMED)
    disputed = {d.record_id for d in rs.open_record_disputes} if verifies else set()
    may_ack = verifies and rs.refusal(Action.ACKNOWLEDGE, actor) is None
    may_disagree = verifies and rs.refusal(Action.DISAGREE, actor) is None
    rows = []
    for row in presenter.record_rows(kind, tournament.adapter, records):
        state = presenter.verification_state(row.rec, disputed) if verifies else ""
        rows.append({
            "record": row.rec, "number": row.number, "cells": row.cells, "summary": row.summary,
            "summary_html": row.summary_html,
            "scores": list(row.scores), "running": list(row.running), "pairs": row.pairs,
            "edit_url": record_url(kind, "edit", tournament, container, row.number),
            "delete_url": record_url(kind, "delete", tournament, container, row.number),
            "verification": state, "verification_text": presenter.verification_label(state) if state else "",
            "revision": row.rec.revision,
            "can_acknowledge": may_ack and rs.allows(Action.ACKNOWLEDGE, actor, number=row.number),
            "can_disagree": may_disagree and rs.allows(Action.DISAGREE, actor, number=row.number),
        })
        if rows[-1]["can_acknowledge"] or rows[-1]["can_disagree"]:
            rows[-1]["acknowledge_url"] = record_url(kind, "acknowledge", tournament, container, row.number)
            rows[-1]["disagree_url"] = record_url(kind, "disagree", tournament, container, row.number)
    return rows


def audit_rows(kind: ResultKind, tournament: Tournament, container: ResultContainer, entries, actor=None) -> list[dict]:
    """Display rows of the audit trail: one translated sentence per entry, readable old and new
    values (no raw JSON, :mod:`scoring.results.presenter`), and whether and how ``actor`` can
    restore it now (:func:`scoring.results.sheet.entry_refusal`: a button only where the restore
    would go through)."""
    adapter = tournament.adapter
    rs = sheet.load(container)
    number = kind.number(container)
    container_sentences = {
        AuditEntry.Action.END: _t("Ended at the time limit (table %(table)s)"),
        AuditEntry.Action.RESUME: _t("Play resumed after the time limit (table %(table)s)"),
        AuditEntry.Action.CONFIRM: _t("Result of table %(table)s confirmed"),
        AuditEntry.Action.REOPEN: _t("Result of table %(table)s reopened"),
        AuditEntry.Action.RESTORE: _t("End at the time limit restored (table %(table)s)"),
        AuditEntry.Action.DISPUTE: _t("Totals of table %(table)s disputed"),
    }
    rows = []
    for e in entries:
        if e.object_type == kind.record_key and e.action == AuditEntry.Action.DISPUTE:
            new = e.new or {}
            what = adapter.audit_sentence(e.action, new.get("number", "?"))
            old_text = presenter.record_text(kind, adapter, e.old)
            new_text = _t("their scores: %(totals)s") % {"totals": presenter.totals_text(adapter, new.get("totals"))}
        elif e.object_type == kind.record_key:
            snapshot = e.new or e.old or {}
            what = adapter.audit_sentence(e.action, snapshot.get("number", "?"))
            old_text, new_text = presenter.record_text(kind, adapter, e.old), presenter.record_text(kind, adapter, e.new)
        elif e.action == AuditEntry.Action.DISPUTE:
            what = container_sentences[e.action] % {"table": number}
            old_text = presenter.result_text(kind, adapter, e.old)
            new_text = _t("their totals: %(totals)s") % {"totals": presenter.totals_text(adapter, (e.new or {}).get("totals"))}
        else:
            what = container_sentences.get(e.action, e.get_action_display()) % {"table": number}
            old_text, new_text = presenter.result_text(kind, adapter, e.old), presenter.result_text(kind, adapter, e.new)
        rows.append({
            "entry": e, "what": what, "old_text": old_text, "new_text": new_text,
            "restorable": actor is not None and sheet.entry_refusal(rs, e, actor) is None,
            "restore_label": _t("Restore the version before this change") if e.action == AuditEntry.Action.DELETE
            else _t("Restore this version"),
            "restore_url": record_url(kind, "restore", tournament, container, e.pk),
        })
    return rows


def dispute_rows(adapter, disputes, *, show_entered: bool = True) -> list[dict]:
    """Display rows of a result's open disputes: who reported it, when, both versions of the
    totals (``entered``: what was entered then, left out for a side that must not see it before
    confirming blind) and the note."""
    return [{"dispute": d, "who": d.via_entrant, "when": d.created_at, "theirs": presenter.totals_text(adapter, d.totals),
             "entered": presenter.totals_text(adapter, d.entered_totals) if show_entered else "", "note": d.note}
            for d in disputes]


def record_dispute_rows(adapter, disputes) -> list[dict]:
    """Display rows of the open disagreements with single records (verification per hand): who,
    when, which record, both versions of its scores and the note (a side that acknowledges sees
    the records, so both versions are shown)."""
    return [{"dispute": d, "who": d.via_entrant, "when": d.created_at, "number": d.number,
             "theirs": presenter.totals_text(adapter, d.totals), "entered": presenter.totals_text(adapter, d.entered_totals),
             "note": d.note} for d in disputes]


def short_label(label: str) -> str:
    """A side's label short enough for a phone's column head: as it is up to 3 characters
    ("NS"), else its number ("Seat 2" -> "2") or its first letter ("East" -> "E")."""
    label = str(label)
    if len(label) <= 3:
        return label
    last = label.split()[-1]
    return last if last.isdigit() else label[:1]


def named_errors(form) -> list[dict]:
    """The errors of a plain form (a reason, a confirmation) as ``{"label", "id", "message"}``,
    fields in form order and then the form's own errors (``label`` and ``id`` empty): banners and
    messages say which field an error is about ("Reason: This field is required."), as the entry
    page's banner does (:func:`error_fields`)."""
    out = []
    for name, errors in form.errors.items():
        field = form.fields.get(name)
        for message in errors:
            if field is None:
                out.append({"label": "", "id": "", "message": message})
            else:
                out.append({"label": str(field.label or name), "id": form[name].auto_id, "message": message})
    return sorted(out, key=lambda e: not e["label"])


def error_fields(entry) -> list[dict]:
    """The fields of ``entry`` that carry an error, in page order, as ``{"label", "id"}`` (the
    banner at the top of the form links to them; the messages themselves stand at the fields)."""
    out = []
    for form in entry.forms:
        prefix = entry.form_label(form)
        for name in form.errors:
            if name == "__all__" or name not in form.fields:
                continue
            label = " · ".join(str(x) for x in (prefix, form.fields[name].label) if x)
            out.append({"label": label, "id": form[name].auto_id})
        for key in getattr(form, "group_errors", {}) or {}:
            out.append({"label": str(form.GROUP_LABELS[key]), "id": f"{key}_errors"})
    return out


# --------------------------------------------------------------------------- the page


def _abilities(rs: sheet.ResultSheet, actor) -> dict:
    """What ``actor`` may do and see on the result, every flag the sheet's answer
    (:meth:`~scoring.results.result.ResultSheet.refusal`)."""
    confirm_refusal = rs.refusal(Action.CONFIRM, actor)
    enter_refusal = rs.refusal(Action.ENTER, actor)
    return {
        "member": rs.allows(Action.SEE_AUDIT, actor),
        "referee": rs.permitted(Action.ENTER, actor),
        "may_enter": enter_refusal is None,
        "can_add": rs.allows(Action.ADD, actor),
        "can_edit": rs.allows(Action.CHANGE, actor),
        "can_end": rs.allows(Action.END, actor),
        "can_resume": rs.allows(Action.RESUME, actor),
        "can_confirm": confirm_refusal is None,
        "confirm_refusal": str(confirm_refusal or ""),
        "can_dispute": rs.allows(Action.DISPUTE, actor),
        "can_reopen": rs.allows(Action.REOPEN, actor),
        "hide_totals": not rs.allows(Action.SEE_TOTALS, actor),
        "other_side_enters": enter_refusal is not None and enter_refusal.code == Code.OTHER_SIDE_ENTERS,
    }


def _page_state(rs: sheet.ResultSheet) -> dict:
    """What the result's state shows, whoever looks (no permission in it)."""
    c, rnd = rs.container, rs.round
    bye = rs.is_bye
    return {
        "bye": bye,
        # The page re-reads its changing part while something can still change (htmx polling).
        "live": not bye and rnd.is_open,
        # Its records can still change (whoever may change them).
        "entry_open": rs.refusal(Action.CHANGE, None, permission=False) is None,
        "state_text": rs.adapter.state_text(c.state) if rs.kind.carries_state else "",
        "winner_name": presenter.winner_name(c),
        "outcome_text": presenter.outcome_text(c),
        "title": rs.kind.title(c),
    }


def _member_context(rs: sheet.ResultSheet, tournament: Tournament, member: bool, actor) -> dict:
    """The confirmation history and the audit trail (members only)."""
    if not member:
        return {"confirmation": None, "confirmations": [], "audit": []}
    c, kind = rs.container, rs.kind
    confirmations = sheet.confirmation_history(c)
    entries = list(AuditEntry.objects.filter(**kind.audit_link(c)).select_related("user").order_by("-created_at", "-id"))
    return {"confirmation": next((x for x in confirmations if x.active), None), "confirmations": confirmations,
            "audit": audit_rows(kind, tournament, c, entries, actor)}


def result_context(request, tournament: Tournament, container: ResultContainer, kind: ResultKind, **extra) -> dict:
    """Everything a result page shows. ``extra`` (forms, flags) overrides the defaults. What the
    page offers depends on the actor (:func:`scoring.web.decorators.actor_of`): a member, an
    entrant of this table through its private link, or the public; each flag is the result
    sheet's answer (:func:`_abilities`)."""
    adapter, actor = tournament.adapter, actor_of(request)
    rs = sheet.load(container)
    can = _abilities(rs, actor)
    state = _page_state(rs)
    entrant = actor if policy.is_entrant(actor) and kind.is_side(actor, container) else None
    entered_it = entrant is not None and rs.changed_by(entrant)
    sides = kind.sides(container, adapter)
    totals = kind.totals(container)
    for side, total in zip(sides, totals, strict=False):
        side["total"] = total
    disputes = rs.open_disputes if (can["member"] or entrant) and not state["bye"] else []
    ctx = {
        "tournament": tournament, "round": rs.round, "container": container, "kind": kind, "adapter": adapter,
        "number": kind.number(container), "sides": sides, "totals": totals,
        "side_labels": adapter.side_labels(), "record_headers": adapter.record_headers(),
        "record_noun": adapter.record_noun[0], "records_noun": adapter.record_noun[1],
        "ended_text": adapter.ended_text(container.ended, tournament),
        "edit_rule": (adapter.time_ended_rule if container.ended == "time" else adapter.finished_rule)
        % {"records": adapter.record_noun[1]},
        "rows": record_rows(kind, tournament, container, rs.records, rs=rs, actor=actor),
        "verifies_each": tournament.verifies_each_record,
        "record_disputes": record_dispute_rows(adapter, rs.open_record_disputes)
        if (can["member"] or entrant) and tournament.verifies_each_record else [],
        **state, **can,
        "can_organise": policy.can_organise(actor, tournament), "can_referee": can["referee"],
        **_member_context(rs, tournament, can["member"], actor),
        "blind": tournament.blind_confirmation,
        "urls": urls_of(kind, tournament, container),
        "limit": adapter.record_limit(tournament),
        "reason_form": ReasonForm(), "end_form": ReasonForm(prefix="end"),
        "reopen_form": ReasonForm(prefix="reopen"), "restore_form": ReasonForm(prefix="restore"),
        "stale": False, "show_tokens": False, "result_noun": kind.noun,
        "record_columns": len(adapter.record_headers()) + len(adapter.sides) + 3,
        "side_columns": [(label, short_label(label)) for label in adapter.side_labels()],
        # Private links (issue 15): the entrant of this table acting through its link, if any.
        "entrant": entrant,
        "entrant_home": reverse("scoring:entrant_home", args=[tournament.slug]) if entrant is not None else "",
        "entered_it": entered_it,
        "player_entry": tournament.player_entry,
        "disputes": dispute_rows(adapter, disputes,
                                 show_entered=can["member"] or entered_it or not tournament.blind_confirmation),
    }
    ctx["to_acknowledge"] = [row["number"] for row in ctx["rows"] if row["can_acknowledge"]]
    ctx.update(extra)
    return ctx

