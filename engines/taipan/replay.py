"""Command ``replay``: check a whole hand card by card and score it (docs/engines/taipan.md; issue 3 item 3).

Input (all card codes in docs/engines/taipan.md notation)::

    {"rules": ...?,
     "deal": {"N": [14 cards], "E": [...], "S": [...], "W": [...]},   # 56 distinct cards
     "exchange": {"N": {"E": card, "S": card, "W": card}, ...}?,      # each seat gives one card to
                                                                     # each other seat (optional:
                                                                     # without it the deal is final)
     "calls": {"N": "grand_tai_pan", "E": "tai_pan"}?,               # calls made before the first
                                                                     # play (grand: with the deal)
     "events": [
        {"seat": "N", "action": "play", "cards": ["Mahjong"], "wish": 7},   # wish only with Mahjong
        {"seat": "W", "action": "pass"},
        {"seat": "S", "action": "play", "cards": ["5s", "Phoenix"], "phoenix_as": 5},
        {"seat": "E", "action": "bomb", "cards": ["9j", "9s", "9p", "9t"]},  # in or out of turn
        {"seat": "E", "action": "call"},                 # Tai Pan, before E's first card
        {"seat": "N", "action": "gift", "to": "E"}       # a Dragon trick given to an opponent
     ]}

Rules checked (NSKT rules, Tai Pan section; docs/engines/taipan.md): the holder of the Mahjong leads; play
goes N, W, S, E skipping players who are out; every play is judged by :func:`engines.taipan.play.judge`
(combination, beating, wish obligation with the player's real hand); only bombs out of turn, and
only on a combination; a trick ends after consecutive passes by every other player still in; the
winner (or, when out, the next player still in) leads; the Dog gives the lead to the partner or, if
the partner is out, to the next player still in after the partner; a Dragon trick must be given to
an opponent right away (a ``gift`` event; not when the Dragon was bombed; on the hand's last trick
only if ``dragon_last_trick``); Tai Pan only before the caller's first card, Grand Tai Pan only with
the deal; the hand ends when three players are out or the first two out are partners (double
victory). The tailender's tricks go to the first out, the tailender's hand cards to the opponents.

Output: ``{"first_out", "out_order" (seats in the order they went out, the tailender last; two
seats on a double victory), "tailender", "double_victory", "card_points": {"NS", "EW"}|null,
"calls", "summary" (the ``score`` input), "score" (identical to ``score`` on the summary),
"events": number of events}``. The first illegal event raises RuleViolation on ``events[i]`` with
the rule broken; malformed deal/exchange/calls are reported with every violation (``deal.N[3]``,
``exchange.E.S``, ``calls.W``); an unfinished hand is a violation on ``events``.
"""
from __future__ import annotations

from typing import Any

from engines.errors import Collector, RuleViolation, Violation, suggestion
from engines.i18n import _
from engines.taipan.cards import BY_CODE, DECK, DRAGON, MAHJONG, Card, parse_cards, rank_name
from engines.taipan.combinations import Combination, CombinationType, beats, readings
from engines.taipan.play import _parse_phoenix_as, judge, pass_refusal
from engines.taipan.rules import get_rules
from engines.taipan.scoring import compute_score, validate_calls
from engines.taipan.seats import OPPONENTS, PARTNER, PLAY_ORDER, SEATS, TEAM_OF, TEAMS

ACTIONS = ("play", "pass", "bomb", "call", "gift")
#: The fields of each kind of event (docs/engines/taipan.md): any other field is refused, so a
#: misspelt ``wish`` or ``phoenix_as`` never lets a play be judged without it.
EVENT_FIELDS: dict[str, frozenset[str]] = {
    "play": frozenset({"seat", "action", "cards", "wish", "phoenix_as"}),
    "bomb": frozenset({"seat", "action", "cards"}),
    "pass": frozenset({"seat", "action"}),
    "call": frozenset({"seat", "action", "call"}),
    "gift": frozenset({"seat", "action", "to"}),
}
#: The fields of the command's input.
INPUT_FIELDS = frozenset({"rules", "deal", "exchange", "calls", "events"})


