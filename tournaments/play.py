"""What the tournaments app needs to know of the play at its tables, which the scoring app
records: the one door between a round and the scoresheets written at its tables.

Scoring sits above tournaments (a scoresheet belongs to a table), so tournaments may not import
it. Yet a round's life turns on the sheets: every drawn table gets its sheet (and an undone
draw takes the empty sheets off again), a round is not drawn again once hands are written on it, a table's extra time ends with its confirmed sheet,
and a round closes when every sheet is confirmed (TSR 8.5.2). The pages show each sheet's state
and each seat's points so far, and a seat's result is read off its handed-in sheet. So this
module says what tournaments asks (``TablePlay``), and the scoring app answers: it registers
its answer when Django starts (``ScoringConfig.ready`` calls ``register``), as the adjudication
app answers scoring's questions about rulings (``scoring/rulings.py``).

The reads are given as query expressions and annotated querysets, so that a page asks in the
same one query as before whatever the number of tables.
"""

from collections.abc import Sequence
from typing import Any, Protocol

from django.contrib.auth.models import User
from django.core.exceptions import ImproperlyConfigured
from django.db import models
from django.db.models import QuerySet
from django.db.models.expressions import Combinable
from django.utils.translation import gettext_lazy as _

from tournaments.models import Round, Seat, SeatResult, Table


class SheetStatus(models.TextChoices):
    """Where a table's scoresheet stands (TSR 7.3, 8.5.2): being written, handed in by the
    scorekeeper, confirmed by another player of the table. Only a confirmed sheet counts for
    good; a handed-in one counts provisionally."""

    DRAFT = "draft", _("draft")
    SUBMITTED = "submitted", _("submitted")
    CONFIRMED = "confirmed", _("confirmed")


HANDED_IN = (SheetStatus.SUBMITTED, SheetStatus.CONFIRMED)


class TablePlay(Protocol):
    """The questions tournaments asks about the play at its tables."""

    def tables_drawn(self, *, tables: Sequence[Table]) -> None:
        """Give each table of a drawn round that has none its empty scoresheet."""

    def hands_written(self, *, rounds: Sequence[Round]) -> bool:
        """Whether a hand is written on a sheet of these rounds (they are not drawn again)."""

    def tables_undrawn(self, *, tables: QuerySet[Table]) -> None:
        """Take the scoresheets off these tables, whose draw is undone before their round
        started, so that the tables may go. A sheet with anything on it (a hand, a change on
        its record, handed in) is never taken: then a ``ValidationError`` says so and nothing
        is removed."""

    def time_ended(self, *, round: Round, by: User) -> None:
        """The end of the playing time was announced (TSR 8.5.1): note it on the sheets of
        the tables whose time is over now, after the hands written so far (TSR 8.5.3)."""

    def has_sheets(self, *, round: Round) -> bool:
        """Whether a table of the round has a scoresheet (its record is the play's to keep)."""

    def confirmed(self, *, table: Table) -> bool:
        """Whether the table's sheet is confirmed: its match is over (TSR 8.5.2)."""

    def unconfirmed(self, *, tables: QuerySet[Table]) -> int:
        """How many of these tables' sheets are not confirmed yet (TSR 8.5.2)."""

    def sheet_status(self, *, table: str) -> Combinable:
        """The ``SheetStatus`` of a table's sheet, for a query whose rows reach the table by the
        path ``table`` (empty: the rows are tables); NULL where the table has no sheet."""

    def keeper_seat(self, *, table: str) -> Combinable:
        """The seat the sheet was handed over to (TSR 3.1.1), by the same path; NULL: the
        rule's seat keeps it (``doko.rules.deal.sheet_keeper``)."""

    def with_points(self, tables: QuerySet[Table]) -> QuerySet[Table]:
        """The tables with what their sheets give each seat so far: ``sheet_status``,
        ``keeper_seat``, ``hand_count`` (lines written), ``points_<seat>`` (game points) and
        ``penalty_<seat>`` (initialled penalty points, TSR 8.2.2), seats 1 to 5, and
        ``points_withheld`` (the sheet is checked blind at the desk: its points are shown
        nowhere until it is confirmed). Read them with ``sheet_status_of`` and the others
        below."""

    def with_deductions(self, seats: QuerySet[Seat]) -> QuerySet[Seat]:
        """The seats with ``deducted``: the points taken from their player in that round for
        unsporting conduct (TSR 9.6.2 b); read it with ``deducted_of``."""

    def results(self, *, tables: QuerySet[Table]) -> list[SeatResult]:
        """The result of every seat at the handed-in tables among these, unsaved."""


# What ``with_points`` and ``with_deductions`` annotate is no field of the models, so the type
# checker does not see it on a row: it is read here, with its type, and nowhere else.


def _annotation(row: models.Model, name: str) -> Any:
    return getattr(row, name)


def sheet_status_of(table: Table) -> str | None:
    """A ``SheetStatus``; None: the table has no sheet."""
    return _annotation(table, "sheet_status")


def keeper_seat_of(table: Table) -> int | None:
    """The seat the sheet was handed over to; None: the rule's seat keeps it."""
    return _annotation(table, "keeper_seat")


def hand_count_of(table: Table) -> int:
    """The lines written on the table's sheet."""
    return _annotation(table, "hand_count")


def points_of(table: Table, seat: int) -> int | None:
    """The seat's game points on the sheet so far; None: no line written, or the points are
    withheld (``points_withheld``)."""
    if points_withheld(table):
        return None
    return _annotation(table, f"points_{seat}")


def points_withheld(table: Table) -> bool:
    """Whether the table's sheet is checked blind at the desk (a second entry, double entry):
    its points are shown nowhere and counted nowhere until it is confirmed."""
    return bool(getattr(table, "points_withheld", False))


def penalty_of(table: Table, seat: int) -> int:
    """The seat's initialled penalty points on the sheet so far (TSR 8.2.2)."""
    return _annotation(table, f"penalty_{seat}")


def deducted_of(seat: Seat) -> int:
    """The points taken from the seat's player in its round (TSR 9.6.2 b)."""
    return _annotation(seat, "deducted")


_recorded: TablePlay | None = None


def register(play: TablePlay) -> None:
    """The scoring app's answers (registered once, at start-up)."""
    global _recorded
    _recorded = play


def recorded() -> TablePlay:
    """The play at the tables, as the app that records it answers."""
    if _recorded is None:
        raise ImproperlyConfigured(
            "No app records the play at the tables: add 'scoring' to INSTALLED_APPS."
        )
    return _recorded
