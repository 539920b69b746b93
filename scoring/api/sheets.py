"""The scoresheet API: one table's sheet with its seats, its hands with running totals and its
live check (TSR 7.3, 8.5, 8.6), its hands replaced as a whole (PUT, the scorekeeper), and its
history; the base of every view under the sheet's address, which answers a stale version with
HTTP 409 and the sheet as it is now, and a sheet the TSR check refuses with its problems.

Thin views over ``scoring.services``, which decide who may do what; who asks, and which sheet
they may open, is ``access``. The sheet's workflow is in ``workflow``, its scan in ``scans``, its
second entry in ``second_entry``."""

from django.urls import reverse
from django.utils.translation import gettext
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import exceptions, serializers, status
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.response import Response
from rest_framework.views import APIView

from api_base.parsers import LimitedJSONParser
from api_base.representation import represented
from doko.rules.contracts import Section, SoloType
from doko.rules.sheet import Replay
from scoring import policies, selectors, services
from scoring.api.access import SeatKeyAuthentication, SheetAccess, sheet_get, sheet_opened
from scoring.api.checks import LiveCheckSerializer, check_data
from scoring.api.fields import ContractField, seat_dict
from scoring.api.hands import HAND_EXAMPLE, HandsReplaceSerializer
from scoring.models import Scoresheet, ScoresheetChange, ScoresheetScan
from scoring.selectors.record import first_entry_blind
from scoring.services import Actor, SheetRefused, StaleVersionError
from tournaments.messages import problems_data
from tournaments.models import Seat

# The sheet as the API returns it ------------------------------------------------------------


class SheetSeatSerializer(serializers.Serializer):
    position = serializers.IntegerField(
        help_text="Seat 1 deals first; seat 4 (at a table of five seat 5) keeps the sheet unless "
        "it was handed over (see `scorekeeper`)"
    )
    start_number = serializers.IntegerField()
    name = serializers.CharField()


class RecordedHandSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="The order played, over both sections")
    section = serializers.ChoiceField(
        choices=[section.value for section in Section],
        help_text="Compulsory solos are noted in their own section (TSR 4.2.4)",
    )
    dealer = serializers.IntegerField(help_text="At a table of five the dealer sits out")
    dealt_by_neighbour = serializers.BooleanField(
        help_text="His left neighbour dealt for him (TSR 3.3.2)"
    )
    contract = ContractField()
    soloist = serializers.IntegerField(allow_null=True)
    solo_type = serializers.ChoiceField(choices=[solo.value for solo in SoloType], allow_null=True)
    game_value = serializers.IntegerField(
        help_text="What each winner of a normal game receives; a soloist three times it (TSR 7.2.4)"
    )
    points = serializers.DictField(
        child=serializers.IntegerField(), help_text='Per seat: {"1": 2, "2": -2, ...}'
    )
    totals = serializers.DictField(
        child=serializers.IntegerField(), help_text="Running totals per seat after this hand"
    )
    not_played = serializers.BooleanField(
        help_text="Not one of the round's lines: stopped by a major breach (TSR 9.4.3) or "
        "broken off and dealt again (TSR 9.1.3); the same dealer deals again"
    )
    replay = serializers.ChoiceField(
        choices=[replay.value for replay in Replay],
        allow_null=True,
        help_text="Dealt again under TSR 9.1.3: `consent` of the four, or `ruling`",
    )


class ScanSerializer(serializers.Serializer):
    content_type = serializers.ChoiceField(
        choices=ScoresheetScan.Kind.values, help_text="As stored, told by its content"
    )
    size = serializers.IntegerField(help_text="Bytes, as stored (without its metadata)")
    uploaded_at = serializers.DateTimeField()
    uploaded_by = serializers.CharField(help_text="Who attached it, as the name read then")
    url = serializers.CharField(
        help_text="Where to GET the file: a path on this API's host, with the same credentials"
    )


def scan_data(scan: ScoresheetScan | None) -> dict | None:
    """What a client shows of a sheet's scan, without the file itself."""
    if scan is None:
        return None
    table = scan.scoresheet.table
    args = [table.round.tournament.slug, table.round.number, table.number]
    return {
        "content_type": scan.content_type,
        "size": scan.size,
        "uploaded_at": scan.uploaded_at,
        "uploaded_by": scan.uploaded_by_name,
        "url": reverse("api:scoresheet-scan", args=args),
    }


class EndedEarlySerializer(serializers.Serializer):
    reason = serializers.CharField()
    at = serializers.DateTimeField()
    by = serializers.CharField()
    hands_not_played = serializers.IntegerField(
        help_text="The lines still to play when it was ended, waived with the compulsory solos "
        "still owed"
    )


