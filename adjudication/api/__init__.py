"""The adjudication API (TSR 8.2, 9): complaints and the decisions on them, rulings and initials,
appeals and the arbitration panel's decisions, sanctions for unsporting conduct, the catalogue of
standard offences, the staff, and the log of everything done. The catalogue (``offences``), the
staff (``staff``) and the log (``log``) have modules of their own; what the views share (who is
asking, the tournament they ask about, the value lists, the responses) is in ``common``.

Thin views over ``adjudication.services``, which ask ``adjudication.policies`` who may do what:
the adjudicator or a deputy adjudicator records, rules and initials, unless he plays at that
table; only the panel decides an appeal, against a ruling or against a bound decision the
adjudicator gave alone, its members not playing at the table; sanctions are the panel's except
the catalogue's bound decisions; the organiser appoints the staff. Reading is for the
tournament's organisers, adjudicators, deputies and panel members, through their account (token
or session). A scorekeeper account, another account and a player's seat key are refused (403), so
that a refused write shows nothing either; a client without credentials is asked for them (401).
A service's refusal comes back as 403 with its reason, its rule check as 400 with the messages by
field, each naming the TSR section it rests on.
"""

from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.response import Response

from adjudication import selectors, services
from adjudication.api.common import (
    MOST_MINUTES,
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
    SanctionKindField,
    fields_as_sent,
    named_choices,
)
from adjudication.api.log import AdjudicationLog
from adjudication.api.offences import (
    OffenceDefaults,
    OffenceDetail,
    OffenceList,
    OffenceSummarySerializer,
)
from adjudication.api.staff import StaffDetail, StaffList
from adjudication.models import MOST_DEDUCTION, Appeal, Decision, Sanction
from doko.rules.contracts import Contract
from doko.rules.penalty import MOST_ANNOUNCEMENTS
from scoring.api import SeatsField
from scoring.sheet_api import ContractField
from tournaments.models import Tournament

__all__ = [
    "AdjudicationLog",
    "AppealDecide",
    "AppealList",
    "DecisionAppeal",
    "DecisionDetail",
    "DecisionInitial",
    "DecisionList",
    "DecisionRuling",
    "OffenceDefaults",
    "OffenceDetail",
    "OffenceList",
    "SanctionAppeal",
    "SanctionList",
    "StaffDetail",
    "StaffList",
]


DecisionStatusField = named_choices("DecisionStatusEnum", Decision.Status.values)
AppealOutcomeField = named_choices("AppealOutcomeEnum", Appeal.Outcome.values)
SanctionStatusField = named_choices("SanctionStatusEnum", Sanction.Status.values)
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
    description = serializers.CharField()
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
    rule = serializers.CharField(allow_blank=True, help_text="The TSR section ruled by")
    status = DecisionStatusField(
        help_text="open, draft (waiting for initials), initialled (counts, TSR 8.2.2), "
        "superseded or annulled by the arbitration panel"
    )
    recorded_by = serializers.CharField(source="recorded_by.get_username")
    recorded_at = serializers.DateTimeField()
    initialled_by = serializers.CharField(source="initialled_by.get_username", allow_null=True)
    initialled_at = serializers.DateTimeField(allow_null=True)
    appeal = AppealSummarySerializer(
        source="appealed", allow_null=True, help_text="The appeal against this decision"
    )
    decided_on_appeal = serializers.IntegerField(
        source="appeal_id",
        allow_null=True,
        help_text="The appeal on which the panel made this decision",
    )


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


class SanctionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    start_number = serializers.IntegerField(source="entry.start_number")
    player = serializers.CharField(source="entry.player.name")
    round = serializers.IntegerField(source="round.number")
    kind = SanctionKindField()
    points = serializers.IntegerField(allow_null=True, help_text="Deducted (TSR 9.6.2 b)")
    offence = OffenceSummarySerializer(allow_null=True)
    reasons = serializers.CharField()
    members = serializers.SerializerMethodField(
        help_text="The panel's members, by user name; none for a bound decision the "
        "adjudicator gave alone (TSR 9.6.3), which can be appealed"
    )
    decided_by = serializers.CharField(source="decided_by.get_username")
    decided_at = serializers.DateTimeField()
    status = SanctionStatusField(
        help_text="in_force, or superseded or annulled by the arbitration panel on appeal "
        "(TSR 8.2.1); only a sanction in force counts"
    )
    appeal = AppealSummarySerializer(
        source="appealed", allow_null=True, help_text="The appeal against this sanction"
    )
    decided_on_appeal = serializers.IntegerField(
        source="appeal_id",
        allow_null=True,
        help_text="The appeal on which the panel imposed this sanction",
    )

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_members(self, sanction: Sanction) -> list[str]:
        return [member.get_username() for member in sanction.members.all()]


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
        help_text="What happened; left empty, the offence's name",
    )
    offence = serializers.IntegerField(
        allow_null=True, default=None, help_text="A breach of the catalogue, by id"
    )

    def validate(self, data):
        named = Named(self.context["tournament"])
        sheet = selectors.scoresheet_at(
            tournament=named.tournament, round_number=data["round"], table_number=data["table"]
        )
        if sheet is None:
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


class RulingSerializer(serializers.Serializer):
    """How a breach is judged; the penalty points follow by the TSR (TSR 9.2-9.5)."""

    severity = serializers.ChoiceField(
        choices=SEVERITIES, help_text="insignificant (TSR 9.2), minor (9.3) or major (9.4)"
    )
    contract = ContractField(
        default=Contract.NORMAL.value, help_text="As the hand stood when the breach happened"
    )
    soloist = serializers.IntegerField(min_value=1, max_value=5, allow_null=True, default=None)
    solo_type = serializers.ChoiceField(choices=SOLO_TYPES, allow_null=True, default=None)
    disadvantages_soloist = serializers.BooleanField(
        default=False, help_text="A minor breach that may disadvantage the soloist (TSR 9.3.3 b1)"
    )
    announcements = serializers.IntegerField(
        min_value=0,
        max_value=MOST_ANNOUNCEMENTS,
        default=0,
        help_text="Made by the other side up to the breach (TSR 9.4.3)",
    )
    decided = serializers.BooleanField(
        default=False, help_text="The game was already won after the announcements (TSR 9.5.1)"
    )
    wedding_clarified_as_solo = serializers.BooleanField(
        default=False,
        help_text="For contract `wedding` or `silent_wedding`: the wedding was already being "
        "played as a solo when the breach happened (an announced wedding after its "
        "clarification trick, the holder having taken the first three tricks, TSR 4.4.3 b; a "
        "silent wedding once the second Queen of Clubs was played, TSR 4.4.5), so it is "
        "penalised as a solo with the holder of both Queens of Clubs as `soloist`; before "
        "that, as a normal game. A silent wedding always names its holder as `soloist`.",
    )
    penalty = SeatsField(
        allow_null=True,
        default=None,
        help_text='Penalty points per seat, where they deviate from the TSR\'s: {"1": 3, '
        '"2": -3, "3": 0, "4": 0}; with a deviation_reason',
    )
    deviation_reason = serializers.CharField(max_length=MOST_TEXT, allow_blank=True, default="")

    @staticmethod
    def ruling(data: dict) -> services.Ruling:
        return services.Ruling.from_values(data, penalty=data["penalty"])


RULING_FIELDS = frozenset(RulingSerializer().fields)


class AppealLodgeSerializer(serializers.Serializer):
    appellant = serializers.IntegerField(help_text="Seat")
    grounds = serializers.CharField(max_length=MOST_TEXT, allow_blank=True, default="")


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


