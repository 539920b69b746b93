"""Appeals to the arbitration panel (TSR 8.2.1), against an initialled decision on a complaint
(TSR 9.7.7) or against a bound decision the adjudicator gave alone (TSR 9.6.3): how an appeal is
shown, with what it is against, and the panel's final decision, which upholds, changes (with its own
ruling or sanction) or annuls, naming its members, none of whom plays at the table, its reasons and
the minutes play stood still (TSR 8.5.1). An appeal is lodged at the address of what it is against
(``decisions``, ``sanctions``), by one view shape, ``AppealLodge``.
"""

from collections.abc import Callable
from typing import ClassVar

from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.response import Response

from adjudication import selectors, services
from adjudication.api.common import (
    MOST_MINUTES,
    MOST_TEXT,
    READ_RESPONSES,
    TAGS,
    WRITE_RESPONSES,
    AdjudicationAPIView,
    Named,
    SanctionKindField,
    fields_as_sent,
    named_choices,
)
from adjudication.api.rulings import RULING_FIELDS, RulingSerializer
from adjudication.models import MOST_DEDUCTION, Appeal, Sanction
from adjudication.services.appeals import Appealable, against
from tournaments.models import Tournament

AppealOutcomeField = named_choices("AppealOutcomeEnum", Appeal.Outcome.values)
PanelSanctionKindField = named_choices(
    "PanelSanctionKindEnum", [Sanction.Kind.WARNING, Sanction.Kind.DEDUCTION]
)


class AppealSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    appellant = serializers.IntegerField(help_text="Seat")
    grounds = serializers.CharField(allow_blank=True)
    lodged_by = serializers.CharField(source="lodged_by.get_username")
    lodged_at = serializers.DateTimeField()
    outcome = AppealOutcomeField(
        allow_null=True, help_text="null until the arbitration panel has decided (TSR 8.2.1)"
    )
    members = serializers.SerializerMethodField(help_text="The panel's members, by user name")
    reasons = serializers.CharField(allow_blank=True)
    interruption = serializers.IntegerField(help_text="Minutes play stood still (TSR 8.5.1)")
    decided_by = serializers.CharField(source="decided_by.get_username", allow_null=True)
    decided_at = serializers.DateTimeField(allow_null=True)
    replacement = serializers.SerializerMethodField(
        help_text="The panel's own decision, when it changed the decision appealed against"
    )
    replacement_sanction = serializers.SerializerMethodField(
        help_text="The panel's own sanction, when it changed the bound decision appealed against"
    )

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_members(self, appeal: Appeal) -> list[str]:
        return [member.get_username() for member in appeal.members.all()]

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_replacement(self, appeal: Appeal) -> int | None:
        if appeal.decision_id is None:
            return None
        return next((decision.pk for decision in appeal.replacement.all()), None)

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_replacement_sanction(self, appeal: Appeal) -> int | None:
        if appeal.sanction_id is None:
            return None
        return next((sanction.pk for sanction in appeal.replacement_sanction.all()), None)


class DecisionRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    round = serializers.IntegerField(source="scoresheet.table.round.number")
    table = serializers.IntegerField(source="scoresheet.table.number")
    hand_number = serializers.IntegerField()
    offender = serializers.IntegerField()


class SanctionRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    start_number = serializers.IntegerField(source="entry.start_number")
    round = serializers.IntegerField(source="round.number")
    kind = SanctionKindField()
    points = serializers.IntegerField(allow_null=True)


class AppealSerializer(AppealSummarySerializer):
    decision = DecisionRefSerializer(
        allow_null=True, help_text="The decision appealed against, if it is one"
    )
    sanction = SanctionRefSerializer(
        allow_null=True,
        help_text="The bound decision appealed against (TSR 9.6.3), if it is one",
    )


class PanelSanctionSerializer(serializers.Serializer):
    """The panel's own sanction when it changes a bound decision (TSR 9.6.2 a, b)."""

    kind = PanelSanctionKindField()
    points = serializers.IntegerField(
        min_value=1,
        max_value=MOST_DEDUCTION,
        allow_null=True,
        default=None,
        help_text="A deduction's, 1 to 12 (TSR 9.6.2 b)",
    )


