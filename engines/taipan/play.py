"""Command ``play``: judge one play (docs/engines/taipan.md; NSKT rules, Tai Pan section; issue 3 items 1-2).

Input::

    {"current": null | {"cards": [...], "phoenix_as": rank?},   # the combination on the table
     "play": [...],                                             # [] = pass
     "hand": [...]?,                                            # the player's cards, play included
     "wish": 2..14 | null,                                      # the standing Mahjong wish
     "in_turn": true,                                           # false: out of turn (bombs only)
     "rules": ...?}

Output::

    {"legal": bool, "combination": {"type", "length", "rank", "phoenix_as", "bomb", "cards"} | null,
     "reason": English message, "reason_template": untranslated template, "reason_params": {...},
     "wish_checked": bool,   # false when a wish stands, no hand was given and the play lacks the rank
     "wish_fulfilled": bool, "wish": rank | null (the wish standing after a legal play)}

A Phoenix single's rank is the single beaten + 0.5 (1.5 when led); ``current.phoenix_as`` gives the
rank of a Phoenix single on the table (without it, 1.5) or what the Phoenix stands for in a
combination on the table (without it, the highest reading). The play's ``phoenix_as`` picks a
reading; without it the highest legal reading is taken. An illegal play is ``"legal": false`` with
the reason.

Input that cannot occur in a deal raises RuleViolation, every problem with its field:

- ``current.cards``/``play``/``hand``: an unknown card, or a card twice in one list; a table that
  is no combination (``current.cards``);
- ``hand``: more than 14 cards (each player is dealt 14 and the exchange keeps 14), or no card at
  all (a player without cards is out and does not play);
- ``play``: a card not in the given ``hand``, or a card that lies on the table;
- ``hand``: a card that lies on the table;
- ``current.phoenix_as``: a Phoenix single on the table ranks half above the single it beat (1.5
  when led, at most 14.5: it never beats the Dragon), so only 1.5, 2.5, .. 14.5;
- ``hand``/``play``: the Mahjong while a wish stands (the wish is made by playing the Mahjong).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from engines.errors import Collector
from engines.i18n import _
from engines.taipan.cards import ACE_RANK, MAHJONG, PHOENIX, Card, parse_cards, rank_name
from engines.taipan.combinations import (
    Combination,
    CombinationType,
    beats,
    can_fulfil_wish,
    phoenix_single_rank,
    reading_with_phoenix,
    readings,
)
from engines.taipan.rules import get_rules

HAND_SIZE = 14
"""Cards dealt to each player; the exchange gives three and receives three, so no hand is larger."""


class Judgement:
    """Result of :func:`judge`: ``legal``, the chosen ``combination`` (or None), the reason as a
    ``template`` + ``params``, and the wish bookkeeping (``wish_checked``, ``wish_fulfilled``,
    ``wish_after``: the wish standing after the play).

    ``params`` may be given as a dict, or as a function returning it (or a tuple ``(function,
    *arguments)``): the reason's parameters (names and ranks for the message) are then only built
    when ``params``, ``reason`` or ``to_json`` is used, so a caller that needs only the verdict
    (``replay``) never builds a description.
    """

    __slots__ = ("legal", "combination", "template", "_params", "wish_checked", "wish_fulfilled", "wish_after")

    def __init__(self, legal: bool, combination: Combination | None, template: str,
                 params: dict[str, Any] | Callable[[], dict[str, Any]] | tuple[Any, ...] | None = None,
                 wish_checked: bool = True, wish_fulfilled: bool = False, wish_after: int | None = None):
        self.legal = legal
        self.combination = combination
        self.template = template
        self._params = params
        self.wish_checked = wish_checked
        self.wish_fulfilled = wish_fulfilled
        self.wish_after = wish_after

    @property
    def params(self) -> dict[str, Any]:
        """The reason's parameters (built on first use)."""
        params = self._params
        if params is None:
            params = self._params = {}
        elif type(params) is tuple:
            params = self._params = params[0](*params[1:])
        elif callable(params):
            params = self._params = params()
        return params

    @property
    def reason(self) -> str:
        """The English reason (a :meth:`str.format` template, like a violation's message)."""
        try:
            return self.template.format(**self.params)
        except (KeyError, IndexError, ValueError):
            return self.template

    def to_json(self) -> dict[str, Any]:
        """The ``play`` command output."""
        return {
            "legal": self.legal,
            "combination": self.combination.to_json() if self.combination else None,
            "reason": self.reason,
            "reason_template": self.template,
            "reason_params": self.params,
            "wish_checked": self.wish_checked,
            "wish_fulfilled": self.wish_fulfilled,
            "wish": self.wish_after,
        }


