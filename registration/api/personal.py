"""API of the players' personal links: what the player's page (``/p/<key>/``) shows, with the
key in the ``X-Player-Key`` header and no account; the withdrawal before the first draw; and,
for the organiser and the adjudicator, a player's link and its replacement (a lost phone).

The personal link never grants more than the player's own seat: while the player is seated in
a published round not yet closed, ``sheet.seat_key`` is that seat's own key, used as
``X-Seat-Key`` on the scoresheet API exactly as the QR code on the printed sheet is."""

import re

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from registration.models import Registration
from registration.personal_keys import KeyLimited, personal_link_for
from registration.selectors.personal import (
    KEY_LENGTH,
    PersonalRound,
    PersonalView,
    personal_view,
    waiting_place,
)
from registration.services.links import personal_link_replace, personal_link_withdraw
from tournaments import doors, policies, selectors
from tournaments.models import Entry
from tournaments.permissions import roles_of
from tournaments.roles_history import tablemates
from tournaments.site import absolute_url

PLAYER_KEY_HEADER = "X-Player-Key"
_KEY = re.compile(rf"[A-Za-z0-9_-]{{1,{KEY_LENGTH}}}")

KEY_PARAMETER = OpenApiParameter(
    PLAYER_KEY_HEADER,
    str,
    location=OpenApiParameter.HEADER,
    required=True,
    description="The player's personal link key (the `<key>` of `/p/<key>/`). No account: "
    "the key is the credential. An unknown or replaced key is 404.",
)


# Serializers (what the answers hold) ------------------------------------------------------------


class PersonalTournamentSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()


class TablePlayerSerializer(serializers.Serializer):
    seat = serializers.IntegerField(help_text="Seat 1 deals first")
    start_number = serializers.IntegerField()
    name = serializers.CharField()


class SheetLinkSerializer(serializers.Serializer):
    url = serializers.CharField(help_text="The seat's own scoresheet link, `/s/<seat_key>/`")
    seat_key = serializers.CharField(help_text="Send it as `X-Seat-Key` on the scoresheet API")


class SecondSeatSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    seat = serializers.IntegerField()
    keeper = serializers.IntegerField(allow_null=True)
    players = TablePlayerSerializer(many=True, help_text="The table's players, in seat order")
    sheet = SheetLinkSerializer(
        allow_null=True, help_text="In the current round: this seat's own scoresheet link"
    )


class PersonalRoundSerializer(serializers.Serializer):
    round = serializers.IntegerField(help_text="The round's number")
    status = serializers.CharField(help_text="planned, seated, running, finished or closed")
    published = serializers.BooleanField(help_text="Whether its seating is published")
    table = serializers.IntegerField(allow_null=True, help_text="None: no seat, or unpublished")
    seat = serializers.IntegerField(allow_null=True)
    keeper = serializers.IntegerField(
        allow_null=True, help_text="The seat that keeps the scoresheet (TSR 3.1.1, 8.4.1)"
    )
    players = TablePlayerSerializer(many=True, help_text="The table's players, in seat order")
    moved = serializers.BooleanField(help_text="Moved after the seating was published")
    second_seat = SecondSeatSerializer(
        allow_null=True,
        help_text="A Springer's seat at his second table (TSR 10); null for everyone else",
    )


class PersonalResultSerializer(serializers.Serializer):
    round = serializers.IntegerField(source="round_number")
    table = serializers.IntegerField()
    points = serializers.IntegerField()
    placing = serializers.IntegerField(help_text="Placing at the table")


class WaitingSerializer(serializers.Serializer):
    state = serializers.ChoiceField(choices=Registration.State.choices)
    place = serializers.IntegerField(allow_null=True, help_text="Place on the waiting list")


