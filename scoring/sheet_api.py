"""The scoresheet API: one table's sheet with its running totals and live check, its hands
replaced as a whole or one struck out, handed in, confirmed, sent back to its scorekeeper,
reopened and handed over to another seat, and its history (TSR 3.1.1, 7.3, 8.4-8.6).

Thin views over ``scoring.services``, which decide who may do what (only the scorekeeper enters
and hands in, someone other than the submitter confirms, any player of the table sends a
handed-in sheet back, only an organiser reopens, only the organiser or an adjudicator hands the
sheet over to another seat) and refuse a write based on a
stale version. Callers are staff through their account (session or token) or a
player of the table through their seat's private link key in the ``X-Seat-Key`` header. A stale
version is answered with HTTP 409 and the sheet as it is now.

Beside the sheet, its table's private links: every seat's, for the organisers and adjudicators
who hand them out again (``policies.may_read_seat_links``).
"""

from collections.abc import Callable

from django.conf import settings
from django.contrib.auth import get_user
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy, ngettext
from drf_spectacular.extensions import (
    OpenApiAuthenticationExtension,
    OpenApiSerializerFieldExtension,
)
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import exceptions, serializers, status
from rest_framework.authentication import (
    BaseAuthentication,
    SessionAuthentication,
    TokenAuthentication,
)
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.response import Response
from rest_framework.views import APIView

from doko.rules.contracts import Contract, Section, SoloType
from doko.rules.deal import TABLE_SIZES, MatchProgress
from doko.rules.sheet import PROBLEM_CODES, HandLine, Replay
from scoring import links, policies, scans, selectors, services
from scoring.api import (
    MOST_HANDS,
    MOST_POINTS,
    LimitedJSONParser,
    NextHandSerializer,
    SeatsField,
    hand_seat_problems,
)
from scoring.messages import problems_data
from scoring.models import RETURN_REASON_LENGTH, Scoresheet, ScoresheetChange, ScoresheetScan
from scoring.services import Actor, SheetRefused, StaleVersionError
from tournaments import policies as tournament_policies
from tournaments import selectors as tournament_selectors
from tournaments.models import Seat
from tournaments.permissions import roles_of
from tournaments.roles import SHEET_READERS
from tournaments.site import absolute_url, site_warning

SEAT_KEY_HEADER = "X-Seat-Key"
JPEG, PNG, PDF = ScoresheetScan.Kind.values
# Who reads a sheet through their account: those who see the seating before it is published,
# and the scorekeeper accounts who type sheets in, once it is (``may_read_seating``).
READERS = SHEET_READERS
CODES = ", ".join(PROBLEM_CODES) + ", and for a sheet handed in too early: incomplete"


# Who is asking ---------------------------------------------------------------------------------


class SeatKeyAuthentication(BaseAuthentication):
    """A player of the table through their seat's private link key (``/s/<key>/``, the QR code
    on the printed sheet), sent as ``X-Seat-Key``. No account: ``request.auth`` is the seat, and
    the key opens that table's sheet only. An unknown key is refused (403)."""

    def authenticate(self, request):
        key = request.headers.get(SEAT_KEY_HEADER)
        if key is None:
            return None
        try:
            seat = links.seat_for_key(request, key.strip())
        except links.LinkLimited as limited:
            raise exceptions.Throttled(
                wait=limited.wait,
                detail=gettext(
                    "Too many requests through this link. Please wait a minute and try again."
                ),
            ) from None
        if seat is None:
            raise exceptions.PermissionDenied(gettext("This link does not open this scoresheet."))
        return AnonymousUser(), seat


class SeatKeyScheme(OpenApiAuthenticationExtension):
    target_class = SeatKeyAuthentication
    name = "seatKey"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "header",
            "name": SEAT_KEY_HEADER,
            "description": "A seat's private link key (the `<key>` of `/s/<key>/`): a player "
            "of the table, without an account. The scorekeeper's key (seat 4, at a table of "
            "five seat 5, or the seat the sheet was handed over to) enters and hands in the "
            "sheet; another seat's key confirms it.",
        }


class AccountOnly(BasePermission):
    """An account (token or session); a seat's key opens its own table's sheet only."""

    message = gettext_lazy("A seat's key opens its own scoresheet only.")

    def has_permission(self, request, view):
        return request.user.is_authenticated


