"""Complaints and the decisions on them (TSR 8.2.1, 8.2.2, 9.7.5): the adjudicator or a deputy
records a complaint about a hand, rules on it and initials the ruling, after which its penalty
points count; the decisions listed, filtered by status and round; and a player's appeal against an
initialled decision (TSR 9.7.7), recorded here for the arbitration panel to decide.
"""

from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from adjudication import selectors, services
from adjudication.api.appeals import (
    AppealLodge,
    AppealLodgeSerializer,
    AppealSerializer,
    AppealSummarySerializer,
)
from adjudication.api.common import (
    MOST_TEXT,
    READ_RESPONSES,
    SEVERITIES,
    SOLO_TYPES,
    TAGS,
    WRITE_RESPONSES,
    AdjudicationAPIView,
    BlankAsNullChoiceField,
    BlankAsNullDictField,
    Named,
    named_choices,
)
from adjudication.api.offences import OffenceSummarySerializer
from adjudication.api.rulings import RulingSerializer
from adjudication.models import Decision
from scoring.api.fields import ContractField
from tournaments.models import Tournament

DecisionStatusField = named_choices("DecisionStatusEnum", Decision.Status.values)


class DecisionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    round = serializers.IntegerField(source="scoresheet.table.round.number")
    table = serializers.IntegerField(source="scoresheet.table.number")
    hand_number = serializers.IntegerField(
        help_text="The line of the scoresheet; a hand stopped is a line of its own (TSR 9.4.3)"
    )
    offender = serializers.IntegerField(help_text="Seat")
    complainant = serializers.IntegerField(allow_null=True, help_text="Seat")
    offence = OffenceSummarySerializer(allow_null=True, help_text="From the catalogue")
    description = serializers.CharField(
        allow_blank=True, help_text="What happened, as typed; empty when the offence says it all"
    )
    severity = BlankAsNullChoiceField(
        choices=SEVERITIES, allow_null=True, help_text="null while the complaint is open"
    )
    contract = ContractField(help_text="As the hand stood when the breach happened")
    soloist = serializers.IntegerField(allow_null=True)
    solo_type = BlankAsNullChoiceField(choices=SOLO_TYPES, allow_null=True)
    disadvantages_soloist = serializers.BooleanField(help_text="TSR 9.3.3 b1")
    announcements = serializers.IntegerField(help_text="Of the other side, up to the breach")
    decided = serializers.BooleanField(help_text="Game already won (TSR 9.5.1)")
    wedding_clarified_as_solo = serializers.BooleanField(
        help_text="The wedding was already being played as a solo, the holder of both Queens "
        "of Clubs the soloist (TSR 4.4.3 b, 4.4.5)"
    )
    penalty = BlankAsNullDictField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text='Penalty points per seat as ruled: {"1": 1, "2": -3, ...}; null while open',
    )
    computed = serializers.DictField(
        child=serializers.IntegerField(), allow_null=True, help_text="Per seat, by the TSR"
    )
    deviates = serializers.BooleanField(help_text="The ruled points are not the TSR's")
    deviation_reason = serializers.CharField(allow_blank=True)
    hand_not_played = serializers.BooleanField(help_text="Stopped, dealt again (TSR 9.4.3)")
    played_without_game_points = serializers.BooleanField(
        help_text="An opponent's major breach in a solo: the solo counts as played, its line "
        "on the sheet has a game value of 0 and no points, and only the penalty points count "
        "(TSR 9.4.4); once initialled the scorekeeper cannot change that line"
    )
    written_line = BlankAsNullChoiceField(
        choices=["stopped", "next"],
        allow_null=True,
        help_text="On a hand already written when it was stopped (TSR 9.4.3) or counted as "
        "played without game points (TSR 9.4.4): whether that line was the stopped game itself "
        "(`stopped`, replaced) or the game dealt after it (`next`, the ruled line went in "
        "before it)",
    )
    rule = serializers.CharField(allow_blank=True, help_text="The TSR section ruled by")
    status = DecisionStatusField(
        help_text="open, draft (waiting for initials), initialled (counts, TSR 8.2.2), "
        "superseded or annulled by the arbitration panel"
    )
    recorded_by = serializers.CharField(source="recorded_by.get_username")
    recorded_at = serializers.DateTimeField()
    ruled_by = serializers.CharField(
        source="ruled_by.get_username",
        allow_null=True,
        help_text="Who ruled last; with whoever initialled, he does not decide an appeal "
        "against the decision (TSR 8.2.1)",
    )
    initialled_by = serializers.CharField(source="initialled_by.get_username", allow_null=True)
    hands_at_initials = serializers.IntegerField(
        allow_null=True,
        help_text="Lines on the sheet once initialled: an appeal is in time until the table "
        "writes another hand, or if none follows for APPEAL_MINUTES (TSR 9.7.7)",
    )
    initialled_at = serializers.DateTimeField(allow_null=True)
    appeal = AppealSummarySerializer(
        source="appealed", allow_null=True, help_text="The appeal against this decision"
    )
    decided_on_appeal = serializers.IntegerField(
        source="appeal_id",
        allow_null=True,
        help_text="The appeal on which the panel made this decision",
    )


