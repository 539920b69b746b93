"""The entry page's answer to a new hand saved through htmx, where the sheet only grew by it:
the hand's row and the entry row for the next hand in place of the entry row, and out of band
the sheet's state line, what comes next, its totals, the placeholder row the hand filled and the
feedback of an earlier answer cleared. Not the whole sheet again: on a table of 21 hands that
was 43 KB, of which 29 were the rows already on the phone, and its context and template took a
fifth of the save's processor time (docs/benchmarks.md, issue 45).

Where anything else on the page may have changed with the hand, the sheet is answered whole
(``saved_answer`` returns None): a correction, the first hand (the hand-in button comes with
it), the match complete, anything the check warns of or finds wrong before or after the hand,
anything ruled on the sheet (penalty points, a deduction: the adjudicators' decisions do not
raise the sheet's version), the playing time's end announced, a second entry, a reader the
hands are withheld from, and a page that showed more than the sheet around its entry row (a
step asked, a hand to strike out, an answer beside a row or the buttons: the row's ``plain``
field says). The actions below the sheet stay as they were; their forms take the new version
from the answer's ``X-Sheet-Version`` header (static/js/sheet.js)."""

from django.http import HttpRequest, HttpResponse

from scoring import selectors
from scoring.views.access import Access, entry_state
from scoring.views.page import Row, answered, blank_entry_row, mode_of
from scoring.views.sheet_parts import next_hand, state_line, totals_row
from scoring.views.sheet_rows import sheet_rows

# The header that names the sheet's version after a saved hand's answer (static/js/sheet.js).
VERSION_HEADER = "X-Sheet-Version"


def _grew_only(access: Access, before: selectors.SheetState, after: selectors.SheetState) -> bool:
    """Whether the hand added is all that changed on the page between ``before`` and ``after``
    (the entry as the write read it and left it)."""
    return (
        not access.blind
        and not after.adjudication.decisions
        and not after.adjudication.deductions
        and after.withheld is None
        and len(after.lines) == len(before.lines) + 1 >= 2
        and not after.check.complete
        and not (before.check.warnings or before.check.problems)
        and not (after.check.warnings or after.check.problems)
        and access.time_over_after_hand is None
        # The end of the round announced: the playing time's line and form may come or go.
        and access.round.ended_at is None
    )


def saved_answer(request: HttpRequest, access: Access, row: Row) -> HttpResponse | None:
    """The answer to ``row`` saved as a new hand, or None where the sheet is answered whole."""
    if not request.headers.get("HX-Request") or request.headers.get("HX-Boosted"):
        return None
    if request.POST.get("plain") != "1":
        return None
    after = entry_state(access)
    if row.editing is not None or row.before is None or not _grew_only(access, row.before, after):
        return None
    number = len(after.lines) + 1
    [(_row, hand_row)] = sheet_rows(
        after.rows[-1:],
        base=access.base,
        may_edit=True,
        problem_hands=set(),
        warning_hands=set(),
        adjudication=after.adjudication,
        editing=None,
    )
    parts = (
        hand_row,
        blank_entry_row(request, access, after, focus_action=False, plain=True),
        '<div id="sheet-feedback" hx-swap-oob="true"></div>\n',
        state_line(access, after, oob=True),
        next_hand(after, time_over_noted=False, oob=True),
        totals_row(after, may_edit=True, oob=True),
        # The placeholder row the hand filled (a number: nothing to escape).
        f"<tr hx-swap-oob=\"delete:#sheet-body tr[data-offline-placeholder='{number}']\"></tr>\n",
    )
    response = HttpResponse("".join(parts))
    response["HX-Retarget"] = "#entry-row"
    response["HX-Reswap"] = "outerHTML"
    response[VERSION_HEADER] = str(access.version)
    return answered(request, response, mode=mode_of(request))
