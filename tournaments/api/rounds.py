"""API for rounds: adding one, a round with its tables and seats, deleting the last one before
it starts, the round's actions, the clock and extra time (TSR 8.5.1), and finding a player's
table."""

import dataclasses

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import policies, selectors, services
from tournaments.models import Round
from tournaments.permissions import require, roles_of, standings_mode
from tournaments.roles import ORGANISER
from tournaments.round_actions import API_ROUND_ACTIONS, ROUND_ACTIONS


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
    name = serializers.CharField(source="entry.name")
    club = serializers.CharField(source="entry.club")
    points = serializers.IntegerField(
        allow_null=True, help_text="Points on this table's scoresheet so far"
    )
    moved = serializers.BooleanField(
        help_text="Moved by a withdrawal or late entry after the seating was published"
    )


class TableSerializer(serializers.Serializer):
    number = serializers.IntegerField(source="table.number")
    sheet_status = serializers.CharField(allow_null=True)
    hand_count = serializers.IntegerField()
    seats = SeatSerializer(many=True)


class RoundDetailSerializer(serializers.Serializer):
    round = RoundSerializer()
    tables = TableSerializer(many=True)


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
    until the seating is published, except for the tournament's staff). DELETE deletes the
    last round while it has not started (organiser), with its seating if drawn."""

    serializer_class = RoundDetailSerializer

    def get_permissions(self):
        if self.request.method == "DELETE":
            return [IsAuthenticated()]
        return [AllowAny()]

    @extend_schema(
        responses={
            204: OpenApiResponse(description="Deleted"),
            400: OpenApiResponse(description="Started, or not the last round: by field"),
            403: OpenApiResponse(description="Not an organiser of the tournament"),
        }
    )
    def delete(self, request, slug: str, number: int):
        tournament = selectors.tournament_get(slug=slug, user=request.user)
        round_ = get_object_or_404(tournament.rounds, number=number)
        action = ROUND_ACTIONS["delete"]
        policies.enforce(action.refusal(round=round_, roles=roles_of(request, tournament)))
        action.run(round_, request.user, None)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(responses=RoundDetailSerializer)
    def get(self, request, slug: str, number: int):
        tournament = selectors.tournament_get(slug=slug, user=request.user)
        round_ = selectors.round_get(tournament=tournament, number=number)
        hidden = policies.may_read_seating(round=round_, roles=roles_of(request, tournament))
        tables = [] if hidden else selectors.round_tables(round=round_)
        if standings_mode(request, tournament) == "hidden":  # no points while hidden
            tables = [
                dataclasses.replace(
                    table, seats=[dataclasses.replace(seat, points=None) for seat in table.seats]
                )
                for table in tables
            ]
        return Response(self.get_serializer({"round": round_, "tables": tables}).data)


class SeatRequestSerializer(serializers.Serializer):
    seed = serializers.IntegerField(
        required=False, min_value=0, max_value=2**63 - 1, help_text="Same seed, same draw"
    )


class RoundAction(APIView):
    """Run a round: ``seat`` (draw; by the DDV method this round and all later ones; 400 on
    ``entries`` when the active players cannot be seated, with the numbers and the choices),
    ``unseat`` (undo the draw before the round starts: it is planned again, its tables and
    seats go; by the DDV method every later round drawn and not started with it),
    ``publish`` (players see the seating), ``start`` (the clock starts for all tables, TSR
    8.5.1), ``end`` (the playing time is over, TSR 8.5.3), ``close`` (every sheet confirmed)."""

    permission_classes = [IsAuthenticated]
    # What each does and who may: the table the round's page uses too.
    actions = API_ROUND_ACTIONS

    @extend_schema(request=SeatRequestSerializer, responses=RoundSerializer)
    def post(self, request, slug: str, number: int, action: str):
        tournament = selectors.tournament_get(slug=slug, user=request.user)
        round_ = get_object_or_404(tournament.rounds, number=number)
        policies.enforce(
            ROUND_ACTIONS[action].refusal(round=round_, roles=roles_of(request, tournament))
        )
        seed = None
        if action == "seat":
            options = SeatRequestSerializer(data=request.data)
            options.is_valid(raise_exception=True)
            seed = options.validated_data.get("seed")
        ROUND_ACTIONS[action].run(round_, request.user, seed)
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
    ends_at = serializers.DateTimeField(
        allow_null=True,
        help_text="Tables of four: the tournament's minutes from the start, or, once the "
        "adjudicator announced it, the end he announced (TSR 8.5.1)",
    )
    ends_at_five = serializers.DateTimeField(
        allow_null=True,
        help_text="Tables of five, if any: their longer match (TSR 10.1.5), also after the "
        "announced end, which they play on for the difference",
    )
    seconds_left = serializers.IntegerField(allow_null=True, help_text="Tables of four")
    seconds_left_five = serializers.IntegerField(allow_null=True, help_text="Tables of five")
    tables = TableTimeSerializer(
        many=True, help_text="Tables given extra time, each with its own end (TSR 8.5.1)"
    )


class TableExtraTime(APIView):
    """Give one table extra playing time with a reason (TSR 8.5.1): the adjudicator, a deputy
    adjudicator or the organiser, none at a table where he plays (403 with who does)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=ExtraTimeSerializer, responses={201: ClockSerializer})
    def post(self, request, slug: str, number: int, table: int):
        tournament = selectors.tournament_get(slug=slug, user=request.user)
        # Who may give it, and at which table, the service asks its policy (403 with why).
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
    name = serializers.CharField(source="entry.name")
    club = serializers.CharField(source="entry.club")
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
        unpublished = policies.may_read_unpublished_seating(roles=roles_of(request, tournament))
        found = selectors.seat_find(
            tournament=tournament,
            query=request.query_params.get("q", "")[:100],
            staff=unpublished is None,
        )
        return Response(FoundPlayerSerializer(found, many=True).data)