def _describe(combo: Combination) -> dict[str, Any]:
    return {"type": combo.type.value.replace("_", " "), "length": combo.length, "rank": rank_name(combo.rank)}


def _beats_params(combo: Combination, current: Combination) -> dict[str, Any]:
    return {**_describe(combo), "current": _describe(current)["type"], "current_rank": rank_name(current.rank)}


def _wish_params(wish: int) -> dict[str, Any]:
    return {"wish": rank_name(wish)}


def _rank_params(rank: float) -> dict[str, Any]:
    return {"rank": rank_name(rank)}


def _fulfil_params(combo: Combination, wish: int) -> dict[str, Any]:
    return {**_describe(combo), "wish": rank_name(wish)}


_DOG = CombinationType.DOG
_LEAD = _("Legal: any combination may be led.")
_BEATS = _("Legal: a {type} of rank {rank} beats the {current} of rank {current_rank}.")


def table_reading(cards: list[Card], phoenix_as: float | None) -> Combination | None:
    """The reading of the combination on the table: a Phoenix single ranks ``phoenix_as`` (default
    1.5); otherwise the reading with that Phoenix value, or the highest reading. None: no combination."""
    if len(cards) == 1 and cards[0] is PHOENIX:
        value = phoenix_as if phoenix_as is not None else 1.5
        return Combination(CombinationType.SINGLE, 1, value, tuple(cards), value)
    options = readings(cards)
    if phoenix_as is not None:
        options = [r for r in options if r.phoenix_as == phoenix_as]
    return options[0] if options else None


def pass_refusal(current: Combination | None, hand: Iterable[Card] | None, wish: int | None) -> tuple[str, dict[str, Any]] | None:
    """Why a player on turn may not pass, as ``(template, params)``, or None when passing is allowed.

    The player who leads must play; a player who can fulfil the standing ``wish`` on ``current``
    (bombs included, see :func:`can_fulfil_wish`) must. ``hand`` None: the wish is not checked.
    Source: NSKT rules, Tai Pan section ("Mahjong": the wish), docs/engines/taipan.md."""
    if current is None:
        return _("The player who leads must play; passing is not allowed."), {}
    if wish is not None and hand is not None and can_fulfil_wish(hand, current, wish):
        return _("The player can fulfil the wish for {wish} and must do so; passing is not allowed."), {"wish": rank_name(wish)}
    return None


def judge(
    current: Combination | None,
    play: list[Card],
    *,
    hand: list[Card] | set[Card] | None = None,
    wish: int | None = None,
    in_turn: bool = True,
    phoenix_as: float | None = None,
    rules: dict[str, Any],
) -> Judgement:
    """Judge ``play`` on ``current`` (None = the player leads). ``hand`` (the player's cards
    including ``play``) enables the wish obligation check; without it ``wish_checked`` is False
    when the play does not contain the wished rank. ``phoenix_as`` picks the reading of a Phoenix in
    a combination (only that reading is classified). Rules used: ``in_turn_bomb_ignores_wish``.
    The verdict's reason parameters are built only when asked for (see :class:`Judgement`).
    Source: NSKT rules ("Bommen", "Mahjong", "Hond", "Draak", "Feniks"), docs/engines/taipan.md."""
    if not play:
        if not in_turn:
            return Judgement(True, None, _("A player who is not on turn may always wait."), wish_after=wish)
        if current is not None and wish is not None and hand is None:
            return Judgement(True, None, _("Passing is allowed unless the player can fulfil the wish for {wish}; without the hand this was not checked."),
                             (_wish_params, wish), wish_checked=False, wish_after=wish)
        refusal = pass_refusal(current, hand, wish)
        if refusal is not None:
            return Judgement(False, None, refusal[0], refusal[1], wish_after=wish)
        return Judgement(True, None, _("Passing is allowed."), wish_after=wish)

    if phoenix_as is not None and len(play) > 1:
        options = reading_with_phoenix(play, phoenix_as)
        if not options:
            every = readings(play, current)
            if not every:
                return Judgement(False, None, _no_combination_reason(play), wish_after=wish)
            return Judgement(False, every[0], _("The Phoenix cannot stand for {rank} in these cards."),
                             (_rank_params, phoenix_as), wish_after=wish)
    else:
        options = readings(play, current)
        if not options:
            return Judgement(False, None, _no_combination_reason(play), wish_after=wish)
    if len(options) == 1:  # almost always: only a Phoenix gives a choice
        combo = options[0]
        legal = beats(combo, current)
    else:
        legal_options = [r for r in options if beats(r, current)]
        legal = bool(legal_options)
        combo = legal_options[0] if legal else options[0]

    if not in_turn:
        if not combo.is_bomb:
            return Judgement(False, combo, _("Only a bomb may be played out of turn."), wish_after=wish)
        if current is None:
            return Judgement(False, combo, _("A bomb out of turn needs a combination on the table to beat."), wish_after=wish)
    if current is not None:
        if combo.type is _DOG:
            return Judgement(False, combo, _("The Dog may only be played as a lead."), wish_after=wish)
        if current.type is _DOG:
            return Judgement(False, combo, _("The Dog cannot be beaten, not even by a bomb."), wish_after=wish)
        if not legal:
            return _not_beating(combo, current, wish)
    if wish is None:  # the usual case: legal, nothing to check about a wish
        if current is None:
            return Judgement(True, combo, _LEAD)
        return Judgement(True, combo, _BEATS, (_beats_params, combo, current))

    fulfilled = wish is not None and combo.has_rank(wish)
    wish_checked = True
    if wish is not None and not fulfilled and in_turn:
        if hand is None:
            wish_checked = False
        elif can_fulfil_wish(hand, current, wish):
            if combo.is_bomb and rules["in_turn_bomb_ignores_wish"]:
                return Judgement(True, combo, _("A bomb may be played in turn without the wished {wish}; the wish stays."),
                                 (_wish_params, wish), wish_after=wish)
            return Judgement(False, combo, _("The player can fulfil the wish for {wish} and must play a combination containing it."),
                             (_wish_params, wish), wish_after=wish)
    if fulfilled:
        template = _("Legal: the {type} fulfils the wish for {wish}.")
        params: tuple[Any, ...] | None = (_fulfil_params, combo, wish)
    elif not wish_checked:
        template = _("Legal if the player cannot fulfil the wish for {wish}; without the hand this was not checked.")
        params = (_wish_params, wish)
    elif current is None:
        template = _LEAD
        params = None
    else:
        template = _BEATS
        params = (_beats_params, combo, current)
    return Judgement(True, combo, template, params, wish_checked, fulfilled, None if fulfilled else wish)


