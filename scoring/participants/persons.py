"""People across tournaments (issue 26 item 1, docs/players.md "People across tournaments").

Every path that creates or edits a :class:`~scoring.models.Player` ends here, so that the entry
points to a :class:`~scoring.models.Person`:

- with a federation number: the person with that number (created when there is none), refused
  when that person's name does not look like the entry's (:func:`name_mismatches`);
- without: a new person. Names are never matched automatically.

A person keeps the name of the entry that made it: linking another entry never renames it.
Federation numbers are shown by one rule (:func:`visible_numbers`).

Two entries of one tournament with the same federation number are refused
(:func:`number_clash`, a validation error next to the field). Changing an entry's number
re-links it; a person left without entries is deleted.

The organiser joins look-alikes by hand: :func:`candidates` lists pairs of a person entered in the
tournament and another person with the same normalised name (:func:`normalise_name`), a
``difflib`` similarity of at least :data:`SIMILARITY`, or the same first name and last-name
initial. :func:`same_person`, :func:`different_people` and :func:`split` are the organiser's
actions (pages and API call them alike; each checks :data:`~scoring.policy.Perm.MANAGE`, locks
both persons and writes an audit entry).
"""
from __future__ import annotations

import difflib
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from scoring import policy
from scoring.errors import NotAllowed, ServiceError
from scoring.models import AuditEntry, DistinctPersons, Person, Player, PublicNames, Tournament
from scoring.participants.entrants import clean_number, name_key
from scoring.policy import Perm

#: ``difflib.SequenceMatcher`` ratio (0..1) on normalised names from which two persons look alike.
SIMILARITY = 0.85

#: Dutch (and German/French) name particles left out when names are compared ("van der Berg" and
#: "Berg" are one surname).
PARTICLES = frozenset({
    "van", "der", "den", "de", "het", "'t", "t", "ter", "ten", "te", "op", "in", "onder", "aan", "bij", "uit",
    "vd", "v.d.", "v/d", "d'", "la", "le", "du", "des", "von", "zu", "zum", "am", "del", "della", "di", "da",
})


def normalise_name(name: str) -> str:
    """A name for comparing people: case and accents folded, spaces collapsed
    (:func:`~scoring.participants.entrants.name_key`), particles after the first word dropped
    (``"Anna van der Bérg"`` -> ``"anna berg"``)."""
    words = name_key(name).split()
    if len(words) < 2:
        return " ".join(words)
    rest = [w for w in words[1:] if w not in PARTICLES]
    return " ".join([words[0], *rest]) if rest else " ".join(words)


def first_and_initial(normalised: str) -> tuple[str, str] | None:
    """``("anna", "b")`` for ``"anna berg"``; ``None`` for a single word."""
    words = normalised.split()
    return (words[0], words[-1][0]) if len(words) >= 2 else None


def looks_alike(a: str, b: str) -> bool:
    """True when names ``a`` and ``b`` look alike by the review list's test (:func:`candidates`):
    the same normalised name, a ``difflib`` ratio of at least :data:`SIMILARITY`, or the same
    first name and last-name initial."""
    na, nb = normalise_name(a), normalise_name(b)
    if na == nb:
        return True
    if difflib.SequenceMatcher(None, na, nb, autojunk=False).ratio() >= SIMILARITY:
        return True
    first = first_and_initial(na)
    return first is not None and first == first_and_initial(nb)


def visible_numbers(actor, numbers: Iterable[str | None]) -> set[str]:
    """Of ``numbers``, the federation numbers ``actor`` may see: staff see all; an organiser sees
    a number only when an entry of a tournament they organise carries it
    (``Player.federation_number``); everyone else none. One query (none for staff or nobody).
    The one rule for the review list, the entries API and the people API (docs/players.md)."""
    wanted = {n for n in numbers if n}
    user = policy.user_of(actor) if actor is not None else None
    if not wanted or user is None:
        return set()
    if getattr(user, "is_staff", False) or getattr(user, "is_superuser", False):
        return wanted
    return set(Player.objects.filter(federation_number__in=wanted, tournament__in=policy.organised_tournaments(user))
               .values_list("federation_number", flat=True))


#: The refusal for a number whose person has another name (translated where it is shown).
NAME_MISMATCH = gettext_noop("This federation number belongs to someone with another name; check the number.")


