"""The steps of a sheet's workflow through the API, each one service: hand it in, confirm it,
send it back, reopen it, strike a hand out, end it early and take that back, put a hand as dealt
again, and hand it over to another seat (TSR 3.1.1, 7.3, 8.4-8.6, 9.1.3). Each answers with the
sheet as GET returns it, or a 409 with it as it is now."""

import functools
from collections.abc import Callable

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from doko.rules.deal import TABLE_OF_SEVEN
from doko.rules.sheet import Replay
from scoring import services
from scoring.api.access import sheet_opened
from scoring.api.fields import MOST_HANDS
from scoring.api.sheets import WRITE_RESPONSES, SheetAPIView, sheet_data
from scoring.models import RETURN_REASON_LENGTH, Scoresheet
from scoring.selectors import SheetState


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
        max_value=TABLE_OF_SEVEN,
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


class SheetActionView(SheetAPIView):
    """One step of the sheet's workflow: each subclass names its service, called with the sheet,
    who asks, and the request's validated fields."""

    request_serializer: type[serializers.Serializer] = SheetVersionSerializer
    service: Callable[..., Scoresheet | SheetState]

    def post(self, request, slug: str, number: int, table: int):
        sheet, actor = sheet_opened(request, slug=slug, number=number, table=table)
        payload = self.request_serializer(data=request.data)
        payload.is_valid(raise_exception=True)
        done = self.service(scoresheet=sheet, by=actor, **payload.validated_data)
        if isinstance(done, SheetState):  # the sheet as the step left it, read no more
            return Response(sheet_data(done.sheet, actor=actor, state=done))
        return self.answer(done)


@extend_schema(tags=["scoresheets"], request=SheetVersionSerializer, responses=WRITE_RESPONSES)
class ScoresheetSubmit(SheetActionView):
    """Hand the sheet in (TSR 7.3.4): the scorekeeper, once it is complete, or after the
    playing time ended with the forced solos played (TSR 8.5.1, 8.5.3)."""

    # Its answer shows no four-eyes record: the record's rows are not read with the lock.
    service = staticmethod(functools.partial(services.scoresheet_submit_write, record=False))


@extend_schema(tags=["scoresheets"], request=SheetConfirmSerializer, responses=WRITE_RESPONSES)
class ScoresheetConfirm(SheetActionView):
    """Confirm a handed-in sheet (TSR 7.3.2, 8.5.2): another player of the table by their key,
    or staff; never who handed it in, nor a staff account that plays as the seat that did, nor
    that seat's key (400 on `confirmed_by`). With `from_signed_sheet`, the desk confirms a paper
    sheet from the players' signatures, also one it typed itself (TSR 7.3.4). Where the
    tournament checks paper sheets by double entry, a sheet typed at the desk is confirmed by
    its second entry instead (400 on `confirmed_by`)."""

    request_serializer = SheetConfirmSerializer
    service = staticmethod(services.scoresheet_confirm_write)


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
