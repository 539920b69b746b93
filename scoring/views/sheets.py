"""The scoresheet entry page of one table, for staff (with an account) and for the players of
the table through their seat's private link (no account).

Every write names the version it was based on; the services refuse a stale one and the page
then shows what changed in the meantime (HTTP 409). Rows are checked live against the TSR as
they are typed (``sheet_check``) and saved one at a time (``sheet_save``). A row typed while the
connection was down waits in the browser (static/js/offline-queue.js) and is saved later through
the same ``save/``, asking for JSON (``offline``)."""

from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from doko.rules.deal import sheet_keeper, sitting_out
from scoring import selectors, services
from scoring.forms import HandForm
from scoring.services import StaleEntryError, StaleVersionError
from scoring.views.access import Access, entry_state, sheet_view, wants_json
from scoring.views.offline import save_json
from scoring.views.page import (
    ACTIONS,
    STEPS,
    Row,
    RowRefused,
    dealer_of,
    done_answer,
    hand_asked,
    hand_number,
    hands_edit,
    page_context,
    refused_answer,
    render_page,
    scan_context,
    sheet_page,
    stale_answer,
    typist_refusal,
    version_named,
    with_hand,
    withheld_context,
)
from scoring.views.saved import saved_answer
from tournaments.messages import problem_message


@require_GET
@sheet_view
def sheet(request: HttpRequest, access: Access) -> HttpResponse:
    """The sheet: its hands with running totals, the check, and the row being entered.

    ``?edit=7`` opens hand 7 for a correction. ``?strike=7``, ``?step=submit`` and
    ``?step=confirm`` ask once before striking out hand 7, handing in or confirming, with
    the hand or the totals, beside the button that asked; or say there why it cannot be done.
    Nothing is saved."""
    editing = hand_asked(request, "edit", access)
    strike = hand_asked(request, "strike", access)
    step = request.GET.get("step")
    if step is not None and step not in STEPS:
        raise Http404
    try:
        if access.blind and step is not None:
            raise Http404  # the second entry is compared, not handed in
        if strike is not None and not access.blind:
            services.scoresheet_hand_strike_check(
                scoresheet=access.sheet, number=strike, by=access.actor
            )
        elif step is not None:
            read = STEPS[step](scoresheet=access.sheet, by=access.actor)
            if access.withheld is None:  # the page shows the sheet as the step read it
                access.state_known(read)
    except (ValidationError, PermissionDenied) as error:
        texts = error.messages if isinstance(error, ValidationError) else [str(error)]
        at = strike if strike is not None else ACTIONS
        return render_page(request, page_context(request, access, errors=texts, at=at))
    return render_page(
        request, page_context(request, access, editing=editing, step=step, strike=strike)
    )


@require_POST
@sheet_view
def sheet_check(request: HttpRequest, access: Access) -> HttpResponse:
    """The live check of the row being typed: its points, and what the TSR says of the sheet
    with it. Nothing is saved."""
    state = entry_state(access)
    try:
        number = hand_number(request, state)
    except ValidationError:
        number = len(state.lines) + 1
    form = HandForm(request.POST, table_size=state.table_size, dealer=dealer_of(state, number))
    context = {"form": form, "number": number, "state": state, "problems": [], "others": []}
    # While the row is typed, a field not filled in yet is no error: it is listed as still to
    # fill in; what is wrong with what was typed is shown as wrong. Saving names both.
    valid = form.is_valid()
    context["wrong"] = form.wrong() if not valid else []
    context["missing"] = form.missing() if not valid else []
    context["needed"] = form.needed() if not valid else []
    if valid:
        line = form.line
        assert line is not None  # a valid form has its line (HandForm.clean)
        time_over = access.time_over_after_hand
        lines = with_hand(state, number, line, time_over)
        try:
            check = selectors.scoresheet_check(
                scoresheet=access.sheet,
                hands=lines,
                table_size=state.table_size,
                time_over_after_hand=time_over,
                adjudication=state.adjudication,
            )
        except ValidationError as error:
            context["problems"] = error.messages
        else:
            context["problems"] = [problem_message(p) for p in check.problems if p.hand == number]
            context["others"] = [problem_message(p) for p in check.problems if p.hand != number]
            context["warnings"] = [problem_message(w) for w in check.warnings if w.hand == number]
            context["next"] = check.next
        context["points"] = [
            None
            if seat in sitting_out(dealer=line.dealer, table_size=state.table_size)
            else line.points[seat]
            for seat in range(1, state.table_size + 1)
        ]
        if form.entered is not None and form.entered.value is not None:
            context["breakdown"] = [
                {
                    # The parties' names as the German sheet writes them: Re, Kontra.
                    "team": _("Re") if item.team == "re" else _("Contra"),
                    "points": item.points,
                    "label": _(item.label),
                    "rule": item.rule,
                }
                for item in form.entered.value.breakdown
            ]
        context["dealer"] = line.dealer
    return render(request, "scoring/partials/preview.html", context)