class ScoresheetSerializer(serializers.Serializer):
    tournament = serializers.SlugField()
    round = serializers.IntegerField()
    round_status = serializers.CharField()
    table = serializers.IntegerField()
    table_size = serializers.IntegerField()
    hands_per_match = serializers.IntegerField(
        help_text="Every line of the round, compulsory and forced solos included: 24 at a table "
        "of four (20 in the main section + 4 compulsory solos, TSR 8.5.1), 30 at a table of five "
        "(25 + 5, TSR 10.1.5, 10.2.1)"
    )
    scorekeeper = serializers.IntegerField(
        help_text="The seat that enters and hands in: seat 4 (at a table of five seat 5), or "
        "the seat the sheet was handed over to by agreement at the table (TSR 3.1.1, 8.4.1)"
    )
    status = serializers.ChoiceField(choices=Scoresheet.Status.choices)
    version = serializers.IntegerField(help_text="Name it in the next write")
    time_over_after_hand = serializers.IntegerField(
        allow_null=True, help_text="Hands played when the playing time ended (TSR 8.5.1)"
    )
    seats = SheetSeatSerializer(many=True)
    hands = RecordedHandSerializer(many=True)
    totals = serializers.DictField(child=serializers.IntegerField())
    check = LiveCheckSerializer()
    submitted_at = serializers.DateTimeField(allow_null=True)
    submitted_by = serializers.CharField(allow_null=True)
    confirmed_at = serializers.DateTimeField(allow_null=True)
    confirmed_by = serializers.CharField(allow_null=True)
    confirmation = serializers.ChoiceField(
        choices=Scoresheet.Confirmation.choices,
        allow_null=True,
        help_text="How a sheet typed at the desk was confirmed: `signed_sheet` (from the "
        "players' signatures on the paper sheet, TSR 8.5.2) or `double_entry` (a second member "
        "of the desk typed it again blind, and both agreed); null otherwise",
    )
    sent_back_reason = serializers.CharField(
        allow_blank=True,
        help_text="Why the handed-in sheet was sent back to its scorekeeper, shown until it is "
        "handed in again; empty if it was not",
    )
    sent_back_by = serializers.CharField(allow_blank=True, help_text="Who sent it back")
    ended_early = EndedEarlySerializer(
        allow_null=True,
        help_text="A table that could not finish, its sheet ended by a recorded decision; null "
        "otherwise",
    )
    updated_at = serializers.DateTimeField()
    scan = ScanSerializer(
        allow_null=True, help_text="The photo or scan of the signed paper sheet; null if none"
    )
    withheld = serializers.CharField(
        allow_null=True,
        help_text="Why the hands, totals and check are left out for you: the sheet was typed at "
        "the desk and is checked by a second, blind entry, and only who typed it sees them until "
        "it is confirmed (staff open it with `…/first-entry/open`, which is recorded); null "
        "otherwise",
    )


def hands_data(state: selectors.SheetState) -> list[dict]:
    """An entry's hands as the API shows them, each with the running totals after it."""
    return [
        {
            "number": row.hand.number,
            "section": row.hand.section,
            "dealer": row.hand.dealer,
            "dealt_by_neighbour": row.hand.dealt_by_neighbour,
            "contract": row.hand.contract,
            "soloist": row.hand.soloist,
            "solo_type": row.hand.solo_type or None,
            "game_value": row.hand.game_value,
            "points": seat_dict(row.hand.points),
            "totals": seat_dict(row.totals),
            "not_played": row.hand.not_played,
            "replay": row.hand.replay or None,
        }
        for row in state.rows
    ]


def sheet_data(
    sheet: Scoresheet, *, actor: Actor | None, state: selectors.SheetState | None = None
) -> dict:
    """Everything a client shows of a sheet: seats, hands with running totals, the TSR check and
    who handed it in and confirmed it; in two queries after the sheet's own. To ``actor`` (None:
    nobody known) a blind first entry shows no hands (``policies.first_entry_hidden``), and
    ``withheld`` says why. ``state``: the sheet as a write just left it, not read again."""
    withheld = _withheld(sheet, actor)
    if state is None or withheld is not None:
        state = selectors.sheet_state(sheet=sheet, withheld=withheld)
    seats = {seat.pk: seat for seat in state.seats}

    def who(user, seat_id: int | None) -> str | None:
        if seat_id is not None:
            return Actor(seat=seats.get(seat_id) or Seat.objects.get(pk=seat_id)).name
        return Actor(user=user).name if user is not None else None

    check = state.check
    round_ = sheet.table.round
    # As ``ScoresheetSerializer`` (the schema) represents it, without running it.
    return represented(
        {
            "tournament": round_.tournament.slug,
            "round": round_.number,
            "round_status": round_.status,
            "table": sheet.table.number,
            "table_size": state.table_size,
            "hands_per_match": state.hands_per_match,
            "scorekeeper": state.keeper,
            "status": sheet.status,
            "version": sheet.version,
            "time_over_after_hand": sheet.time_over_after_hand,
            "seats": [
                {
                    "position": seat.position,
                    "start_number": seat.entry.start_number,
                    "name": seat.entry.name,
                }
                for seat in state.seats
            ],
            "hands": hands_data(state),
            "totals": seat_dict(check.totals),
            "check": check_data(check, totals=False),
            "submitted_at": sheet.submitted_at,
            "submitted_by": who(sheet.submitted_by, sheet.submitted_by_seat_id),
            "confirmed_at": sheet.confirmed_at,
            "confirmed_by": who(sheet.confirmed_by, sheet.confirmed_by_seat_id),
            "confirmation": sheet.confirmation or None,
            "sent_back_reason": sheet.sent_back_reason,
            "sent_back_by": sheet.sent_back_by,
            "ended_early": {
                "reason": sheet.ended_early_reason,
                "at": sheet.ended_early_at,
                "by": sheet.ended_early_by,
                "hands_not_played": sheet.ended_early_hands_not_played,
            }
            if sheet.ended_early
            else None,
            "updated_at": sheet.updated_at,
            "scan": scan_data(selectors.scoresheet_scan(sheet=sheet)),
            "withheld": withheld,
        }
    )


