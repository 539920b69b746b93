"""The entry page of a sheet as every action answers it: its context (what the actor may
do, what comes next and who does it, the paper sheet's confirmation and second entry, the
playing time), the row being typed, and the page again after a write: done, refused (422) or
stale (409)."""

import functools
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import SafeString
from django.utils.translation import get_language, override
from django.utils.translation import gettext as _

from doko.rules.sheet import dealt_out_of_turn, with_dealers
from scoring import policies, selectors, services
from scoring.forms import MODES, HandForm, initial_for
from scoring.models import (
    REPLAY_LABELS,
    RETURN_REASON_LENGTH,
    SCAN_MAX_BYTES,
    Scoresheet,
)
from scoring.services import StaleEntryError, StaleVersionError
from scoring.views.access import Access, entry_state, sheet_url
from scoring.views.sheet_parts import entry_row, next_hand, state_line, totals_row
from scoring.views.sheet_rows import placeholder_rows, sheet_head, sheet_rows
from tournaments import policies as tournament_policies
from tournaments import selectors as tournament_selectors
from tournaments.messages import problem_message
from tournaments.models import Round, SheetKeeping
from tournaments.policies import Refusal


def _may(policy, access: Access, state: selectors.SheetState) -> bool:
    """Whether the sheet's policy lets this actor do it: the services ask the same. On the
    second entry's page only the second entry is written."""
    return not access.blind and _refusal(policy, access, state) is None


def _refusal(policy, access: Access, state: selectors.SheetState) -> Refusal | None:
    return policy(
        sheet=access.sheet, actor=access.actor, roles=access.roles, table_size=state.table_size
    )


def _may_edit(access: Access, state: selectors.SheetState) -> bool:
    """Enter hands on this page: the sheet's, or as its second entry."""
    if access.blind:
        return _second_refusal(access) is None
    return _may(policies.may_edit_sheet, access, state)


def _second_refusal(access: Access) -> Refusal | None:
    return policies.may_enter_second(
        sheet=access.sheet, actor=access.actor, roles=access.roles, entry=access.entry
    )


def _may_hand_over(access: Access) -> bool:
    """The form that hands the sheet over to another seat (TSR 3.1.1): for whom the policy
    allows it, on a draft while the round is under way."""
    return (
        access.actor.user is not None
        and policies.may_hand_over_sheet(roles=access.roles) is None
        and access.sheet.status == Scoresheet.Status.DRAFT
        and access.round.status in {Round.Status.RUNNING, Round.Status.FINISHED}
    )


def _may_print(access: Access) -> bool:
    # Printouts are built as jobs (the printing app), and a job is the organiser's.
    return access.actor.seat is None and tournament_policies.may_print(roles=access.roles) is None


# Where the answer to an action is shown: beside the buttons of the sheet's workflow (the page
# scrolls there without JavaScript, as their forms name it), or beside a hand's row.
ACTIONS = "actions"
# The steps that ask once before an action, showing the totals (``?step=``).
STEPS: dict[str, Callable[..., selectors.SheetState]] = {
    "submit": services.scoresheet_submit_check,
    "confirm": services.scoresheet_confirm_check,
    "signed": functools.partial(services.scoresheet_confirm_check, from_signed_sheet=True),
}


def _rows_context(rows: list, *, between: bool) -> dict:
    """The sheet's rows for the template: as one piece of HTML where nothing stands between
    them (the common case: no row corrected, struck out or answered beside), else row by row
    (``sheet_rows``) for the template to put the entry row, the question or the answer at its
    hand."""
    if between:
        return {"sheet_rows": rows, "rows_html": None}
    return {"sheet_rows": rows, "rows_html": SafeString("".join(html for _row, html in rows))}


