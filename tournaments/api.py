"""API for tournaments, players, rounds and tables: thin views over selectors and services.

Reading is public where the tournament is; writing needs the role the page needs as well.
"""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers, status
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import selectors, services
from tournaments.models import Entry, Round, Tournament
from tournaments.permissions import CLOCK, ORGANISER, STAFF, require, roles_of


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


class RoundSerializer(serializers.ModelSerializer):
    table_count = serializers.IntegerField(read_only=True)
    confirmed_count = serializers.IntegerField(
        read_only=True, help_text="Tables whose scoresheet is confirmed"
    )

    class Meta:
        model = Round
        fields = [
            "number",
            "status",
            "published_at",
            "started_at",
            "ended_at",
            "table_count",
            "confirmed_count",
        ]


class SeatSerializer(serializers.Serializer):
    position = serializers.IntegerField(help_text="Seat 1 deals first; seat 4 keeps the sheet")
    start_number = serializers.IntegerField(source="entry.start_number")
    name = serializers.CharField(source="entry.player.name")
    club = serializers.CharField(source="entry.player.club")
    points = serializers.IntegerField(
        allow_null=True, help_text="Points on this table's scoresheet so far"
    )
    moved = serializers.BooleanField(
        help_text="Moved by a withdrawal or late entry after the seating was published"
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
    """The rounds (Spielrunden) of a tournament. POST adds the next round (organiser)."""

    serializer_class = RoundSerializer
    permission_classes = [AllowAny]
    pagination_class = None

    def get_queryset(self):
        tournament = selectors.tournament_get(slug=self.kwargs["slug"], user=self.request.user)
        return selectors.tournament_rounds(tournament=tournament)

    @extend_schema(request=None, responses={201: RoundSerializer})
    def post(self, request, slug: str):
        tournament = selectors.tournament_get(slug=slug, user=request.user)
        require(request, tournament, ORGANISER)
        round_ = services.round_create(tournament=tournament)
        round_ = selectors.round_get(tournament=tournament, number=round_.number)
        return Response(RoundSerializer(round_).data, status=status.HTTP_201_CREATED)


class RoundDetail(generics.GenericAPIView):
    """One round with its tables, each with its players in seat order (an empty list of tables
    until the seating is published, except for the tournament's staff)."""

    serializer_class = RoundDetailSerializer
    permission_classes = [AllowAny]

    @extend_schema(responses=RoundDetailSerializer)
    def get(self, request, slug: str, number: int):
        tournament = selectors.tournament_get(slug=slug, user=request.user)
        round_ = selectors.round_get(tournament=tournament, number=number)
        visible = round_.published_at is not None or roles_of(request, tournament) & STAFF
        tables = selectors.round_tables(round=round_) if visible else []
        return Response(self.get_serializer({"round": round_, "tables": tables}).data)


class EntrySerializer(serializers.Serializer):
    start_number = serializers.IntegerField(required=False, allow_null=True, min_value=1)
    first_name = serializers.CharField(source="player.first_name", max_length=100)
    last_name = serializers.CharField(source="player.last_name", max_length=100)
    club = serializers.CharField(
        source="player.club", max_length=200, required=False, allow_blank=True
    )
    ddv_number = serializers.RegexField(
        r"^\d{0,20}$", source="player.ddv_number", required=False, allow_blank=True
    )
    status = serializers.ChoiceField(choices=Entry.Status.choices, read_only=True)

    def create(self, validated_data):
        player = validated_data.pop("player")
        return services.entry_register(
            tournament=self.context["tournament"],
            start_number=validated_data.get("start_number"),
            **player,
        )


class EntryList(generics.ListCreateAPIView):
    """The players of a tournament by start number. POST registers one (organiser); rounds
    drawn but not started seat a late entry, moving as few players as possible."""

    serializer_class = EntrySerializer
    permission_classes = [AllowAny]
    pagination_class = None

    def tournament(self) -> Tournament:
        return selectors.tournament_get(slug=self.kwargs["slug"], user=self.request.user)

    def get_queryset(self):
        return selectors.entry_list(tournament=self.tournament())

    def get_serializer_context(self):
        context = super().get_serializer_context()
        if self.request.method == "POST":
            context["tournament"] = self.tournament()
        return context

    def create(self, request, *args, **kwargs):
        require(request, self.tournament(), ORGANISER)
        return super().create(request, *args, **kwargs)


class EntryStatus(APIView):
    """Withdraw a player (``withdraw``) or take a withdrawn player back (``reinstate``); the
    rounds drawn but not started are re-seated, moving only who must move."""

    permission_classes = [IsAuthenticated]
    actions = {"withdraw": services.entry_withdraw, "reinstate": services.entry_reinstate}

    @extend_schema(request=None, responses=EntrySerializer)
    def post(self, request, slug: str, start_number: int, action: str):
        tournament = selectors.tournament_get(slug=slug, user=request.user)
        require(request, tournament, ORGANISER)
        entry = get_object_or_404(tournament.entries, start_number=start_number)
        entry = self.actions[action](entry=entry)
        return Response(EntrySerializer(entry).data)


class ImportSerializer(serializers.Serializer):
    file = serializers.FileField(help_text="CSV, UTF-8, `;` or `,`, with a header row")


class PlayersImport(APIView):
    """Register every player of a CSV file, or none: a 400 lists every problem by line."""

    permission_classes = [IsAuthenticated]
    parser_classes = [MultiPartParser]

    @extend_schema(
        request={"multipart/form-data": ImportSerializer},
        responses={201: EntrySerializer(many=True)},
    )
    def post(self, request, slug: str):
        tournament = selectors.tournament_get(slug=slug, user=request.user)
        require(request, tournament, ORGANISER)
        upload = ImportSerializer(data=request.data)
        upload.is_valid(raise_exception=True)
        created = services.players_import(
            tournament=tournament, data=upload.validated_data["file"].read()
        )
        return Response(EntrySerializer(created, many=True).data, status=status.HTTP_201_CREATED)


class SeatRequestSerializer(serializers.Serializer):
    seed = serializers.IntegerField(
        required=False, min_value=0, max_value=2**63 - 1, help_text="Same seed, same draw"
    )


class RoundAction(APIView):
    """Run a round: ``seat`` (draw; by the DDV method this round and all later ones),
    ``publish`` (players see the seating), ``start`` (the clock starts for all tables, TSR
    8.5.1), ``end`` (the playing time is over, TSR 8.5.3), ``close`` (every sheet confirmed)."""

    permission_classes = [IsAuthenticated]
    actions = {
        "seat": ORGANISER,
        "publish": ORGANISER,
        "start": CLOCK,
        "end": CLOCK,
        "close": ORGANISER,
    }

    @extend_schema(request=SeatRequestSerializer, responses=RoundSerializer)
    def post(self, request, slug: str, number: int, action: str):
        tournament = selectors.tournament_get(slug=slug, user=request.user)
        require(request, tournament, self.actions[action])
        round_ = get_object_or_404(tournament.rounds, number=number)
        if action == "seat":
            options = SeatRequestSerializer(data=request.data)
            options.is_valid(raise_exception=True)
            services.round_seat(round=round_, seed=options.validated_data.get("seed"))
        else:
            getattr(services, f"round_{action}")(round=round_)
        return Response(
            RoundSerializer(selectors.round_get(tournament=tournament, number=number)).data
        )


class ExtraTimeSerializer(serializers.Serializer):
    minutes = serializers.IntegerField(min_value=1, max_value=120)
    reason = serializers.CharField(max_length=300)


class TableTimeSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="Table")
    extra_minutes = serializers.IntegerField()
    reasons = serializers.ListField(child=serializers.CharField())
    ends_at = serializers.DateTimeField(allow_null=True)


