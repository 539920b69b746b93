"""API for the standings (TSR 8.5.2) and a player's tournament: public reads, the standings
with ETags."""

import re

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import ngettext
from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.utils import extend_schema, extend_schema_field, inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from doko import standings
from tournaments import caching, policies, selectors
from tournaments.api.common import etag_response
from tournaments.api.players import EntrySerializer, personal_links_context
from tournaments.models import Entry
from tournaments.permissions import require, roles_of, standings_mode
from tournaments.roles import ORGANISER


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
    rank = serializers.IntegerField(
        allow_null=True,
        help_text="null: not ranked (disqualified, or ``played`` false: no confirmed round yet)",
    )
    played = serializers.BooleanField(
        help_text="False: no result in a confirmed scoresheet yet; listed after the ranked "
        "players, unranked"
    )
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
    offset = serializers.IntegerField(help_text="The first row's, a whole page of ``limit``")
    limit = serializers.IntegerField(help_text="The page size: 10, 25, 50, 100 or 200")
    rows = StandingsRowSerializer(many=True, help_text="Best first, from ``offset``")


# The page sizes the standings are answered in: a limit is rounded up to the next of them and
# an offset down to a whole page, so that each version of the standings has a bounded number of
# answers to cache (for N rows at most N/10 + N/25 + N/50 + N/100 + N/200 + 5, together five
# times the whole standings), whatever offsets and limits are asked for.
PAGE_SIZES = (10, 25, 50, 100, 200)
DEFAULT_LIMIT = 100


class StandingsQuerySerializer(serializers.Serializer):
    offset = serializers.IntegerField(
        min_value=0,
        default=0,
        help_text="Rows to skip: rounded down to a whole page of ``limit`` rows; past the last "
        "row the answer is 404",
    )
    limit = serializers.IntegerField(
        min_value=1,
        max_value=PAGE_SIZES[-1],
        default=DEFAULT_LIMIT,
        help_text="Rows to return: rounded up to 10, 25, 50, 100 or 200",
    )

    def validate(self, attrs):
        offset, limit = _whole_page(attrs["offset"], attrs["limit"])
        return {"offset": offset, "limit": limit}


def _whole_page(offset: int, limit: int) -> tuple[int, int]:
    """The page answered for an offset and a limit: the limit rounded up to a page size, the
    offset down to the start of its page."""
    limit = next(size for size in PAGE_SIZES if size >= limit)
    return offset // limit * limit, limit


def _plain_page(request: HttpRequest) -> tuple[int, int] | None:
    """The page asked for when the query is nothing but a plain ``offset`` and ``limit`` in
    range (or neither); None for anything else, which the serializer judges."""
    if not request.META.get("QUERY_STRING"):
        return 0, DEFAULT_LIMIT
    query = dict(request.GET.lists())
    if not set(query) <= {"offset", "limit"} or any(len(v) != 1 for v in query.values()):
        return None
    offset, limit = query.get("offset", ["0"])[0], query.get("limit", [str(DEFAULT_LIMIT)])[0]
    if not (re.fullmatch(r"[0-9]{1,9}", offset) and re.fullmatch(r"[0-9]{1,3}", limit)):
        return None
    if not 1 <= int(limit) <= PAGE_SIZES[-1]:
        return None
    return _whole_page(int(offset), int(limit))


def _standings_key(tournament_id: int, version: int, offset: int, limit: int) -> str:
    return f"standings-json:{tournament_id}:{version}:{offset}:{limit}"


def _standings_etag(tournament_id: int, version: int, offset: int, limit: int) -> str:
    return f'"api-standings-{tournament_id}-{version}-{offset}-{limit}"'