def name_mismatches(pairs: Iterable[tuple[str, str]]) -> set[str]:
    """Of ``pairs`` ``(number, name)`` (numbers cleaned), the numbers whose person has a name that
    does not look like ``name`` (:func:`looks_alike`): typing someone else's number is refused
    (message :data:`NAME_MISMATCH`). One query."""
    pairs = [(n, name) for n, name in pairs if n]
    if not pairs:
        return set()
    owners = dict(Person.objects.filter(federation_number__in={n for n, _name in pairs})
                  .values_list("federation_number", "name"))
    return {n for n, name in pairs if n in owners and not looks_alike(owners[n], name)}


def number_error(number: str | None, name: str, player: Player | None = None) -> str | None:
    """The form/CSV error for giving ``name`` federation number ``number`` (:data:`NAME_MISMATCH`),
    or ``None``; ``player``: the entry being edited (its own person's number is never refused)."""
    number = clean_number(number)
    if not number or not name or (player is not None and player.pk and player.federation_number == number):
        return None
    return _(NAME_MISMATCH) if name_mismatches([(number, name)]) else None


# --- linking entries to persons --------------------------------------------------------------

def number_clash(tournament: Tournament | None, number: str, exclude_pk: int | None = None) -> Player | None:
    """Another entry of ``tournament`` with federation number ``number`` (cleaned), or ``None``."""
    number = clean_number(number)
    if tournament is None or tournament.pk is None or not number:
        return None
    return Player.objects.filter(tournament=tournament, federation_number=number).exclude(pk=exclude_pk).first()


def _person_with_number(number: str, name: str) -> Person:
    try:
        with transaction.atomic():
            return Person.objects.get_or_create(federation_number=number, defaults={"name": name})[0]
    except IntegrityError:  # created by a concurrent registration in the meantime
        return Person.objects.get(federation_number=number)


def drop_empty(person_ids: Iterable[int | None]) -> int:
    """Delete the persons of ``person_ids`` that have no entries left (their "different people"
    records go with them); the number deleted."""
    ids = {pk for pk in person_ids if pk}
    if not ids:
        return 0
    return Person.objects.filter(pk__in=ids, entries__isnull=True).delete()[1].get("scoring.Person", 0)


def attach(players: list[Player]) -> list[Player]:
    """Give each of ``players`` (new, unsaved entries, or entries whose number changed) its
    person (see the module); the entries are not saved here. Several entries with one number
    share one person. Queries: one for the known numbers, one bulk insert for the new persons."""
    for p in players:
        p.federation_number = clean_number(p.federation_number)
    if name_mismatches((p.federation_number, p.name) for p in players):
        raise ServiceError(_(NAME_MISMATCH), field="federation_number")
    numbers = {p.federation_number for p in players if p.federation_number}
    known = {pr.federation_number: pr for pr in Person.objects.filter(federation_number__in=numbers)} if numbers else {}
    new: list[Person] = []
    for p in players:
        number = p.federation_number
        if number and number not in known:
            known[number] = Person(name=p.name, federation_number=number)
            new.append(known[number])
        elif not number:
            new.append(Person(name=p.name))
    if new:
        Person.objects.bulk_create(new)
    fresh = iter(pr for pr in new if pr.federation_number is None)
    for p in players:
        p.person = known[p.federation_number] if p.federation_number else next(fresh)
    return players


def link(player: Player, was: str | None = None) -> Player:
    """Link a saved or new entry to its person after a create or an edit, and save that link.

    With a number: the person with that number; when nobody has it, the entry's own person if
    that has no number yet (with all its entries: joins the organiser made are kept), else a new
    person. Without: the entry's own person kept when it has no number (its name follows the
    entry's), else a new person; when ``was`` (the entry's number before the edit) is empty too,
    the entry keeps the person it was joined to ("Same person" leaves the joined entry without
    the other's number). A person with entries elsewhere never takes the entry's name. Refused
    (:class:`ServiceError` on ``federation_number``): a number whose person has a name that does
    not look like the entry's (:func:`name_mismatches`), also when an entry keeps its number under
    a new name and the person has other entries. A person left without entries is deleted."""
    player.federation_number = clean_number(player.federation_number)
    old = player.person if player.person_id else None
    number = player.federation_number
    if number and old is not None and old.federation_number == number:
        # Keeping the number under another name: refused when the person has entries elsewhere
        # (renaming an entry must not carry someone else's results to another name).
        if not looks_alike(player.name, old.name) and Player.objects.filter(person=old).exclude(pk=player.pk).exists():
            raise ServiceError(_(NAME_MISMATCH), field="federation_number")
    elif number and name_mismatches([(number, player.name)]):
        raise ServiceError(_(NAME_MISMATCH), field="federation_number")
    if number and old is not None and not old.federation_number and not Person.objects.filter(federation_number=number).exists():
        # A new number for a person without one: the person (with entries joined by the organiser
        # in other tournaments) takes it, and so do all its entries.
        Person.objects.filter(pk=old.pk).update(federation_number=number)
        Player.objects.filter(person=old).update(federation_number=number)
        old.federation_number = number
        person = old
    elif number:
        person = old if old is not None and old.federation_number == number else _person_with_number(number, player.name)
    elif old is not None and (not old.federation_number or was == ""):
        person = old
    else:
        person = Person.objects.create(name=player.name)
    if person.name != player.name and not Player.objects.filter(person=person).exclude(pk=player.pk).exists():
        # Only a person of this one entry follows its name; a person with entries elsewhere (one
        # reached by number among them) keeps the name it has (docs/players.md).
        person.name = player.name
        person.save(update_fields=["name", "updated_at"])
    player.person = person
    if player.pk:
        Player.objects.filter(pk=player.pk).update(person=person, federation_number=number)
    else:
        player.save()
    if old is not None and old.pk != person.pk:
        drop_empty([old.pk])
    return player