def page_context(
    request: HttpRequest,
    access: Access,
    *,
    form: HandForm | None = None,
    editing: int | None = None,
    conflict: list | None = None,
    errors: list[str] | None = None,
    at: str | int | None = None,
    step: str | None = None,
    strike: int | None = None,
) -> dict:
    """The page's context. ``at``: where the conflict and errors of an action are shown (None:
    above the sheet; ``ACTIONS``; a hand's number). ``step``, ``strike``: the action asked
    about once before it is done."""
    state = entry_state(access)
    may_edit = _may_edit(access, state)
    confirm = _refusal(policies.may_confirm_sheet, access, state)
    # Once every line of the match is written (24, 30 at five; fewer once the time is over or
    # the sheet ended early), no row follows for a new hand: a hand is only corrected then. A
    # row typed and refused is shown with the reason.
    new_row = may_edit and (editing is not None or form is not None or not state.check.complete)
    # A new hand's row with nothing typed yet is made without a form: its fields are the same
    # at every table of this size at this hand (``blank_fields``).
    blank = new_row and form is None and editing is None
    if form is None and editing is not None and new_row:
        form = _editing_form(request, state, editing)
    number = editing or len(state.lines) + 1
    # The lines still to come, numbered on from the last one written, after the entry row
    # where there is one: every viewer of the sheet sees the same numbers.
    first = len(state.lines) + (2 if new_row else 1)
    remaining = range(first, len(state.lines) + 1 + state.check.next.hands_remaining)
    # The mode as the form sent it, when it is one: it goes into the cookie the next page reads.
    mode = form["mode"].value() if form is not None else mode_of(request) if blank else None
    problem_hands = {problem.hand for problem in state.check.problems}
    warning_hands = {warning.hand for warning in state.check.warnings}
    # The match complete, the keyboard goes on to the next step rather than a new row; so it
    # does where an action was asked or answered below the sheet: on a phone the entry row's
    # focus would scroll its answer (a refusal, the totals to confirm) out of view.
    focus_action = bool(
        (state.check.complete and not editing)
        or (at == ACTIONS or step is not None or strike is not None)
    )
    mode = mode if mode in MODES else "quick"
    # Whether the page around the entry row is the sheet alone, nothing ruled on it: then a new
    # hand's answer is the hand alone (``scoring.views.saved``).
    plain = not (
        step
        or strike
        or at is not None
        or state.adjudication.decisions
        or state.adjudication.deductions
    )
    time_over_noted = access.time_over_after_hand is not None
    typist = policies.typist_of(access.actor)
    return {
        "warnings": [problem_message(warning) for warning in state.check.warnings],
        "warning_hands": warning_hands,
        **sheet_page(access, state),
        "problems": [problem_message(problem) for problem in state.check.problems],
        "problem_hands": problem_hands,
        **_rows_context(
            []
            if state.withheld
            else sheet_rows(
                state.rows,
                base=access.base,
                may_edit=may_edit,
                problem_hands=problem_hands,
                warning_hands=warning_hands,
                adjudication=state.adjudication,
                editing=editing,
            ),
            between=editing is not None or strike is not None or at not in (None, ACTIONS),
        ),
        "new_row": new_row,
        "entry_row": None
        if not new_row
        else blank_entry_row(request, access, state, focus_action=focus_action, plain=plain)
        if blank
        else entry_row(
            request,
            access,
            state,
            fields=_typed_fields(
                access, form=form, number=number, editing=editing, mode=mode, focus=focus_action
            ),
            number=number,
            mode=mode,
            # The entry row's contract, which the page's script reads (static/js/sheet.js).
            contract=form["contract"].value() if form is not None else "normal",
            typist=typist,
            plain=plain,
        ),
        "editing": editing,
        "mode": mode,
        **_grid_context(
            access,
            state,
            may_edit=may_edit,
            remaining=remaining if not editing else (),
            time_over_noted=time_over_noted,
        ),
        "may_edit": may_edit,
        # As the service asks: a sheet ended early takes no more hands but is handed in.
        "may_submit": bool(state.lines) and _may(policies.may_submit_sheet, access, state),
        "may_confirm": not access.blind and confirm is None,
        "version": access.version,
        # Who types on this page: every save names him, and a hand kept on the device while the
        # connection was down is sent only as his (``policies.may_save_typed``).
        "typist": typist,
        "typist_name": access.actor.name,
        "focus_action": focus_action,
        # Why a member of staff finds no entry row on a sheet still open to entry.
        "edit_refusal": _edit_refusal(access, state) if not may_edit else None,
        # The match complete: what comes next, and who does it.
        "next_step": _next_step(access, state, confirm=confirm) if state.check.complete else None,
        "sheet_url": sheet_url(access, "scoring:sheet") if access.blind else access.base,
        # What handing it in leads to (the step's question): a second entry or a player.
        "second_entry_confirms": _second_entry_confirms(access),
        "may_return": _may(policies.may_return_sheet, access, state),
        "may_reopen": _may(policies.may_reopen_sheet, access, state),
        "may_hand_over": _may_hand_over(access),
        **_hard_cases(access),
        "may_print": _may_print(access),
        "conflict": conflict,
        "errors": errors or [],
        "feedback_at": at,
        "return_reason_length": RETURN_REASON_LENGTH,
        "step": step,
        "strike": strike,
        "seat_totals": [(seat, state.check.totals[seat.position]) for seat in state.seats]
        if step
        else [],
        "time_over_noted": time_over_noted,
        "time_over_after_hand": access.time_over_after_hand,
        **_playing_time(access, state),
        **_paper(access, state, confirm),
        **withheld_context(access),
    }