class AppealDecideSerializer(serializers.Serializer):
    outcome = AppealOutcomeField()
    members = serializers.ListField(
        child=serializers.CharField(max_length=150),
        max_length=12,
        default=list,
        help_text="The members of the arbitration panel who decided, by user name",
    )
    reasons = serializers.CharField(max_length=MOST_TEXT, allow_blank=True, default="")
    interruption = serializers.IntegerField(
        min_value=0,
        max_value=MOST_MINUTES,
        default=0,
        help_text="Minutes play stood still: the table and the members' tables get them back "
        "(TSR 8.5.1)",
    )
    ruling = RulingSerializer(
        allow_null=True,
        default=None,
        help_text="The panel's own, when the outcome is change and the appeal is against a "
        "decision on a complaint",
    )
    sanction = PanelSanctionSerializer(
        allow_null=True,
        default=None,
        help_text="The panel's own sanction, when the outcome is change and the appeal is "
        "against a bound decision (TSR 9.6.3)",
    )

    def validate(self, data):
        named = Named(self.context["tournament"])
        ruling, sanction = data["ruling"], data["sanction"]
        return named.done(
            {
                **data,
                "members": named.users("members", data["members"]),
                "ruling": RulingSerializer.ruling(ruling) if ruling is not None else None,
                "sanction": services.SanctionRuling.from_values(sanction)
                if sanction is not None
                else None,
            }
        )


class AppealLodgeSerializer(serializers.Serializer):
    """A player's appeal against a decision: the seat that appeals."""

    appellant = serializers.IntegerField(help_text="Seat")
    grounds = serializers.CharField(max_length=MOST_TEXT, allow_blank=True, default="")


class SanctionAppealLodgeSerializer(serializers.Serializer):
    """A player's appeal against a bound decision's sanction: the player sanctioned appeals."""

    grounds = serializers.CharField(max_length=MOST_TEXT, allow_blank=True, default="")


class AppealLodge(AdjudicationAPIView):
    """The one shape of lodging an appeal, at the address of what it is against: a subclass
    names how that is read (``detail``) and what the request gives (``lodge_serializer``)."""

    lodge_serializer: ClassVar[type[serializers.Serializer]]
    # What is appealed, read in the tournament by its key: each subclass's own method.
    detail: Callable[[Tournament, int], Appealable]

    def post(self, request, slug: str, pk: int):
        tournament = self.tournament()
        row = self.detail(tournament, pk)
        payload = self.lodge_serializer(data=request.data)
        payload.is_valid(raise_exception=True)
        appeal = services.appeal_lodge(**against(row), by=request.user, **payload.validated_data)
        appeal = selectors.appeal_detail(tournament=tournament, pk=appeal.pk)
        return Response(AppealSerializer(appeal).data, status=status.HTTP_201_CREATED)


class AppealList(AdjudicationAPIView):
    """The appeals to the arbitration panel, in the order lodged, with its decisions."""

    @extend_schema(tags=TAGS, responses={200: AppealSerializer(many=True), **READ_RESPONSES})
    def get(self, request, slug: str):
        appeals = selectors.appeal_list(tournament=self.tournament())
        return Response(AppealSerializer(appeals, many=True).data)


class AppealDecide(AdjudicationAPIView):
    """The arbitration panel's final decision on an appeal (TSR 8.2.1): uphold, change (with
    its own ruling, initialled at once, or for a bound decision its own sanction) or annul;
    with its members, none of whom plays at the table concerned, and its reasons, and the
    minutes play stood still, which the tables concerned get back (TSR 8.5.1)."""

    @extend_schema(
        tags=TAGS,
        request=AppealDecideSerializer,
        responses={200: AppealSerializer, **WRITE_RESPONSES},
        examples=[
            OpenApiExample(
                "The panel makes it a minor breach",
                request_only=True,
                value={
                    "outcome": "change",
                    "members": ["meier", "schulz", "weber"],
                    "reasons": "The breach could not decide the game.",
                    "interruption": 8,
                    "ruling": {"severity": "minor"},
                },
            ),
            OpenApiExample(
                "The panel halves a bound decision's deduction",
                request_only=True,
                value={
                    "outcome": "change",
                    "members": ["meier", "schulz"],
                    "reasons": "Counted once, not throughout the hand.",
                    "sanction": {"kind": "deduction", "points": 3},
                },
            ),
        ],
    )
    def post(self, request, slug: str, pk: int):
        tournament = self.tournament()
        appeal = selectors.appeal_detail(tournament=tournament, pk=pk)
        payload = AppealDecideSerializer(data=request.data, context={"tournament": tournament})
        payload.is_valid(raise_exception=True)
        with fields_as_sent(nested="ruling", inner=RULING_FIELDS):
            services.appeal_decide(appeal=appeal, by=request.user, **payload.validated_data)
        appeal = selectors.appeal_detail(tournament=tournament, pk=pk)
        return Response(AppealSerializer(appeal).data)