def _withheld(sheet: Scoresheet, actor: Actor | None) -> str | None:
    """Why ``actor`` sees none of the sheet's hands (a blind first entry), or None."""
    if actor is None:
        return None if not first_entry_blind(sheet) else str(policies.BLIND_TO_PLAYERS)
    refusal = policies.first_entry_hidden(sheet=sheet, actor=actor)
    return refusal.message if refusal is not None else None


class SnapshotHandSerializer(serializers.Serializer):
    dealer = serializers.IntegerField()
    dealt_by_neighbour = serializers.BooleanField(
        required=False, help_text="Present and true: his left neighbour dealt for him (TSR 3.3.2)"
    )
    contract = serializers.CharField()
    soloist = serializers.IntegerField(allow_null=True)
    solo_type = serializers.CharField(allow_null=True)
    game_value = serializers.IntegerField()
    points = serializers.ListField(
        child=serializers.IntegerField(), help_text="Seat 1 first, as on paper"
    )


class SnapshotSerializer(serializers.Serializer):
    status = serializers.CharField(help_text="draft, submitted or confirmed")
    time_over_after_hand = serializers.IntegerField(allow_null=True)
    keeper = serializers.IntegerField(
        required=False,
        help_text="The seat the sheet was handed over to (TSR 3.1.1); absent: seat 4, at a "
        "table of five seat 5",
    )
    hands = SnapshotHandSerializer(many=True)


@extend_schema_field(SnapshotSerializer)
class SnapshotField(serializers.JSONField):
    """A sheet as its change record keeps it, passed on as stored."""


class SheetChangeSerializer(serializers.Serializer):
    version = serializers.IntegerField(help_text="The sheet's version after the change")
    action = serializers.ChoiceField(choices=ScoresheetChange.Action.choices)
    at = serializers.DateTimeField()
    by_name = serializers.CharField(help_text="Who, as the name read then")
    reason = serializers.CharField(allow_blank=True, help_text="Why it was reopened")
    hands_changed = serializers.ListField(
        child=serializers.IntegerField(), help_text="Hands added, corrected or struck out"
    )
    before = SnapshotField()
    after = SnapshotField()


def changes_data(sheet: Scoresheet, *, since: int = 0, actor: Actor | None) -> list[dict]:
    """The sheet's changes after version ``since``, oldest first; to whom a blind first entry
    is withheld (``sheet_data``), without the hands before and after."""
    blind = _withheld(sheet, actor) is not None
    # With many=True the serializer is a ListSerializer, whose data is a list; the stubs type
    # it as the serializer itself, whose data is a dict.
    return SheetChangeSerializer(  # type: ignore[return-value]
        [
            {
                "version": row.change.version,
                "action": row.change.action,
                "at": row.change.at,
                "by_name": row.change.by_name,
                "reason": row.change.reason,
                "hands_changed": [] if blind else [diff.number for diff in row.hands],
                "before": {**row.change.before, "hands": []} if blind else row.change.before,
                "after": {**row.change.after, "hands": []} if blind else row.change.after,
            }
            for row in selectors.sheet_changes(sheet=sheet, since=since)
        ],
        many=True,
    ).data


class StaleSheetSerializer(serializers.Serializer):
    detail = serializers.CharField()
    current = ScoresheetSerializer(help_text="The sheet as it is now, with its version")
    changes = SheetChangeSerializer(
        many=True, help_text="What changed since the version the request named"
    )


# Views -----------------------------------------------------------------------------------------