class SheetAccess(BasePermission):
    """A seat's key, or an account; which sheet each may open is decided in the view."""

    def has_permission(self, request, view):
        return isinstance(request.auth, Seat) or request.user.is_authenticated


def _sheets():
    return Scoresheet.objects.select_related(
        "table__round__tournament", "submitted_by", "confirmed_by", "scan"
    )


def _sheet_get(*, table_id: int) -> Scoresheet:
    return get_object_or_404(_sheets(), table_id=table_id)


def _logged_in(request) -> User | None:
    """The account whose session a write through a seat's key also carries: staff who play at
    the table confirm nothing with another seat's key (``policies.may_confirm_sheet``). DRF
    took the key for the request's user, so the session is read here, and only for a write
    with a session cookie."""
    if request.method in SAFE_METHODS or settings.SESSION_COOKIE_NAME not in request.COOKIES:
        return None
    user = get_user(request._request)
    return user if isinstance(user, User) and user.is_authenticated else None


def _opened(request, *, slug: str, number: int, table: int) -> tuple[Scoresheet, Actor]:
    """The sheet at the address and who asks for it.

    A seat's key opens its own table's sheet only; an account needs a staff role to open it at
    all, so that a refused write shows nothing (409) to whom a read would not. What each may
    change is for the services to say.
    """
    seat = request.auth if isinstance(request.auth, Seat) else None
    if seat is not None:
        round_ = seat.table.round
        if (round_.tournament.slug, round_.number, seat.table.number) != (slug, number, table):
            raise PermissionDenied(gettext("This link does not open this scoresheet."))
        return _sheet_get(table_id=seat.table_id), Actor(seat=seat, account=_logged_in(request))
    tournament = tournament_selectors.tournament_get(slug=slug, user=request.user)
    if not roles_of(request, tournament) & READERS:
        raise PermissionDenied(
            gettext("You may not see this scoresheet.")
            if request.method in SAFE_METHODS
            else gettext("You may not change this scoresheet.")
        )
    sheet = get_object_or_404(
        _sheets(),
        table__round__tournament=tournament,
        table__round__number=number,
        table__number=table,
    )
    # As on the pages: a sheet names the seating, not shown before it is published but to
    # the staff (a scorekeeper account is not).
    tournament_policies.enforce(
        tournament_policies.may_read_seating(
            round=sheet.table.round, roles=roles_of(request, tournament)
        )
    )
    return sheet, Actor(user=request.user)


# The sheet as the API returns it ------------------------------------------------------------

CONTRACTS = [contract.value for contract in Contract]


class ContractField(serializers.ChoiceField):
    """The kind of hand (TSR 2.3.3, 4): a schema component of its own, ``Contract``, since other
    endpoints name other choices ``contract`` (the game of the value API, normal or solo)."""

    def __init__(self, **kwargs):
        super().__init__(choices=CONTRACTS, **kwargs)


class ContractScheme(OpenApiSerializerFieldExtension):
    target_class = ContractField

    def get_name(self):
        return "Contract"

    def map_serializer_field(self, auto_schema, direction):
        return {"type": "string", "enum": CONTRACTS}


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


class CheckProblemSerializer(serializers.Serializer):
    hand = serializers.IntegerField(allow_null=True, help_text="1-based position on the sheet")
    code = serializers.CharField(help_text=f"One of {CODES}")
    rule = serializers.CharField(help_text="The TSR section, e.g. “TSR 7.3.3.1”")
    message = serializers.CharField(help_text="In the request's language (Accept-Language)")