class ComplaintSerializer(serializers.Serializer):
    round = serializers.IntegerField(min_value=1)
    table = serializers.IntegerField(min_value=1)
    hand_number = serializers.IntegerField(
        help_text="A line of the scoresheet, or the hand being played (the next)"
    )
    offender = serializers.IntegerField(help_text="Seat")
    complainant = serializers.IntegerField(allow_null=True, default=None, help_text="Seat")
    description = serializers.CharField(
        max_length=MOST_TEXT,
        allow_blank=True,
        default="",
        help_text="What happened; may be left empty when the offence says it all",
    )
    offence = serializers.IntegerField(
        allow_null=True, default=None, help_text="A breach of the catalogue, by id"
    )

    def validate(self, data):
        named = Named(self.context["tournament"])
        sheet = selectors.scoresheet_at(
            tournament=named.tournament, round_number=data["round"], table_number=data["table"]
        )
        # A round that does not exist is the round's error; a table it has not, the table's.
        if sheet is None and named.round(data["round"]) is not None:
            named.missing(
                "table",
                gettext("Round %(round)d has no table %(table)d.")
                % {"round": data["round"], "table": data["table"]},
            )
        return named.done(
            {
                "scoresheet": sheet,
                "hand_number": data["hand_number"],
                "offender": data["offender"],
                "complainant": data["complainant"],
                "description": data["description"],
                "offence": named.offence(data["offence"]),
            }
        )


class DecisionFilterSerializer(serializers.Serializer):
    status = DecisionStatusField(required=False)
    round = serializers.IntegerField(min_value=1, required=False)


def _decision_data(tournament: Tournament, pk: int) -> dict:
    """The decision as GET returns it, read again after a write."""
    return DecisionSerializer(selectors.decision_detail(tournament=tournament, pk=pk)).data


class DecisionList(AdjudicationAPIView):
    """The tournament's complaints and decisions, in the order recorded. POST records a
    complaint (TSR 9.7.5): an adjudicator or a member of the arbitration panel."""

    @extend_schema(
        tags=TAGS,
        parameters=[DecisionFilterSerializer],
        responses={200: DecisionSerializer(many=True), **READ_RESPONSES},
    )
    def get(self, request, slug: str):
        tournament = self.tournament()
        query = DecisionFilterSerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        decisions = selectors.decision_list(
            tournament=tournament,
            status=query.validated_data.get("status"),
            round_number=query.validated_data.get("round"),
        )
        return Response(DecisionSerializer(decisions, many=True).data)

    @extend_schema(
        tags=TAGS,
        request=ComplaintSerializer,
        responses={201: DecisionSerializer, **WRITE_RESPONSES},
        examples=[
            OpenApiExample(
                "Seat 2 did not follow suit",
                request_only=True,
                value={
                    "round": 1,
                    "table": 3,
                    "hand_number": 7,
                    "offender": 2,
                    "complainant": 3,
                    "description": "Trumped a club lead holding the club ten",
                },
            )
        ],
    )
    def post(self, request, slug: str):
        tournament = self.tournament()
        payload = ComplaintSerializer(data=request.data, context={"tournament": tournament})
        payload.is_valid(raise_exception=True)
        decision = services.complaint_record(by=request.user, **payload.validated_data)
        return Response(_decision_data(tournament, decision.pk), status=status.HTTP_201_CREATED)


class DecisionDetail(AdjudicationAPIView):
    """One decision with its ruling, its penalty points as ruled and by the TSR, who
    initialled it, and the appeal against it."""

    @extend_schema(tags=TAGS, responses={200: DecisionSerializer, **READ_RESPONSES})
    def get(self, request, slug: str, pk: int):
        return Response(_decision_data(self.tournament(), pk))


class DecisionRuling(AdjudicationAPIView):
    """Rule on a complaint (TSR 9.2-9.5): the penalty points follow by the TSR, or deviate
    with a written reason. The decision then waits for initials and may be ruled again."""

    @extend_schema(
        tags=TAGS,
        request=RulingSerializer,
        responses={200: DecisionSerializer, **WRITE_RESPONSES},
        examples=[
            OpenApiExample(
                "A major breach after two announcements",
                request_only=True,
                value={"severity": "major", "announcements": 2},
            )
        ],
    )
    def post(self, request, slug: str, pk: int):
        tournament = self.tournament()
        decision = selectors.decision_detail(tournament=tournament, pk=pk)
        payload = RulingSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        services.decision_rule(
            decision=decision,
            ruling=RulingSerializer.ruling(payload.validated_data),
            by=request.user,
        )
        return Response(_decision_data(tournament, pk))


class DecisionInitial(AdjudicationAPIView):
    """Initial a ruling (TSR 8.2.2): from now on its penalty points count, and a hand stopped
    by a major breach comes on the sheet as not played (TSR 9.4.3)."""

    @extend_schema(tags=TAGS, request=None, responses={200: DecisionSerializer, **WRITE_RESPONSES})
    def post(self, request, slug: str, pk: int):
        tournament = self.tournament()
        decision = selectors.decision_detail(tournament=tournament, pk=pk)
        services.decision_initial(decision=decision, by=request.user)
        return Response(_decision_data(tournament, pk))


class DecisionAppeal(AppealLodge):
    """Record a player's appeal against an initialled decision (TSR 9.7.7), for the
    arbitration panel to decide."""

    lodge_serializer = AppealLodgeSerializer

    def detail(self, tournament: Tournament, pk: int) -> Decision:
        return selectors.decision_detail(tournament=tournament, pk=pk)

    @extend_schema(
        tags=TAGS,
        request=AppealLodgeSerializer,
        responses={201: AppealSerializer, **WRITE_RESPONSES},
    )
    def post(self, request, slug: str, pk: int):
        return super().post(request, slug, pk)