def _grid_context(
    access: Access,
    state: selectors.SheetState,
    *,
    may_edit: bool,
    remaining: range | tuple,
    time_over_noted: bool,
) -> dict:
    """The sheet's parts put into words in Python (``scoring.views.sheet_rows``,
    ``scoring.views.sheet_parts``); only its state for a reader the hands are withheld from."""
    if state.withheld:
        return {"state_line": state_line(access, state)}
    return {
        "state_line": state_line(access, state),
        "next_hand": next_hand(state, time_over_noted=time_over_noted)
        if not state.check.complete
        else None,
        "grid_head": sheet_head(state.seats, may_edit=may_edit),
        "placeholders": placeholder_rows(remaining, table_size=state.table_size),
        "totals_row": totals_row(state, may_edit=may_edit),
    }


def _typed_fields(
    access: Access,
    *,
    form: HandForm | None,
    number: int,
    editing: int | None,
    mode: str,
    focus: bool,
) -> SafeString:
    """The fields of a hand being typed or corrected, with what was typed and why it was
    refused."""
    context = {
        "access": access,
        "form": form,
        "number": number,
        "editing": editing,
        "mode": mode,
        "modes": MODES,
        "focus_action": focus,
    }
    return SafeString(render_to_string("scoring/partials/entry_fields.html", context))


def withheld_context(access: Access) -> dict:
    """A blind first entry (double entry) withheld from this member of staff: whether he may
    open it all the same (recorded: ``policies.may_open_first_entry``), and where."""
    if access.blind or access.withheld is None or access.actor.user is None:
        return {"may_open_first_entry": False}
    refusal = policies.may_open_first_entry(
        sheet=access.sheet, actor=access.actor, roles=access.roles
    )
    return {
        "may_open_first_entry": refusal is None,
        "first_entry_open_url": sheet_url(access, "scoring:sheet-first-entry-open"),
    }


