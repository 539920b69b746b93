"""Reads for scoresheets; every page and API view asks here. One module per sub-domain; the
names are gathered here so that callers can say ``selectors.sheet_state(...)``.

- ``sheets``: one table's sheet, its rows, its check by the TSR, its history, its second entry;
- ``desk``: every table's sheet of a round, as the tournament desk attends to them.
"""

from scoring.selectors.desk import (
    ConfirmedHow,
    Desk,
    DeskRow,
    DeskState,
    LastChange,
    SecondEntryProgress,
    desk_read,
    desk_state,
)
from scoring.selectors.sheets import (
    ChangeRow,
    Difference,
    HandDiff,
    HandRow,
    SheetState,
    entry_differences,
    hand_lines,
    hand_snapshot,
    line_from_snapshot,
    scoresheet_check,
    scoresheet_rows,
    scoresheet_scan,
    seat_by_token,
    second_entry_differences,
    second_entry_get,
    second_entry_lines,
    second_entry_state,
    sheet_changes,
    sheet_snapshot,
    sheet_state,
    typist_name,
    with_penalties,
)

__all__ = [
    "ChangeRow",
    "ConfirmedHow",
    "Desk",
    "DeskRow",
    "DeskState",
    "Difference",
    "HandDiff",
    "HandRow",
    "LastChange",
    "SecondEntryProgress",
    "SheetState",
    "desk_read",
    "desk_state",
    "entry_differences",
    "hand_lines",
    "hand_snapshot",
    "line_from_snapshot",
    "scoresheet_check",
    "scoresheet_rows",
    "scoresheet_scan",
    "seat_by_token",
    "second_entry_differences",
    "second_entry_get",
    "second_entry_lines",
    "second_entry_state",
    "sheet_changes",
    "sheet_snapshot",
    "sheet_state",
    "typist_name",
    "with_penalties",
]
