"""API for the ranking lists across tournaments and a player's history across them: public
reads, a ranking list with ETags."""

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, extend_schema_field, inline_serializer
from rest_framework import generics, serializers
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import caching, policies, selectors
from tournaments.api.common import etag_response
from tournaments.api.persons import PersonSerializer, person_update
from tournaments.models import Player, RankingList


class RankingListSerializer(serializers.ModelSerializer):
    class Meta:
        model = RankingList
        fields = ["slug", "name", "months", "min_rounds", "built_for", "version"]


class RankingLineSerializer(serializers.Serializer):
    rank = serializers.IntegerField(allow_null=True, help_text="null: too few rounds yet")
    player_id = serializers.IntegerField(source="player.pk")
    name = serializers.CharField(source="player.name")
    club = serializers.CharField(source="player.club")
    rounds = serializers.IntegerField()
    points = serializers.IntegerField()
    average = serializers.FloatField()


class RankingDetailSerializer(RankingListSerializer):
    lines = serializers.SerializerMethodField()

    class Meta(RankingListSerializer.Meta):
        fields = [*RankingListSerializer.Meta.fields, "lines"]

    @extend_schema_field(RankingLineSerializer(many=True))
    def get_lines(self, ranking) -> list[dict]:
        lines = RankingLineSerializer(selectors.ranking_lines(ranking_list=ranking), many=True)
        # many=True makes a ListSerializer, whose data is a list; the stubs do not know it.
        return lines.data  # type: ignore[return-value]


class RankingLists(generics.ListAPIView):
    """The ranking lists across tournaments."""

    serializer_class = RankingListSerializer
    permission_classes = [AllowAny]
    pagination_class = None

    def get_queryset(self):
        return selectors.ranking_lists(user=self.request.user)


class RankingDetail(APIView):
    """A ranking list: average points per round over the confirmed rounds of the tournaments
    finished in the last ``months`` months; ranked from ``min_rounds`` rounds. ETag as for the
    standings."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: RankingDetailSerializer, 304: None})
    def get(self, request, slug: str):
        ranking = selectors.ranking_get(slug=slug, user=request.user)

        def build() -> bytes:
            key = f"ranking-json:{ranking.pk}:{ranking.version}"
            body = caching.versioned_get(key)
            if body is None:
                body = JSONRenderer().render(RankingDetailSerializer(ranking).data)
                caching.versioned_put(key, body)
            return body

        return etag_response(request, f'"api-ranking-{ranking.pk}-{ranking.version}"', build)


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
