"""Writes to scoresheets (Spiellisten). Each service is one transaction and checks the version
the caller's change was based on (optimistic locking)."""

from collections.abc import Sequence
from dataclasses import replace

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.messages import problem_message
from scoring.models import Hand, Scoresheet
from scoring.rules.sheet import HandLine
from scoring.selectors import hand_lines, scoresheet_check
from tournaments.models import Round


class StaleVersionError(ValidationError):
    """The sheet changed since the caller read it; the caller must reload and try again."""

    def __init__(self, *, current: Scoresheet):
        super().__init__(
            _(
                "This scoresheet was changed by someone else in the meantime (now version "
                "%(version)d). Reload it and enter your change again."
            )
            % {"version": current.version},
            code="stale",
        )
        self.current = current


def _lock(scoresheet: Scoresheet, *, version: int) -> Scoresheet:
    locked = (
        Scoresheet.objects.select_for_update()
        .select_related("table__round__tournament")
        .get(pk=scoresheet.pk)
    )
    if locked.version != version:
        raise StaleVersionError(current=locked)
    return locked


@transaction.atomic
def scoresheet_hands_replace(
    *, scoresheet: Scoresheet, hands: Sequence[HandLine], version: int
) -> Scoresheet:
    """Replace all hands of a draft sheet after checking them against the TSR (TSR 7.3.3)."""
    sheet = _lock(scoresheet, version=version)
    hands = [
        hand if hand.game_value is not None else replace(hand, game_value=_value_of(hand))
        for hand in hands
    ]
    if sheet.status != Scoresheet.Status.DRAFT:
        raise ValidationError(
            {
                "status": _("The scoresheet is %(status)s; only a draft can be changed.")
                % {"status": sheet.get_status_display()}
            }
        )
    check = scoresheet_check(scoresheet=sheet, hands=hands, table_size=sheet.table.seats.count())
    if not check.ok:
        raise ValidationError({"hands": [problem_message(p) for p in check.problems]})
    sheet.hands.all().delete()
    Hand.objects.bulk_create(
        Hand(
            scoresheet=sheet,
            number=number,
            section=hand.contract.section,
            dealer=hand.dealer,
            contract=hand.contract,
            solo_type=hand.solo_type or "",
            soloist=hand.soloist,
            game_value=hand.game_value,
            points_1=hand.points[1],
            points_2=hand.points[2],
            points_3=hand.points[3],
            points_4=hand.points[4],
            points_5=hand.points.get(5),
        )
        for number, hand in enumerate(hands, start=1)
    )
    sheet.version += 1
    sheet.save(update_fields=["version", "updated_at"])
    return sheet


def _value_of(hand: HandLine) -> int:
    """The game value read off the points, as from a paper sheet that has only the points.

    The check then tells whether the points really follow from one value.
    """
    if hand.soloist is not None:
        return abs(hand.points[hand.soloist]) // 3
    return max(abs(points) for points in hand.points.values())


@transaction.atomic
def scoresheet_submit(*, scoresheet: Scoresheet, version: int) -> Scoresheet:
    """Hand in a draft sheet (TSR 7.3.4). It must be complete unless the playing time ended."""
    sheet = _lock(scoresheet, version=version)
    if sheet.status != Scoresheet.Status.DRAFT:
        raise ValidationError(
            {
                "status": _("The scoresheet is %(status)s; only a draft can be submitted.")
                % {"status": sheet.get_status_display()}
            }
        )
    check = scoresheet_check(
        scoresheet=sheet,
        hands=hand_lines(list(sheet.hands.all())),
        table_size=sheet.table.seats.count(),
    )
    if not check.ok:
        raise ValidationError({"hands": [problem_message(p) for p in check.problems]})
    playing_time_over = sheet.table.round.status in {Round.Status.FINISHED, Round.Status.CLOSED}
    if not check.complete and not playing_time_over:
        raise ValidationError(
            {
                "hands": _(
                    "The scoresheet is not complete: %(remaining)d hands remain and every "
                    "player must have played a compulsory solo (TSR 8.5.1, 8.6.1)."
                )
                % {"remaining": check.next.hands_remaining}
            }
        )
    sheet.status = Scoresheet.Status.SUBMITTED
    sheet.submitted_at = timezone.now()
    sheet.version += 1
    sheet.save(update_fields=["status", "submitted_at", "version", "updated_at"])
    return sheet


@transaction.atomic
def scoresheet_confirm(*, scoresheet: Scoresheet, version: int) -> Scoresheet:
    """Confirm a submitted sheet: its points now count in the standings (TSR 8.5.2)."""
    sheet = _lock(scoresheet, version=version)
    if sheet.status != Scoresheet.Status.SUBMITTED:
        raise ValidationError(
            {
                "status": _(
                    "The scoresheet is %(status)s; only a submitted sheet can be confirmed."
                )
                % {"status": sheet.get_status_display()}
            }
        )
    sheet.status = Scoresheet.Status.CONFIRMED
    sheet.confirmed_at = timezone.now()
    sheet.version += 1
    sheet.save(update_fields=["status", "confirmed_at", "version", "updated_at"])
    return sheet