class PersonalSerializer(serializers.Serializer):
    tournament = PersonalTournamentSerializer()
    name = serializers.CharField()
    club = serializers.CharField()
    start_number = serializers.IntegerField(allow_null=True, help_text="None before admission")
    status = serializers.CharField(
        allow_null=True, help_text="active, withdrawn or disqualified; None before admission"
    )
    arrived_at = serializers.DateTimeField(allow_null=True, help_text="Checked in at the door")
    registration = WaitingSerializer(
        allow_null=True, help_text="For a registration not admitted: waiting or cancelled"
    )
    current = PersonalRoundSerializer(
        allow_null=True, help_text="The first round published and not closed"
    )
    next = PersonalRoundSerializer(
        allow_null=True, help_text="The round after it (without one: the first round to come)"
    )
    sheet = SheetLinkSerializer(
        allow_null=True, help_text="While seated in the current round: the seat's own link"
    )
    results = PersonalResultSerializer(many=True, help_text="Rounds with a confirmed sheet")
    standings_public = serializers.BooleanField()
    rank = serializers.IntegerField(allow_null=True, help_text="With the standings public only")
    points = serializers.IntegerField(allow_null=True, help_text="With the standings public only")
    may_withdraw = serializers.BooleanField()
    withdraw_refusal = serializers.CharField(allow_null=True, help_text="Why not, if not")


class PersonalLinkSerializer(serializers.Serializer):
    url = serializers.CharField(help_text="The player's personal link")


# What the answers are made of -------------------------------------------------------------------


def _seat_sheet(token: str) -> dict | None:
    """The scoresheet under a seat's key: its address through scoring's door
    (tournaments.doors), and the key; None without the scoring app."""
    sheet = doors.opened("seat-sheet", token)
    return {"url": sheet.url, "seat_key": token} if sheet else None


def _second(shown: PersonalRound, *, sheet: bool) -> dict | None:
    seat = shown.second_seat
    if seat is None:
        return None
    return {
        "table": seat.table,
        "seat": seat.position,
        "keeper": seat.keeper,
        "players": [
            {"seat": position, "start_number": player.start_number, "name": player.name}
            for position, player in seat.players
        ],
        "sheet": _seat_sheet(seat.token) if sheet else None,
    }


def _round(shown: PersonalRound | None, *, sheet: bool = False) -> dict | None:
    if shown is None:
        return None
    seat = shown.seat
    return {
        "second_seat": _second(shown, sheet=sheet),
        "round": shown.number,
        "status": shown.status,
        "published": shown.published,
        "table": seat.table if seat else None,
        "seat": seat.position if seat else None,
        "keeper": seat.keeper if seat else None,
        "players": [
            {"seat": position, "start_number": player.start_number, "name": player.name}
            for position, player in seat.players
        ]
        if seat
        else [],
        "moved": seat.moved if seat else False,
    }


def _entry_data(view: PersonalView) -> dict:
    entry = view.entry
    seat = view.sheet_seat
    refusal = view.withdraw_refusal
    return {
        "tournament": entry.tournament,
        "name": entry.name,
        "club": entry.club,
        "start_number": entry.start_number,
        "status": entry.status,
        "arrived_at": entry.arrived_at,
        "registration": None,
        "current": _round(view.current, sheet=True),
        "next": _round(view.next),
        "sheet": _seat_sheet(seat.token) if seat is not None else None,
        "results": view.results,
        "standings_public": view.standings_public,
        "rank": view.rank,
        "points": view.points,
        "may_withdraw": refusal is None,
        "withdraw_refusal": refusal.message if refusal else None,
    }


def _registration_data(registration: Registration) -> dict:
    waiting = registration.state == Registration.State.WAITING
    return {
        "tournament": registration.tournament,
        "name": registration.name,
        "club": registration.club,
        "start_number": None,
        "status": None,
        "arrived_at": None,
        "registration": {
            "state": registration.state,
            "place": waiting_place(registration=registration),
        },
        "current": None,
        "next": None,
        "sheet": None,
        "results": [],
        "standings_public": False,
        "rank": None,
        "points": None,
        "may_withdraw": waiting,
        "withdraw_refusal": None
        if waiting
        else gettext("You have left the waiting list of this tournament."),
    }


def _data(found: Entry | Registration) -> dict:
    if isinstance(found, Entry):
        return PersonalSerializer(_entry_data(personal_view(entry=found))).data
    return PersonalSerializer(_registration_data(found)).data