def refuse_unknown_fields(event: dict[str, Any], action: str) -> None:
    """Raise :class:`IllegalEvent` for a field an event of ``action`` does not have
    (:data:`EVENT_FIELDS`): a pass carrying cards, a misspelt ``wish``."""
    extra = event.keys() - EVENT_FIELDS[action]
    if extra:
        if action == "pass" and "cards" in extra:
            raise IllegalEvent(_("A pass carries no cards: play them, or pass without them."))
        name = sorted(extra, key=str)[0]
        close = suggestion(name, EVENT_FIELDS[action])
        if close is not None:
            raise IllegalEvent(_("Unknown field {name!r} in a {action} event; did you mean {suggestion!r}?"), name=name,
                               action=action, suggestion=close)
        raise IllegalEvent(_("Unknown field {name!r} in a {action} event."), name=name, action=action)
_DOG = CombinationType.DOG
_SINGLE = CombinationType.SINGLE
_CARD_OF = BY_CODE.__getitem__  # code -> card (KeyError: unknown code, TypeError: unhashable)
_POINTS_OF = {c: c.points for c in DECK}.__getitem__  # card -> its card points

# The single-card reading of every card whose play alone needs no more than beating the table: the
# suited cards, the Dragon and the Mahjong played without a wish (not the Dog, which passes the
# lead, nor the Phoenix, whose rank depends on the table). Used by HandState.apply_all.
_PLAIN_SINGLES: dict[str, Combination] = {
    c.code: readings([c])[0] for c in DECK if c.is_normal or c is DRAGON or c is MAHJONG
}

# The pass of the player on turn, by the seat on turn (None: nobody is, so no event is that pass).
_PASS_EVENT: dict[str | None, object] = {seat: {"seat": seat, "action": "pass"} for seat in SEATS}
_PASS_EVENT[None] = object()

# The three seats after each seat in play order (N, W, S, E).
_AFTER: dict[str, tuple[str, str, str]] = {
    seat: tuple(PLAY_ORDER[(i + k) % 4] for k in (1, 2, 3)) for i, seat in enumerate(PLAY_ORDER)  # type: ignore[misc]
}


def _known_cards(raw: Any) -> list[Card] | None:
    """The cards of ``raw`` when it is a non-empty list of distinct known codes, else None (the
    caller then reports the problem with :func:`parse_cards`)."""
    if type(raw) is not list:
        return None
    try:
        if len(raw) == 1:
            return [BY_CODE[raw[0]]]
        cards = list(map(_CARD_OF, raw))
    except (KeyError, TypeError):  # an unknown code, or not a string at all
        return None
    if not cards or len(set(cards)) != len(cards):
        return None
    return cards


class IllegalEvent(Exception):
    """Internal: an event broke a rule (template + params)."""

    def __init__(self, template: str, **params: Any):
        super().__init__(template)
        self.template = template
        self.params = params