def _next_step(
    access: Access, state: selectors.SheetState, *, confirm: Refusal | None
) -> str | None:
    """What comes after the last line of the match, and who does it (TSR 7.3.2, 7.3.4): hand
    the sheet in (the scorekeeper), then confirm it (another player of the table)."""
    sheet = access.sheet
    if access.blind:
        return None  # the second entry's own steps are shown with it
    if sheet.status == Scoresheet.Status.CONFIRMED:
        return _("It is confirmed and counts in the standings (TSR 8.5.2).")
    if sheet.status == Scoresheet.Status.SUBMITTED:
        if policies.double_entry_applies(sheet):
            return _(
                "Handed in; a second member of the desk types it again without seeing this "
                "entry, and it is confirmed when both entries agree (double entry)."
            )
        if confirm is None:
            return _(
                "It is handed in: check the totals and confirm it below, or send it back "
                "for correction (TSR 7.3.2)."
            )
        if policies.typed_at_the_desk(sheet):
            return _(
                "Handed in; the desk confirms it from the paper sheet the players signed, or "
                "another player of the table confirms it (TSR 7.3.2, 7.3.4)."
            )
        return _("Handed in; another player of the table or a member of staff confirms it.")
    if _refusal(policies.may_submit_sheet, access, state) is None:
        if _second_entry_confirms(access):
            return _(
                "Check the totals and hand the scoresheet in below; then a second member of "
                "the desk types it again without seeing this entry (double entry)."
            )
        if _refusal(policies.may_confirm_from_signed_sheet, access, state) is None:
            return _(
                "Check the totals against the paper sheet the players signed, then hand it in "
                "and confirm it from the signed sheet below (TSR 7.3.4, 8.5.2)."
            )
        return _(
            "Check the totals and hand the scoresheet in below; then another player of the "
            "table confirms it (TSR 7.3.2)."
        )
    keeper = next((seat for seat in state.seats if seat.position == state.keeper), None)
    name = keeper.entry.name if keeper is not None else ""
    if access.round.tournament.sheet_keeping == SheetKeeping.PAPER:
        return _(
            "The scorekeeper, seat %(seat)d (%(name)s), hands the signed paper sheet to the "
            "tournament desk, which types it in (TSR 7.3.4)."
        ) % {"seat": state.keeper, "name": name}
    return _(
        "The scorekeeper, seat %(seat)d (%(name)s), hands the scoresheet in; then you or "
        "another player of the table confirm it here (TSR 7.3.2)."
    ) % {"seat": state.keeper, "name": name}


def _second_entry_confirms(access: Access) -> bool:
    """Whether the sheet this actor hands in is confirmed by a second, blind entry: a member
    of the desk types it, where the tournament checks its paper sheets so (double entry)."""
    return access.actor.user is not None and access.round.tournament.double_entry


def _hard_cases(access: Access) -> dict:
    """A table that cannot finish and a game dealt again (TSR 9.1.3), for staff through their
    account: the forms for whom the policies allow them; for the others on a draft that is
    still played, why not and who does (no dead end). The player's later rounds: the entries
    page (withdrawal, substitute, disqualification)."""
    if access.blind or access.actor.user is None:
        return {}
    user, roles, sheet = access.actor.user, access.roles, access.sheet
    end = policies.may_end_sheet_early(sheet=sheet, user=user, roles=roles)
    undo = (
        policies.may_undo_end_early(sheet=sheet, user=user, roles=roles)
        if sheet.ended_early
        else Refusal("")
    )
    replay = policies.may_record_replay(sheet=sheet, user=user, roles=roles)
    open_draft = (
        sheet.status == Scoresheet.Status.DRAFT
        and not sheet.ended_early
        and access.round.status in {Round.Status.RUNNING, Round.Status.FINISHED}
    )
    return {
        "may_end_early": end is None,
        "end_early_refusal": end if open_draft and end is not None else None,
        "may_undo_end": undo is None,
        "may_replay": replay is None,
        "replays": [(choice.value, label) for choice, label in REPLAY_LABELS.items()],
        "entries_url": reverse("tournaments:entries", args=[access.round.tournament.slug]),
    }


def _edit_refusal(access: Access, state: selectors.SheetState) -> Refusal | None:
    """Why this member of staff may not type on this page, where the entry is still open."""
    if access.blind:
        return _second_refusal(access)
    if access.actor.user is None or access.sheet.status != Scoresheet.Status.DRAFT:
        return None
    return _refusal(policies.may_edit_sheet, access, state)