class StandingsView(APIView):
    """The standings, in pages of ``limit`` rows from ``offset`` (the page that holds
    ``offset``, in the page size at or above ``limit``: 10, 25, 50, 100 or 200; past the last
    row 404): only confirmed scoresheets count; provisional results stand apart. 403 while the
    organiser hides them (staff still read them). Send ``If-None-Match`` with the last ETag: an
    unchanged answer is a 304 without a body."""

    permission_classes = [AllowAny]

    def dispatch(self, request, *args, **kwargs):
        """A reader without a login, asking plainly, is answered from the cache before DRF
        parses the request (which takes longer than the rest of the answer: bench/standings.py);
        anything else, or an answer not cached yet, goes the whole way (``get``)."""
        answer = self._cached(request, kwargs["slug"])
        if answer is None:
            return super().dispatch(request, *args, **kwargs)
        # The headers DRF gives every answer (``finalize_response``), and the Vary on the
        # cookie that its session authentication adds (tests/tournaments/api/test_standings.py).
        headers = self.default_response_headers
        answer["Vary"] = f"{headers.pop('Vary', 'Accept')}, Cookie"
        for name, value in headers.items():
            answer[name] = value
        return answer

    @staticmethod
    def _cached(request: HttpRequest, slug: str) -> HttpResponse | None:
        accept = request.META.get("HTTP_ACCEPT", "*/*")
        if (
            request.method != "GET"
            or "HTTP_AUTHORIZATION" in request.META  # a token: DRF authenticates it
            or settings.SESSION_COOKIE_NAME in request.COOKIES  # maybe logged in
            or ("*/*" not in accept and "application/json" not in accept)
            or (page := _plain_page(request)) is None
        ):
            return None
        try:
            tournament = selectors.public_head(slug=slug).tournament
        except Http404:
            return None  # DRF's 404, in JSON
        if policies.may_read_standings(tournament=tournament, roles=()):
            return None  # DRF's 403
        version = tournament.standings_version
        body = caching.versioned_get(_standings_key(tournament.pk, version, *page))
        if body is None:
            return None
        etag = _standings_etag(tournament.pk, version, *page)
        return etag_response(request, etag, lambda: body)

    @extend_schema(
        parameters=[StandingsQuerySerializer],
        responses={200: StandingsSerializer, 304: None, 403: None, 404: None},
    )
    def get(self, request, slug: str):
        query = StandingsQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        offset, limit = query.validated_data["offset"], query.validated_data["limit"]
        tournament = selectors.tournament_head(slug=slug, user=request.user)
        policies.enforce(
            policies.may_read_standings(tournament=tournament, roles=roles_of(request, tournament))
        )
        version = tournament.standings_version

        def build() -> bytes:
            key = _standings_key(tournament.pk, version, offset, limit)
            body = caching.versioned_get(key)
            if body is None:
                table = selectors.standings_read(tournament=tournament)
                rows = table.rows if table else ()
                if offset and offset >= len(rows):  # not cached: asking costs no memory
                    message = ngettext(
                        "The standings have %(count)d row; none from %(offset)d.",
                        "The standings have %(count)d rows; none from %(offset)d.",
                        len(rows),
                    )
                    raise NotFound({"offset": message % {"count": len(rows), "offset": offset}})
                data = {
                    "version": version,
                    "built_at": table.built_at if table else None,
                    "tiebreaks": list(table.tiebreaks if table else ()),
                    "rounds": list(table.rounds if table else ()),
                    "provisional_rounds": list(table.provisional_rounds if table else ()),
                    "count": len(rows),
                    "offset": offset,
                    "limit": limit,
                    "rows": list(rows[offset : offset + limit]),
                }
                body = JSONRenderer().render(StandingsSerializer(data).data)
                caching.versioned_put(key, body)
            return body

        etag = _standings_etag(tournament.pk, version, offset, limit)
        return etag_response(request, etag, build)


class ClubPlayerSerializer(serializers.Serializer):
    name = serializers.CharField()
    points = serializers.IntegerField()


