"""API for tournaments, players, rounds and tables: thin views over selectors and services.

Reading is public where the tournament is; writing needs the role the page needs as well.
"""

import dataclasses

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.translation import gettext as _
from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    inline_serializer,
)
from rest_framework import generics, serializers, status
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from doko import standings
from tournaments import caching, policies, selectors, services
from tournaments.models import Entry, Player, RankingList, Round, Tournament
from tournaments.permissions import require, roles_of, standings_mode
from tournaments.roles import CLOCK, ORGANISER, STAFF
from tournaments.round_actions import API_ROUND_ACTIONS, ROUND_ACTIONS


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
    sheet_status = serializers.CharField(allow_null=True)
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
        if standings_mode(request, tournament) == "hidden":  # no points while hidden
            tables = [
                dataclasses.replace(
                    table, seats=[dataclasses.replace(seat, points=None) for seat in table.seats]
                )
                for table in tables
            ]
        return Response(self.get_serializer({"round": round_, "tables": tables}).data)


class EntrySerializer(serializers.Serializer):
    start_number = serializers.IntegerField(required=False, allow_null=True, min_value=1)
    first_name = serializers.CharField(source="player.first_name", max_length=100)
    last_name = serializers.CharField(source="player.last_name", max_length=100)
    club = serializers.CharField(
        source="player.club", max_length=200, required=False, allow_blank=True
    )
    # Digits, or blank: the blank is let through before the pattern is checked, and the schema
    # offers it as the other of ``oneOf``, so the pattern must not match it as well.
    ddv_number = serializers.RegexField(
        r"^\d{1,20}$", source="player.ddv_number", required=False, allow_blank=True
    )
    status = serializers.ChoiceField(choices=Entry.Status.choices, read_only=True)

    def create(self, validated_data):
        player = validated_data.pop("player")
        return services.entry_register(
            tournament=self.context["tournament"],
            start_number=validated_data.get("start_number"),
            **player,
        ).entry


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
        change = self.actions[action](entry=entry)
        return Response(EntrySerializer(change.entry).data)


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
        imported = services.players_import(
            tournament=tournament, data=upload.validated_data["file"].read()
        )
        return Response(
            EntrySerializer(imported.entries, many=True).data, status=status.HTTP_201_CREATED
        )


class SeatRequestSerializer(serializers.Serializer):
    seed = serializers.IntegerField(
        required=False, min_value=0, max_value=2**63 - 1, help_text="Same seed, same draw"
    )


class RoundAction(APIView):
    """Run a round: ``seat`` (draw; by the DDV method this round and all later ones; 400 on
    ``entries`` when the active players cannot be seated, with the numbers and the choices),
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


# Standings, players and ranking lists: public reads with ETags --------------------------------


class RoundResultSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    position = serializers.IntegerField(help_text="Seat at the table")
    points = serializers.IntegerField(help_text="Game points + penalty points - deducted")
    penalty = serializers.IntegerField(help_text="Initialled penalty points (TSR 8.2.2)")
    deducted = serializers.IntegerField(help_text="Points deducted (TSR 9.6.2 b)")
    placing = serializers.IntegerField(help_text="1st to 4th (5th) at the table")
    confirmed = serializers.BooleanField(
        help_text="False: handed in but not yet confirmed (provisional, not counted)"
    )
    solos_played = serializers.IntegerField()
    solos_won = serializers.IntegerField()


class NullableItemsField(serializers.ListField):
    """A list of a serializer's objects, some of them null."""


class NullableItemsScheme(OpenApiSerializerFieldExtension):
    """drf-spectacular drops the ``allow_null`` of a serializer as a list's child: the items
    are the child's component or null."""

    target_class = NullableItemsField

    def map_serializer_field(self, auto_schema, direction):
        component = auto_schema.resolve_serializer(self.target.child, direction)
        return {"type": "array", "items": {"allOf": [component.ref], "nullable": True}}


class StandingsRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField(allow_null=True, help_text="null: not ranked (disqualified)")
    start_number = serializers.IntegerField(source="entrant.start_number")
    name = serializers.CharField(source="entrant.name")
    club = serializers.CharField(source="entrant.club")
    status = serializers.ChoiceField(choices=Entry.Status.choices, source="entrant.status")
    points = serializers.IntegerField(help_text="Over the confirmed rounds")
    provisional = serializers.IntegerField(
        allow_null=True, help_text="Points of rounds handed in, not yet confirmed"
    )
    placings = serializers.IntegerField(help_text="Sum of the table placings")
    best_round = serializers.IntegerField(allow_null=True)
    rounds_played = serializers.IntegerField()
    average = serializers.FloatField(allow_null=True)
    solos_played = serializers.IntegerField()
    solos_won = serializers.IntegerField()
    results = NullableItemsField(
        child=RoundResultSerializer(allow_null=True),
        help_text="One per round of ``rounds``; null where the player did not play it",
    )


class StandingsSerializer(serializers.Serializer):
    version = serializers.IntegerField(help_text="Raised by every rebuild")
    built_at = serializers.DateTimeField(allow_null=True)
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=[t.value for t in standings.Tiebreak]),
        help_text="Applied in order after the points",
    )
    rounds = serializers.ListField(child=serializers.IntegerField())
    provisional_rounds = serializers.ListField(child=serializers.IntegerField())
    count = serializers.IntegerField(help_text="Rows in all")
    offset = serializers.IntegerField()
    rows = StandingsRowSerializer(many=True, help_text="Best first, from ``offset``")


def _etag_response(request, etag: str, build) -> HttpResponse:
    """A 304 if the client has this version, else ``build()``'s JSON bytes, with the ETag."""
    response = get_conditional_response(request, etag=etag)
    if response is None:
        response = HttpResponse(build(), content_type="application/json")
    response["ETag"] = etag
    patch_cache_control(response, no_cache=True)
    return response


def _hidden() -> PermissionDenied:
    return PermissionDenied(_("The organiser has hidden the standings for now."))


class StandingsQuerySerializer(serializers.Serializer):
    offset = serializers.IntegerField(min_value=0, default=0, help_text="Rows to skip")
    limit = serializers.IntegerField(
        min_value=1, max_value=2000, default=100, help_text="Rows to return (at most 2,000)"
    )


