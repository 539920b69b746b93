"""API for persons (``Player``), whom every tournament of theirs shares: a correction and a merge
of another record of the same person, for the site's administrators and the ranking lists'
maintainers (``policies.may_change_person``); a 403 with the reason for everyone else."""

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import policies, selectors, services
from tournaments.models import Player


class PersonSerializer(serializers.Serializer):
    """A person, as every tournament and ranking list of theirs refers to them."""

    id = serializers.IntegerField(read_only=True)
    first_name = serializers.CharField(max_length=100)
    last_name = serializers.CharField(max_length=100)
    club = serializers.CharField(max_length=200, required=False, allow_blank=True)
    ddv_number = serializers.RegexField(r"^\d{1,20}$", required=False, allow_blank=True)


class MergeSerializer(serializers.Serializer):
    """The other record of the same person: its DDV number or its record number, one of them."""

    ddv_number = serializers.RegexField(r"^\d{1,20}$", required=False)
    other = serializers.IntegerField(
        required=False, min_value=1, help_text="The other record's number (its `id`)"
    )

    def validate(self, attrs):
        if len(attrs) != 1:
            # Said on the field to drop (both given) or to fill (neither).
            field = "other" if attrs else "ddv_number"
            raise serializers.ValidationError(
                {field: _("Give the other record's DDV number or its record number, one of them.")}
            )
        return attrs


def person_for_change(request, pk: int) -> Player:
    """The person, for a user who may change persons; a 403 with the reason for the others."""
    if refusal := policies.may_change_person(user=request.user):
        raise PermissionDenied(refusal.message)
    return get_object_or_404(Player, pk=pk)


def person_update(request, pk: int) -> Response:
    """PATCH of ``players/<pk>``: correct the person; what is not sent stays; logged."""
    player = person_for_change(request, pk)
    serializer = PersonSerializer(player, data=request.data, partial=True)
    serializer.is_valid(raise_exception=True)
    fields = {
        "first_name": player.first_name,
        "last_name": player.last_name,
        "club": player.club,
        "ddv_number": player.ddv_number,
        **serializer.validated_data,
    }
    player = services.person_update(player=player, by=request.user, **fields)
    return Response(PersonSerializer(player).data)


class PersonMerge(APIView):
    """Merge another record of the same person into this one: its tournaments become this
    person's, this record takes its DDV number if it has none, and it is deleted; refused (400
    on ``other``) where both play in the same tournament. Logged."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=MergeSerializer, responses=PersonSerializer)
    def post(self, request, pk: int):
        keep = person_for_change(request, pk)
        serializer = MergeSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        other = selectors.person_other(
            ddv_number=serializer.validated_data.get("ddv_number", ""),
            pk=serializer.validated_data.get("other"),
        )
        if other is None:
            field = "ddv_number" if "ddv_number" in serializer.validated_data else "other"
            raise serializers.ValidationError({field: _("No person has this number.")})
        keep = services.persons_merge(keep=keep, other=other, by=request.user)
        return Response(PersonSerializer(keep).data)


class PlayerHistorySerializer(serializers.Serializer):
    tournament = serializers.SlugField(source="tournament.slug")
    tournament_name = serializers.CharField(source="tournament.name")
    starts_on = serializers.DateField(source="tournament.starts_on")
    start_number = serializers.IntegerField()
    status = serializers.CharField()
    standings_hidden = serializers.BooleanField(
        help_text="The organiser hides this tournament's standings from you: every number "
        "below is null"
    )
    rounds = serializers.IntegerField(allow_null=True, help_text="Confirmed rounds")
    points = serializers.IntegerField(allow_null=True)
    average = serializers.FloatField(allow_null=True)
    best_round = serializers.IntegerField(allow_null=True)
    solos_played = serializers.IntegerField(allow_null=True)
    solos_won = serializers.IntegerField(allow_null=True)


class PlayerHistory(APIView):
    """A player across the tournaments you can see, newest first. PATCH corrects the person
    (the site's administrators, a ranking list's maintainers): name, club, DDV number, for
    every tournament of theirs; logged."""

    permission_classes = [AllowAny]

    @extend_schema(
        responses=inline_serializer(
            "PlayerTournaments",
            {
                "player_id": serializers.IntegerField(),
                "name": serializers.CharField(),
                "club": serializers.CharField(),
                "tournaments": PlayerHistorySerializer(many=True),
            },
        )
    )
    def get(self, request, pk: int):
        player = get_object_or_404(Player, pk=pk)
        history = selectors.player_history(player=player, user=request.user)
        if not history and policies.may_change_person(user=request.user) is not None:
            raise Http404
        return Response(
            {
                "player_id": player.pk,
                "name": player.name,
                "club": player.club,
                "tournaments": PlayerHistorySerializer(history, many=True).data,
            }
        )

    @extend_schema(request=PersonSerializer, responses=PersonSerializer)
    def patch(self, request, pk: int):
        return person_update(request, pk)