class ClubLineSerializer(serializers.Serializer):
    rank = serializers.IntegerField(
        allow_null=True, help_text="null: fewer players than counted, listed after, not ranked"
    )
    club = serializers.CharField(help_text="As its best player entered it")
    points = serializers.IntegerField(help_text="The counted players' points summed")
    players = serializers.SerializerMethodField(help_text="The players counted, best first")
    members = serializers.IntegerField(help_text="The club's ranked players")

    @extend_schema_field(ClubPlayerSerializer(many=True))
    def get_players(self, line) -> list[dict]:
        return [{"name": name, "points": points} for name, points in line.players]


class ClubRankingSerializer(serializers.Serializer):
    players = serializers.IntegerField(
        allow_null=True,
        help_text="The best players counted per club (club_ranking_players); null: the "
        "tournament has no club ranking, and ``clubs`` is empty",
    )
    version = serializers.IntegerField(help_text="The standings' version it is read from")
    clubs = ClubLineSerializer(many=True)


class ClubRankingView(APIView):
    """The club ranking beside the standings (``club_ranking_players``): each club's best N
    ranked players' points summed; clubs told apart case-insensitively, clubs with fewer than
    N players after the ranked ones with ``rank`` null. Who may read the standings reads it
    (403 while they are hidden); an ETag as the standings have."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: ClubRankingSerializer, 304: None, 403: None, 404: None})
    def get(self, request, slug: str):
        tournament = selectors.tournament_head(slug=slug, user=request.user)
        policies.enforce(
            policies.may_read_standings(tournament=tournament, roles=roles_of(request, tournament))
        )
        version = tournament.standings_version
        players = tournament.club_ranking_players

        def build() -> bytes:
            table = selectors.standings_read(tournament=tournament)
            lines = selectors.club_ranking_of(tournament=tournament, table=table) or []
            data = {"players": players, "version": version, "clubs": lines}
            return JSONRenderer().render(ClubRankingSerializer(data).data)

        etag = f'"api-club-ranking-{tournament.pk}-{version}-{players or 0}"'
        return etag_response(request, etag, build)


class PlayerRoundSerializer(serializers.Serializer):
    round = serializers.IntegerField(source="round.number")
    round_status = serializers.CharField(source="round.status")
    table = serializers.IntegerField()
    position = serializers.IntegerField()
    springer = serializers.BooleanField(
        help_text="At two tables in this round (TSR 10): a line for each; the round counts "
        "as the mean of the two"
    )
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
                "name": other.entry.name,
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
    name = serializers.CharField(source="entry.name")
    club = serializers.CharField(source="entry.club")
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
        unpublished = policies.may_read_unpublished_seating(roles=roles_of(request, tournament))
        row = None
        if mode != "hidden":
            row = selectors.standings_row(
                table=selectors.standings_read(tournament=tournament), entry_id=entry.pk
            )
        data = {
            "entry": entry,
            "row": row,
            "rounds": selectors.entry_rounds(entry=entry, staff=unpublished is None),
        }
        return Response(
            PlayerDetailSerializer(data, context={"show_points": mode != "hidden"}).data
        )

    @extend_schema(request=EntrySerializer, responses=EntrySerializer)
    def patch(self, request, slug: str, start_number: int):
        """Correct the registration (organiser): the name and club this tournament registered
        the player under, and the start number; a person who plays elsewhere too stays as he
        is. Another DDV number registers another person (refused under another name, 400 on
        ``ddv_number``, unless ``same_person`` and the names agree however spelt)."""
        tournament = selectors.tournament_get(slug=slug, user=request.user, counts=False)
        require(request, tournament, ORGANISER)
        entry = selectors.entry_get(tournament=tournament, start_number=start_number)
        context = {"request": request, **personal_links_context(request, tournament)}
        serializer = EntrySerializer(entry, data=request.data, partial=True, context=context)
        serializer.is_valid(raise_exception=True)
        return Response(EntrySerializer(serializer.save(), context=context).data)