def sheet_page(access: Access, state: selectors.SheetState) -> dict:
    """What every page of a sheet shows: whose it is, of which table and round, and the entry."""
    return {
        "access": access,
        "tournament": access.round.tournament,
        "round": access.round,
        "table": access.sheet.table,
        "sheet": access.sheet,
        "state": state,
    }


def _paper(access: Access, state: selectors.SheetState, confirm: Refusal | None) -> dict:
    """What the page says of a paper sheet at the desk (TSR 7.3.4, 8.5.2): whether this actor
    confirms it from the signed sheet, why he may not confirm it (``confirm``, the refusal of
    ``may_confirm_sheet``), and how its second entry stands (double entry)."""
    sheet = access.sheet
    if access.blind:
        return {"may_signed": False, "confirm_refusal": None, "double_entry": None}
    signed = _refusal(policies.may_confirm_from_signed_sheet, access, state)
    context: dict[str, object] = {
        "may_signed": signed is None,
        # Beside where the confirm button would be: why it is not there (TSR 7.3.2).
        "confirm_refusal": confirm
        if sheet.status == Scoresheet.Status.SUBMITTED and confirm is not None and signed
        else None,
        "double_entry": None,
    }
    if sheet.status == Scoresheet.Status.SUBMITTED and policies.double_entry_applies(sheet):
        entry = selectors.second_entry_get(sheet=sheet)
        second = policies.may_enter_second(
            sheet=sheet, actor=access.actor, roles=access.roles, entry=entry
        )
        settle = policies.may_settle_differences(
            sheet=sheet, actor=access.actor, roles=access.roles
        ) and policies.may_propose_settlement(sheet=sheet, actor=access.actor, roles=access.roles)
        compared = (
            entry is not None
            and entry.compared_at is not None
            and sheet.submitted_at is not None
            and entry.compared_at >= sheet.submitted_at
        )
        context["double_entry"] = {
            "entry": entry,
            "typed": len(entry.hands) if entry is not None else 0,
            "differences": entry.differences if compared and entry is not None else [],
            "may_type": second is None,
            "refusal": second if second is not None and second.field is not None else None,
            "may_settle": settle is None,
            "url": reverse(
                "scoring:sheet-second",
                kwargs={
                    "slug": sheet.table.round.tournament.slug,
                    "number": sheet.table.round.number,
                    "table": sheet.table.number,
                },
            ),
        }
    return context


def _playing_time(access: Access, state: selectors.SheetState) -> dict:
    """Whether this table's playing time is over, so that its end may be noted, or when it will
    be (TSR 8.5.1, 10.1.5); asked only once the adjudicator announced the end of the round."""
    if access.round.ended_at is None:
        return {"time_over": False, "time_ends_at": None, "time_five": False}
    time = tournament_selectors.table_playing_time(table=access.sheet.table, size=state.table_size)
    over = time.over(timezone.now())
    return {
        "time_over": over,
        "time_ends_at": None if over else time.ends_at,
        "time_five": time.five,
    }


def mode_of(request: HttpRequest) -> str:
    """The way of entering hands the request names (its form, its address, the cookie)."""
    mode = request.POST.get("mode") or request.GET.get("mode") or request.COOKIES.get("sheet_mode")
    return mode if mode in MODES else "quick"


def dealer_of(state: selectors.SheetState, number: int) -> int:
    """The dealer of hand ``number``: as entered, or the next one the TSR gives."""
    if number <= len(state.lines):
        return state.lines[number - 1].dealer
    return state.check.next.dealer


def blank_entry_row(
    request: HttpRequest,
    access: Access,
    state: selectors.SheetState,
    *,
    focus_action: bool,
    plain: bool,
) -> SafeString:
    """The entry row of the next hand with nothing typed yet: on the page, and in a new hand's
    answer (``scoring.views.saved``); a forced solo due is filled in (TSR 4.2.3)."""
    number = len(state.lines) + 1
    upcoming = state.check.next
    forced = upcoming.must_be_forced_solo
    mode = mode_of(request)
    fields = blank_fields(
        number=number,
        table_size=state.table_size,
        dealer=upcoming.dealer,
        mode=mode,
        focus_action=focus_action,
        forced_soloist=upcoming.forced_soloist if forced else None,
    )
    return entry_row(
        request,
        access,
        state,
        fields=fields,
        number=number,
        mode=mode,
        contract="forced_solo" if forced else "normal",
        typist=policies.typist_of(access.actor),
        plain=plain,
    )


