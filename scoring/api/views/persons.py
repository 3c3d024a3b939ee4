"""People across tournaments in the API (issue 26, ``docs/api.md``, docs/players.md), the same as
on the organiser's pages and through the same service and policy
(:mod:`scoring.participants.persons`):

- ``GET .../entries``: the tournament's entries with their person, federation number and own
  public-name setting (federation numbers are personal data: organisers only);
- ``PATCH .../entries/{id}``: set an entry's ``federation_number`` and/or ``public_name``;
- ``POST .../entries/{id}/split``: "Not the same person" (the entry gets its own person);
- ``PUT .../public-names``: the tournament's default for names on public pages;
- ``GET .../people/review``: the look-alike pairs of the review list;
- ``POST .../people/same``, ``POST .../people/different``: the review list's decisions.

Organisers only (403 for everyone else, 401 without credentials).
"""
from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist
from django.http import Http404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response

from scoring.api.serializers import ErrorSerializer
from scoring.api.views.members import OrganiserView
from scoring.errors import ServiceError
from scoring.models import PublicNames
from scoring.participants import persons

ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="Invalid input (a federation number another entry of the "
                                                      "tournament has, an unknown setting)."),
    401: OpenApiResponse(ErrorSerializer, description="No credentials, or an unknown token."),
    403: OpenApiResponse(ErrorSerializer, description="Not an organiser of this tournament."),
    404: OpenApiResponse(ErrorSerializer, description="No such tournament or entry."),
    409: OpenApiResponse(ErrorSerializer, description="`conflict`: the decision is refused (two different "
                                                      "federation numbers, one person twice in a tournament, an "
                                                      "entry that is its person's only one)."),
}
PUBLIC_NAME = PublicNames.choices  # and "" (allow_blank): the tournament's setting


class EntrySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField(help_text="The full name as entered (organisers only).")
    person_id = serializers.IntegerField(allow_null=True, help_text="The same person in every tournament.")
    federation_number = serializers.CharField(allow_blank=True, help_text="Personal data: organisers only.")
    public_name = serializers.ChoiceField(choices=PUBLIC_NAME, allow_blank=True, help_text="The entry's own setting (empty: the "
                                                                         "tournament's `public_names`).")


class EntryPatchSerializer(serializers.Serializer):
    federation_number = serializers.CharField(required=False, allow_blank=True, max_length=60)
    public_name = serializers.ChoiceField(required=False, choices=PUBLIC_NAME, allow_blank=True)


class PublicNamesSerializer(serializers.Serializer):
    public_names = serializers.ChoiceField(choices=PublicNames.choices, help_text="`full`: names as entered; `short`: "
                                                                                "first name and initial.")


class ReviewPersonSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    federation_number = serializers.CharField(allow_null=True, help_text="Only for an organiser of a tournament "
                                              "whose entry carries this number (else null; see `has_number`).")
    has_number = serializers.BooleanField(help_text="The person has a federation number.")
    tournaments = serializers.ListField(child=serializers.CharField(), help_text="Slugs of the tournaments played.")


class CandidateSerializer(serializers.Serializer):
    here = ReviewPersonSerializer(help_text="The person entered in this tournament.")
    other = ReviewPersonSerializer(help_text="The look-alike (any tournament).")
    reason = serializers.ChoiceField(choices=["same", "similar", "initial"], help_text="`same`: same normalised "
                                     "name; `similar`: difflib ratio >= 0.85; `initial`: same first name and "
                                     "last-name initial.")
    ratio = serializers.FloatField()


class DecisionSerializer(serializers.Serializer):
    here = serializers.IntegerField(help_text="The person entered in this tournament.")
    other = serializers.IntegerField(help_text="The other person.")


class PersonIdSerializer(serializers.Serializer):
    person_id = serializers.IntegerField()


def _entry(p, shown: set[str]) -> dict:
    return {"id": p.pk, "name": p.name, "person_id": p.person_id,
            "federation_number": p.federation_number if p.federation_number in shown else "", "public_name": p.public_name}


def _entries(actor, players) -> list[dict]:
    """The entries with the numbers ``actor`` may see (:func:`persons.visible_numbers`)."""
    players = list(players)
    shown = persons.visible_numbers(actor, [p.federation_number for p in players])
    return [_entry(p, shown) for p in players]


