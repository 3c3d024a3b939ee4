"""The stones adapter: four players seated four to a table (a
:class:`~scoring.games.fourplayer.FourPlayerGame`), a deal is ``{"points": [4 ints]}`` scored by
the stones engine through :func:`engines.run`; the default entry template shows its form."""
from __future__ import annotations

from typing import Any

from django import forms

import engines
from engines.errors import RuleViolation, Violation
from scoring.games.base import RecordOutcome
from scoring.games.entry import Entry
from scoring.games.fourplayer import FourPlayerGame

SEATS = ("0", "1", "2", "3")


class StonesForm(forms.Form):
    """Four points, one field per seat (``p0`` .. ``p3``), labelled with the seated names."""

    def __init__(self, *args, names: dict[str, str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        for seat in SEATS:
            self.fields[f"p{seat}"] = forms.IntegerField(label=(names or {}).get(seat, seat))


class StonesEntry(Entry):
    """The entry of one deal: a :class:`StonesForm`; engine violations on ``points[i]`` go next to
    field ``p<i>``, those on ``points`` to the form."""

    def build(self, data, initial):
        self.form = StonesForm(data, prefix=self.prefix, names=self.names,
                               initial={f"p{i}": v for i, v in enumerate(initial.get("points") or [])})

    def record(self) -> dict[str, Any]:
        return {"points": [self.form.cleaned_data[f"p{s}"] for s in SEATS]}

    def locate(self, parts):
        if parts[:1] == ["points"] and len(parts) > 1 and parts[1] in SEATS:
            return self.form, f"p{parts[1]}"
        return None


class Stones(FourPlayerGame):
    """The stones adapter (engine ``stones``); sides are the seats ``"0"`` .. ``"3"``."""

    key = engine = "stones"
    label = "Stones"
    sides = SEATS
    item_unit = "stones"

    def evaluate_record(self, record, state, settings) -> RecordOutcome:
        """Engine ``score`` with the tournament's rules; the scores are the engine's ``net``."""
        if not isinstance(record, dict):
            raise RuleViolation([Violation("", "The deal record must be an object.")])
        data = {"points": record.get("points")}
        out = engines.run(self.engine, "score", self.with_rules(data, settings.rules))
        return RecordOutcome(data, tuple(out["net"]), out, {})

    def summary(self, record) -> str:
        return " / ".join(str(p) for p in record.get("points") or [])

    def preview_items(self, outcome, names) -> list[tuple[str, Any]]:
        return [("stake", outcome.output["stake"])]

    def entry(self, data=None, *, names=None, initial=None, settings=None):
        return StonesEntry(data, names=names, initial=initial, prefix="deal", settings=settings)