def blank_fields(
    *,
    number: int,
    table_size: int,
    dealer: int,
    mode: str,
    focus_action: bool,
    forced_soloist: int | None,
) -> SafeString:
    """The fields of a new hand's blank entry row (``entry_fields.html``): the same at every
    table of this size at this hand, so made once per process for each hand, table size, dealer,
    mode and language (a few hundred at most), not on every save's answer. What differs from
    table to table (the form's token, version and typist, the links) is around them."""
    return _blank_fields(
        get_language(), number, table_size, dealer, mode, focus_action, forced_soloist
    )


@functools.lru_cache(maxsize=1024)
def _blank_fields(
    language: str,
    number: int,
    table_size: int,
    dealer: int,
    mode: str,
    focus_action: bool,
    forced_soloist: int | None,
) -> SafeString:
    initial: dict[str, object] = {"mode": mode}
    if forced_soloist is not None:
        initial |= {"contract": "forced_solo", "soloist": forced_soloist}
    form = HandForm(initial=initial, table_size=table_size, dealer=dealer)
    context = {
        "form": form,
        "mode": mode,
        "modes": MODES,
        "focus_action": focus_action,
        "number": number,
        "editing": None,
    }
    with override(language):
        return SafeString(render_to_string("scoring/partials/entry_fields.html", context))


def _editing_form(request: HttpRequest, state: selectors.SheetState, editing: int) -> HandForm:
    """The row of hand ``editing`` as entered, to be corrected."""
    initial = initial_for(state.lines[editing - 1], mode=mode_of(request))
    return HandForm(initial=initial, table_size=state.table_size, dealer=dealer_of(state, editing))


def render_page(request: HttpRequest, context: dict, *, status: int = 200) -> HttpResponse:
    template = (
        "scoring/partials/sheet_body.html"
        if request.headers.get("HX-Request") and not request.headers.get("HX-Boosted")
        else "scoring/sheet.html"
    )
    if template == "scoring/sheet.html":  # the signed sheet's section is outside the body
        context = {**scan_context(context["access"], context["state"]), **context}
    response = render(request, template, context, status=status)
    return answered(request, response, mode=context["mode"])


def answered(request: HttpRequest, response: HttpResponse, *, mode: str) -> HttpResponse:
    """An entry page's answer: how long the device may keep it (``kept_until``), and the way
    of entering hands last chosen, for the next page."""
    kept_until(request, response)
    # Only the server reads it (config/settings.py: every cookie's flags).
    response.set_cookie(
        "sheet_mode",
        mode,
        max_age=365 * 86400,
        secure=settings.SECURE_COOKIES,
        httponly=True,
        samesite="Lax",
    )
    return response


# The service worker keeps an entry page for a reload while offline (static/js/sw.js): this
# header says until when, in milliseconds since 1970, the copy may be shown.
KEPT_UNTIL = "X-Kept-Until"


def kept_until(request: HttpRequest, response: HttpResponse) -> None:
    """A page of a logged-in session may be shown from the worker's copy until the session
    runs out, never after (the session's end in ``KEPT_UNTIL``): an expired session leaves no
    staff page to read on the device. A seat's link without a session has no end."""
    if settings.SESSION_COOKIE_NAME not in request.COOKIES or not request.user.is_authenticated:
        return
    ends = request.session.get_expiry_date()
    response[KEPT_UNTIL] = str(int(ends.timestamp() * 1000))


