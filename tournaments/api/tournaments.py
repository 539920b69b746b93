"""API for tournaments: the list, one tournament, and allowing tables of five (TSR 10)."""

from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import selectors, services
from tournaments.models import Tournament


class TournamentSerializer(serializers.ModelSerializer):
    entry_count = serializers.IntegerField(read_only=True, help_text="Active players")
    round_count = serializers.IntegerField(read_only=True, help_text="Rounds created so far")

    class Meta:
        model = Tournament
        fields = [
            "slug",
            "name",
            "starts_on",
            "ends_on",
            "venue",
            "status",
            "planned_rounds",
            "hands_per_match",
            "match_minutes",
            "allow_tables_of_five",
            "hands_per_match_five",
            "match_minutes_five",
            "seating_method",
            "entry_count",
            "round_count",
        ]


class TournamentList(generics.ListAPIView):
    """Tournaments you can see: all public ones, and those where you have a role."""

    serializer_class = TournamentSerializer
    permission_classes = [AllowAny]

    def get_queryset(self):
        return selectors.tournament_list(user=self.request.user)


class TournamentDetail(generics.RetrieveAPIView):
    serializer_class = TournamentSerializer
    permission_classes = [AllowAny]

    def get_object(self):
        return selectors.tournament_get(slug=self.kwargs["slug"], user=self.request.user)


class TablesOfFive(APIView):
    """Allow tables of five (TSR 10) for the rest of the tournament, where the active players do
    not divide into tables of four (TSR 8.3.1): organisers. Rounds played or running keep their
    tables; a round drawn ahead that waits for a substitute is seated again."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=TournamentSerializer)
    def post(self, request, slug: str):
        tournament = selectors.tournament_get(slug=slug, user=request.user, counts=False)
        services.tournament_tables_of_five_allow(tournament=tournament, by=request.user)
        return Response(
            TournamentSerializer(selectors.tournament_get(slug=slug, user=request.user)).data
        )
