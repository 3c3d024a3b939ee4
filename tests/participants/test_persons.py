"""People across tournaments (issue 26 item 1): every path that creates an entry links it to a
person (by federation number, else a new person, never by name); the review list; the organiser's
decisions "Same person", "Different people" and "Not the same person"."""
from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.errors import NotAllowed, ServiceError
from scoring.io import demo, entrants_csv, tournament_json
from scoring.models import AuditEntry, DistinctPersons, Membership, Person, Player, Team
from scoring.participants import persons
from scoring.web.forms.organiser import PlayerForm, TeamForm
from tests.factories import MembershipFactory, PlayerFactory, TeamFactory, TournamentFactory, UserFactory, organiser_of

pytestmark = pytest.mark.django_db


# --- names ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("name", "expected"), [
    ("Anna van der Bérg", "anna berg"),
    ("  ANNA   Berg ", "anna berg"),
    ("Jan de Vries", "jan vries"),
    ("Piet 't Hart", "piet hart"),
    ("Madonna", "madonna"),
    ("Van Dijk", "van dijk"),  # the first word is a first name, never a particle
])
def test_names_are_compared_without_case_accents_spaces_and_particles(name, expected):
    assert persons.normalise_name(name) == expected


def test_federation_numbers_are_stored_without_spaces_in_upper_case():
    assert persons.clean_number(" nl 12 34 ") == "NL1234"
    assert persons.clean_number(None) == ""


# --- linking ------------------------------------------------------------------------------

def test_the_same_number_is_the_same_person_across_tournaments():
    a, b = TournamentFactory(), TournamentFactory()
    first = persons.create_player(a, "Anna de Vries", federation_number="nl 1")
    second = persons.create_player(b, "Anna Vries", federation_number="NL1")
    assert first.person_id == second.person_id
    assert Person.objects.get(pk=first.person_id).federation_number == "NL1"


def test_the_same_name_without_number_is_never_joined():
    a, b = TournamentFactory(), TournamentFactory()
    first = persons.create_player(a, "Anna de Vries")
    second = persons.create_player(b, "Anna de Vries")
    assert first.person_id != second.person_id


def test_changing_the_number_relinks_and_deletes_the_empty_person():
    a, b = TournamentFactory(), TournamentFactory()
    known = persons.create_player(a, "Bram Jansen", federation_number="77")
    entry = persons.create_player(b, "Bram Jansen")
    lonely = entry.person_id
    entry.federation_number = "77"
    entry.save()
    persons.link(entry)
    assert entry.person_id == known.person_id
    assert not Person.objects.filter(pk=lonely).exists()
    # Removing the number gives the entry a person of its own again; the numbered person stays.
    entry.federation_number = ""
    entry.save()
    persons.link(entry)
    assert entry.person_id not in (known.person_id, lonely)
    assert Person.objects.filter(pk=known.person_id, federation_number="77").exists()


def test_a_number_twice_in_one_tournament_is_an_error_next_to_the_field():
    t = TournamentFactory(game="sichuan")
    persons.create_player(t, "Anna", federation_number="5")
    form = PlayerForm({"name": "Bea", "federation_number": " 5 ", "joined_round": "1"}, instance=Player(tournament=t))
    assert not form.is_valid()
    assert list(form.errors) == ["federation_number"]
    team_t = TournamentFactory()
    TeamFactory(tournament=team_t, first_player=persons.create_player(team_t, "Cees", federation_number="9"))
    form = TeamForm({"name": "Nieuw", "first_player_name": "Dirk", "second_player_name": "Eva",
                     "first_player_number": "9", "joined_round": "1"}, tournament=team_t)
    assert not form.is_valid() and "first_player_number" in form.errors
    form = TeamForm({"name": "Nieuw", "first_player_name": "Dirk", "second_player_name": "Eva",
                     "first_player_number": "10", "second_player_number": "10", "joined_round": "1"}, tournament=team_t)
    assert not form.is_valid() and "second_player_number" in form.errors


def _no_name_join(entries: list[Player]) -> None:
    """Every entry has a person; entries with the same name but no number have different ones."""
    assert all(p.person_id for p in entries)
    unnumbered = [p for p in entries if not p.federation_number]
    assert len({p.person_id for p in unnumbered}) == len(unnumbered)