def create_player(tournament: Tournament, name: str, **fields) -> Player:
    """A new entry of ``tournament`` linked to its person (``fields``: other Player fields)."""
    player = Player(tournament=tournament, name=name, **fields)
    attach([player])
    player.save()
    return player


def shared_entries(players: list[Player]) -> list[Player]:
    """Of ``players``, those whose person has other entries too (an organiser may split them
    off: :func:`split`); one query."""
    ids = [p.person_id for p in players if p.person_id]
    shared = set(Player.objects.filter(person_id__in=ids).exclude(pk__in=[p.pk for p in players])
                 .values_list("person_id", flat=True))
    return [p for p in players if p.person_id in shared]


# --- the organiser's actions -----------------------------------------------------------------

def _require(actor, tournament: Tournament) -> None:
    if not policy.has_perm(actor, Perm.MANAGE, tournament):
        raise NotAllowed(_("Only the tournament's organisers may join or separate people."))


def _lock_two(a: int, b: int) -> tuple[Person, Person]:
    if a == b:
        raise ServiceError(_("Choose two different people."))
    rows = {p.pk: p for p in Person.objects.select_for_update().filter(pk__in=sorted((a, b))).order_by("pk")}
    if len(rows) != 2:
        raise ServiceError(_("One of these people no longer exists. Reload the page."))
    return rows[a], rows[b]


def _audit(tournament: Tournament, actor, object_id: int, old, new) -> None:
    AuditEntry.objects.create(tournament=tournament, user=policy.user_of(actor), **policy.via(actor),
                              action=AuditEntry.Action.UPDATE, object_type="person", object_id=object_id,
                              old=old, new=new)


@transaction.atomic
def same_person(tournament: Tournament, actor, source_id: int, target_id: int) -> Person:
    """"Same person": ``tournament``'s entries of person ``source_id`` point to ``target_id`` from
    now on; the source is deleted when it has no entries left. Refused (:class:`ServiceError`)
    when both have different federation numbers, when the source has no entry in ``tournament``,
    or when the target already has one there (one person twice in a tournament). Returns the
    target."""
    _require(actor, tournament)
    source, target = _lock_two(source_id, target_id)
    if source.federation_number and target.federation_number and source.federation_number != target.federation_number:
        raise ServiceError(_("These two have different federation numbers: they are different people."))
    moving = list(Player.objects.select_for_update().filter(tournament=tournament, person=source))
    if not moving:
        raise ServiceError(_("This person has no entry in this tournament."))
    if Player.objects.filter(tournament=tournament, person=target).exists():
        raise ServiceError(_("That would put one person twice in this tournament."))
    number = target.federation_number or source.federation_number
    if number and not target.federation_number and Player.objects.filter(person=source).exclude(tournament=tournament).exists():
        raise ServiceError(_("The person's entries in other tournaments carry a federation number: give this entry that number instead."))
    # The entries keep their own number: the other's number is not copied onto them (it stays
    # hidden from this tournament's organisers, :func:`visible_numbers`).
    Player.objects.filter(pk__in=[p.pk for p in moving]).update(person=target)
    drop_empty([source.pk])
    if number and not target.federation_number:
        target.federation_number = number
        target.save(update_fields=["federation_number", "updated_at"])
    _audit(tournament, actor, target.pk, {"person": source.pk, "entries": [p.pk for p in moving]}, {"person": target.pk})
    return target