class HandState:
    """The state of a hand being played, advanced one event at a time with :meth:`apply`.

    ``hands``: seat -> cards held; ``to_move``: the seat to act (None while a Dragon gift is due or
    after the end); ``table``/``owner``/``trick``: the combination to beat, who played it and every
    card of the trick so far; ``won``: seat -> cards of tricks won.
    """

    __slots__ = ("rules", "hands", "calls", "out", "to_move", "table", "owner", "trick", "passes", "wish", "won",
                 "gift_due", "ending", "finished", "double_victory", "played")

    def __init__(self, hands: dict[str, set[Card]], calls: dict[str, str], rules: dict[str, Any]):
        self.rules = rules
        self.hands = {s: set(h) for s, h in hands.items()}
        self.calls = dict(calls)
        self.out: list[str] = []
        self.to_move: str | None = next(s for s in SEATS if MAHJONG in self.hands[s])
        self.table: Combination | None = None
        self.owner: str | None = None
        self.trick: list[Card] = []
        self.passes = 0
        self.wish: int | None = None
        self.won: dict[str, list[Card]] = {s: [] for s in SEATS}
        self.gift_due: str | None = None
        self.ending = False  # the hand ends once the due gift is made
        self.finished = False
        self.double_victory: str | None = None
        self.played: set[str] = set()

    # -- helpers --
    def still_in(self, seat: str) -> bool:
        """Whether ``seat`` still holds cards."""
        return seat not in self.out

    def next_in(self, seat: str) -> str:
        """The next seat after ``seat`` in play order that still holds cards (possibly ``seat``)."""
        out = self.out
        for candidate in _AFTER[seat]:
            if candidate not in out:
                return candidate
        return seat

    def _lead_after_trick(self, winner: str) -> None:
        self.table, self.owner, self.trick, self.passes = None, None, [], 0
        self.to_move = winner if winner not in self.out else self.next_in(winner)

    # -- events --
    def apply(self, event: dict[str, Any]) -> None:
        """Apply one event; raise :class:`IllegalEvent` if it breaks a rule."""
        if not isinstance(event, dict):
            raise IllegalEvent(_("An event must be an object with a seat and an action."))
        seat, action = event.get("seat"), event.get("action")
        if action in EVENT_FIELDS and len(event) > 2:
            refuse_unknown_fields(event, action)
        if seat == self.to_move and seat is not None:
            # The player on turn (so a known seat still holding cards, no gift due, the hand not
            # over): every check below holds, go straight to the action.
            if action == "pass":
                return self._pass(seat)
            if action == "play" or action == "bomb":
                return self._play(seat, event, action)
        if seat not in SEATS:
            raise IllegalEvent(_("Unknown seat {seat!r}; seats are N, E, S and W."), seat=seat)
        if action not in ACTIONS:
            raise IllegalEvent(_("Unknown action {action!r}; actions are play, pass, bomb, call and gift."), action=action)
        if self.finished:
            raise IllegalEvent(_("The hand is already over."))
        if action == "call":
            return self._call(seat, event)
        if self.gift_due is not None:
            if action != "gift":
                raise IllegalEvent(_("{seat} won the trick with the Dragon and must first give it to an opponent."), seat=self.gift_due)
            return self._gift(seat, event)
        if action == "gift":
            raise IllegalEvent(_("There is no Dragon trick to give away."))
        if not self.still_in(seat):
            raise IllegalEvent(_("{seat} has no cards left."), seat=seat)
        if action == "pass":
            return self._pass(seat)
        return self._play(seat, event, action)

    def apply_all(self, events: list[Any]) -> None:
        """Apply ``events`` in order; the first illegal one raises RuleViolation on ``events[i]``.

        The same as :meth:`apply` on each event in turn (a property test holds the two equal on
        random hands, legal and corrupted). Of the 105 events a random hand has, about 60 are
        passes and 44 plays by the player on turn; these are settled here without apply()'s
        checks, which hold for the player on turn:

        - a pass (``{"seat", "action": "pass"}``) with a combination on the table and no wish
          standing: nothing to refuse, so the pass counts at once; otherwise ``_pass`` decides;
        - a play of ``{"seat", "action": "play", "cards"}`` (nothing else: no wish made, no
          Phoenix value) with no wish standing: the first reading of the cards that beats the
          table stands (a suited card, the Dragon or the Mahjong alone in place); a play that
          cannot stand goes to ``_play``, whose refusal names the rule.

        Every other event goes where :meth:`apply` sends it, so every refusal has its reason.
        """
        i = 0
        apply, pass_, play_, stand, end_trick = self.apply, self._pass, self._play, self._stand, self._end_trick
        out, hands = self.out, self.hands  # never rebound during a hand
        singles, pass_event = _PLAIN_SINGLES, _PASS_EVENT
        try:
            for i, event in enumerate(events):  # noqa: B007 - i names the event in the error
                if type(event) is not dict:  # apply() refuses it
                    apply(event)
                    continue
                if event == pass_event[self.to_move]:
                    # {"seat": the player on turn, "action": "pass"}: apply() would go straight
                    # to _pass. With a combination on the table and no wish standing there is
                    # nothing to refuse: the trick ends once every other player still in has
                    # passed, else the next player still in moves.
                    if self.table is not None and self.wish is None:
                        passes = self.passes = self.passes + 1
                        if passes >= 4 - len(out) - (self.owner not in out):  # as _pass
                            end_trick()
                        else:
                            for candidate in _AFTER[self.to_move]:
                                if candidate not in out:
                                    self.to_move = candidate
                                    break
                    else:
                        pass_(self.to_move)
                    continue
                seat = event.get("seat")
                if seat == self.to_move and seat is not None:
                    # The player on turn (so a known seat still holding cards, no gift due,
                    # the hand not over): apply() would go straight to _pass or _play.
                    action = event.get("action")
                    if action == "play":
                        if self.wish is None and len(event) == 3:
                            # {"seat", "action", "cards"}: in turn, no wish standing or made
                            # (a Mahjong played without a wish leaves none), no Phoenix
                            # value given: the play stands on the first reading that beats
                            # the table, as _play would find; any refusal goes to _play.
                            raw = event.get("cards")
                            if type(raw) is list and len(raw) == 1:
                                try:
                                    single = singles.get(raw[0])
                                except TypeError:  # not a code at all (a list, say): _play says so
                                    single = None
                                if single is not None:
                                    hand = hands[seat]
                                    card = single.cards[0]
                                    table = self.table
                                    if card in hand and (table is None or (table.type is _SINGLE and single.rank > table.rank)):
                                        # a single that beats the table, as beats() says
                                        if len(hand) == 1:
                                            stand(seat, hand, [card], single)
                                            continue
                                        # _stand, when the player keeps cards
                                        hand.remove(card)
                                        self.played.add(seat)
                                        self.trick.append(card)
                                        self.table, self.owner, self.passes = single, seat, 0
                                        for candidate in _AFTER[seat]:
                                            if candidate not in out:
                                                self.to_move = candidate
                                                break
                                        else:
                                            self.to_move = seat
                                        continue
                            cards = _known_cards(raw)
                            if cards is not None:
                                hand = hands[seat]
                                if hand.issuperset(cards):
                                    table = self.table
                                    for reading in readings(cards, table):
                                        if beats(reading, table):
                                            stand(seat, hand, cards, reading)
                                            break
                                    else:
                                        play_(seat, event, action)  # refused, with _play's reason
                                    continue
                        play_(seat, event, action)
                        continue
                    if action == "pass":
                        if len(event) > 2:
                            refuse_unknown_fields(event, action)
                        pass_(seat)
                        continue
                    if action == "bomb":
                        play_(seat, event, action)
                        continue
                apply(event)
        except IllegalEvent as exc:
            raise RuleViolation([Violation(f"events[{i}]", exc.template, exc.params)]) from None

    def _call(self, seat: str, event: dict[str, Any]) -> None:
        call = event.get("call", "tai_pan")
        if call == "grand_tai_pan":
            raise IllegalEvent(_("Grand Tai Pan is called with the deal, before the ninth card, not during play."))
        if call != "tai_pan":
            raise IllegalEvent(_("Unknown call {call!r}."), call=call)
        if seat in self.calls:
            raise IllegalEvent(_("{seat} has already called; one call per player."), seat=seat)
        if seat in self.played:
            raise IllegalEvent(_("Tai Pan can only be called before the caller plays a first card."))
        self.calls[seat] = "tai_pan"

    def _gift(self, seat: str, event: dict[str, Any]) -> None:
        if seat != self.gift_due:
            raise IllegalEvent(_("Only {seat}, who won the trick with the Dragon, gives it away."), seat=self.gift_due)
        to = event.get("to")
        if to not in OPPONENTS[seat]:
            raise IllegalEvent(_("The Dragon trick must be given to an opponent ({first} or {second}), not {to!r}."),
                               first=OPPONENTS[seat][0], second=OPPONENTS[seat][1], to=to)
        self.won[to].extend(self.trick)
        self.gift_due = None
        winner = self.owner
        self._lead_after_trick(winner)
        if self.ending:
            self._finish()

    def _pass(self, seat: str) -> None:
        # A pass is not judged as a play: only whether the player may pass (a lead must be played;
        # a player who can fulfil the wish must), see engines.taipan.play.pass_refusal.
        if seat != self.to_move:
            raise IllegalEvent(_("It is {turn}'s turn, not {seat}'s."), turn=self.to_move, seat=seat)
        if self.table is None or self.wish is not None:
            refusal = pass_refusal(self.table, self.hands[seat], self.wish)
            if refusal is not None:
                raise IllegalEvent(refusal[0], **refusal[1])
        passes = self.passes = self.passes + 1
        out = self.out
        if passes >= 4 - len(out) - (self.owner not in out):  # every player still in but the trick's owner
            self._end_trick()
            return
        for candidate in _AFTER[seat]:  # next_in(seat)
            if candidate not in out:
                self.to_move = candidate
                return

    def _end_trick(self) -> None:
        winner = self.owner
        table = self.table
        if table.cards[0] is DRAGON and table.type is _SINGLE:
            self.gift_due = winner
            self.to_move = None
            return
        self.won[winner].extend(self.trick)
        self._lead_after_trick(winner)

    def _play(self, seat: str, event: dict[str, Any], action: str) -> None:
        if len(event) > 3:
            refuse_unknown_fields(event, action)
        raw = event.get("cards")
        cards = _known_cards(raw)
        phoenix_as = event.get("phoenix_as")
        if cards is None or phoenix_as is not None:
            errors = Collector()
            if cards is None:  # parse_cards says what is wrong (it accepts what _known_cards does)
                cards = parse_cards(raw, "cards", errors, allow_empty=False)
            phoenix_as = _parse_phoenix_as(phoenix_as, "phoenix_as", errors)
            if errors:
                raise IllegalEvent(errors.violations[0].template, **errors.violations[0].params)
        hand = self.hands[seat]
        if not hand.issuperset(cards):
            missing = [c.code for c in cards if c not in hand]
            raise IllegalEvent(_("{seat} does not hold {cards}."), seat=seat, cards=" ".join(missing))
        table = self.table
        in_turn = seat == self.to_move
        if not in_turn and table is None:
            raise IllegalEvent(_("It is {turn}'s turn to lead, not {seat}'s."), turn=self.to_move, seat=seat)
        combo = None
        wish_after = None
        if in_turn and phoenix_as is None and self.wish is None:
            # Nearly every play: in turn, no wish standing, no Phoenix value given. judge() then
            # takes the first reading that beats the table (beats() also refuses the Dog on a
            # table and anything on the Dog), so that is the verdict; judge() is asked only for
            # the reason when no reading beats it.
            for reading in readings(cards, table):
                if beats(reading, table):
                    combo = reading
                    break
        if combo is None:
            verdict = judge(table, cards, hand=hand, wish=self.wish, in_turn=in_turn, phoenix_as=phoenix_as, rules=self.rules)
            combo = verdict.combination
            if not verdict.legal:
                if not in_turn and combo is not None and not combo.is_bomb:
                    raise IllegalEvent(_("It is {turn}'s turn, not {seat}'s; only a bomb may be played out of turn."),
                                       turn=self.to_move, seat=seat)
                raise IllegalEvent(verdict.template, **verdict.params)
            wish_after = verdict.wish_after
        if action == "bomb" and not combo.is_bomb:
            raise IllegalEvent(_("A bomb is four of a kind or a straight flush; these cards are a {type}."),
                               type=combo.type.value.replace("_", " "))
        wish = event.get("wish")
        if MAHJONG in cards:
            if wish is not None and (isinstance(wish, bool) or not isinstance(wish, int) or not 2 <= wish <= 14):
                raise IllegalEvent(_("A wish must be a rank from 2 to 14 (J 11, Q 12, K 13, A 14), not {value!r}."), value=wish)
            self.wish = wish
        elif wish is not None:
            raise IllegalEvent(_("Only the player of the Mahjong may make a wish."))
        else:
            self.wish = wish_after
        self._stand(seat, hand, cards, combo)

    def _stand(self, seat: str, hand: set[Card], cards: list[Card], combo: Combination) -> None:
        """The play of ``cards`` (read as ``combo``) by ``seat`` stands: the cards leave ``hand``
        for the trick, ``combo`` is the one to beat, and the next player moves (or the trick, on
        the Dog, or the hand ends). The play was judged legal and the wish settled before."""
        hand.difference_update(cards)
        self.played.add(seat)
        self.trick += cards
        self.table = combo
        self.owner = seat
        self.passes = 0
        out = self.out
        if hand and combo.type is not _DOG:
            # nobody went out, so the hand goes on (it was not over before this play)
            for candidate in _AFTER[seat]:  # next_in(seat)
                if candidate not in out:
                    self.to_move = candidate
                    return
            self.to_move = seat
            return
        if not hand:
            out.append(seat)
        if combo.type is _DOG:
            self.won[seat] += self.trick
            partner = PARTNER[seat]
            self.table, self.owner, self.trick = None, None, []
            if self._hand_over():
                return
            self.to_move = partner if partner not in out else self.next_in(partner)
            return
        if self._hand_over():
            return
        self.to_move = self.next_in(seat)

    def _hand_over(self) -> bool:
        """End the hand on a double victory or when only one player holds cards; True if over."""
        if len(self.out) == 2 and TEAM_OF[self.out[0]] == TEAM_OF[self.out[1]]:
            self.double_victory = TEAM_OF[self.out[0]]
            self._finish()
            return True
        if len(self.out) == 3:
            if self.table is not None:
                if (self.table.type is CombinationType.SINGLE and DRAGON in self.table.cards
                        and self.rules["dragon_last_trick"]):
                    self.gift_due, self.to_move, self.ending = self.owner, None, True
                    return True
                self.won[self.owner].extend(self.trick)
                self.table, self.trick = None, []
            self._finish()
            return True
        return False

    def _finish(self) -> None:
        self.finished = True
        self.to_move = None

    # -- result --
    def result(self) -> dict[str, Any]:
        """The derived summary and score of a finished hand (see the module docstring)."""
        first_out = self.out[0]
        if self.double_victory:
            out_order = list(self.out)
            tailender = None
            points = None
        else:
            tailender = next(s for s in SEATS if s not in self.out)
            out_order = self.out + [tailender]
            won = {s: list(cs) for s, cs in self.won.items()}
            won[first_out].extend(won.pop(tailender))
            points = {team: 0 for team in TEAMS}
            for s, cs in won.items():
                points[TEAM_OF[s]] += sum(map(_POINTS_OF, cs))
            points[TEAM_OF[OPPONENTS[tailender][0]]] += sum(map(_POINTS_OF, self.hands[tailender]))
        summary = {"calls": dict(self.calls), "first_out": first_out, "double_victory": self.double_victory,
                   "card_points": points}
        return {
            "first_out": first_out,
            "out_order": out_order,
            "tailender": tailender,
            "double_victory": self.double_victory,
            "card_points": points,
            "calls": dict(self.calls),
            "summary": summary,
            "score": compute_score(summary, self.rules),
        }