class SanctionImposeSerializer(serializers.Serializer):
    start_number = serializers.IntegerField(min_value=1, help_text="The player")
    round = serializers.IntegerField(min_value=1, help_text="The match the deduction counts in")
    kind = SanctionKindField()
    points = serializers.IntegerField(
        allow_null=True, default=None, help_text="A deduction's, 1 to 12 (TSR 9.6.2 b)"
    )
    offence = serializers.IntegerField(allow_null=True, default=None, help_text="By id")
    reasons = serializers.CharField(max_length=MOST_TEXT, allow_blank=True, default="")
    members = serializers.ListField(
        child=serializers.CharField(max_length=150),
        max_length=12,
        default=list,
        help_text="The panel's members who decided, by user name; none for a bound decision",
    )

    def validate(self, data):
        named = Named(self.context["tournament"])
        return named.done(
            {
                "entry": named.entry(data["start_number"]),
                "round": named.round(data["round"]),
                "kind": Sanction.Kind(data["kind"]),
                "points": data["points"],
                "offence": named.offence(data["offence"]),
                "reasons": data["reasons"],
                "members": named.users("members", data["members"]),
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


class DecisionAppeal(AdjudicationAPIView):
    """Record a player's appeal against an initialled decision (TSR 9.7.7), for the
    arbitration panel to decide."""

    @extend_schema(
        tags=TAGS,
        request=AppealLodgeSerializer,
        responses={201: AppealSerializer, **WRITE_RESPONSES},
    )
    def post(self, request, slug: str, pk: int):
        tournament = self.tournament()
        decision = selectors.decision_detail(tournament=tournament, pk=pk)
        payload = AppealLodgeSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        appeal = services.appeal_lodge(decision=decision, by=request.user, **payload.validated_data)
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


class SanctionList(AdjudicationAPIView):
    """Sanctions for unsporting conduct (TSR 9.6.2), in the order decided. POST imposes one:
    the arbitration panel, naming its members; the adjudicator (or a deputy) alone a bound
    decision of the catalogue with its points (TSR 9.6.3), which can be appealed. Nobody
    decides on conduct at the table where he plays."""

    @extend_schema(tags=TAGS, responses={200: SanctionSerializer(many=True), **READ_RESPONSES})
    def get(self, request, slug: str):
        sanctions = selectors.sanction_list(tournament=self.tournament())
        return Response(SanctionSerializer(sanctions, many=True).data)

    @extend_schema(
        tags=TAGS,
        request=SanctionImposeSerializer,
        responses={201: SanctionSerializer, **WRITE_RESPONSES},
    )
    def post(self, request, slug: str):
        tournament = self.tournament()
        payload = SanctionImposeSerializer(data=request.data, context={"tournament": tournament})
        payload.is_valid(raise_exception=True)
        with fields_as_sent(renamed={"entry": "start_number"}):
            sanction = services.sanction_impose(by=request.user, **payload.validated_data)
        sanction = selectors.sanction_list(tournament=tournament).get(pk=sanction.pk)
        return Response(SanctionSerializer(sanction).data, status=status.HTTP_201_CREATED)


class SanctionAppealLodgeSerializer(serializers.Serializer):
    grounds = serializers.CharField(max_length=MOST_TEXT, allow_blank=True, default="")


class SanctionAppeal(AdjudicationAPIView):
    """Record the player's appeal against a bound decision the adjudicator gave alone
    (TSR 8.2.1, 9.6.3), for the arbitration panel to decide; the appellant is the player
    sanctioned. A sanction the panel imposed itself is final."""

    @extend_schema(
        tags=TAGS,
        request=SanctionAppealLodgeSerializer,
        responses={201: AppealSerializer, **WRITE_RESPONSES},
    )
    def post(self, request, slug: str, pk: int):
        tournament = self.tournament()
        sanction = selectors.sanction_detail(tournament=tournament, pk=pk)
        payload = SanctionAppealLodgeSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        appeal = services.sanction_appeal_lodge(
            sanction=sanction, by=request.user, **payload.validated_data
        )
        appeal = selectors.appeal_detail(tournament=tournament, pk=appeal.pk)
        return Response(AppealSerializer(appeal).data, status=status.HTTP_201_CREATED)