@transaction.atomic
def different_people(tournament: Tournament, actor, first_id: int, second_id: int) -> DistinctPersons:
    """"Different people": the pair is recorded (:class:`~scoring.models.DistinctPersons`) and no
    longer offered by :func:`candidates`."""
    _require(actor, tournament)
    a, b = _lock_two(first_id, second_id)
    low, high = sorted((a.pk, b.pk))
    row, _created = DistinctPersons.objects.get_or_create(first_id=low, second_id=high,
                                                          defaults={"decided_by": policy.user_of(actor)})
    _audit(tournament, actor, low, None, {"distinct": [low, high]})
    return row


@transaction.atomic
def split(tournament: Tournament, actor, player_id: int) -> Person:
    """"Not the same person": entry ``player_id`` of ``tournament`` gets a new person of its own
    (recorded as different from the old one). Refused for an entry with a federation number
    (change the number instead) and for an entry that is its person's only one."""
    _require(actor, tournament)
    player = Player.objects.select_for_update().get(tournament=tournament, pk=player_id)
    if player.federation_number:
        raise ServiceError(_("This entry has a federation number: change the number to separate it."), field="federation_number")
    old = Person.objects.select_for_update().get(pk=player.person_id)
    if not Player.objects.filter(person=old).exclude(pk=player.pk).exists():
        raise ServiceError(_("This entry is its person's only entry already."))
    new = Person.objects.create(name=player.name)
    Player.objects.filter(pk=player.pk).update(person=new)
    DistinctPersons.objects.get_or_create(first_id=min(old.pk, new.pk), second_id=max(old.pk, new.pk),
                                          defaults={"decided_by": policy.user_of(actor)})
    _audit(tournament, actor, new.pk, {"person": old.pk, "entry": player.pk}, {"person": new.pk})
    return new


@transaction.atomic
def update_entry(tournament: Tournament, actor, player_id: int, *, federation_number: str | None = None,
                 public_name: str | None = None) -> Player:
    """Set an entry's federation number and/or own public-name setting (``None``: unchanged) and
    re-link it (:func:`link`). Refused: a number another entry of ``tournament`` has
    (:class:`ServiceError` on ``federation_number``), an unknown public-name setting."""
    _require(actor, tournament)
    player = Player.objects.select_for_update(of=("self",)).select_related("person").get(tournament=tournament, pk=player_id)
    was = player.federation_number
    if public_name is not None:
        if public_name not in ("", *PublicNames.values):
            raise ServiceError(_("Choose full, short or empty."), field="public_name")
        player.public_name = public_name
    if federation_number is not None:
        number = clean_number(federation_number)
        if len(number) > 40:
            raise ServiceError(_("At most 40 characters."), field="federation_number")
        clash = number_clash(tournament, number, exclude_pk=player.pk)
        if clash is not None:
            raise ServiceError(_("%(name)s already has this federation number in this tournament.") % {"name": clash.name},
                               field="federation_number")
        player.federation_number = number
    player.save(update_fields=["public_name", "federation_number", "updated_at"])
    return link(player, was=was)


@transaction.atomic
def set_public_names(tournament: Tournament, actor, value: str) -> Tournament:
    """The organiser's default for players' names on public pages (``"full"`` or ``"short"``)."""
    _require(actor, tournament)
    if value not in PublicNames.values:
        raise ServiceError(_("Choose full or short."), field="public_names")
    tournament.public_names = value
    tournament.save(update_fields=["public_names"])  # the live counters move (pages' ETags)
    return tournament


# --- the review list -------------------------------------------------------------------------

@dataclass
class Candidate:
    """A look-alike pair: ``here`` (entered in the tournament) and ``other``; ``reason``:
    ``"same"`` (same normalised name), ``"similar"`` (ratio, :data:`SIMILARITY`) or ``"initial"``
    (same first name and last-name initial); ``here_played``/``other_played``: the tournaments
    each played, ``[(name, slug)]`` oldest first."""

    here: dict
    other: dict
    reason: str
    ratio: float
    here_played: list = field(default_factory=list)
    other_played: list = field(default_factory=list)


@dataclass(frozen=True)
class _Row:
    pk: int
    name: str
    number: str | None
    norm: str
    first: tuple[str, str] | None

    @classmethod
    def of(cls, pk: int, name: str, number: str | None) -> _Row:
        norm = normalise_name(name)
        return cls(pk, name, number, norm, first_and_initial(norm))


