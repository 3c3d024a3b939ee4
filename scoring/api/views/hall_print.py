"""The list "name -> table" of a round in the API (issue 23 item 7): what the wall list and the
projector page show (:func:`scoring.printing.hall.name_entries`), for a script or a display of
its own. Public once the round is published; a draft is 404 except for the organisers. The PDFs
(table cards, the wall list, the pairings per table) are downloads of the site's pages
(docs/api.md)."""
from __future__ import annotations

from rest_framework import serializers
from rest_framework.response import Response

from scoring.api.views.base import ApiView, tournament_or_404, visible_round
from scoring.api.views.reads import read_schema
from scoring.printing import hall


class NameEntrySerializer(serializers.Serializer):
    """One line of the list: a team's or a player's name, its table and seat."""

    name = serializers.CharField(help_text="A team's or a player's name.")
    table = serializers.IntegerField(help_text="The table number.")
    seat = serializers.CharField(help_text="A team's side (NS/EW), a Tai Pan player's seat (N/E/S/W) or a "
                                           "four-player seat's label (East, ...).")
    team = serializers.CharField(help_text="A Tai Pan player's team; empty otherwise.")
    is_team = serializers.BooleanField(help_text="True for a team's own line.")


class NameListSerializer(serializers.Serializer):
    round = serializers.IntegerField(help_text="The round's number.")
    status = serializers.CharField(help_text="The round's status (draft, published, in_progress, closed).")
    names = NameEntrySerializer(many=True, help_text="In alphabetical order (case and accents ignored).")


class RoundNamesView(ApiView):
    """``GET /api/v1/tournaments/{slug}/rounds/{number}/names``."""

    @read_schema(NameListSerializer, tags=["rounds"], summary="Where does everyone sit: name -> table and seat",
                 description="Every team and player (Tai Pan) or player (four-player games) seated in the round, "
                             "alphabetically, with table and seat; byes are left out. A draft round is 404 except "
                             "for the tournament's organisers.")
    def get(self, request, slug, number):
        t = tournament_or_404(slug)
        rnd = visible_round(self.actor(), t, number)
        data = {"round": rnd.number, "status": rnd.status,
                "names": [e.__dict__ for e in hall.name_entries(rnd)]}
        return Response(NameListSerializer(data).data)