def test_every_creation_path_links_a_person_and_never_by_name(client):
    """The organiser forms (teams, players), both CSV imports, the JSON import, the demo loader, the
    factories and the API: every entry has a person; equal names without a number stay apart."""
    taipan, sichuan = TournamentFactory(), TournamentFactory(game="sichuan")
    user = organiser_of(taipan, sichuan)
    client.force_login(user)
    before = set(Player.objects.values_list("pk", flat=True))
    # web forms
    client.post(f"/t/{taipan.slug}/teams/new/", {"name": "Web", "first_player_name": "Anna de Vries",
                                                 "second_player_name": "Bram Jansen", "joined_round": "1"})
    client.post(f"/t/{sichuan.slug}/players/", {"name": "Anna de Vries", "joined_round": "1"})
    # CSV imports
    report = entrants_csv.import_teams_csv(taipan, b"name,player1,player2,number1\nCsv,Anna de Vries,Cor,N1\n")
    assert report.ok, report.errors
    report = entrants_csv.import_players_csv(sichuan, b"name,bondsnummer\nAnna de Vries-Bakker,N1\nDaan\n")
    assert report.ok, report.errors
    # JSON import (a copy of the Tai Pan tournament)
    data = tournament_json.export_tournament(taipan)
    data["slug"] = "copy"
    copy = tournament_json.import_tournament(json.loads(json.dumps(data)))
    # demo loader and factories
    demo_t = demo.load_demo().tournament
    factory_player = PlayerFactory(tournament=sichuan, name="Anna de Vries")
    new = list(Player.objects.exclude(pk__in=before))
    assert len(new) >= 2 + 1 + 2 + 2 + 4 + 2 * demo_t.teams.count()
    _no_name_join(new)
    assert factory_player.person_id and Player.objects.get(pk=factory_player.pk).person_id
    # the number N1 joined the CSV team player and the CSV player (and the copy's entry)
    numbered = Player.objects.filter(federation_number="N1")
    assert numbered.count() == 3 and len({p.person_id for p in numbered}) == 1
    assert copy.players.filter(federation_number="N1").exists()
    annas = Player.objects.filter(name="Anna de Vries", federation_number="")
    assert annas.count() >= 3 and len({p.person_id for p in annas}) == annas.count()


def test_the_csv_import_refuses_a_number_twice():
    t = TournamentFactory(game="sichuan")
    persons.create_player(t, "Anna", federation_number="5")
    report = entrants_csv.import_players_csv(t, b"name,federation_number\nBea,5\nCor,7\nDaan,7\n")
    assert not report.ok
    assert [(line, column) for line, column, _m in report.errors] == [(2, "federation_number"), (4, "federation_number")]
    assert Player.objects.filter(tournament=t).count() == 1


def test_the_json_round_trip_keeps_numbers_and_settings():
    t = TournamentFactory(game="sichuan", public_names="short")
    persons.create_player(t, "Anna de Vries", federation_number="A1", public_name="full")
    data = tournament_json.export_tournament(t)
    assert data["public_names"] == "short"
    assert data["players"][0]["federation_number"] == "A1" and data["players"][0]["public_name"] == "full"
    data["slug"] = "again"
    copy = tournament_json.import_tournament(data)
    entry = copy.players.get()
    assert copy.public_names == "short" and entry.public_name == "full"
    assert entry.person_id == t.players.get().person_id  # the same number: the same person
    data["players"].append({**data["players"][0], "name": "Other"})
    with pytest.raises(tournament_json.ImportRefused) as refused:
        tournament_json.load_tournament(json.dumps({**data, "slug": "third"}))
    assert any("federation_number" in path for path, _m in refused.value.errors)


# --- the review list ------------------------------------------------------------------------

def _entry(t, name, number=""):
    return persons.create_player(t, name, federation_number=number)


def test_look_alikes_by_name_similarity_and_initial():
    here, old = TournamentFactory(name="Here"), TournamentFactory(name="Old")
    anna = _entry(here, "Anna van der Berg")
    _entry(old, "anna berg")            # same normalised name
    _entry(old, "Anna Bergh")           # ratio("anna berg", "anna bergh") = 18/19 = 0.947
    _entry(old, "Anna Bakker")          # same first name and last initial
    _entry(old, "Bea Berg")             # ratio 14/17 = 0.82 < 0.85 and another first name: no
    found = persons.candidates(here)
    assert [(c.other["name"], c.reason) for c in found] == [
        ("anna berg", "same"), ("Anna Bergh", "similar"), ("Anna Bakker", "initial")]
    assert all(c.here["id"] == anna.person_id for c in found)
    assert found[0].here_played == [("Here", here.slug)] and found[0].other_played == [("Old", old.slug)]
    assert round(found[1].ratio, 3) == round(18 / 19, 3)


def test_decided_pairs_and_different_numbers_are_left_out():
    here, old = TournamentFactory(), TournamentFactory()
    user = organiser_of(here)
    _entry(here, "Anna Berg", "1")
    _entry(old, "Anna Berg", "2")        # different numbers: different people
    other = _entry(old, "Anna Berg")
    assert [c.other["id"] for c in persons.candidates(here)] == [other.person_id]
    persons.different_people(here, user, here.players.get().person_id, other.person_id)
    assert persons.candidates(here) == []


