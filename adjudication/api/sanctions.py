"""Sanctions for unsporting conduct (TSR 9.6): warnings, deductions and disqualification, imposed by
the arbitration panel, or by the adjudicator alone as a bound decision of the catalogue with its
points (TSR 9.6.3); and the player's appeal against such a bound decision, for the panel to decide.
A sanction the panel imposed itself is final.
"""

from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.response import Response

from adjudication import selectors, services
from adjudication.api.appeals import (
    AppealLodge,
    AppealSerializer,
    AppealSummarySerializer,
    SanctionAppealLodgeSerializer,
)
from adjudication.api.common import (
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
from adjudication.api.offences import OffenceSummarySerializer
from adjudication.models import Sanction
from tournaments.models import Tournament

SanctionStatusField = named_choices("SanctionStatusEnum", Sanction.Status.values)


class SanctionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    start_number = serializers.IntegerField(source="entry.start_number")
    player = serializers.CharField(source="entry.name")
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


class SanctionAppeal(AppealLodge):
    """Record the player's appeal against a bound decision the adjudicator gave alone
    (TSR 8.2.1, 9.6.3), for the arbitration panel to decide; the appellant is the player
    sanctioned. A sanction the panel imposed itself is final."""

    lodge_serializer = SanctionAppealLodgeSerializer

    def detail(self, tournament: Tournament, pk: int) -> Sanction:
        return selectors.sanction_detail(tournament=tournament, pk=pk)

    @extend_schema(
        tags=TAGS,
        request=SanctionAppealLodgeSerializer,
        responses={201: AppealSerializer, **WRITE_RESPONSES},
    )
    def post(self, request, slug: str, pk: int):
        return super().post(request, slug, pk)