def _not_beating(combo: Combination, current: Combination, wish: int | None) -> Judgement:
    """The verdict on a combination that does not beat ``current`` (the reason says why)."""
    if combo.type is CombinationType.SINGLE and PHOENIX in combo.cards and current.rank >= 15:
        return Judgement(False, combo, _("The Phoenix cannot beat the Dragon."), wish_after=wish)
    if current.is_bomb and not combo.is_bomb:
        return Judgement(False, combo, _("Only a higher bomb beats a bomb."), wish_after=wish)
    if combo.type is not current.type:
        return Judgement(False, combo, _("A {type} cannot beat a {current}; play the same type of combination or a bomb."),
                         lambda: {"type": _describe(combo)["type"], "current": _describe(current)["type"]}, wish_after=wish)
    if combo.length != current.length and not combo.is_bomb:
        return Judgement(False, combo, _("The play has {length} cards but must have {needed}, as many as the {current} on the table."),
                         lambda: {"length": combo.length, "needed": current.length, "current": _describe(current)["type"]}, wish_after=wish)
    if combo.type is CombinationType.STRAIGHT_FLUSH and combo.length < current.length:
        # NSKT rules, bombs: a straight flush is first compared by length, then by its top card.
        return Judgement(False, combo, _("A straight flush of {length} cards does not beat a longer straight flush ({needed} cards)."),
                         lambda: {"length": combo.length, "needed": current.length}, wish_after=wish)
    return Judgement(False, combo, _("A {type} of rank {rank} does not beat a {current} of rank {current_rank}."),
                     lambda: {**_describe(combo), "current": _describe(current)["type"], "current_rank": rank_name(current.rank)},
                     wish_after=wish)


def _no_combination_reason(play: list[Card]) -> str:
    kinds = {c.code for c in play}
    if "Dog" in kinds:
        return _("The Dog is never part of a combination; it is played alone.")
    if "Dragon" in kinds:
        return _("The Dragon can only be played as a single.")
    if "Phoenix" in kinds and len(play) == 5:
        ranks = [c.rank for c in play if c.is_normal]
        if len(ranks) == 4 and len(set(ranks)) == 1:
            return _("Four of a kind with the Phoenix is not a full house, and the Phoenix cannot be part of a bomb.")
    if "Phoenix" in kinds and len(play) == 4:
        ranks = [c.rank for c in play if c.is_normal]
        if len(set(ranks)) == 1:
            return _("The Phoenix cannot be part of a bomb.")
    return _("These cards form no combination.")


def _parse_rank(raw: Any, field: str, errors: Collector, *, low: int = 2, high: int = ACE_RANK) -> int | None:
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int) or not low <= raw <= high:
        errors.add(field, _("A wish must be a rank from {low} to {high} (J 11, Q 12, K 13, A 14), not {value!r}."),
                   low=low, high=high, value=raw)
        return None
    return raw