class ClockSerializer(serializers.Serializer):
    status = serializers.CharField(source="round.status")
    started_at = serializers.DateTimeField(source="round.started_at", allow_null=True)
    ends_at = serializers.DateTimeField(allow_null=True, help_text="Tables of four")
    ends_at_five = serializers.DateTimeField(allow_null=True, help_text="Tables of five, if any")
    seconds_left = serializers.IntegerField(allow_null=True)
    tables = TableTimeSerializer(many=True, help_text="Tables given extra time (TSR 8.5.1)")


class TableExtraTime(APIView):
    """Give one table extra playing time with a reason (TSR 8.5.1; adjudicator)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=ExtraTimeSerializer, responses={201: ClockSerializer})
    def post(self, request, slug: str, number: int, table: int):
        tournament = selectors.tournament_get(slug=slug, user=request.user)
        require(request, tournament, CLOCK)
        round_ = get_object_or_404(tournament.rounds, number=number)
        table_ = get_object_or_404(round_.tables, number=table)
        grant = ExtraTimeSerializer(data=request.data)
        grant.is_valid(raise_exception=True)
        services.table_extra_time_grant(table=table_, by=request.user, **grant.validated_data)
        clock = selectors.round_clock(
            round=selectors.round_get(tournament=tournament, number=number)
        )
        return Response(ClockSerializer(clock).data, status=status.HTTP_201_CREATED)


class RoundClock(APIView):
    """The round clock: when the playing time ends, for tables of four and five and for the
    tables given extra time."""

    permission_classes = [AllowAny]

    @extend_schema(responses=ClockSerializer)
    def get(self, request, slug: str, number: int):
        tournament = selectors.tournament_get(slug=slug, user=request.user)
        round_ = selectors.round_get(tournament=tournament, number=number)
        return Response(ClockSerializer(selectors.round_clock(round=round_)).data)


class FoundSeatSerializer(serializers.Serializer):
    round_number = serializers.IntegerField()
    table = serializers.IntegerField()
    position = serializers.IntegerField(help_text="Seat 1 deals first")
    table_size = serializers.IntegerField()
    moved = serializers.BooleanField()


class FoundPlayerSerializer(serializers.Serializer):
    start_number = serializers.IntegerField(source="entry.start_number")
    name = serializers.CharField(source="entry.player.name")
    club = serializers.CharField(source="entry.player.club")
    current_round = serializers.IntegerField(source="current", allow_null=True)
    seats = FoundSeatSerializer(many=True)


class FindTable(APIView):
    """Find players by start number or name, with their table and seat in each published
    round."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("q", str, description="Start number or part of the name")],
        responses=FoundPlayerSerializer(many=True),
    )
    def get(self, request, slug: str):
        tournament = selectors.tournament_get(slug=slug, user=request.user)
        found = selectors.seat_find(
            tournament=tournament,
            query=request.query_params.get("q", "")[:100],
            staff=bool(roles_of(request, tournament) & STAFF),
        )
        return Response(FoundPlayerSerializer(found, many=True).data)