class LiveCheckSerializer(serializers.Serializer):
    ok = serializers.BooleanField(help_text="No problems: the sheet may be saved as it is")
    problems = CheckProblemSerializer(many=True)
    warnings = CheckProblemSerializer(
        many=True,
        help_text="Irregular but standing, never blocking: a hand dealt by another player than "
        "the TSR's that nobody complained of in time (code dealer, TSR 9.7.3)",
    )
    next = NextHandSerializer(
        help_text="The next hand: its dealer, and whether it must be a "
        "forced solo by whom (TSR 4.2.3, 8.6.1)"
    )
    compulsory_played = serializers.DictField(child=serializers.BooleanField())
    complete = serializers.BooleanField(
        help_text="Every hand played and every compulsory solo too: the sheet may be handed in"
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
        "url": reverse("api-scoresheet-scan", args=args),
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


def _seat_dict(values) -> dict[str, object]:
    """Per seat, keyed by the seat number as a string, from a mapping or a list of seats 1..n."""
    if isinstance(values, list):
        values = dict(enumerate(values, start=1))
    return {str(seat): value for seat, value in sorted(values.items())}


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
            "points": _seat_dict(row.hand.points),
            "totals": _seat_dict(row.totals),
            "not_played": row.hand.not_played,
            "replay": row.hand.replay or None,
        }
        for row in state.rows
    ]


def sheet_data(sheet: Scoresheet) -> dict:
    """Everything a client shows of a sheet: seats, hands with running totals, the TSR check and
    who handed it in and confirmed it; in two queries after the sheet's own."""
    state = selectors.sheet_state(sheet=sheet)
    seats = {seat.pk: seat for seat in state.seats}

    def who(user, seat_id: int | None) -> str | None:
        if seat_id is not None:
            return Actor(seat=seats.get(seat_id) or Seat.objects.get(pk=seat_id)).name
        return Actor(user=user).name if user is not None else None

    check = state.check
    round_ = sheet.table.round
    return ScoresheetSerializer(
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
            "totals": _seat_dict(check.totals),
            "check": {
                "ok": check.ok,
                "problems": problems_data(check.problems),
                "warnings": problems_data(check.warnings),
                "next": check.next,
                "compulsory_played": _seat_dict(check.compulsory_played),
                "complete": check.complete,
            },
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
        }
    ).data


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


def changes_data(sheet: Scoresheet, *, since: int = 0) -> list[dict]:
    """The sheet's changes after version ``since``, oldest first."""
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
                "hands_changed": [diff.number for diff in row.hands],
                "before": row.change.before,
                "after": row.change.after,
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


# What a client writes -----------------------------------------------------------------------


class HandEntrySerializer(serializers.Serializer):
    """One hand as the scorekeeper writes it: the contract, who played alone, the points."""

    contract = ContractField()
    dealer = serializers.IntegerField(
        min_value=1,
        max_value=5,
        allow_null=True,
        default=None,
        help_text="Leave it out to have the dealer the TSR gives filled in: seat 1 first, then "
        "to the left; the dealer of a compulsory solo deals again (TSR 3.3.1, 4.2.5)",
    )
    dealt_by_neighbour = serializers.BooleanField(
        default=False,
        help_text="The dealer was away and his left neighbour dealt for him (TSR 3.3.2): "
        "give the dealer whose turn it was (or leave it out); the deal goes on from him, and "
        "at a table of five he sits out",
    )
    soloist = serializers.IntegerField(
        min_value=1,
        max_value=5,
        allow_null=True,
        default=None,
        help_text="Every solo and the silent wedding; a wedding whose holder took the first "
        "three tricks (settled as a solo)",
    )
    solo_type = serializers.ChoiceField(
        choices=[solo.value for solo in SoloType],
        allow_null=True,
        default=None,
        help_text="With a soloist (TSR 2.3.3); a wedding played alone is a diamonds solo",
    )
    game_value = serializers.IntegerField(
        min_value=0,
        max_value=MOST_POINTS,
        allow_null=True,
        default=None,
        help_text="Leave it out to read it off the points; checked against them (TSR 7.2)",
    )
    points = SeatsField(
        help_text="Game points per seat; a sitting-out dealer at a table of five may be left out"
    )
    replay = serializers.ChoiceField(
        choices=[replay.value for replay in Replay],
        allow_null=True,
        default=None,
        help_text="A line the adjudicator recorded as broken off and dealt again (TSR 9.1.3), "
        "sent back as read (`replay` of the hand); only he adds one (`…/replay`)",
    )

    def validate(self, data):
        contract = Contract(data["contract"])
        soloist = data["soloist"]
        solo_type = SoloType(data["solo_type"]) if data["solo_type"] else None
        errors = {}
        if contract.names_soloist and soloist is None:
            errors["soloist"] = [gettext("Name the soloist of a solo (TSR 2.4.7, 4.4.5).")]
        elif contract is Contract.NORMAL and soloist is not None:
            errors["soloist"] = [gettext("A normal game has no soloist (TSR 2.4.4).")]
        elif soloist is None and solo_type is not None:
            errors["solo_type"] = [gettext("Only a hand played alone has a solo type (TSR 2.3.3).")]
        elif contract in (Contract.WEDDING, Contract.SILENT_WEDDING) and soloist is not None:
            if solo_type not in (None, SoloType.DIAMONDS):
                errors["solo_type"] = [
                    gettext("A wedding played alone is a diamonds solo (TSR 4.4.3 b, 4.4.5).")
                ]
            solo_type = SoloType.DIAMONDS
        elif soloist is not None and solo_type is None:
            errors["solo_type"] = [gettext("Say which solo was played (TSR 2.3.3).")]
        if errors:
            raise serializers.ValidationError(errors)
        return {**data, "contract": contract, "solo_type": solo_type}


