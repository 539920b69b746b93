"""API for the check-in at the door: the counts and the list (with the claims of players
registered online to be a person on record, which an organiser decides: ``registrations.
EntryClaim``), a player checked in or the check-in taken back, and the no-shows withdrawn in one
action before the first draw."""

from django.core.exceptions import PermissionDenied
from drf_spectacular.utils import extend_schema, extend_schema_field, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from registration.selectors.arrivals import check_in_counts, check_in_list
from registration.selectors.claims import OpenClaim, claims_open
from registration.services.arrivals import (
    entry_check_in,
    entry_check_in_undo,
    no_shows_withdraw,
)
from tournaments import policies, selectors
from tournaments.models import Tournament
from tournaments.permissions import roles_of


class ClaimOtherSerializer(serializers.Serializer):
    start_number = serializers.IntegerField(allow_null=True, help_text="null: on the waiting list")
    name = serializers.CharField()
    plays_as = serializers.BooleanField(help_text="Plays as the person named already")


class ClaimSerializer(serializers.Serializer):
    """An open claim of a player registered online to be a person on record: not confirmed,
    so the entry counts for a record of its own."""

    ddv_number = serializers.CharField(help_text="The number given; blank: by name and club")
    person = serializers.IntegerField(
        allow_null=True, help_text="The person on record named now; null: nobody has the number"
    )
    person_name = serializers.CharField(allow_null=True)
    conflicts = ClaimOtherSerializer(many=True, help_text="Others here who name that person")


def _claim(claim: OpenClaim | None) -> dict | None:
    if claim is None:
        return None
    return {
        "ddv_number": claim.ddv_number,
        "person": claim.person.pk if claim.person else None,
        "person_name": claim.person.name if claim.person else None,
        "conflicts": [
            {"start_number": o.start_number, "name": o.name, "plays_as": o.plays_as}
            for o in claim.others
        ],
    }


class CheckInEntrySerializer(serializers.Serializer):
    """A player at the door: start number, name, when he checked in (null: missing), and his
    open claim to be a person on record (null: none)."""

    start_number = serializers.IntegerField(read_only=True)
    name = serializers.CharField(read_only=True)
    arrived_at = serializers.DateTimeField(read_only=True, allow_null=True)
    claim = serializers.SerializerMethodField()

    @extend_schema_field(ClaimSerializer(allow_null=True))
    def get_claim(self, entry) -> dict | None:
        return _claim(self.context.get("claims", {}).get(entry.pk))


class CheckInListSerializer(serializers.Serializer):
    """The counts at the top of the desk's list, and the active players by start number."""

    registered = serializers.IntegerField(help_text="Active players")
    arrived = serializers.IntegerField(help_text="Active players checked in")
    missing = serializers.IntegerField(help_text="Active players not checked in")
    waiting = serializers.IntegerField(help_text="Registrations on the waiting list")
    withdrawn = serializers.IntegerField(help_text="Withdrawn players (not listed)")
    players = CheckInEntrySerializer(many=True)


MovedUpSerializer = inline_serializer(
    name="MovedUp",
    fields={"name": serializers.CharField(), "start_number": serializers.IntegerField()},
)

NoShowsSerializer = inline_serializer(
    name="NoShows",
    fields={
        "withdrawn": serializers.ListField(
            child=serializers.IntegerField(), help_text="The start numbers withdrawn"
        ),
        "moved_up": serializers.ListField(
            child=MovedUpSerializer, help_text="Who moved up from the waiting list"
        ),
    },
)


def _desk(request, slug: str) -> Tournament:
    """The tournament, for whoever may check players in there (403 with the reason)."""
    tournament = selectors.tournament_get(slug=slug, user=request.user, counts=False)
    refusal = policies.may_check_in(tournament=tournament, roles=roles_of(request, tournament))
    if refusal is not None and refusal.field is None:
        raise PermissionDenied(refusal.message)
    return tournament


class CheckInList(APIView):
    """The desk's list: how many active players are registered, here and missing, the waiting
    list's length and the withdrawn (not listed); then every active player by start number
    with ``arrived_at`` (null: not checked in). Organisers and scorekeeper accounts."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=CheckInListSerializer)
    def get(self, request, slug: str):
        tournament = _desk(request, slug)
        counts = check_in_counts(tournament=tournament)
        entries = check_in_list(tournament=tournament)
        return Response(
            CheckInListSerializer(
                {
                    "registered": counts.registered,
                    "arrived": counts.arrived,
                    "missing": counts.missing,
                    "waiting": counts.waiting,
                    "withdrawn": counts.withdrawn,
                    "players": entries,
                },
                context={"claims": claims_open(tournament=tournament)},
            ).data
        )


class EntryCheckIn(APIView):
    """POST checks the player in (again: the first time stays); DELETE takes it back. A
    withdrawn or disqualified player is refused (400 on ``status``), as is everyone once the
    tournament is finished. Organisers and scorekeeper accounts."""

    permission_classes = [IsAuthenticated]

    def _entry(self, request, slug: str, start_number: int):
        tournament = _desk(request, slug)
        return selectors.entry_get(tournament=tournament, start_number=start_number)

    def _answer(self, entry) -> Response:
        claims = claims_open(tournament=entry.tournament)
        return Response(CheckInEntrySerializer(entry, context={"claims": claims}).data)

    @extend_schema(request=None, responses=CheckInEntrySerializer)
    def post(self, request, slug: str, start_number: int):
        entry = entry_check_in(entry=self._entry(request, slug, start_number), by=request.user)
        return self._answer(entry)

    @extend_schema(request=None, responses=CheckInEntrySerializer)
    def delete(self, request, slug: str, start_number: int):
        entry = entry_check_in_undo(entry=self._entry(request, slug, start_number), by=request.user)
        return self._answer(entry)


class NoShowsWithdraw(APIView):
    """Withdraw every active player who has not checked in, before the first draw; the freed
    places go to the waiting list, in order. 400 on ``rounds`` once a round is drawn, on
    ``entries`` while nobody has checked in. Organisers."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=NoShowsSerializer)
    def post(self, request, slug: str):
        tournament = selectors.tournament_get(slug=slug, user=request.user, counts=False)
        done = no_shows_withdraw(tournament=tournament, by=request.user)
        return Response(
            {
                "withdrawn": [entry.start_number for entry in done.withdrawn],
                "moved_up": [
                    {"name": entry.name, "start_number": entry.start_number}
                    for entry in (registration.entry for registration in done.moved_up)
                    if entry is not None  # admitted: each has its entry
                ],
            }
        )