def typist_refusal(request: HttpRequest, access: Access) -> Refusal | None:
    """Whether a save may be stored as typed by whom it names (its ``typist``): only by him
    (``policies.may_save_typed``); his name is looked up only when it is someone else."""
    typed_by = request.POST.get("typist", "")
    if not typed_by or typed_by == policies.typist_of(access.actor):
        return None
    return policies.may_save_typed(
        typed_by=typed_by,
        typed_by_name=selectors.typist_name(typist=typed_by),
        actor=access.actor,
    )


def hand_number(request: HttpRequest, state: selectors.SheetState) -> int:
    """The hand the form names (a new one follows the last), or a ValidationError."""
    try:
        number = int(request.POST.get("number", ""))
    except ValueError:
        number = len(state.lines) + 1
    if not 1 <= number <= len(state.lines) + 1:
        raise ValidationError({"number": _("There is no hand %(number)d.") % {"number": number}})
    return number


def version_named(request: HttpRequest) -> int:
    """The version of the entry the page showed, or a ValidationError."""
    try:
        return int(request.POST.get("version", ""))
    except ValueError as error:
        raise ValidationError(
            {"version": _("The page did not say which version of the sheet it showed.")}
        ) from error


def _dealt(state: selectors.SheetState, lines: list, kept: set[int], time_over: int | None):
    """``lines`` dealt as the TSR says, but for the hands in ``kept``, which stand as dealt by
    another player (TSR 9.7.3)."""
    return with_dealers(
        lines,
        table_size=state.table_size,
        hands_per_match=state.hands_per_match,
        time_over_after_hand=time_over,
        kept=kept,
    )


def with_hand(state: selectors.SheetState, number: int, line, time_over: int | None) -> list:
    """The entry's hands with hand ``number`` replaced (or added): it keeps the dealer the form
    names, and the hands after it are dealt again as the TSR says, but for those dealt out of
    turn before (TSR 9.7.3)."""
    lines = list(state.lines)
    if number > len(lines):
        lines.append(line)
    else:
        lines[number - 1] = line
    kept = dealt_out_of_turn(state.check) | {number}
    return _dealt(state, lines, kept, time_over)


def hand_asked(request: HttpRequest, name: str, access: Access) -> int | None:
    """The hand named by ``?<name>=`` (to correct or to strike out); 404 if there is none."""
    if name not in request.GET:
        return None
    try:
        number = int(request.GET[name])
    except ValueError as error:
        raise Http404 from error
    count = len(access.entry.hands if access.entry else []) if access.blind else None
    if not 1 <= number <= (count if count is not None else access.sheet.hands.count()):
        raise Http404
    return number


def stale_answer(
    request: HttpRequest,
    access: Access,
    error: StaleVersionError | StaleEntryError,
    form=None,
    editing=None,
    at: str | int | None = None,
    row: "Row | None" = None,
):
    """HTTP 409: the page with the entry as it is now and what changed since; ``row``: the
    entry row as typed, kept on the page on the entry as it is now."""
    if isinstance(error, StaleEntryError):
        access.entry = error.current
        conflict: list = []  # the second entry keeps no history; the page shows it as it is
    else:
        access.sheet = error.current
        conflict = selectors.sheet_changes(sheet=error.current, since=version_named(request))
    if row is not None:
        form, editing = row.form_on(access), row.editing
    context = page_context(request, access, form=form, editing=editing, conflict=conflict, at=at)
    return render_page(request, context, status=409)


def refused_answer(request: HttpRequest, access: Access, error: ValidationError, **kwargs):
    """HTTP 422: the page with the entry as stored and why the action was refused."""
    access.sheet.refresh_from_db()
    if access.blind:
        access.entry = selectors.second_entry_get(sheet=access.sheet)
    context = page_context(request, access, errors=error.messages, **kwargs)
    return render_page(request, context, status=422)


class RowRefused(Exception):
    """The entry row sent is not a hand the rules accept as typed (its form's errors): nothing
    is written; ``Row.form`` says why, field by field."""