READ_RESPONSES = {
    403: OpenApiResponse(
        description="A key of another table, an unknown key, an account without a staff role, "
        "or a scorekeeper account before the round's seating is published"
    ),
}
WRITE_RESPONSES = {
    200: ScoresheetSerializer,
    400: OpenApiResponse(
        description="Refused, with the messages by field, and nothing saved. A sheet the TSR "
        "check refuses also carries `problems`: each with `hand` (null for the sheet as a "
        "whole), `code`, `rule` and `message`, as in the check"
    ),
    403: OpenApiResponse(description="Not yours to do: the services say why"),
    409: OpenApiResponse(
        StaleSheetSerializer,
        description="The sheet changed since the version named: here it is as it is now",
    ),
}


class SheetAPIView(APIView):
    """A table's sheet, for staff accounts and for the players of the table by their key."""

    authentication_classes = [TokenAuthentication, SeatKeyAuthentication, SessionAuthentication]
    permission_classes = [SheetAccess]
    parser_classes = [LimitedJSONParser]

    def answer(self, sheet: Scoresheet) -> Response:
        """The sheet after a write, as GET returns it to whoever asked."""
        return Response(sheet_data(sheet_get(table_id=sheet.table_id), actor=self.actor()))

    def actor(self) -> Actor | None:
        """Who opened the sheet (``sheet_opened``), if the request got that far."""
        return getattr(self.request, "sheet_actor", None)

    def named_version(self) -> int:
        """The version the refused write named (it was read, or there would be no conflict)."""
        data = self.request.data if isinstance(self.request.data, dict) else {}
        try:
            return int(data["version"])
        except (KeyError, TypeError, ValueError):
            return 0

    def handle_exception(self, exc):
        if isinstance(exc, StaleVersionError):
            sheet = sheet_get(table_id=exc.current.table_id)
            return Response(
                {
                    "detail": exc.messages[0],
                    "current": sheet_data(sheet, actor=self.actor()),
                    "changes": changes_data(sheet, since=self.named_version(), actor=self.actor()),
                },
                status=status.HTTP_409_CONFLICT,
            )
        if isinstance(exc, SheetRefused):
            return Response(
                {"hands": exc.messages, "problems": problems_data(exc.problems)},
                status=status.HTTP_400_BAD_REQUEST,
            )
        return super().handle_exception(exc)


class ScoresheetDetail(SheetAPIView):
    """One table's scoresheet (Spielliste): its seats, hands with running totals and the check
    by the TSR, live (TSR 7.3, 8.5, 8.6). PUT replaces all its hands (scorekeeper)."""

    @extend_schema(tags=["scoresheets"], responses={200: ScoresheetSerializer, **READ_RESPONSES})
    def get(self, request, slug: str, number: int, table: int):
        sheet, actor = sheet_opened(request, slug=slug, number=number, table=table)
        return Response(sheet_data(sheet, actor=actor))

    @extend_schema(
        tags=["scoresheets"],
        request=HandsReplaceSerializer,
        responses=WRITE_RESPONSES,
        examples=[OpenApiExample("Two hands", request_only=True, value=HAND_EXAMPLE)],
    )
    def put(self, request, slug: str, number: int, table: int):
        """Replace all hands of a draft sheet after checking them against the TSR (TSR 7.3.3):
        only the scorekeeper (their key, or a staff account) writes, and nothing is saved
        unless every hand is right."""
        sheet, actor = sheet_opened(request, slug=slug, number=number, table=table)
        size = sheet.table_size()
        payload = HandsReplaceSerializer(
            data=request.data,
            context={
                "table_size": size,
                "hands_per_match": sheet.table.round.tournament.hands_at(size),
                "time_over_after_hand": sheet.time_over_after_hand,
            },
        )
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        state = services.scoresheet_hands_write(
            scoresheet=sheet,
            hands=data["lines"],
            version=data["version"],
            by=actor,
            time_over_after_hand=data.get("time_over_after_hand", sheet.time_over_after_hand),
        )
        return Response(sheet_data(state.sheet, actor=actor, state=state))


class ScoresheetChanges(SheetAPIView):
    """Every change to the sheet, oldest first: who, when, why, and the sheet before and after."""

    @extend_schema(
        tags=["scoresheets"],
        parameters=[
            OpenApiParameter(
                "since", int, description="Only the changes after this version (default 0)"
            )
        ],
        responses={200: SheetChangeSerializer(many=True), **READ_RESPONSES},
    )
    def get(self, request, slug: str, number: int, table: int):
        sheet, actor = sheet_opened(request, slug=slug, number=number, table=table)
        try:
            since = max(int(request.query_params.get("since", 0)), 0)
        except ValueError as error:
            raise exceptions.ValidationError(
                {"since": [gettext("Give a version number.")]}
            ) from error
        return Response(changes_data(sheet, since=since, actor=actor))