class HandsReplaceSerializer(serializers.Serializer):
    version = serializers.IntegerField(
        min_value=1, help_text="The version of the sheet this change is based on"
    )
    # With many=True the serializer is a ListSerializer, which takes max_length; the stubs omit
    # it.
    hands = HandEntrySerializer(  # type: ignore[call-arg]
        many=True, max_length=MOST_HANDS, help_text="All hands, in the order played"
    )
    time_over_after_hand = serializers.IntegerField(
        min_value=0,
        max_value=MOST_HANDS,
        allow_null=True,
        required=False,
        help_text="Hands played when the playing time ended, after which only forced solos "
        "follow (TSR 8.5.1, 8.5.3); null while it runs; left out: kept as it is",
    )

    def validate(self, data):
        """The hands as the rules core reads them. A hand without a dealer gets the one the TSR
        gives (TSR 3.3.1, 4.2.3, 4.2.5); a dealer given stands, also out of turn (TSR 9.7.3),
        and the deal goes on from him."""
        size = self.context["table_size"]
        if size not in TABLE_SIZES:
            raise serializers.ValidationError(
                {
                    "hands": [
                        ngettext(
                            "This table seats {count} player; a table seats 4 or 5 (TSR 8.3, "
                            "10.1).",
                            "This table seats {count} players; a table seats 4 or 5 (TSR 8.3, "
                            "10.1).",
                            size,
                        ).format(count=size)
                    ]
                }
            )
        time_over = data.get("time_over_after_hand", self.context.get("time_over_after_hand"))
        progress = MatchProgress(table_size=size, hands_per_match=self.context["hands_per_match"])
        errors: dict[str, dict] = {}  # by position in the list, as DRF reports nested errors
        lines = []
        for index, hand in enumerate(data["hands"]):
            dealer = hand["dealer"]
            if dealer is None:
                late = time_over is not None and index >= time_over
                dealer = progress.next_deal(time_over=late)[0]
            problems = hand_seat_problems(
                dealer=dealer, soloist=hand["soloist"], seats={"points": hand["points"]}, size=size
            )
            if problems:
                errors[str(index)] = problems
                continue
            line = HandLine(
                contract=hand["contract"],
                dealer=dealer,
                points={seat: hand["points"].get(seat, 0) for seat in range(1, size + 1)},
                soloist=hand["soloist"],
                solo_type=hand["solo_type"],
                game_value=hand["game_value"],
                dealt_by_neighbour=hand["dealt_by_neighbour"],
                not_played=hand["replay"] is not None,
                replay=Replay(hand["replay"]) if hand["replay"] else None,
            )
            lines.append(line)
            progress.record(
                dealer=dealer,
                contract=line.contract,
                soloist=line.soloist,
                not_played=line.not_played,
            )
        if errors:
            raise serializers.ValidationError({"hands": errors})
        return {**data, "lines": lines}


class SheetVersionSerializer(serializers.Serializer):
    version = serializers.IntegerField(
        min_value=1, help_text="The version of the sheet this action is based on"
    )


class SheetConfirmSerializer(SheetVersionSerializer):
    from_signed_sheet = serializers.BooleanField(
        default=False,
        help_text="The desk confirms a paper sheet from the players' signatures on it, which "
        "are the second person (TSR 7.3.4, 8.5.2): the member of the desk who typed it may "
        "confirm it himself, and a complete draft is handed in and confirmed at once. Refused "
        "(400 on `from_signed_sheet`) where the tournament keeps its sheets on phones only or "
        "checks paper sheets by double entry",
    )


