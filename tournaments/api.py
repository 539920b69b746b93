"""Read API for tournaments, rounds and tables: thin views over the selectors."""

from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from tournaments import selectors
from tournaments.models import Round, Tournament


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
            "entry_count",
            "round_count",
        ]


class RoundSerializer(serializers.ModelSerializer):
    table_count = serializers.IntegerField(read_only=True)
    confirmed_count = serializers.IntegerField(
        read_only=True, help_text="Tables whose scoresheet is confirmed"
    )

    class Meta:
        model = Round
        fields = ["number", "status", "started_at", "ended_at", "table_count", "confirmed_count"]


class SeatSerializer(serializers.Serializer):
    position = serializers.IntegerField(help_text="Seat 1 deals first; seat 4 keeps the sheet")
    start_number = serializers.IntegerField(source="entry.start_number")
    name = serializers.CharField(source="entry.player.name")
    club = serializers.CharField(source="entry.player.club")
    points = serializers.IntegerField(
        allow_null=True, help_text="Points on this table's scoresheet so far"
    )


class TableSerializer(serializers.Serializer):
    number = serializers.IntegerField(source="table.number")
    sheet_status = serializers.CharField(source="sheet.status", allow_null=True)
    hand_count = serializers.IntegerField()
    seats = SeatSerializer(many=True)


class RoundDetailSerializer(serializers.Serializer):
    round = RoundSerializer()
    tables = TableSerializer(many=True)


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


class RoundList(generics.ListAPIView):
    """The rounds (Spielrunden) of a tournament."""

    serializer_class = RoundSerializer
    permission_classes = [AllowAny]
    pagination_class = None

    def get_queryset(self):
        tournament = selectors.tournament_get(slug=self.kwargs["slug"], user=self.request.user)
        return selectors.tournament_rounds(tournament=tournament)


class RoundDetail(generics.GenericAPIView):
    """One round with its tables, each with its players in seat order."""

    serializer_class = RoundDetailSerializer
    permission_classes = [AllowAny]

    @extend_schema(responses=RoundDetailSerializer)
    def get(self, request, slug: str, number: int):
        tournament = selectors.tournament_get(slug=slug, user=request.user)
        round_ = selectors.round_get(tournament=tournament, number=number)
        data = {"round": round_, "tables": selectors.round_tables(round=round_)}
        return Response(self.get_serializer(data).data)