def _found(request) -> Entry | Registration:
    """What the header's key opens: 400 without a well-formed key, 404 for one that opens
    nothing (made up or replaced, the same answer), 429 after too many of those."""
    key = request.headers.get(PLAYER_KEY_HEADER)
    if key is None:
        raise exceptions.ValidationError(
            {PLAYER_KEY_HEADER: [gettext("Send the player's personal link key in this header.")]}
        )
    key = key.strip()
    if not _KEY.fullmatch(key):
        raise exceptions.ValidationError(
            {
                PLAYER_KEY_HEADER: [
                    gettext("A personal link key is 1 to %(length)d letters, digits, “-” or “_”.")
                    % {"length": KEY_LENGTH}
                ]
            }
        )
    try:
        found = personal_link_for(request, key)
    except KeyLimited as limited:
        raise exceptions.Throttled(
            wait=limited.wait,
            detail=gettext(
                "Too many requests through this link. Please wait a minute and try again."
            ),
        ) from None
    if found is None:
        raise exceptions.NotFound(gettext("No player has this link (it may have been replaced)."))
    return found


# Views --------------------------------------------------------------------------------------------


class PersonalDetail(APIView):
    """The player's page as data: name, start number, status, check-in; for a registration
    not admitted its state and place on the waiting list; the current and the next round's
    table and seat once published, and while seated in the current round the seat's own
    scoresheet link (``sheet.seat_key``: ``X-Seat-Key`` on the scoresheet API); the results of
    the confirmed sheets, and the total and rank when the standings are public."""

    # The key in the header is the credential: no session, so no cookie acts here.
    authentication_classes: list = []
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[KEY_PARAMETER],
        responses={
            200: PersonalSerializer,
            400: OpenApiResponse(description="The header is missing or malformed"),
            404: OpenApiResponse(description="No player has this key (or it was replaced)"),
            429: OpenApiResponse(description="Too many unknown keys from this address"),
        },
    )
    def get(self, request):
        response = Response(_data(_found(request)))
        response["Cache-Control"] = "private, no-store"
        return response


class PersonalWithdraw(APIView):
    """ "I cannot come": before the first draw the player withdraws (their place goes to the
    waiting list), or a waiting registration leaves the waiting list. After a draw, 400 on
    ``rounds``: the desk (the organiser) withdraws them."""

    authentication_classes: list = []
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[KEY_PARAMETER],
        request=None,
        responses={
            200: PersonalSerializer,
            400: OpenApiResponse(description="After a draw (`rounds`), or not active (`status`)"),
            404: OpenApiResponse(description="No player has this key (or it was replaced)"),
        },
    )
    def post(self, request):
        found = _found(request)
        withdrawn = personal_link_withdraw(found=found)
        result: Entry | Registration = withdrawn.entry or withdrawn.registration or found
        response = Response(_data(result))
        response["Cache-Control"] = "private, no-store"
        return response


def _entry_for(request, slug: str, start_number: int) -> Entry:
    """The player, for the organiser and the adjudicator (403 with the reason for others)."""
    tournament = selectors.tournament_get(slug=slug, user=request.user)
    roles = roles_of(request, tournament)
    policies.enforce(policies.may_read_personal_links(roles=roles))
    entry = get_object_or_404(
        Entry.objects.select_related("tournament"), tournament=tournament, start_number=start_number
    )
    mates = tablemates(user_id=request.user.pk, tournament_id=tournament.pk)
    policies.enforce(policies.may_read_personal_link(entry=entry, roles=roles, tablemates=mates))
    return entry


def _link(request, entry: Entry) -> dict:
    return {
        "url": absolute_url(request, reverse("registration:personal-link", args=[entry.link_key]))
    }


class PersonalLink(APIView):
    """A player's personal link, to hand out again (``policies.may_read_personal_links``: the
    organiser and the adjudicator)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=PersonalLinkSerializer)
    def get(self, request, slug: str, start_number: int):
        response = Response(_link(request, _entry_for(request, slug, start_number)))
        response["Cache-Control"] = "private, no-store"
        return response


class PersonalLinkReplace(APIView):
    """Replace a player's personal link (a lost phone): the old one opens nothing from now on;
    the seats' links on the printed sheets are not touched."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=PersonalLinkSerializer)
    def post(self, request, slug: str, start_number: int):
        entry = personal_link_replace(
            entry=_entry_for(request, slug, start_number), by=request.user
        )
        response = Response(_link(request, entry))
        response["Cache-Control"] = "private, no-store"
        return response