def _block_keys(row: _Row) -> tuple[str, str]:
    """The blocks a row is compared within: the first letter of its first name and the initial of
    its last name (``("f:a", "l:b")`` for ``"anna berg"``). Two names that look alike share at
    least one of them (see :func:`candidates`)."""
    words = row.norm.split()
    return f"f:{words[0][0]}", f"l:{words[-1][0]}"


def _matches(me: _Row, rows: list[_Row], skip) -> list[tuple[_Row, str, float]]:
    """``rows`` that look like ``me``: ``[(row, reason, ratio)]``; ``skip(row)``: leave it out.
    Cheap bounds first: the lengths (a ratio of at least :data:`SIMILARITY` needs
    ``2 * min / (la + lb) >= SIMILARITY``), then ``quick_ratio``, then the exact ``ratio``."""
    matcher = difflib.SequenceMatcher(None, autojunk=False)
    matcher.set_seq2(me.norm)
    size, out = len(me.norm), []
    for row in rows:
        if skip(row):
            continue
        if row.norm == me.norm:
            out.append((row, "same", 1.0))
            continue
        other = len(row.norm)
        if 2 * min(size, other) >= SIMILARITY * (size + other):
            matcher.set_seq1(row.norm)
            if matcher.quick_ratio() >= SIMILARITY and (ratio := matcher.ratio()) >= SIMILARITY:
                out.append((row, "similar", ratio))
                continue
        if me.first is not None and me.first == row.first:
            matcher.set_seq1(row.norm)
            out.append((row, "initial", matcher.ratio()))
    return out


def hide_numbers(found: list[Candidate], actor) -> list[Candidate]:
    """``found`` with each federation number ``actor`` may not see (:func:`visible_numbers`)
    replaced by ``None``; ``has_number`` on each side tells that there is one. One query."""
    shown = visible_numbers(actor, [side["federation_number"] for c in found for side in (c.here, c.other)])
    for c in found:
        for side in (c.here, c.other):
            side["has_number"] = bool(side["federation_number"])
            if side["federation_number"] not in shown:
                side["federation_number"] = None
    return found


def candidates(tournament: Tournament) -> list[Candidate]:
    """The look-alike pairs of ``tournament``'s persons and every other person, best first.

    Left out: pairs recorded as different people, pairs with two different federation numbers,
    other persons who are entered in ``tournament`` too (joining them would put one person twice
    in it). Queries: four, whatever the number of persons (every person's id, name and number in
    one query). Matching in Python: each person of the tournament is compared with the persons who
    share the first letter of the first name or the last-name initial (:func:`_block_keys`; a
    pair that differs in both first letters is never offered as merely similar), with the cheap
    bounds of :func:`_matches` first: about a second for 200 entries against 20,000 persons."""
    everyone = list(Person.objects.values_list("pk", "name", "federation_number"))
    here_ids = set(Player.objects.filter(tournament=tournament).values_list("person_id", flat=True))
    distinct = set(DistinctPersons.objects.filter(Q(first_id__in=here_ids) | Q(second_id__in=here_ids))
                   .values_list("first_id", "second_id"))
    rows = [_Row.of(*values) for values in everyone if values[1].strip()]
    blocks: dict[str, list[_Row]] = defaultdict(list)
    for row in rows:
        for key in _block_keys(row):
            blocks[key].append(row)
    found: list[Candidate] = []
    for me in (r for r in rows if r.pk in here_ids):
        pool = list({row.pk: row for key in _block_keys(me) for row in blocks[key]}.values())
        def skip(row: _Row, me=me) -> bool:
            return (row.pk in here_ids or bool(me.number and row.number and me.number != row.number)
                    or (min(me.pk, row.pk), max(me.pk, row.pk)) in distinct)
        for row, reason, ratio in _matches(me, pool, skip):
            found.append(Candidate({"id": me.pk, "name": me.name, "federation_number": me.number},
                                   {"id": row.pk, "name": row.name, "federation_number": row.number}, reason, ratio))
    order = {"same": 0, "similar": 1, "initial": 2}
    found.sort(key=lambda c: (order[c.reason], -c.ratio, c.here["name"], c.other["name"]))
    played: dict[int, list] = defaultdict(list)
    ids = {c.here["id"] for c in found} | {c.other["id"] for c in found}
    for person_id, tname, slug in (Player.objects.filter(person_id__in=ids).order_by("tournament__created_at")
                                   .values_list("person_id", "tournament__name", "tournament__slug")):
        played[person_id].append((tname, slug))
    for c in found:
        c.here_played, c.other_played = played[c.here["id"]], played[c.other["id"]]
    return found
