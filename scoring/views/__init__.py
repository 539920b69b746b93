"""The pages of scoring: a table's scoresheet (for staff, and for the players of the table
through their seat's private link), its workflow, its signed paper sheet, its second entry, the
table's page, the desk's page of a round, and the service worker of the entry pages. One module
per sub-domain; the sheet's views are gathered here so that the URLs can say ``views.sheet``."""

from scoring.views.offline import service_worker
from scoring.views.scans import sheet_scan
from scoring.views.second_entry import (
    sheet_differences,
    sheet_first_entry_open,
    sheet_second_compare,
    sheet_second_discard,
)
from scoring.views.sheets import (
    sheet,
    sheet_check,
    sheet_delete,
    sheet_history,
    sheet_save,
    sheet_time_over,
)
from scoring.views.tables import table_detail, table_live
from scoring.views.workflow import (
    sheet_confirm,
    sheet_end_early,
    sheet_end_undo,
    sheet_keeper_move,
    sheet_reopen,
    sheet_replay,
    sheet_return,
    sheet_submit,
)

__all__ = [
    "service_worker",
    "sheet",
    "sheet_check",
    "sheet_confirm",
    "sheet_delete",
    "sheet_differences",
    "sheet_end_early",
    "sheet_end_undo",
    "sheet_first_entry_open",
    "sheet_history",
    "sheet_keeper_move",
    "sheet_reopen",
    "sheet_replay",
    "sheet_return",
    "sheet_save",
    "sheet_scan",
    "sheet_second_compare",
    "sheet_second_discard",
    "sheet_submit",
    "sheet_time_over",
    "table_detail",
    "table_live",
]