class SheetKeeperSerializer(SheetVersionSerializer):
    seat = serializers.IntegerField(
        min_value=1,
        max_value=5,
        help_text="The seat that keeps the sheet from now on, by agreement at the table",
    )


class SheetReopenSerializer(SheetVersionSerializer):
    reason = serializers.CharField(
        max_length=2000,
        allow_blank=True,
        default="",
        help_text="Why the sheet is reopened; kept on the record",
    )


class SheetReturnSerializer(SheetVersionSerializer):
    reason = serializers.CharField(
        max_length=RETURN_REASON_LENGTH,
        help_text="What the scorekeeper must correct; shown to him on the sheet and kept on "
        "the record",
    )


class SheetStrikeSerializer(SheetVersionSerializer):
    number = serializers.IntegerField(
        min_value=1, max_value=MOST_HANDS, help_text="The hand to strike out"
    )


class SheetEndEarlySerializer(SheetVersionSerializer):
    reason = serializers.CharField(
        max_length=RETURN_REASON_LENGTH,
        help_text="Why the table cannot finish (who left or was disqualified, and when); "
        "kept on the sheet and in its history",
    )


class SheetReplaySerializer(SheetVersionSerializer):
    replay = serializers.ChoiceField(
        choices=[replay.value for replay in Replay],
        help_text="`consent`: the four agreed, with the adjudicator present and agreeing "
        "(TSR 9.1.3 (2)); `ruling`: the adjudicator's ruling in an exceptional case, with the "
        "arbitration panel (TSR 9.1.3 (1))",
    )
    note = serializers.CharField(
        max_length=RETURN_REASON_LENGTH,
        allow_blank=True,
        default="",
        help_text="The facts that led to it; required for a `ruling` (TSR 9.1.3 (1))",
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
        """The sheet after a write, as GET returns it."""
        return Response(sheet_data(_sheet_get(table_id=sheet.table_id)))

    def named_version(self) -> int:
        """The version the refused write named (it was read, or there would be no conflict)."""
        data = self.request.data if isinstance(self.request.data, dict) else {}
        try:
            return int(data["version"])
        except (KeyError, TypeError, ValueError):
            return 0

    def handle_exception(self, exc):
        if isinstance(exc, StaleVersionError):
            sheet = _sheet_get(table_id=exc.current.table_id)
            return Response(
                {
                    "detail": exc.messages[0],
                    "current": sheet_data(sheet),
                    "changes": changes_data(sheet, since=self.named_version()),
                },
                status=status.HTTP_409_CONFLICT,
            )
        if isinstance(exc, SheetRefused):
            return Response(
                {"hands": exc.messages, "problems": problems_data(exc.problems)},
                status=status.HTTP_400_BAD_REQUEST,
            )
        return super().handle_exception(exc)


HAND_EXAMPLE = {
    "version": 3,
    "time_over_after_hand": None,
    "hands": [
        {"contract": "normal", "points": {"1": 2, "2": -2, "3": 2, "4": -2}},
        {
            "contract": "compulsory_solo",
            "soloist": 3,
            "solo_type": "queens",
            "points": {"1": -3, "2": -3, "3": 9, "4": -3},
        },
    ],
}


class ScoresheetDetail(SheetAPIView):
    """One table's scoresheet (Spielliste): its seats, hands with running totals and the check
    by the TSR, live (TSR 7.3, 8.5, 8.6). PUT replaces all its hands (scorekeeper)."""

    @extend_schema(tags=["scoresheets"], responses={200: ScoresheetSerializer, **READ_RESPONSES})
    def get(self, request, slug: str, number: int, table: int):
        sheet, _actor = _opened(request, slug=slug, number=number, table=table)
        return Response(sheet_data(sheet))

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
        sheet, actor = _opened(request, slug=slug, number=number, table=table)
        size = sheet.table.seats.count()
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
        sheet = services.scoresheet_hands_replace(
            scoresheet=sheet,
            hands=data["lines"],
            version=data["version"],
            by=actor,
            time_over_after_hand=data.get("time_over_after_hand", sheet.time_over_after_hand),
        )
        return self.answer(sheet)


class SheetActionView(SheetAPIView):
    """One step of the sheet's workflow: each subclass names its service, called with the sheet,
    who asks, and the request's validated fields."""

    request_serializer: type[serializers.Serializer] = SheetVersionSerializer
    service: Callable[..., Scoresheet]

    def post(self, request, slug: str, number: int, table: int):
        sheet, actor = _opened(request, slug=slug, number=number, table=table)
        payload = self.request_serializer(data=request.data)
        payload.is_valid(raise_exception=True)
        sheet = self.service(scoresheet=sheet, by=actor, **payload.validated_data)
        return self.answer(sheet)


@extend_schema(tags=["scoresheets"], request=SheetVersionSerializer, responses=WRITE_RESPONSES)
class ScoresheetSubmit(SheetActionView):
    """Hand the sheet in (TSR 7.3.4): the scorekeeper, once it is complete, or after the
    playing time ended with the forced solos played (TSR 8.5.1, 8.5.3)."""

    service = staticmethod(services.scoresheet_submit)


@extend_schema(tags=["scoresheets"], request=SheetConfirmSerializer, responses=WRITE_RESPONSES)
class ScoresheetConfirm(SheetActionView):
    """Confirm a handed-in sheet (TSR 7.3.2, 8.5.2): another player of the table by their key,
    or staff; never who handed it in, nor a staff account that plays as the seat that did, nor
    that seat's key (400 on `confirmed_by`). With `from_signed_sheet`, the desk confirms a paper
    sheet from the players' signatures, also one it typed itself (TSR 7.3.4). Where the
    tournament checks paper sheets by double entry, a sheet typed at the desk is confirmed by
    its second entry instead (400 on `confirmed_by`)."""

    request_serializer = SheetConfirmSerializer
    service = staticmethod(services.scoresheet_confirm)


@extend_schema(tags=["scoresheets"], request=SheetReopenSerializer, responses=WRITE_RESPONSES)
class ScoresheetReopen(SheetActionView):
    """Return a handed-in or confirmed sheet to draft, with a reason: organisers only."""

    request_serializer = SheetReopenSerializer
    service = staticmethod(services.scoresheet_reopen)


@extend_schema(tags=["scoresheets"], request=SheetReturnSerializer, responses=WRITE_RESPONSES)
class ScoresheetReturn(SheetActionView):
    """Send a handed-in sheet back to its scorekeeper before it is confirmed, with a reason
    (TSR 7.3.2): any player of the table by their key, or staff. It is a draft again; the
    reason is shown on it (``sent_back_reason``) and kept in its history."""

    request_serializer = SheetReturnSerializer
    service = staticmethod(services.scoresheet_return)


@extend_schema(tags=["scoresheets"], request=SheetStrikeSerializer, responses=WRITE_RESPONSES)
class ScoresheetStrike(SheetActionView):
    """Strike out one hand of a draft sheet (the scorekeeper, as PUT): the later hands move up
    one and are dealt again in turn, but for those dealt out of turn (TSR 9.7.3), and every
    hand is checked again as on entry; a sheet the TSR would refuse without it is refused with
    its `problems`, and nothing changes."""

    request_serializer = SheetStrikeSerializer
    service = staticmethod(services.scoresheet_hand_strike)


@extend_schema(tags=["scoresheets"], request=SheetEndEarlySerializer, responses=WRITE_RESPONSES)
class ScoresheetEndEarly(SheetActionView):
    """End the sheet of a table that cannot finish, a player having left or been disqualified
    mid-round, with the reason: the adjudicator, a deputy adjudicator or the organiser, none
    at his own table (TSR 8.2.1), on a draft. The hands still to play are counted
    (`ended_early.hands_not_played`) and, with the compulsory solos still owed, waived: the
    sheet is complete as it stands, to be handed in and confirmed. The player's later rounds
    go to the withdrawal or substitute flow."""

    request_serializer = SheetEndEarlySerializer
    service = staticmethod(services.scoresheet_end_early)


@extend_schema(tags=["scoresheets"], request=SheetVersionSerializer, responses=WRITE_RESPONSES)
class ScoresheetEndUndo(SheetActionView):
    """Take back a mistaken early end while the sheet is not confirmed: the same people; a
    handed-in sheet is a draft again."""

    service = staticmethod(services.scoresheet_end_undo)


@extend_schema(tags=["scoresheets"], request=SheetReplaySerializer, responses=WRITE_RESPONSES)
class ScoresheetReplay(SheetActionView):
    """Put the game being played on the sheet as broken off and dealt again (TSR 9.1.3), with
    why: by the consent of the four with the adjudicator's, or by his ruling. The adjudicator
    or a deputy adjudicator who does not play at the table records it. Like a stopped hand it
    has no game points and is not one of the round's lines; the same dealer deals again."""

    request_serializer = SheetReplaySerializer
    service = staticmethod(services.scoresheet_hand_replay)


@extend_schema(tags=["scoresheets"], request=SheetKeeperSerializer, responses=WRITE_RESPONSES)
class ScoresheetKeeper(SheetActionView):
    """Hand the sheet over to another seat of the table, by agreement at the table (TSR 3.1.1,
    8.4.1): the organiser or an adjudicator, on a draft while the round is under way. The
    seating order stays; from then on that seat's key enters and hands in the sheet, and the
    former scorekeeper's only follows and confirms. The seat that keeps it already: no change."""

    request_serializer = SheetKeeperSerializer
    service = staticmethod(services.scoresheet_keeper_move)


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
        sheet, _actor = _opened(request, slug=slug, number=number, table=table)
        try:
            since = max(int(request.query_params.get("since", 0)), 0)
        except ValueError as error:
            raise exceptions.ValidationError(
                {"since": [gettext("Give a version number.")]}
            ) from error
        return Response(changes_data(sheet, since=since))


# The photo or scan of the signed paper sheet ----------------------------------------------------


class ScanUploadSerializer(serializers.Serializer):
    """For the schema: the service checks the file and says what is wrong with it."""

    file = serializers.FileField(
        help_text="A photo (JPEG, PNG) or scan (PDF) of the signed sheet, at most 10 MB; "
        "told by its content, stored without its metadata"
    )


SCAN_FILE = OpenApiResponse(
    OpenApiTypes.BINARY,
    description="The file as stored (without its metadata), shown inline; `ETag` and "
    "`If-None-Match` (304 while unchanged)",
)


class ScoresheetScanView(SheetAPIView):
    """The photo or scan of the signed paper sheet (TSR 7.3.4, 8.5.2). POST attaches it, or
    replaces the one attached (multipart, field `file`): the scorekeeper's key or sheet staff,
    from the start of the round; once it is closed, an organiser only. It changes nothing of
    the sheet, not its `version`. GET returns the file: every seat's key of the table, and
    the staff who read the sheet."""

    parser_classes = [MultiPartParser]

    def initialize_request(self, request, *args, **kwargs):
        # Before the body is read: one file, of no more than the limit and a byte, on disk.
        if request.method == "POST":
            request.upload_handlers = scans.scan_upload_handlers(request)
        return super().initialize_request(request, *args, **kwargs)

    def perform_content_negotiation(self, request, force=False):
        # A file is answered whatever the client accepts (an <img> asks for image/*).
        return super().perform_content_negotiation(request, force=True)

    @extend_schema(
        tags=["scoresheets"],
        responses={
            (200, JPEG): SCAN_FILE,
            (200, PNG): SCAN_FILE,
            (200, PDF): SCAN_FILE,
            **READ_RESPONSES,
            404: OpenApiResponse(description="No such sheet, or no scan attached to it"),
        },
    )
    def get(self, request, slug: str, number: int, table: int):
        sheet, actor = _opened(request, slug=slug, number=number, table=table)
        # A seat's key holds no role (and has no account to look one up for).
        roles = set() if actor.seat else roles_of(request, sheet.table.round.tournament)
        tournament_policies.enforce(policies.may_read_scan(sheet=sheet, actor=actor, roles=roles))
        scan = selectors.scoresheet_scan(sheet=sheet)
        if scan is None:
            raise Http404
        return scans.scan_response(request, scan)

    @extend_schema(
        tags=["scoresheets"],
        request={"multipart/form-data": ScanUploadSerializer},
        responses={
            201: ScanSerializer,
            400: OpenApiResponse(
                description="Refused, with the reason under `file` (none sent, empty, over "
                "10 MB, not a JPEG, PNG or PDF, damaged, too many pixels, an encrypted PDF) or "
                "`round` (not started; closed, for all but an organiser); nothing saved"
            ),
            403: OpenApiResponse(description="Not yours to do: the services say why"),
            429: OpenApiResponse(description="Too many writes through this seat's key"),
        },
    )
    def post(self, request, slug: str, number: int, table: int):
        sheet, actor = _opened(request, slug=slug, number=number, table=table)
        scan = services.scoresheet_scan_attach(
            scoresheet=sheet, upload=request.FILES.get(scans.FIELD), by=actor
        )
        data = scan_data(scan)
        assert data is not None
        return Response(
            data,
            status=status.HTTP_201_CREATED,
            headers={"Location": request.build_absolute_uri(data["url"])},
        )


# The seats' private links ----------------------------------------------------------------------


class SeatLinkSerializer(serializers.Serializer):
    position = serializers.IntegerField(
        help_text="Seat 1 deals first; seat 4 (at a table of five seat 5) keeps the sheet unless "
        "it was handed over"
    )
    start_number = serializers.IntegerField()
    name = serializers.CharField()
    link = serializers.URLField(
        help_text="The seat's private link to the table's scoresheet (`/s/<key>/`, its key "
        "also the `X-Seat-Key` of this API), at the address the phones in the hall reach "
        "(SITE_URL when it is set). Whoever holds it acts as that seat: hand it only to its "
        "player"
    )


class TableLinksSerializer(serializers.Serializer):
    tournament = serializers.SlugField()
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    seats = SeatLinkSerializer(many=True, help_text="In seat order")
    warning = serializers.CharField(
        allow_null=True,
        help_text="Set when the links point at the server's own machine (a loopback address "
        "such as 127.0.0.1 or localhost, SITE_URL unset or set to one), which no phone in the "
        "hall can open: what to do, in the language asked for; null when the phones can open them",
    )


class TableLinks(APIView):
    """Every seat's private link to one table's scoresheet, with its player: for the
    tournament's organisers and adjudicators, to hand a link out again (a slip lost, a phone
    changed). Refused to everyone else, a seat's own key included, and to those of them who
    play at this table."""

    # A seat's key is recognised so that it is refused (403), not taken for a visitor (401).
    authentication_classes = [TokenAuthentication, SeatKeyAuthentication, SessionAuthentication]
    permission_classes = [AccountOnly]

    @extend_schema(
        tags=["scoresheets"],
        # Accounts only (a seat's key is refused). drf-spectacular puts this list in the
        # operation's security as it is, so it takes requirement objects; its hint says names.
        auth=[{"tokenAuth": []}, {"cookieAuth": []}],  # type: ignore[list-item]
        responses={
            200: TableLinksSerializer,
            401: OpenApiResponse(description="Not logged in"),
            403: OpenApiResponse(
                description="Not an organiser or adjudicator of the tournament, one who plays "
                "at this table (the reason names who reads them instead), or a seat's key"
            ),
            404: OpenApiResponse(description="No such tournament, round or table"),
        },
    )
    def get(self, request, slug: str, number: int, table: int):
        tournament = tournament_selectors.tournament_get(slug=slug, user=request.user)
        roles = roles_of(request, tournament)
        tournament_policies.enforce(policies.may_read_seat_links(roles=roles))
        round_ = tournament_selectors.round_get(tournament=tournament, number=number)
        row = tournament_selectors.table_get(round=round_, number=table)
        # Not to staff who play at this table (another member of staff reads them).
        tournament_policies.enforce(
            policies.may_read_seat_links(roles=roles, table=row.table, user=request.user)
        )
        tokens = tournament_selectors.seat_tokens(table=row.table)
        return Response(
            TableLinksSerializer(
                {
                    "tournament": tournament.slug,
                    "round": round_.number,
                    "table": row.table.number,
                    "seats": [
                        {
                            "position": seat.position,
                            "start_number": seat.entry.start_number,
                            "name": seat.entry.name,
                            "link": absolute_url(
                                request, reverse("sheet-link", args=[tokens[seat.position]])
                            ),
                        }
                        for seat in row.seats
                    ],
                    "warning": site_warning(request),
                }
            ).data
        )
