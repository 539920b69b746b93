"""Scoring's answers to what the tournaments app asks about the play at its tables
(``tournaments.play.TablePlay``): the sheets of a drawn round (and of an undone draw), whether
hands are written, what is confirmed, and what each seat scored. Registered by
``ScoringConfig.ready``.

What counts besides the hands (penalty points, deductions) comes from the adjudication app
through ``scoring.rulings``.
"""

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db.models import (
    BooleanField,
    Count,
    Expression,
    ExpressionWrapper,
    F,
    Q,
    QuerySet,
    Sum,
)
from django.utils.translation import gettext as _

from scoring.models import Hand, Scoresheet
from scoring.results import HAND_FIELDS, SEATS, seat_results
from scoring.rulings import Rulings
from scoring.rulings import given as rulings
from scoring.selectors.record import blind_tables
from scoring.services import scoresheets_time_over_mark
from tournaments.models import Round, Seat, SeatResult, Table
from tournaments.play import HANDED_IN, SheetStatus

_penalties: tuple[Rulings, dict[str, Expression]] | None = None


def _penalty_sums(given: Rulings) -> dict[str, Expression]:
    """Each seat's initialled penalty points (TSR 8.2.2) on its table's sheet, for a query of
    seats: built once for the rulings registered (a subquery each, a tenth of a results' write
    to build), as annotating copies them."""
    global _penalties
    if _penalties is None or _penalties[0] is not given:
        sums = {f"penalty_{s}": given.penalty_sum(s, sheet="table__scoresheet__pk") for s in SEATS}
        _penalties = (given, sums)
    return _penalties[1]


def _path(table: str, field: str) -> str:
    return f"{table}__scoresheet__{field}" if table else f"scoresheet__{field}"


class ScoresheetPlay:
    """The play at the tables as their scoresheets record it."""

    def tables_drawn(self, *, tables: Sequence[Table]) -> None:
        with_sheet = set(
            Scoresheet.objects.filter(table__in=tables).values_list("table_id", flat=True)
        )
        Scoresheet.objects.bulk_create(
            Scoresheet(table=table) for table in tables if table.pk not in with_sheet
        )

    def hands_written(self, *, rounds: Sequence[Round]) -> bool:
        return Scoresheet.objects.filter(table__round__in=rounds, hands__isnull=False).exists()

    def tables_undrawn(self, *, tables: QuerySet[Table]) -> None:
        sheets = Scoresheet.objects.filter(table__in=tables)
        written = Q(hands__isnull=False) | Q(changes__isnull=False) | ~Q(status=SheetStatus.DRAFT)
        if sheets.filter(written).exists():
            raise ValidationError(
                _(
                    "A scoresheet of this round has been written on; its tables stay as they "
                    "are (TSR 7.3)."
                )
            )
        sheets.delete()

    def time_ended(self, *, round: Round, by: User) -> None:
        scoresheets_time_over_mark(round=round, by=by)

    def has_sheets(self, *, round: Round) -> bool:
        return Scoresheet.objects.filter(table__round=round).exists()

    def confirmed(self, *, table: Table) -> bool:
        return Scoresheet.objects.filter(table=table, status=SheetStatus.CONFIRMED).exists()

    def unconfirmed(self, *, tables: QuerySet[Table]) -> int:
        return (
            Scoresheet.objects.filter(table__in=tables)
            .exclude(status=SheetStatus.CONFIRMED)
            .count()
        )

    def sheet_status(self, *, table: str) -> F:
        return F(_path(table, "status"))

    def keeper_seat(self, *, table: str) -> F:
        return F(_path(table, "keeper_seat"))

    def with_points(self, tables: QuerySet[Table]) -> QuerySet[Table]:
        # The sheet comes along, for scoring's own pages that show it (the table page).
        return tables.select_related("scoresheet").annotate(
            points_withheld=ExpressionWrapper(blind_tables(), output_field=BooleanField()),
            sheet_status=self.sheet_status(table=""),
            keeper_seat=self.keeper_seat(table=""),
            hand_count=Count("scoresheet__hands"),
            **{f"points_{seat}": Sum(f"scoresheet__hands__points_{seat}") for seat in SEATS},
            # Summed apart, in subqueries, so that nothing is counted twice.
            **{
                f"penalty_{seat}": rulings().penalty_sum(seat, sheet="scoresheet__pk")
                for seat in SEATS
            },
        )

    def with_deductions(self, seats: QuerySet[Seat]) -> QuerySet[Seat]:
        return seats.annotate(deducted=rulings().deducted_sum(entry="entry_id", round="round_id"))

    def results(self, *, tables: QuerySet[Table]) -> list[SeatResult]:
        """In two plain queries: the seats of the tables whose results count, each with its
        sheet, its initialled penalty points (TSR 8.2.2) and its deductions (TSR 9.6.2 b);
        the hands of those sheets. Game points and solos (TSR 4.2, 4.3) are summed here, the
        placing at the table from the points. (Summing in the query built a statement of two
        dozen aggregates for a table's four seats, which cost more than the sums.)"""
        # A sheet checked blind at the desk counts once it is confirmed (double entry).
        counted = tables.filter(scoresheet__status__in=HANDED_IN).exclude(blind_tables())
        penalty = _penalty_sums(rulings())
        seats = list(
            self.with_deductions(Seat.objects.filter(table__in=counted.values("pk")))
            .annotate(**penalty)
            .values(
                "table_id",
                "round_id",
                "entry_id",
                "position",
                "second",
                "deducted",
                *penalty,
                sheet_id=F("table__scoresheet__pk"),
                sheet_status=F("table__scoresheet__status"),
            )
        )
        hands = Hand.objects.filter(scoresheet_id__in={seat["sheet_id"] for seat in seats})
        played: dict[int, list[tuple]] = {}
        for row in hands.values_list("scoresheet_id", *HAND_FIELDS).order_by():
            played.setdefault(row[0], []).append(row[1:])
        return seat_results(seats, played)
