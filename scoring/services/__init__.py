"""Writes to scoresheets (Spiellisten), one transaction each. One module per sub-domain; the
names are gathered here so that callers can say ``services.scoresheet_submit(...)``.

- ``sheets``: a table's sheet, hand by hand, handed in, confirmed (by a player of the table, by
  staff, or by the desk from the signed paper sheet), sent back, reopened, handed over; and the
  lines the adjudicators' decisions put on it;
- ``scans``: the photo or scan of the signed paper sheet, stored without its metadata;
- ``second_entry``: double entry, a paper sheet typed again at the desk without seeing the first
  entry, compared with it, and its differences settled from the paper.
"""

from scoring.services.scans import scan_file_forget, scoresheet_scan_attach
from scoring.services.second_entry import (
    Comparison,
    Settlement,
    StaleEntryError,
    second_entry_compare,
    second_entry_discard,
    second_entry_hand_strike,
    second_entry_hands_edit,
    second_entry_hands_replace,
    second_entry_settle,
    second_entry_submit,
    settlement_proposed,
    sheet_first_entry_open,
)
from scoring.services.sheets import (
    Actor,
    SheetRefused,
    StaleVersionError,
    scoresheet_confirm,
    scoresheet_confirm_check,
    scoresheet_confirm_write,
    scoresheet_end_early,
    scoresheet_end_undo,
    scoresheet_hand_replay,
    scoresheet_hand_stop,
    scoresheet_hand_strike,
    scoresheet_hand_strike_check,
    scoresheet_hand_unstop,
    scoresheet_hand_unvoid,
    scoresheet_hand_void,
    scoresheet_hands_edit,
    scoresheet_hands_replace,
    scoresheet_hands_write,
    scoresheet_keeper_move,
    scoresheet_locked,
    scoresheet_reopen,
    scoresheet_return,
    scoresheet_submit,
    scoresheet_submit_check,
    scoresheet_submit_write,
    scoresheets_time_over_mark,
)

__all__ = [
    "Actor",
    "Comparison",
    "Settlement",
    "SheetRefused",
    "StaleEntryError",
    "StaleVersionError",
    "scan_file_forget",
    "scoresheet_confirm",
    "scoresheet_confirm_check",
    "scoresheet_confirm_write",
    "scoresheet_end_early",
    "scoresheet_end_undo",
    "scoresheet_hand_replay",
    "scoresheet_hand_stop",
    "scoresheet_hand_strike",
    "scoresheet_hand_strike_check",
    "scoresheet_hand_unstop",
    "scoresheet_hand_unvoid",
    "scoresheet_hand_void",
    "scoresheet_hands_edit",
    "scoresheet_hands_replace",
    "scoresheet_hands_write",
    "scoresheet_keeper_move",
    "scoresheet_locked",
    "scoresheet_reopen",
    "scoresheet_return",
    "scoresheet_scan_attach",
    "scoresheet_submit",
    "scoresheet_submit_check",
    "scoresheet_submit_write",
    "scoresheets_time_over_mark",
    "second_entry_compare",
    "second_entry_discard",
    "second_entry_hand_strike",
    "second_entry_hands_edit",
    "second_entry_hands_replace",
    "second_entry_settle",
    "second_entry_submit",
    "settlement_proposed",
    "sheet_first_entry_open",
]
