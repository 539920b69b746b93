"""The desk's view of a round for API clients: every table's sheet with its state, as the desk's
page lists them (``scoring.views.desk``; TSR 7.3.4), in the same order and with the same counts."""

from django.http import Http404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring import policies, selectors
from scoring.api.access import AccountOnly, SeatKeyAuthentication
from scoring.models import ScoresheetChange
from scoring.selectors import ConfirmedHow, DeskState
from tournaments import policies as tournament_policies
from tournaments.permissions import round_and_roles


class DeskQuerySerializer(serializers.Serializer):
    state = serializers.ChoiceField(
        choices=DeskState.choices,
        required=False,
        help_text="Only the tables in this state",
    )


class DeskSecondEntrySerializer(serializers.Serializer):
    hands = serializers.IntegerField(help_text="Hands typed so far")
    by = serializers.CharField(help_text="Who types it")
    at = serializers.DateTimeField(help_text="Its last change")


class LastChangeSerializer(serializers.Serializer):
    action = serializers.ChoiceField(choices=ScoresheetChange.Action.choices)
    by = serializers.CharField()
    at = serializers.DateTimeField()


class DeskTableSerializer(serializers.Serializer):
    table = serializers.IntegerField(source="number")
    players = serializers.ListField(
        child=serializers.CharField(), help_text="Last names, in seat order"
    )
    state = serializers.ChoiceField(
        choices=DeskState.choices,
        help_text="The first that holds, in this order: differences to settle, complaint open, "
        "handed in, waiting for the second entry, being typed, no hand yet, confirmed",
    )
    hands = serializers.IntegerField()
    hands_per_match = serializers.IntegerField(help_text="24, at a table of five 30")
    confirmed_how = serializers.ChoiceField(
        choices=ConfirmedHow.choices, allow_null=True, help_text="Only when confirmed"
    )
    sent_back = serializers.CharField(
        help_text="Why the sheet was sent back to its scorekeeper, while he corrects it"
    )
    second_entry = DeskSecondEntrySerializer(
        allow_null=True, help_text="While the sheet waits for its second entry, once begun"
    )
    differences = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The hands to settle from the paper sheet; 0: the end of the playing time",
    )
    complaints = serializers.IntegerField(help_text="Waiting for a ruling or its initials")
    last_change = LastChangeSerializer(source="last", allow_null=True)
    playing_until = serializers.DateTimeField(
        source="time.ends_at",
        allow_null=True,
        help_text="When the table's playing time ends; null before the round starts",
    )
    time_over = serializers.BooleanField(help_text="Only once the end of the round is announced")


class DeskSerializer(serializers.Serializer):
    tournament = serializers.SlugField(source="round.tournament.slug")
    round = serializers.IntegerField(source="round.number")
    total = serializers.IntegerField(help_text="Tables in the round")
    counts = serializers.DictField(
        child=serializers.IntegerField(), help_text="Tables in each state"
    )
    tables = DeskTableSerializer(many=True, help_text="By what needs the desk next, then number")


class DeskView(APIView):
    """Every table's sheet of a round with its state at the desk, by what needs the desk next
    (differences to settle, complaints open, handed in, waiting for the second entry, being
    typed, no hand yet, confirmed), then by table number; ``?state=`` lists one state only.
    For the tournament's staff who read sheets (``policies.may_read_desk``)."""

    # A seat's key is recognised so that it is refused (403), not taken for a visitor (401).
    authentication_classes = [TokenAuthentication, SeatKeyAuthentication, SessionAuthentication]
    permission_classes = [AccountOnly]

    @extend_schema(
        tags=["scoresheets"],
        parameters=[DeskQuerySerializer],
        # Accounts only (a seat's key is refused). drf-spectacular puts this list in the
        # operation's security as it is, so it takes requirement objects; its hint says names.
        auth=[{"tokenAuth": []}, {"cookieAuth": []}],  # type: ignore[list-item]
        responses={
            200: DeskSerializer,
            400: OpenApiResponse(description="No such state"),
            401: OpenApiResponse(description="Not logged in"),
            403: OpenApiResponse(description="Not staff who read sheets, or a seat's key"),
            404: OpenApiResponse(description="No such tournament or round"),
        },
    )
    def get(self, request, slug: str, number: int):
        round_, roles = round_and_roles(request, slug=slug, number=number)
        if not round_.tournament.is_public and not roles:
            raise Http404  # as every read of a private tournament
        tournament_policies.enforce(policies.may_read_desk(round=round_, roles=roles))
        query = DeskQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        state = query.validated_data.get("state")
        desk = selectors.desk_read(round=round_)
        return Response(
            DeskSerializer(
                {
                    "round": round_,
                    "total": desk.total,
                    "counts": {str(state): count for state, count in desk.counts.items()},
                    "tables": desk.of(DeskState(state) if state else None),
                }
            ).data
        )
