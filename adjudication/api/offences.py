"""The tournament's catalogue of standard offences (TSR 9.1, 9.6.3): breaches of the rules with
their severity, and unsporting conduct, some of it a bound decision the adjudicator gives alone with
its points. The organiser, an adjudicator or a panel member keeps it, and may start it with the
offences the TSR names; decisions and sanctions show the offence they name by its summary.

The outcomes an offence of the TSR starts with (its severity, a bound decision's points) are this
system's defaults, not the TSR's: the TSR name the offences, but their annex of outcomes is not
part of the text. The tournament edits them as its own.

An offence the TSR names has its ``code``, which never changes, and its ``name`` in the reader's
language (``Accept-Language``), whoever added it; the tournament's own have no code and read as
typed. Sending the name of an offence of the TSR, in German or English, names that offence.
"""

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from adjudication import selectors, services
from adjudication.api.common import (
    READ_RESPONSES,
    SEVERITIES,
    TAGS,
    WRITE_RESPONSES,
    AdjudicationAPIView,
    BlankAsNullChoiceField,
    named_choices,
)
from adjudication.models import MOST_DEDUCTION, Offence
from doko.rules.offences import STANDARD_OFFENCES

OffenceKindField = named_choices("OffenceKindEnum", Offence.Kind.values)
OffenceCodeField = named_choices("OffenceCodeEnum", [each.code for each in STANDARD_OFFENCES])
CODE_HELP = "The offence of the TSR it is, which never changes; null for the tournament's own"
NAME_HELP = "In the reader's language for an offence of the TSR (code); as typed otherwise"


class OffenceSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    code = OffenceCodeField(allow_null=True, read_only=True, help_text=CODE_HELP)
    name = serializers.CharField(source="label", help_text=NAME_HELP)
    rule = serializers.CharField(allow_blank=True)


class OffenceSerializer(serializers.Serializer):
    """A standard offence of the catalogue: a breach of the rules with its severity, or
    unsporting conduct, which is a bound decision (TSR 9.6.3) with its points or the panel's."""

    id = serializers.IntegerField(read_only=True)
    code = OffenceCodeField(allow_null=True, read_only=True, help_text=CODE_HELP)
    name = serializers.CharField(max_length=200, help_text=NAME_HELP)
    rule = serializers.CharField(max_length=60, allow_blank=True, default="")
    kind = OffenceKindField()
    severity = BlankAsNullChoiceField(
        choices=SEVERITIES,
        allow_null=True,
        default=None,
        help_text="A breach's (TSR 9.2-9.4); none for unsporting conduct",
    )
    bound = serializers.BooleanField(
        default=False, help_text="Unsporting conduct the adjudicator decides alone (TSR 9.6.3)"
    )
    deduction = serializers.IntegerField(
        min_value=0,
        max_value=MOST_DEDUCTION,
        allow_null=True,
        default=None,
        help_text="A bound decision's points deducted; 0 is a warning (TSR 9.6.2 b)",
    )

    def to_representation(self, instance):
        return {**super().to_representation(instance), "name": instance.label}


def _offence_fields(data: dict) -> dict:
    return {**data, "kind": Offence.Kind(data["kind"]), "severity": data["severity"] or ""}


class OffenceList(AdjudicationAPIView):
    """The tournament's catalogue of standard offences. POST adds one: the organiser, an
    adjudicator or a panel member."""

    @extend_schema(tags=TAGS, responses={200: OffenceSerializer(many=True), **READ_RESPONSES})
    def get(self, request, slug: str):
        offences = selectors.offence_list(tournament=self.tournament())
        return Response(OffenceSerializer(offences, many=True).data)

    @extend_schema(
        tags=TAGS, request=OffenceSerializer, responses={201: OffenceSerializer, **WRITE_RESPONSES}
    )
    def post(self, request, slug: str):
        tournament = self.tournament()
        payload = OffenceSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        offence = services.offence_save(
            tournament=tournament, by=request.user, **_offence_fields(payload.validated_data)
        )
        return Response(OffenceSerializer(offence).data, status=status.HTTP_201_CREATED)


class OffenceDetail(AdjudicationAPIView):
    """PUT changes a standard offence; DELETE takes it out of the catalogue, unless decisions
    or sanctions name it."""

    @extend_schema(
        tags=TAGS, request=OffenceSerializer, responses={200: OffenceSerializer, **WRITE_RESPONSES}
    )
    def put(self, request, slug: str, pk: int):
        tournament = self.tournament()
        offence = selectors.offence_detail(tournament=tournament, pk=pk)
        payload = OffenceSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        offence = services.offence_save(
            tournament=tournament,
            offence=offence,
            by=request.user,
            **_offence_fields(payload.validated_data),
        )
        return Response(OffenceSerializer(offence).data)

    @extend_schema(tags=TAGS, responses={204: None, **WRITE_RESPONSES})
    def delete(self, request, slug: str, pk: int):
        offence = selectors.offence_detail(tournament=self.tournament(), pk=pk)
        services.offence_delete(offence=offence, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class OffenceDefaults(AdjudicationAPIView):
    """Start the catalogue with the offences the TSR names (TSR 9.1, 9.6.3), each with this
    system's default outcome (the TSR's annex of outcomes is not part of its text); those it
    has already stay as they are. Returns those added."""

    @extend_schema(
        tags=TAGS,
        request=None,
        responses={
            201: OffenceSerializer(many=True),
            200: OpenApiResponse(
                OffenceSerializer(many=True), description="Nothing to add: an empty list"
            ),
            **WRITE_RESPONSES,
        },
    )
    def post(self, request, slug: str):
        added = services.offences_default(tournament=self.tournament(), by=request.user)
        return Response(
            OffenceSerializer(added, many=True).data,
            status=status.HTTP_201_CREATED if added else status.HTTP_200_OK,
        )
