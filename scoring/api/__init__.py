"""The API of scoring: the public rules API (game value, penalty points, the check of a sheet),
a table's scoresheet with its workflow, its scan and its seats' links, the second entry of a paper
sheet and the desk's view of a round. One module per resource, each with its serializers; the
fields other APIs take too in ``fields``. The views are gathered here so that the URLs can say
``api.ScoresheetDetail``."""

from scoring.api.desk import DeskView
from scoring.api.links import TableLinks
from scoring.api.rules import HandValueView, PenaltyView, ScoresheetCheckView
from scoring.api.scans import ScoresheetScanView
from scoring.api.second_entry import (
    ScoresheetFirstEntryOpen,
    ScoresheetSecondEntry,
    ScoresheetSecondEntryCompare,
    ScoresheetSecondEntrySettle,
)
from scoring.api.sheets import ScoresheetChanges, ScoresheetDetail
from scoring.api.workflow import (
    ScoresheetConfirm,
    ScoresheetEndEarly,
    ScoresheetEndUndo,
    ScoresheetKeeper,
    ScoresheetReopen,
    ScoresheetReplay,
    ScoresheetReturn,
    ScoresheetStrike,
    ScoresheetSubmit,
)

__all__ = [
    "DeskView",
    "HandValueView",
    "PenaltyView",
    "ScoresheetChanges",
    "ScoresheetCheckView",
    "ScoresheetConfirm",
    "ScoresheetDetail",
    "ScoresheetEndEarly",
    "ScoresheetEndUndo",
    "ScoresheetFirstEntryOpen",
    "ScoresheetKeeper",
    "ScoresheetReopen",
    "ScoresheetReplay",
    "ScoresheetReturn",
    "ScoresheetScanView",
    "ScoresheetSecondEntry",
    "ScoresheetSecondEntryCompare",
    "ScoresheetSecondEntrySettle",
    "ScoresheetStrike",
    "ScoresheetSubmit",
    "TableLinks",
]
