"""Double entry through the API: a paper sheet typed again by a second member of the desk
without seeing the first entry, compared with it, and its differences settled from the paper
(``scoring.services.second_entry``).

Under the sheet's address, ``…/scoresheet/second-entry``: PUT the whole second entry (stored and
compared at once: 200 with the confirmed sheet when both agree, else 409 with the differences,
nothing overwritten), GET it, DELETE it (to start over), ``…/compare`` (a second entry typed on
the page), ``…/settle`` (every difference, as the paper has it). For the tournament's desk
through their accounts; a seat's key is refused.
"""

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from scoring import selectors, services
from scoring.api.access import sheet_opened
from scoring.api.hands import HAND_EXAMPLE, HandsReplaceSerializer
from scoring.api.sheets import (
    WRITE_RESPONSES,
    ScoresheetSerializer,
    SheetAPIView,
    SnapshotHandSerializer,
)
from scoring.models import Scoresheet, SecondEntry
from scoring.policies import Actor
from scoring.selectors import Difference
from scoring.services import Comparison

# Differences ---------------------------------------------------------------------------------


class SecondEntrySerializer(serializers.Serializer):
    by = serializers.CharField(help_text="Who types the second entry")
    version = serializers.IntegerField(help_text="The second entry's own version")
    hands = SnapshotHandSerializer(many=True, help_text="As typed, in the order played")
    time_over_after_hand = serializers.IntegerField(allow_null=True)
    differences = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The hands that differed from the first entry at the last comparison (0: the "
        "end of the playing time); empty before a comparison and after a change",
    )
    compared_at = serializers.DateTimeField(allow_null=True)
    updated_at = serializers.DateTimeField()


class DifferenceSerializer(serializers.Serializer):
    hand = serializers.IntegerField(
        allow_null=True, help_text="The hand's number; null: the end of the playing time"
    )
    second = serializers.JSONField(
        allow_null=True, help_text="The hand as the second entry has it; null: none"
    )


class DifferencesSerializer(serializers.Serializer):
    detail = serializers.CharField()
    differences = DifferenceSerializer(many=True)
    second_entry = SecondEntrySerializer()


def entry_data(entry: SecondEntry) -> dict:
    return SecondEntrySerializer(
        {
            "by": Actor(user=entry.by).name,
            "version": entry.version,
            "hands": entry.hands,
            "time_over_after_hand": entry.time_over_after_hand,
            "differences": entry.differences,
            "compared_at": entry.compared_at,
            "updated_at": entry.updated_at,
        }
    ).data


def differences_data(differences: tuple[Difference, ...] | list[Difference]) -> list[dict]:
    """The differing hands, with what the second entry has in them: never what the first
    has, which stays blind until the sheet is confirmed (``policies.first_entry_hidden``)."""
    return [{"hand": difference.hand, "second": difference.second} for difference in differences]


# What a client writes --------------------------------------------------------------------------


class SecondEntryWriteSerializer(HandsReplaceSerializer):
    """The whole second entry: as a sheet's hands are written, without a version (the second
    entry is replaced and compared at once)."""

    version = None  # type: ignore[assignment]


class ChoiceSerializer(serializers.Serializer):
    hand = serializers.IntegerField(
        min_value=1,
        allow_null=True,
        help_text="A differing hand; null: the end of the playing time",
    )
    take = serializers.ChoiceField(
        choices=services.second_entry.TAKE,
        help_text="Which entry has it as the paper sheet does",
    )


class SettleSerializer(serializers.Serializer):
    choices = ChoiceSerializer(many=True, help_text="One for every difference")

    def validate_choices(self, choices):
        hands = [choice["hand"] for choice in choices]
        if len(set(hands)) != len(hands):
            raise serializers.ValidationError(gettext("Settle each hand once."))
        return {choice["hand"]: choice["take"] for choice in choices}


# Views -------------------------------------------------------------------------------------------

DIFFERENCES = OpenApiResponse(
    DifferencesSerializer,
    description="The entries differ: the numbers of the differing hands and what the second "
    "entry has in them (never the first entry's, which stays blind); the second entry is "
    "kept, the sheet unchanged",
)


class SecondEntryAPIView(SheetAPIView):
    def desk(self, request, slug: str, number: int, table: int) -> tuple[Scoresheet, Actor]:
        sheet, actor = sheet_opened(request, slug=slug, number=number, table=table)
        if actor.user is None:
            raise PermissionDenied(
                gettext("Only the tournament desk types and compares a second entry.")
            )
        return sheet, actor

    def compared(self, comparison: Comparison) -> Response:
        if comparison.confirmed:
            return self.answer(comparison.sheet)
        return Response(
            DifferencesSerializer(
                {
                    "detail": gettext(
                        "The two entries differ; settle each differing hand from the paper sheet."
                    ),
                    "differences": differences_data(comparison.differences),
                    "second_entry": entry_data(comparison.entry),
                }
            ).data,
            status=status.HTTP_409_CONFLICT,
        )