def _strike_at(request: HttpRequest, state: selectors.SheetState) -> str | int:
    """Where the answer to striking out is shown: beside the hand, if there is one."""
    try:
        number = int(request.POST.get("number", ""))
    except ValueError:
        return ACTIONS
    return number if 1 <= number <= len(state.lines) else ACTIONS


@require_POST
@sheet_view
def sheet_save(request: HttpRequest, access: Access) -> HttpResponse:
    """Save one row: a new hand or a corrected one. A client that asks for JSON gets JSON
    (``save_json``); htmx and plain forms get the page as always."""
    if wants_json(request):
        return save_json(request, access)
    row = Row(request, time_over=access.time_over_after_hand)
    if refusal := typist_refusal(request, access):
        # Typed by someone else than who is logged in now: the row stays as typed, with why,
        # and saving it again (the page now names who is logged in) saves it as his.
        try:
            form = row.read(entry_state(access))
        except ValidationError as error:
            return refused_answer(request, access, error)
        form.is_valid()
        form.add_error(None, refusal.message)
        context = page_context(request, access, form=form, editing=row.editing)
        return render_page(request, context, status=409)
    try:
        hands_edit(
            access,
            edit=row.added,
            version=version_named(request),
            time_over_after_hand=row.time_over,
        )
    except RowRefused:
        context = page_context(request, access, form=row.form, editing=row.editing)
        return render_page(request, context, status=422)
    except (StaleVersionError, StaleEntryError) as error:
        # The row as typed stays on the page, on the entry as it stands now.
        return stale_answer(request, access, error, row=row)
    except ValidationError as error:
        if row.form is None:  # no such hand, or no version named
            return refused_answer(request, access, error)
        for message in error.messages:
            row.form.add_error(None, message)
        context = page_context(request, access, form=row.form, editing=row.editing)
        return render_page(request, context, status=422)
    if not request.headers.get("HX-Request"):
        return redirect(access.base)
    # A new hand on a sheet that only grew by it: its row and the next one's, not the sheet.
    if (answer := saved_answer(request, access, row)) is not None:
        return answer
    # The answer beside the buttons that asked it: on a phone the page stays down there, and
    # the buttons are gone (the sheet handed in, sent back, confirmed).
    return render_page(request, {**page_context(request, access), "done": True})


@require_POST
@sheet_view
def sheet_delete(request: HttpRequest, access: Access) -> HttpResponse:
    """Strike out a hand; the later ones move up and are dealt again as the TSR says, and every
    hand is checked again. The page asks once first (``?strike=7``)."""
    state = entry_state(access)
    at = _strike_at(request, state)
    try:
        if access.blind:
            assert access.actor.user is not None  # the desk types the second entry
            access.entry = services.second_entry_hand_strike(
                scoresheet=access.sheet,
                number=hand_number(request, state),
                version=version_named(request),
                by=access.actor.user,
            )
        else:
            access.sheet = services.scoresheet_hand_strike(
                scoresheet=access.sheet,
                number=hand_number(request, state),
                version=version_named(request),
                by=access.actor,
            )
    except (StaleVersionError, StaleEntryError) as error:
        return stale_answer(request, access, error, at=at)
    except ValidationError as error:
        return refused_answer(request, access, error, at=at)
    return done_answer(request, access)


@require_POST
@sheet_view
def sheet_time_over(request: HttpRequest, access: Access) -> HttpResponse:
    """Note after which hand the playing time ended (TSR 8.5.1, 8.5.3), or clear it."""
    text = request.POST.get("after", "").strip()
    try:
        try:
            after = int(text) if text else None
        except ValueError as error:
            raise ValidationError(
                {"time_over_after_hand": _("Give the number of the last hand begun in time.")}
            ) from error
        hands_edit(
            access,
            edit=lambda state: state.lines,
            version=version_named(request),
            time_over_after_hand=after,
        )
    except (StaleVersionError, StaleEntryError) as error:
        return stale_answer(request, access, error, at=ACTIONS)
    except ValidationError as error:
        return refused_answer(request, access, error, at=ACTIONS)
    return done_answer(request, access)


@require_GET
@sheet_view
def sheet_history(request: HttpRequest, access: Access) -> HttpResponse:
    """Every change to the sheet: who, when, and the hands before and after; none of it to whom
    a blind first entry is withheld (double entry), who may open it (recorded)."""
    state = entry_state(access)
    return render(
        request,
        "scoring/history.html",
        {
            **sheet_page(access, state),
            **withheld_context(access),
            "changes": [] if state.withheld else selectors.sheet_changes(sheet=access.sheet),
            # Who opened the first entry while it was blind (double entry), for the record.
            "reads": []
            if state.withheld
            else list(access.sheet.reads.select_related("by").order_by("at")),
            # Attached beside the versions (it changes none), shown above them.
            **scan_context(access, state),
            # Who keeps a sheet not handed over (TSR 8.4.1, 10.1.4).
            "rule_keeper": sheet_keeper(keeper_seat=None, table_size=state.table_size),
        },
    )