class PersonsView(OrganiserView):
    """Service refusals: a refusal about a field is 400 on it, any other 409 (``conflict``)."""

    def call(self, fn, *args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except ObjectDoesNotExist:
            raise Http404 from None
        except ServiceError as exc:
            if exc.field:
                raise exceptions.ValidationError({exc.field: [str(exc)]}) from None
            error = exceptions.APIException(str(exc), code="conflict")
            error.status_code = status.HTTP_409_CONFLICT
            raise error from None


class EntryListView(PersonsView):
    @extend_schema(responses={200: EntrySerializer(many=True), **ERRORS}, tags=["people"],
                   summary="The entries with their person and federation number (organisers only)")
    def get(self, request, slug):
        t = self.tournament(slug)
        return Response(EntrySerializer(_entries(self.actor(), t.players.order_by("name", "pk")), many=True).data)


class EntryView(PersonsView):
    @extend_schema(request=EntryPatchSerializer, responses={200: EntrySerializer, **ERRORS}, tags=["people"],
                   summary="Set an entry's federation number or public-name setting",
                   description="A federation number links the entry to the person with that number (made when "
                               "there is none); an empty one gives it a person of its own. Never by name.")
    def patch(self, request, slug, pk):
        t = self.tournament(slug)
        data = self.valid(EntryPatchSerializer)
        player = self.call(persons.update_entry, t, self.actor(), pk, federation_number=data.get("federation_number"),
                           public_name=data.get("public_name"))
        return Response(EntrySerializer(_entries(self.actor(), [player])[0]).data)


class EntrySplitView(PersonsView):
    @extend_schema(request=None, responses={200: PersonIdSerializer, **ERRORS}, tags=["people"],
                   summary="Not the same person: the entry gets a person of its own")
    def post(self, request, slug, pk):
        t = self.tournament(slug)
        person = self.call(persons.split, t, self.actor(), pk)
        return Response(PersonIdSerializer({"person_id": person.pk}).data)


class PublicNamesView(PersonsView):
    @extend_schema(request=PublicNamesSerializer, responses={200: PublicNamesSerializer, **ERRORS}, tags=["people"],
                   summary="The tournament's default for players' names on public pages")
    def put(self, request, slug):
        t = self.tournament(slug)
        data = self.valid(PublicNamesSerializer)
        t = self.call(persons.set_public_names, t, self.actor(), data["public_names"])
        return Response(PublicNamesSerializer({"public_names": t.public_names}).data)


def _person(side: dict, played: list) -> dict:
    return {**side, "tournaments": [slug for _name, slug in played]}


class ReviewView(PersonsView):
    @extend_schema(responses={200: CandidateSerializer(many=True), **ERRORS}, tags=["people"],
                   summary="Look-alike people to check (the review list)")
    def get(self, request, slug):
        t = self.tournament(slug)
        rows = [{"here": _person(c.here, c.here_played), "other": _person(c.other, c.other_played), "reason": c.reason,
                 "ratio": round(c.ratio, 3)} for c in persons.hide_numbers(persons.candidates(t), self.actor())]
        return Response(CandidateSerializer(rows, many=True).data)


class SamePersonView(PersonsView):
    @extend_schema(request=DecisionSerializer, responses={200: PersonIdSerializer, **ERRORS}, tags=["people"],
                   summary="Same person: this tournament's entries of `here` become `other`'s")
    def post(self, request, slug):
        t = self.tournament(slug)
        data = self.valid(DecisionSerializer)
        person = self.call(persons.same_person, t, self.actor(), data["here"], data["other"])
        return Response(PersonIdSerializer({"person_id": person.pk}).data)


class DifferentPeopleView(PersonsView):
    @extend_schema(request=DecisionSerializer, responses={204: None, **ERRORS}, tags=["people"],
                   summary="Different people: the pair is not offered again")
    def post(self, request, slug):
        t = self.tournament(slug)
        data = self.valid(DecisionSerializer)
        self.call(persons.different_people, t, self.actor(), data["here"], data["other"])
        return Response(status=status.HTTP_204_NO_CONTENT)