def _parse_phoenix_as(raw: Any, field: str, errors: Collector) -> float | None:
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, (int, float)) or not 1 <= raw <= 15 or (raw * 2) != int(raw * 2):
        errors.add(field, _("phoenix_as must be a rank such as 7 or, for a single, 13.5; not {value!r}."), value=raw)
        return None
    return raw


#: The fields of the ``play`` command's input and of its ``current``: any other is refused (a
#: misspelt ``hand``, ``wish`` or ``phoenix_as`` would otherwise judge the play without it).
PLAY_FIELDS = frozenset({"rules", "current", "play", "hand", "wish", "in_turn", "phoenix_as"})
CURRENT_FIELDS = frozenset({"cards", "phoenix_as"})


def play(data: dict[str, Any]) -> dict[str, Any]:
    """Command ``play`` (see the module docstring for input and output). Raises RuleViolation for
    malformed input, each problem with its field (``current.cards[2]``, ``play``, ``hand``, ``wish``),
    and for a field the input does not have (:data:`PLAY_FIELDS`, :data:`CURRENT_FIELDS`)."""
    rules = get_rules(data.get("rules"))
    errors = Collector()
    current_raw = data.get("current")
    if not data.keys() <= PLAY_FIELDS or (isinstance(current_raw, dict) and not current_raw.keys() <= CURRENT_FIELDS):
        errors.refuse_unknown(data, PLAY_FIELDS)
        errors.refuse_unknown(current_raw, CURRENT_FIELDS, "current.")
        errors.raise_if_any()
    current_cards: list[Card] | None = None
    current_ph = None
    if current_raw is not None:
        if not isinstance(current_raw, dict):
            errors.add("current", _("The combination on the table must be null or an object with cards."))
        else:
            current_cards = parse_cards(current_raw.get("cards"), "current.cards", errors, allow_empty=False)
            current_ph = _parse_phoenix_as(current_raw.get("phoenix_as"), "current.phoenix_as", errors)
    cards = parse_cards(data.get("play", []), "play", errors)
    hand = None
    if data.get("hand") is not None:
        hand = parse_cards(data.get("hand"), "hand", errors)
    wish = _parse_rank(data.get("wish"), "wish", errors)
    in_turn = data.get("in_turn", True)
    if not isinstance(in_turn, bool):
        errors.add("in_turn", _("in_turn must be true or false."))
    phoenix_as = _parse_phoenix_as(data.get("phoenix_as"), "phoenix_as", errors)
    errors.raise_if_any()
    current = None
    played = set(cards)
    held = set(hand) if hand is not None else None
    if hand is not None:
        if len(hand) > HAND_SIZE:
            errors.add("hand", _("A player holds at most {max} cards, not {count}."), max=HAND_SIZE, count=len(hand))
        elif not hand:
            errors.add("hand", _("A player without cards is out of the hand and plays no more."))
    if wish is not None:
        if MAHJONG in played:
            errors.add("play", _("A wish stands only after the Mahjong was played, so the Mahjong cannot be played now."))
        elif held is not None and MAHJONG in held:
            errors.add("hand", _("A wish stands only after the Mahjong was played, so the Mahjong cannot be in the hand."))
    if current_cards and len(current_cards) == 1 and current_cards[0] is PHOENIX and current_ph is not None:
        if not (1.5 <= current_ph <= ACE_RANK + 0.5 and current_ph % 1 == 0.5):
            errors.add("current.phoenix_as", _("A Phoenix single ranks half above the single it beat (1.5 when led, at most 14.5), not {value!r}."),
                       value=current_ph)
    if current_cards:
        current = table_reading(current_cards, current_ph)
        if current is None:
            errors.add("current.cards", _("The cards on the table form no combination."))
        on_table_played = [c.code for c in current_cards if c in played]
        if on_table_played:
            errors.add("play", _("A card on the table cannot be played again: {cards}."), cards=" ".join(on_table_played))
        on_table_held = [c.code for c in current_cards if held is not None and c in held]
        if on_table_held:
            errors.add("hand", _("A card on the table cannot be in the hand: {cards}."), cards=" ".join(on_table_held))
    if held is not None:
        missing = [c.code for c in cards if c not in held]
        if missing:
            errors.add("play", _("The played cards must come from the hand; not in the hand: {cards}."), cards=" ".join(missing))
    errors.raise_if_any()
    result = judge(current, cards, hand=hand, wish=wish, in_turn=in_turn, phoenix_as=phoenix_as, rules=rules)
    return result.to_json()


__all__ = ["HAND_SIZE", "Judgement", "judge", "pass_refusal", "phoenix_single_rank", "play", "table_reading"]