def _dealt(deal: Any) -> dict[str, set[Card]] | None:
    """The four hands of a well-formed ``deal`` (14 known cards per seat, all 56 dealt once), or
    None when anything is off (then :func:`deal_hands` reports every problem)."""
    if type(deal) is not dict or len(deal) != 4:
        return None
    hands: dict[str, set[Card]] = {}
    try:
        for seat in SEATS:
            codes = deal[seat]
            if type(codes) is not list or len(codes) != 14:
                return None
            hands[seat] = set(map(_CARD_OF, codes))
    except (KeyError, TypeError):
        return None
    if len(hands["N"] | hands["E"] | hands["S"] | hands["W"]) != len(DECK):
        return None
    return hands


def _exchanged(hands: dict[str, set[Card]], exchange: Any) -> bool:
    """Apply a well-formed ``exchange`` (each seat gives one distinct card it holds to each other
    seat) to ``hands`` and return True; return False, changing nothing, when anything is off."""
    if type(exchange) is not dict or len(exchange) != 4:
        return False
    moves: list[tuple[str, Card, Card, Card]] = []  # a seat and its gifts to the seats of _AFTER[seat]
    try:
        for seat in SEATS:
            row = exchange[seat]
            if type(row) is not dict or len(row) != 3:
                return False
            a, b, c = _AFTER[seat]
            to_a, to_b, to_c = _CARD_OF(row[a]), _CARD_OF(row[b]), _CARD_OF(row[c])
            held = hands[seat]
            if (to_a is to_b or to_a is to_c or to_b is to_c
                    or to_a not in held or to_b not in held or to_c not in held):
                return False
            moves.append((seat, to_a, to_b, to_c))
    except (KeyError, TypeError):  # a seat or receiver missing, an unknown code, or not a string
        return False
    for seat, *gifts in moves:
        hands[seat].difference_update(gifts)
    for seat, to_a, to_b, to_c in moves:
        a, b, c = _AFTER[seat]
        hands[a].add(to_a)
        hands[b].add(to_b)
        hands[c].add(to_c)
    return True