class Row:
    """The entry row a save sends: the hand it names and its fields, made into the entry's
    hands from the entry as it stands under the write's lock (``added``, for ``hands_edit``).
    After the write, ``form`` and ``editing`` are the row as typed, for the answer."""

    def __init__(self, request: HttpRequest, *, time_over: int | None):
        self.request = request
        self.time_over = time_over
        self.number = 0
        self.form: HandForm | None = None
        self.editing: int | None = None
        # The entry as the write read it under its lock, before the row (``added``).
        self.before: selectors.SheetState | None = None

    def read(self, state: selectors.SheetState) -> HandForm:
        """The row's form on the entry ``state`` (bound, not yet validated); a ValidationError
        for a hand the entry does not have."""
        self.number = hand_number(self.request, state)
        self.editing = self.number if self.number <= len(state.lines) else None
        self.form = HandForm(
            self.request.POST, table_size=state.table_size, dealer=dealer_of(state, self.number)
        )
        return self.form

    def added(self, state: selectors.SheetState) -> list:
        """The entry's hands with this row in them; ``RowRefused`` if its form refuses it."""
        self.before = state
        form = self.read(state)
        if not form.is_valid():
            raise RowRefused
        return with_hand(state, self.number, form.line, self.time_over)

    def form_on(self, access: Access) -> HandForm | None:
        """The row as typed, on the entry as it stands now (the write refused it before it read
        the entry: another version), with its errors; None if the entry has no such hand."""
        try:
            form = self.read(entry_state(access))
        except ValidationError:
            return None
        form.is_valid()
        return form


def hands_edit(
    access: Access,
    *,
    edit: Callable[[selectors.SheetState], list],
    version: int,
    time_over_after_hand: int | None,
) -> None:
    """Store the entry's hands (the sheet's, or its second entry's) as ``edit`` makes them from
    the entry as it stands under the write's lock, read there once; the page's answer then
    shows the entry as the write left it, read no more. ``edit`` may raise (the row typed is
    refused): nothing is written, and the entry as the write read it is the page's
    (``entry_state``)."""

    def made(state: selectors.SheetState) -> list:
        access.sheet = state.sheet  # locked at the version the page named
        access.state_known(state)
        return edit(state)

    if access.blind:
        assert access.actor.user is not None  # the desk types the second entry
        access.entry, state = services.second_entry_hands_edit(
            scoresheet=access.sheet,
            edit=made,
            by=access.actor.user,
            version=version,
            time_over_after_hand=time_over_after_hand,
            roles=access.roles,
        )
        access.sheet = state.sheet  # as the write read it: the page's policies ask no more
    else:
        state = services.scoresheet_hands_edit(
            scoresheet=access.sheet,
            edit=made,
            version=version,
            by=access.actor,
            time_over_after_hand=time_over_after_hand,
        )
        access.sheet = state.sheet
    access.state_known(state)


def done_answer(request: HttpRequest, access: Access) -> HttpResponse:
    """After an action: the page again, or for htmx its answer beside the buttons."""
    if not request.headers.get("HX-Request"):
        return redirect(access.base)
    # The answer beside the buttons that asked it: on a phone the page stays down there, and
    # the buttons are gone (the sheet handed in, sent back, confirmed).
    return render_page(request, {**page_context(request, access), "done": True})


def scan_context(access: Access, state: selectors.SheetState) -> dict:
    """The "Signed sheet" section: the scan for whom may see it, and the upload form for whom
    may attach one, else why not (worth saying to a player: who attaches it)."""
    roles, sheet, actor = access.roles, access.sheet, access.actor
    readable = policies.may_read_scan(sheet=sheet, actor=actor, roles=roles) is None
    scan = selectors.scoresheet_scan(sheet=sheet) if readable else None
    refusal = policies.may_attach_scan(
        sheet=sheet, actor=actor, roles=roles, table_size=state.table_size
    )
    return {
        "scan": scan,
        "scan_url": f"{access.base}scan/?v={scan.sha256[:12]}" if scan else None,
        "may_attach_scan": refusal is None,
        "scan_refusal": refusal,
        "scan_max_bytes": SCAN_MAX_BYTES,
        "scan_errors": [],
    }