class ScoresheetSecondEntry(SecondEntryAPIView):
    """A paper sheet's second entry (double entry): typed by another member of the desk than
    the first, without seeing it, and compared with the handed-in first entry."""

    @extend_schema(
        tags=["scoresheets"],
        responses={
            200: SecondEntrySerializer,
            403: OpenApiResponse(description="Not the tournament's desk, or a seat's key"),
            404: OpenApiResponse(description="Nobody has typed a second entry yet"),
        },
    )
    def get(self, request, slug: str, number: int, table: int):
        sheet, _actor = self.desk(request, slug=slug, number=number, table=table)
        entry = selectors.second_entry_get(sheet=sheet)
        if entry is None:
            raise Http404
        return Response(entry_data(entry))

    @extend_schema(
        tags=["scoresheets"],
        request=SecondEntryWriteSerializer,
        responses={
            **WRITE_RESPONSES,
            200: OpenApiResponse(
                ScoresheetSerializer, description="Both entries agree: the sheet, confirmed"
            ),
            409: DIFFERENCES,
        },
        examples=[
            OpenApiExample(
                "Two hands",
                request_only=True,
                value={key: value for key, value in HAND_EXAMPLE.items() if key != "version"},
            )
        ],
    )
    def put(self, request, slug: str, number: int, table: int):
        """Type the whole sheet again and compare it with the handed-in first entry: equal, the
        sheet is confirmed, its first typist named as who handed it in and you as who confirmed
        it; different, 409 naming every differing hand (not what the first entry has in it),
        and nothing is overwritten. Checked
        against the TSR as the first entry is (400 with `problems`). Nobody types both
        entries of a sheet (400 on `by`)."""
        sheet, actor = self.desk(request, slug=slug, number=number, table=table)
        size = sheet.table_size()
        payload = SecondEntryWriteSerializer(
            data=request.data,
            context={
                "table_size": size,
                "hands_per_match": sheet.table.round.tournament.hands_at(size),
                "time_over_after_hand": None,
            },
        )
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        assert actor.user is not None  # the desk acts through its accounts (self.desk)
        comparison = services.second_entry_submit(
            scoresheet=sheet,
            hands=data["lines"],
            by=actor.user,
            time_over_after_hand=data.get("time_over_after_hand"),
        )
        return self.compared(comparison)

    @extend_schema(
        tags=["scoresheets"],
        request=None,
        responses={204: None, 403: OpenApiResponse(description="Not the tournament's desk")},
    )
    def delete(self, request, slug: str, number: int, table: int):
        """Throw the second entry away, to type it again (its typist stopped, say)."""
        sheet, actor = self.desk(request, slug=slug, number=number, table=table)
        assert actor.user is not None  # the desk acts through its accounts (self.desk)
        services.second_entry_discard(scoresheet=sheet, by=actor.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema(
    tags=["scoresheets"],
    request=None,
    responses={**WRITE_RESPONSES, 409: DIFFERENCES},
)
class ScoresheetSecondEntryCompare(SecondEntryAPIView):
    """Compare the second entry as typed so far (on the page, hand by hand) with the handed-in
    first entry: as PUT, without sending the hands."""

    def post(self, request, slug: str, number: int, table: int):
        sheet, actor = self.desk(request, slug=slug, number=number, table=table)
        assert actor.user is not None  # the desk acts through its accounts (self.desk)
        return self.compared(services.second_entry_compare(scoresheet=sheet, by=actor.user))


@extend_schema(
    tags=["scoresheets"],
    request=SettleSerializer,
    responses={
        **WRITE_RESPONSES,
        202: OpenApiResponse(
            ScoresheetSerializer,
            description="A typist's proposal, kept: settled when the other typist sends the "
            "same choices",
        ),
    },
    examples=[
        OpenApiExample(
            "Hand 7 as the second entry has it, hand 12 as the first",
            request_only=True,
            value={"choices": [{"hand": 7, "take": "second"}, {"hand": 12, "take": "first"}]},
        )
    ],
)
class ScoresheetSecondEntrySettle(SecondEntryAPIView):
    """Settle the differences between the two entries from the paper sheet, every one at once:
    the sheet then holds each hand as the entry chosen for it has it, is checked against the
    TSR as a handed-in sheet is, and is confirmed by double entry. A difference left open is
    refused (400 on `choices`), and nothing is saved. A member of the desk who typed neither
    entry settles alone (200); a typist of either proposes (202) and the sheet is settled when
    the other typist sends the same choices (200); anyone else is refused (403)."""

    def post(self, request, slug: str, number: int, table: int):
        sheet, actor = self.desk(request, slug=slug, number=number, table=table)
        payload = SettleSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        assert actor.user is not None  # the desk acts through its accounts (self.desk)
        settled = services.second_entry_settle(
            scoresheet=sheet, choices=payload.validated_data["choices"], by=actor.user
        )
        response = self.answer(settled.sheet)
        if settled.proposed:
            response.status_code = status.HTTP_202_ACCEPTED
        return response


@extend_schema(tags=["scoresheets"], request=None, responses=WRITE_RESPONSES)
class ScoresheetFirstEntryOpen(SecondEntryAPIView):
    """Open a blind first entry all the same (staff): while a sheet typed at the desk waits
    for its second entry, only its typist reads its hands; whoever else opens them is recorded
    here and no longer types its second entry. Then `GET …/scoresheet` shows its hands to
    him. 200 with the sheet; nothing is recorded for whom the hands are not hidden."""

    def post(self, request, slug: str, number: int, table: int):
        sheet, actor = self.desk(request, slug=slug, number=number, table=table)
        assert actor.user is not None  # the desk acts through its accounts (self.desk)
        services.sheet_first_entry_open(scoresheet=sheet, by=actor.user, where="api")
        return self.answer(sheet)