def deal_hands(data: dict[str, Any], rules: dict[str, Any]) -> tuple[dict[str, set[Card]], dict[str, str]]:
    """Validate ``deal``, ``exchange`` and ``calls``; return the hands after the exchange and the
    calls. Raises RuleViolation listing every problem."""
    hands_ok = _dealt(data.get("deal"))
    if hands_ok is not None:
        errors = Collector()
        calls = validate_calls(data.get("calls"), rules, errors)
        exchange = data.get("exchange")
        if not errors and (exchange is None or _exchanged(hands_ok, exchange)):
            return hands_ok, calls
    return _deal_hands_checked(data, rules)


def _deal_hands_checked(data: dict[str, Any], rules: dict[str, Any]) -> tuple[dict[str, set[Card]], dict[str, str]]:
    """:func:`deal_hands` for input that is not plainly well formed: every problem reported."""
    errors = Collector()
    deal = data.get("deal")
    hands: dict[str, set[Card]] = {}
    if not isinstance(deal, dict):
        errors.add("deal", _("The deal must be an object with 14 cards for each of N, E, S and W."))
        errors.raise_if_any()
    seen: dict[Card, str] = {}
    for seat in SEATS:
        cards = parse_cards(deal.get(seat), f"deal.{seat}", errors)
        if cards is None:
            continue
        if len(cards) != 14:
            errors.add(f"deal.{seat}", _("Each player is dealt 14 cards, not {count}."), count=len(cards))
        for i, c in enumerate(cards):
            if c in seen:
                errors.add(f"deal.{seat}[{i}]", _("The card {code} is also dealt to {seat}."), code=c.code, seat=seen[c])
            else:
                seen[c] = seat
        hands[seat] = set(cards)
    for key in deal:
        if key not in SEATS:
            errors.add(f"deal.{key}", _("Unknown seat {seat!r}; seats are N, E, S and W."), seat=key)
    if not errors and len(seen) != len(DECK):
        errors.add("deal", _("The deal must hold all 56 cards."))
    calls = validate_calls(data.get("calls"), rules, errors)
    exchange = data.get("exchange")
    if exchange is not None and not errors:
        if not isinstance(exchange, dict):
            errors.add("exchange", _("The exchange must be an object: each seat gives one card to each other seat."))
        else:
            given: dict[str, dict[str, Card]] = {}
            for key in exchange:
                if key not in SEATS:
                    errors.add(f"exchange.{key}", _("Unknown seat {seat!r}; seats are N, E, S and W."), seat=key)
            for seat in SEATS:
                row = exchange.get(seat)
                if not isinstance(row, dict):
                    errors.add(f"exchange.{seat}", _("{seat} must give one card to each other player."), seat=seat)
                    continue
                given[seat] = {}
                for other in SEATS:
                    if other == seat:
                        continue
                    code = row.get(other)
                    field = f"exchange.{seat}.{other}"
                    if code is None:
                        errors.add(field, _("{seat} must give one card to {other}."), seat=seat, other=other)
                        continue
                    if not isinstance(code, str) or code not in BY_CODE:
                        errors.add(field, _("Unknown card {code!r}."), code=code)
                        continue
                    c = BY_CODE[code]
                    if c not in hands[seat]:
                        errors.add(field, _("{seat} cannot give {code}: it was not dealt to {seat}."), seat=seat, code=code)
                    elif c in given[seat].values():
                        errors.add(field, _("{seat} gives {code} twice."), seat=seat, code=code)
                    else:
                        given[seat][other] = c
                for other in row:
                    if other not in SEATS or other == seat:
                        errors.add(f"exchange.{seat}.{other}", _("{seat} gives one card to each other seat only."), seat=seat)
            if not errors:
                for seat, row in given.items():
                    hands[seat] -= set(row.values())
                for row in given.values():
                    for other, c in row.items():
                        hands[other].add(c)
    errors.raise_if_any()
    return hands, calls