class StandingsView(APIView):
    """The standings, in pages of ``limit`` rows from ``offset``: only confirmed scoresheets
    count; provisional results stand apart. 403 while the organiser hides them (staff still
    read them). Send ``If-None-Match`` with the last ETag: an unchanged answer is a 304 without
    a body."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[StandingsQuerySerializer],
        responses={200: StandingsSerializer, 304: None, 403: None},
    )
    def get(self, request, slug: str):
        query = StandingsQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        offset, limit = query.validated_data["offset"], query.validated_data["limit"]
        tournament = selectors.tournament_head(slug=slug, user=request.user)
        if standings_mode(request, tournament) == "hidden":
            raise _hidden()
        version = tournament.standings_version

        def build() -> bytes:
            key = f"standings-json:{tournament.pk}:{version}:{offset}:{limit}"
            body = caching.versioned_get(key)
            if body is None:
                table = selectors.standings_read(tournament=tournament)
                rows = table.rows if table else ()
                data = {
                    "version": version,
                    "built_at": table.built_at if table else None,
                    "tiebreaks": list(table.tiebreaks if table else ()),
                    "rounds": list(table.rounds if table else ()),
                    "provisional_rounds": list(table.provisional_rounds if table else ()),
                    "count": len(rows),
                    "offset": offset,
                    "rows": list(rows[offset : offset + limit]),
                }
                body = JSONRenderer().render(StandingsSerializer(data).data)
                caching.versioned_put(key, body)
            return body

        etag = f'"api-standings-{tournament.pk}-{version}-{offset}-{limit}"'
        return _etag_response(request, etag, build)


class PlayerRoundSerializer(serializers.Serializer):
    round = serializers.IntegerField(source="round.number")
    round_status = serializers.CharField(source="round.status")
    table = serializers.IntegerField()
    position = serializers.IntegerField()
    others = serializers.SerializerMethodField(help_text="The rest of the table, in seat order")
    sheet_status = serializers.CharField(allow_null=True)
    result = serializers.SerializerMethodField(
        help_text="Once the sheet is handed in; null while the standings are hidden"
    )

    @extend_schema_field(
        inline_serializer(
            "TableMate",
            {
                "position": serializers.IntegerField(),
                "start_number": serializers.IntegerField(),
                "name": serializers.CharField(),
            },
            many=True,
        )
    )
    def get_others(self, item) -> list[dict]:
        return [
            {
                "position": other.position,
                "start_number": other.entry.start_number,
                "name": other.entry.player.name,
            }
            for other in item.others
        ]

    @extend_schema_field(
        inline_serializer(
            "PlayerRoundResult",
            {
                "points": serializers.IntegerField(),
                "penalty": serializers.IntegerField(),
                "deducted": serializers.IntegerField(),
                "placing": serializers.IntegerField(),
                "confirmed": serializers.BooleanField(),
                "solos_played": serializers.IntegerField(),
                "solos_won": serializers.IntegerField(),
            },
            allow_null=True,
        )
    )
    def get_result(self, item) -> dict | None:
        result = item.result
        if result is None or not self.context["show_points"]:
            return None
        return {
            field: getattr(result, field)
            for field in (
                "points",
                "penalty",
                "deducted",
                "placing",
                "confirmed",
                "solos_played",
                "solos_won",
            )
        }


class PlayerDetailSerializer(serializers.Serializer):
    start_number = serializers.IntegerField(source="entry.start_number")
    name = serializers.CharField(source="entry.player.name")
    club = serializers.CharField(source="entry.player.club")
    player_id = serializers.IntegerField(source="entry.player_id")
    status = serializers.CharField(source="entry.status")
    standing = StandingsRowSerializer(
        source="row", allow_null=True, help_text="null while the standings are hidden"
    )
    rounds = PlayerRoundSerializer(many=True)


class PlayerDetail(APIView):
    """One player of a tournament: each round's table, seat, the others at the table, and (while
    the standings are shown) points, placing, solos and penalties, and their standing."""

    permission_classes = [AllowAny]

    @extend_schema(responses=PlayerDetailSerializer)
    def get(self, request, slug: str, start_number: int):
        tournament = selectors.tournament_get(slug=slug, user=request.user, counts=False)
        entry = selectors.entry_get(tournament=tournament, start_number=start_number)
        mode = standings_mode(request, tournament)
        row = None
        if mode != "hidden":
            row = selectors.standings_row(
                table=selectors.standings_read(tournament=tournament), entry_id=entry.pk
            )
        data = {
            "entry": entry,
            "row": row,
            "rounds": selectors.entry_rounds(entry=entry, staff=mode == "staff"),
        }
        return Response(
            PlayerDetailSerializer(data, context={"show_points": mode != "hidden"}).data
        )


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
        return RankingLineSerializer(selectors.ranking_lines(ranking_list=ranking), many=True).data


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

        return _etag_response(request, f'"api-ranking-{ranking.pk}-{ranking.version}"', build)


class PlayerHistorySerializer(serializers.Serializer):
    tournament = serializers.SlugField(source="tournament.slug")
    tournament_name = serializers.CharField(source="tournament.name")
    starts_on = serializers.DateField(source="tournament.starts_on")
    start_number = serializers.IntegerField()
    status = serializers.CharField()
    rounds = serializers.IntegerField(help_text="Confirmed rounds")
    points = serializers.IntegerField()
    average = serializers.FloatField(allow_null=True)
    best_round = serializers.IntegerField(allow_null=True)
    solos_played = serializers.IntegerField()
    solos_won = serializers.IntegerField()


class PlayerHistory(APIView):
    """A player across the tournaments you can see, newest first."""

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
        if not history and not request.user.is_superuser:
            raise Http404
        return Response(
            {
                "player_id": player.pk,
                "name": player.name,
                "club": player.club,
                "tournaments": PlayerHistorySerializer(history, many=True).data,
            }
        )