def test_the_review_list_reads_a_fixed_number_of_queries():
    here = TournamentFactory()
    for i in range(5):
        _entry(here, f"Speler {i} Jansen")
    for n in (3, 30):
        others = [TournamentFactory() for _ in range(n // 3)]
        for i in range(n):
            _entry(others[i % len(others)], f"Speler {i % 5} Jansen")
        with CaptureQueriesContext(connection) as ctx:
            found = persons.candidates(here)
        assert len(ctx.captured_queries) == 4, [q["sql"] for q in ctx.captured_queries]
        assert found


# --- decisions -------------------------------------------------------------------------------

def test_same_person_moves_this_tournaments_entries_and_deletes_the_empty_person():
    here, old = TournamentFactory(), TournamentFactory()
    user = organiser_of(here)
    new = _entry(here, "Anna de Vries")
    known = _entry(old, "Anna Vries", "NL5")
    empty = new.person_id
    persons.same_person(here, user, empty, known.person_id)
    new.refresh_from_db()
    # the other's number is not copied onto this tournament's entry (it is not this organiser's)
    assert new.person_id == known.person_id and new.federation_number == ""
    assert not Person.objects.filter(pk=empty).exists()
    entry = AuditEntry.objects.get(tournament=here, object_type="person")
    assert entry.user == user and entry.old == {"person": empty, "entries": [new.pk]}


def test_same_person_is_refused_for_two_numbers_twice_in_a_tournament_and_non_organisers():
    here, old = TournamentFactory(), TournamentFactory()
    user = organiser_of(here)
    a, b = _entry(here, "Anna", "1"), _entry(old, "Anna", "2")
    with pytest.raises(ServiceError):
        persons.same_person(here, user, a.person_id, b.person_id)
    c, d = _entry(here, "Cor"), _entry(here, "Cor Jansen")
    with pytest.raises(ServiceError):
        persons.same_person(here, user, c.person_id, d.person_id)
    e = _entry(old, "Cor")
    referee = UserFactory()
    MembershipFactory(tournament=here, user=referee, role=Membership.Role.REFEREE)
    with pytest.raises(NotAllowed):
        persons.same_person(here, referee, c.person_id, e.person_id)
    assert Player.objects.get(pk=c.pk).person_id == c.person_id


def test_split_gives_the_entry_its_own_person_and_remembers_the_decision():
    here, old = TournamentFactory(), TournamentFactory()
    user = organiser_of(here)
    a = _entry(here, "Anna")
    b = _entry(old, "Anna")
    persons.same_person(here, user, a.person_id, b.person_id)
    a.refresh_from_db()
    assert a.person_id == b.person_id
    new = persons.split(here, user, a.pk)
    a.refresh_from_db()
    assert a.person_id == new.pk != b.person_id
    low, high = sorted((new.pk, b.person_id))
    assert DistinctPersons.objects.filter(first_id=low, second_id=high).exists()
    assert persons.candidates(here) == []
    with pytest.raises(ServiceError):  # its person's only entry now
        persons.split(here, user, a.pk)


def test_deleting_a_team_or_tournament_deletes_persons_left_without_entries(client):
    t = TournamentFactory()
    user = organiser_of(t)
    team = TeamFactory(tournament=t)
    ids = [team.first_player.person_id, team.second_player.person_id]
    client.force_login(user)
    client.post(f"/t/{t.slug}/teams/{team.pk}/edit/", {"action": "delete"})
    assert not Team.objects.filter(pk=team.pk).exists()
    assert not Person.objects.filter(pk__in=ids).exists()
    other = TeamFactory()
    keep = persons.create_player(TournamentFactory(), "X", federation_number="K")
    Player.objects.filter(pk=other.first_player_id).update(federation_number="K", person_id=keep.person_id)
    gone = other.second_player.person_id
    tournament_json.delete_tournament(other.tournament)
    assert Person.objects.filter(pk=keep.person_id).exists() and not Person.objects.filter(pk=gone).exists()


def test_the_database_refuses_a_number_twice_in_a_tournament():
    """The guard behind the forms and imports (a race between two registrations)."""
    from django.db import IntegrityError, transaction

    t = TournamentFactory()
    persons.create_player(t, "Anna", federation_number="77")
    other = persons.create_player(t, "Bea")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.filter(pk=other.pk).update(federation_number="77")
    persons.create_player(t, "Cor")  # empty numbers are many
    assert Player.objects.filter(tournament=t, federation_number="").count() == 2