def replay(data: dict[str, Any]) -> dict[str, Any]:
    """Command ``replay`` (see the module docstring). Raises RuleViolation; a field the input
    (:data:`INPUT_FIELDS`) or an event (:data:`EVENT_FIELDS`) does not have is refused."""
    unknown = Collector()
    unknown.refuse_unknown(data, INPUT_FIELDS)
    unknown.raise_if_any()
    rules = get_rules(data.get("rules"))
    hands, calls = deal_hands(data, rules)
    events = data.get("events")
    if not isinstance(events, list):
        raise RuleViolation([Violation("events", _("Events must be a list of plays, passes, bombs, calls and gifts."))])
    state = HandState(hands, calls, rules)
    state.apply_all(events)
    if not state.finished:
        if state.gift_due is not None:
            raise RuleViolation([Violation("events", _("{seat} won the trick with the Dragon and must still give it to an opponent."),
                                           {"seat": state.gift_due})])
        holding = [s for s in SEATS if state.still_in(s)]
        raise RuleViolation([Violation("events", _("The hand is not finished: {seats} still hold cards."),
                                       {"seats": ", ".join(holding)})])
    out = state.result()
    out["events"] = len(events)
    return out


__all__ = ["EVENT_FIELDS", "INPUT_FIELDS", "HandState", "IllegalEvent", "deal_hands", "rank_name", "refuse_unknown_fields",
           "replay"]
