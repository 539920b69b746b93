"""The scoresheet entry page of one table, for staff (with an account) and for the players of
the table through their seat's private link (no account).

Every write names the version it was based on; the services refuse a stale one and the page
then shows what changed in the meantime (HTTP 409). Rows are checked live against the TSR as
they are typed (``sheet_check``) and saved one at a time (``sheet_save``). A row typed while the
connection was down waits in the browser (static/js/offline-queue.js) and is saved later through
the same ``save/``, asking for JSON; the service worker that keeps the page for a reload while
offline is served from the site's root (``service_worker``).
"""

from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.contrib.staticfiles import finders
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from doko.rules.deal import sheet_keeper
from doko.rules.sheet import HandLine, dealt_out_of_turn, with_dealers
from scoring import links, policies, selectors, services
from scoring.forms import MODES, HandForm, initial_for
from scoring.messages import problem_message
from scoring.models import RETURN_REASON_LENGTH, Scoresheet, ScoresheetChange
from scoring.rulings import sheet_adjudication
from scoring.selectors import hand_lines, hand_snapshot, scoresheet_check, scoresheet_rows
from scoring.services import Actor, StaleVersionError
from scoring.sheet_api import changes_data, sheet_data
from tournaments import policies as tournament_policies
from tournaments import selectors as tournament_selectors
from tournaments.models import Round
from tournaments.permissions import roles_of, standings_mode
from tournaments.roles import (
    FIRST_INSTANCE,
    SEES_SHEET_LINKS,
    SHEET_READERS,
    SHEET_STAFF,
    STAFF,
)
from tournaments.site import absolute_url


@dataclass
class Access:
    """Who opened which sheet, and what they may do with it."""

    sheet: Scoresheet
    actor: Actor
    roles: set[str]
    base: str  # the page's URL; the actions are below it

    @property
    def staff(self) -> bool:
        return bool(self.roles & SHEET_STAFF)

    @property
    def round(self) -> Round:
        return self.sheet.table.round


def _access(request: HttpRequest, slug=None, number=None, table=None, token=None) -> Access:
    if token is not None:
        seat = links.seat_for_key(request, token)
        if seat is None:
            raise Http404
        try:
            sheet = seat.table.scoresheet
        except Scoresheet.DoesNotExist as error:
            raise Http404 from error
        base = reverse("sheet-link", kwargs={"token": token})
        return Access(sheet=sheet, actor=Actor(seat=seat), roles=set(), base=base)
    user = request.user
    tournament = tournament_selectors.tournament_get(slug=slug, user=user)
    roles = roles_of(request, tournament)
    # A visitor without a login holds no role (and _sheet_view sends him to log in first).
    if not roles & SHEET_READERS or not user.is_authenticated:
        raise PermissionDenied
    sheet = get_object_or_404(
        Scoresheet.objects.select_related("table__round__tournament"),
        table__round__tournament=tournament,
        table__round__number=number,
        table__number=table,
    )
    # A sheet names the seating: not before it is published, but to the staff.
    tournament_policies.enforce(
        tournament_policies.may_read_seating(round=sheet.table.round, roles=roles)
    )
    base = reverse("sheet", kwargs={"slug": slug, "number": number, "table": table})
    return Access(sheet=sheet, actor=Actor(user=user), roles=roles, base=base)


def _sheet_view(view):
    """Resolve the sheet and the actor; staff pages need a login, link pages don't."""

    def wrapped(request: HttpRequest, **kwargs) -> HttpResponse:
        if "token" not in kwargs and not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        try:
            access = _access(request, **kwargs)
        except links.LinkLimited as limited:
            return _too_many(
                request, limited.wait, back=reverse("sheet-link", args=[kwargs["token"]])
            )
        return view(request, access)

    wrapped.__name__ = view.__name__
    wrapped.__doc__ = view.__doc__
    return wrapped


def _too_many(request: HttpRequest, wait: float, *, back: str) -> HttpResponse:
    """HTTP 429 for a link over its limit: the message alone for htmx, which shows it above the
    page (static/js/errors.js), as JSON for a client that asks for it (the offline queue, which
    waits as ``Retry-After`` says), else a page with it."""
    message = _("Too many requests through this link. Please wait a minute and try again.")
    response: HttpResponse
    if _wants_json(request):
        response = JsonResponse({"detail": message, "messages": [message]}, status=429)
    elif request.headers.get("HX-Request"):
        response = HttpResponse(message, content_type="text/plain; charset=utf-8", status=429)
    else:
        response = render(request, "429.html", {"message": message, "back": back}, status=429)
    response["Retry-After"] = str(max(1, round(wait)))
    return response


def _may(policy, access: Access, state: selectors.SheetState) -> bool:
    """Whether the sheet's policy lets this actor do it: the services ask the same."""
    return (
        policy(
            sheet=access.sheet, actor=access.actor, roles=access.roles, table_size=state.table_size
        )
        is None
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
STEPS = {
    "submit": services.scoresheet_submit_check,
    "confirm": services.scoresheet_confirm_check,
}


def _context(
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
    state = selectors.sheet_state(sheet=access.sheet)
    may_edit = _may(policies.may_edit_sheet, access, state)
    if may_edit and form is None:
        form = _blank_form(request, state, editing)
    number = editing or len(state.lines) + 1
    remaining = range(len(state.lines) + 2, len(state.lines) + 1 + state.check.next.hands_remaining)
    # The mode as the form sent it, when it is one: it goes into the cookie the next page reads.
    mode = form["mode"].value() if form is not None else None
    return {
        "warnings": [problem_message(warning) for warning in state.check.warnings],
        "warning_hands": {warning.hand for warning in state.check.warnings},
        "access": access,
        "tournament": access.round.tournament,
        "round": access.round,
        "table": access.sheet.table,
        "sheet": access.sheet,
        "state": state,
        "problems": [problem_message(problem) for problem in state.check.problems],
        "problem_hands": {problem.hand for problem in state.check.problems},
        "form": form if may_edit else None,
        "number": number,
        "editing": editing,
        "modes": MODES,
        "mode": mode if mode in MODES else "quick",
        "remaining": remaining if not editing else (),
        "may_edit": may_edit,
        "may_submit": may_edit and bool(state.lines),
        "may_confirm": _may(policies.may_confirm_sheet, access, state),
        "may_return": _may(policies.may_return_sheet, access, state),
        "may_reopen": _may(policies.may_reopen_sheet, access, state),
        "may_hand_over": _may_hand_over(access),
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
        "time_over_noted": access.sheet.time_over_after_hand is not None,
        **_playing_time(access, state),
    }


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


def _mode(request: HttpRequest) -> str:
    mode = request.POST.get("mode") or request.GET.get("mode") or request.COOKIES.get("sheet_mode")
    return mode if mode in MODES else "quick"


def _dealer(state: selectors.SheetState, number: int) -> int:
    if number <= len(state.lines):
        return state.lines[number - 1].dealer
    return state.check.next.dealer


def _blank_form(request: HttpRequest, state: selectors.SheetState, editing: int | None):
    number = editing or len(state.lines) + 1
    mode = _mode(request)
    initial: dict[str, object] = {"mode": mode}
    if editing:
        initial = initial_for(state.lines[editing - 1], mode=mode)
    elif state.check.next.must_be_forced_solo:
        initial |= {"contract": "forced_solo", "soloist": state.check.next.forced_soloist}
    return HandForm(initial=initial, table_size=state.table_size, dealer=_dealer(state, number))


def _render(request: HttpRequest, context: dict, *, status: int = 200) -> HttpResponse:
    template = (
        "scoring/partials/sheet_body.html"
        if request.headers.get("HX-Request") and not request.headers.get("HX-Boosted")
        else "scoring/sheet.html"
    )
    response = render(request, template, context, status=status)
    # Only the server reads it (config/settings.py: every cookie's flags).
    response.set_cookie(
        "sheet_mode",
        context["mode"],
        max_age=365 * 86400,
        secure=settings.SECURE_COOKIES,
        httponly=True,
        samesite="Lax",
    )
    return response


def _number(request: HttpRequest, state: selectors.SheetState) -> int:
    try:
        number = int(request.POST.get("number", ""))
    except ValueError:
        number = len(state.lines) + 1
    if not 1 <= number <= len(state.lines) + 1:
        raise ValidationError({"number": _("There is no hand %(number)d.") % {"number": number}})
    return number


def _version(request: HttpRequest) -> int:
    try:
        return int(request.POST.get("version", ""))
    except ValueError as error:
        raise ValidationError(
            {"version": _("The page did not say which version of the sheet it showed.")}
        ) from error


def _dealt(state: selectors.SheetState, lines: list, kept: set[int], time_over: int | None):
    """``lines`` dealt as the TSR says, but for the hands in ``kept``, which stand as dealt by
    another player (TSR 3.3.10)."""
    return with_dealers(
        lines,
        table_size=state.table_size,
        hands_per_match=state.hands_per_match,
        time_over_after_hand=time_over,
        kept=kept,
    )


def _with_hand(state: selectors.SheetState, number: int, line) -> list:
    """The sheet's hands with hand ``number`` replaced (or added): it keeps the dealer the form
    names, and the hands after it are dealt again as the TSR says, but for those dealt out of
    turn before (TSR 3.3.10)."""
    lines = list(state.lines)
    if number > len(lines):
        lines.append(line)
    else:
        lines[number - 1] = line
    kept = dealt_out_of_turn(state.check) | {number}
    return _dealt(state, lines, kept, state.sheet.time_over_after_hand)


def _hand_asked(request: HttpRequest, name: str, access: Access) -> int | None:
    """The hand named by ``?<name>=`` (to correct or to strike out); 404 if there is none."""
    if name not in request.GET:
        return None
    try:
        number = int(request.GET[name])
    except ValueError as error:
        raise Http404 from error
    if not 1 <= number <= access.sheet.hands.count():
        raise Http404
    return number


@require_GET
@_sheet_view
def sheet(request: HttpRequest, access: Access) -> HttpResponse:
    """The sheet: its hands with running totals, the check, and the row being entered.

    ``?edit=7`` opens hand 7 for a correction. ``?strike=7``, ``?step=submit`` and
    ``?step=confirm`` ask once before striking out hand 7, handing in or confirming, with
    the hand or the totals, beside the button that asked; or say there why it cannot be done.
    Nothing is saved."""
    editing = _hand_asked(request, "edit", access)
    strike = _hand_asked(request, "strike", access)
    step = request.GET.get("step")
    if step is not None and step not in STEPS:
        raise Http404
    try:
        if strike is not None:
            services.scoresheet_hand_strike_check(
                scoresheet=access.sheet, number=strike, by=access.actor
            )
        elif step is not None:
            STEPS[step](scoresheet=access.sheet, by=access.actor)
    except (ValidationError, PermissionDenied) as error:
        messages = error.messages if isinstance(error, ValidationError) else [str(error)]
        at = strike if strike is not None else ACTIONS
        return _render(request, _context(request, access, errors=messages, at=at))
    return _render(request, _context(request, access, editing=editing, step=step, strike=strike))


@require_POST
@_sheet_view
def sheet_check(request: HttpRequest, access: Access) -> HttpResponse:
    """The live check of the row being typed: its points, and what the TSR says of the sheet
    with it. Nothing is saved."""
    state = selectors.sheet_state(sheet=access.sheet)
    try:
        number = _number(request, state)
    except ValidationError:
        number = len(state.lines) + 1
    form = HandForm(request.POST, table_size=state.table_size, dealer=_dealer(state, number))
    context = {"form": form, "number": number, "state": state, "problems": [], "others": []}
    if form.is_valid():
        line = form.line
        assert line is not None  # a valid form has its line (HandForm.clean)
        lines = _with_hand(state, number, line)
        try:
            check = selectors.scoresheet_check(
                scoresheet=access.sheet, hands=lines, table_size=state.table_size
            )
        except ValidationError as error:
            context["problems"] = error.messages
        else:
            context["problems"] = [problem_message(p) for p in check.problems if p.hand == number]
            context["others"] = [problem_message(p) for p in check.problems if p.hand != number]
            context["warnings"] = [problem_message(w) for w in check.warnings if w.hand == number]
            context["next"] = check.next
        context["points"] = [
            None if state.table_size == 5 and seat == line.dealer else line.points[seat]
            for seat in range(1, state.table_size + 1)
        ]
        if form.entered is not None and form.entered.value is not None:
            context["breakdown"] = [
                {
                    "team": "Re" if item.team == "re" else "Contra",
                    "points": item.points,
                    "label": _(item.label),
                    "rule": item.rule,
                }
                for item in form.entered.value.breakdown
            ]
        context["dealer"] = line.dealer
    return render(request, "scoring/partials/preview.html", context)


def _stale(
    request: HttpRequest,
    access: Access,
    error: StaleVersionError,
    form=None,
    editing=None,
    at: str | int | None = None,
):
    access.sheet = error.current
    conflict = selectors.sheet_changes(sheet=error.current, since=_version(request))
    context = _context(request, access, form=form, editing=editing, conflict=conflict, at=at)
    return _render(request, context, status=409)


def _refused(request: HttpRequest, access: Access, error: ValidationError, **kwargs):
    access.sheet.refresh_from_db()
    context = _context(request, access, errors=error.messages, **kwargs)
    return _render(request, context, status=422)


def _strike_at(request: HttpRequest, state: selectors.SheetState) -> str | int:
    """Where the answer to striking out is shown: beside the hand, if there is one."""
    try:
        number = int(request.POST.get("number", ""))
    except ValueError:
        return ACTIONS
    return number if 1 <= number <= len(state.lines) else ACTIONS


@require_POST
@_sheet_view
def sheet_save(request: HttpRequest, access: Access) -> HttpResponse:
    """Save one row: a new hand or a corrected one. A client that asks for JSON gets JSON
    (``_save_json``); htmx and plain forms get the page as always."""
    if _wants_json(request):
        return _save_json(request, access)
    state = selectors.sheet_state(sheet=access.sheet)
    try:
        number = _number(request, state)
    except ValidationError as error:
        return _refused(request, access, error)
    editing = number if number <= len(state.lines) else None
    form = HandForm(request.POST, table_size=state.table_size, dealer=_dealer(state, number))
    if not form.is_valid():
        context = _context(request, access, form=form, editing=editing)
        return _render(request, context, status=422)
    try:
        access.sheet = services.scoresheet_hands_replace(
            scoresheet=access.sheet,
            hands=_with_hand(state, number, form.line),
            version=_version(request),
            by=access.actor,
            time_over_after_hand=access.sheet.time_over_after_hand,
        )
    except StaleVersionError as error:
        return _stale(request, access, error, form=form, editing=editing)
    except ValidationError as error:
        for message in error.messages:
            form.add_error(None, message)
        context = _context(request, access, form=form, editing=editing)
        return _render(request, context, status=422)
    if not request.headers.get("HX-Request"):
        return redirect(access.base)
    return _render(request, _context(request, access))


def _wants_json(request: HttpRequest) -> bool:
    """Whether the request asks for JSON (``Accept: application/json``), as the offline queue
    of the entry page does (static/js/offline-queue.js); htmx and plain forms ask for HTML."""
    return request.get_preferred_type(["text/html", "application/json"]) == "application/json"


def _save_json(request: HttpRequest, access: Access) -> JsonResponse:
    """``save/`` for a row that waited in the browser while the connection was down.

    200: the sheet's new ``version`` and the ``hand`` as stored (as the API shows it). 409: the
    sheet changed since the ``version`` the row names (checked first: the row was typed on top
    of that version), with the ``current`` sheet, the ``changes`` since and whether the sheet
    holds this very hand already (``_stale_json``). 422: the ``messages`` that refuse it, by
    field in ``errors``; 403 when this link or account may not enter the sheet. Nothing is
    saved but on a 200."""
    try:
        version = _version(request)
    except ValidationError as error:
        return _refused_json(error.message_dict)
    if version != access.sheet.version:
        return _stale_json(request, current=access.sheet, since=version)
    state = selectors.sheet_state(sheet=access.sheet)
    try:
        number = _number(request, state)
    except ValidationError as error:
        return _refused_json(error.message_dict)
    form = HandForm(request.POST, table_size=state.table_size, dealer=_dealer(state, number))
    if not form.is_valid():
        return _refused_json(
            {
                name: [str(message) for message in messages]
                for name, messages in form.errors.items()
            },
            form=form,
        )
    try:
        sheet = services.scoresheet_hands_replace(
            scoresheet=access.sheet,
            hands=_with_hand(state, number, form.line),
            version=version,
            by=access.actor,
            time_over_after_hand=access.sheet.time_over_after_hand,
        )
    except StaleVersionError as error:
        return _stale_json(request, current=error.current, since=version)
    except ValidationError as error:
        return _refused_json(
            error.message_dict if hasattr(error, "error_dict") else {"hands": error.messages}
        )
    except PermissionDenied as error:
        return JsonResponse({"detail": str(error), "messages": [str(error)]}, status=403)
    data = sheet_data(sheet)
    return JsonResponse(
        {"version": data["version"], "number": number, "hand": data["hands"][number - 1]}
    )


def _refused_json(errors: dict[str, list[str]], *, form: HandForm | None = None) -> JsonResponse:
    """422 with the messages by field, and as a list to show (a field's label before its
    message, as the live check shows them)."""
    messages = [
        message
        if name == "__all__" or form is None or name not in form.fields
        else f"{form.fields[name].label}: {message}"
        for name, field_messages in errors.items()
        for message in field_messages
    ]
    return JsonResponse(
        {"detail": messages[0] if messages else "", "errors": errors, "messages": messages},
        status=422,
    )


def _same_hand(line: HandLine, snapshot: dict) -> bool:
    """Whether a stored hand (``hand_snapshot``) is ``line``; a hand typed as points alone
    has the game value its points show."""
    mine = hand_snapshot(line)
    if line.game_value is None:
        mine["game_value"] = snapshot.get("game_value")
    return mine == snapshot


def _stale_json(request: HttpRequest, *, current: Scoresheet, since: int) -> JsonResponse:
    """409: the sheet as it is now and what changed since ``since``, and for the row sent
    (``hand``): whether the sheet holds it already at its number (``stored``: the save got
    through and its answer was lost, or someone typed the same hand), and if it was the first
    change after ``since`` the version it made (``saved_in``: the next row builds on it)."""
    state = selectors.sheet_state(sheet=current)
    changes = selectors.sheet_changes(sheet=current, since=since)
    hand: dict[str, object] = {"number": None, "stored": False, "saved_in": None}
    try:
        number = int(request.POST.get("number", ""))
    except ValueError:
        number = 0
    if 1 <= number <= len(state.lines):
        hand["number"] = number
        form = HandForm(request.POST, table_size=state.table_size, dealer=_dealer(state, number))
        if form.is_valid():
            line = form.line
            assert line is not None  # a valid form has its line (HandForm.clean)
            hand["stored"] = _same_hand(line, hand_snapshot(state.lines[number - 1]))
            first = changes[0] if changes else None
            if (
                hand["stored"]
                and first is not None
                and first.change.action == ScoresheetChange.Action.HANDS
                and number in {diff.number for diff in first.hands}
                and _same_hand(line, first.change.after["hands"][number - 1])
            ):
                hand["saved_in"] = first.change.version
    return JsonResponse(
        {
            "detail": StaleVersionError(current=current).messages[0],
            "version": current.version,
            "current": sheet_data(current),
            "changes": changes_data(current, since=since),
            "hand": hand,
        },
        status=409,
    )


@require_POST
@_sheet_view
def sheet_delete(request: HttpRequest, access: Access) -> HttpResponse:
    """Strike out a hand; the later ones move up and are dealt again as the TSR says, and every
    hand is checked again. The page asks once first (``?strike=7``)."""
    state = selectors.sheet_state(sheet=access.sheet)
    at = _strike_at(request, state)
    try:
        access.sheet = services.scoresheet_hand_strike(
            scoresheet=access.sheet,
            number=_number(request, state),
            version=_version(request),
            by=access.actor,
        )
    except StaleVersionError as error:
        return _stale(request, access, error, at=at)
    except ValidationError as error:
        return _refused(request, access, error, at=at)
    return _done(request, access)


def _done(request: HttpRequest, access: Access) -> HttpResponse:
    if not request.headers.get("HX-Request"):
        return redirect(access.base)
    return _render(request, _context(request, access))


@require_POST
@_sheet_view
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
        access.sheet = services.scoresheet_hands_replace(
            scoresheet=access.sheet,
            hands=selectors.hand_lines(list(access.sheet.hands.all())),
            version=_version(request),
            by=access.actor,
            time_over_after_hand=after,
        )
    except StaleVersionError as error:
        return _stale(request, access, error, at=ACTIONS)
    except ValidationError as error:
        return _refused(request, access, error, at=ACTIONS)
    return _done(request, access)


def _workflow(service, **extra):
    """A step of the sheet's workflow; its answer is shown beside the buttons that ask it."""

    @require_POST
    @_sheet_view
    def view(request: HttpRequest, access: Access) -> HttpResponse:
        try:
            kwargs = {name: request.POST.get(name, "") for name in extra}
            access.sheet = service(
                scoresheet=access.sheet,
                version=_version(request),
                by=access.actor,
                **kwargs,
            )
        except StaleVersionError as error:
            return _stale(request, access, error, at=ACTIONS)
        except ValidationError as error:
            return _refused(request, access, error, at=ACTIONS)
        return _done(request, access)

    view.__name__ = service.__name__
    return view


@require_POST
@_sheet_view
def sheet_keeper_move(request: HttpRequest, access: Access) -> HttpResponse:
    """Hand the sheet over to another seat of the table (TSR 3.1.1, 8.4.1): the organiser or
    an adjudicator; the links follow."""
    try:
        try:
            seat = int(request.POST.get("seat", ""))
        except ValueError as error:
            raise ValidationError(
                {"seat": _("Choose the seat that keeps the scoresheet from now on (TSR 3.1.1).")}
            ) from error
        access.sheet = services.scoresheet_keeper_move(
            scoresheet=access.sheet, seat=seat, version=_version(request), by=access.actor
        )
    except StaleVersionError as error:
        return _stale(request, access, error, at=ACTIONS)
    except ValidationError as error:
        return _refused(request, access, error, at=ACTIONS)
    return _done(request, access)


sheet_submit = _workflow(services.scoresheet_submit)
sheet_confirm = _workflow(services.scoresheet_confirm)
sheet_reopen = _workflow(services.scoresheet_reopen, reason=True)
sheet_return = _workflow(services.scoresheet_return, reason=True)


@require_GET
@_sheet_view
def sheet_history(request: HttpRequest, access: Access) -> HttpResponse:
    """Every change to the sheet: who, when, and the hands before and after."""
    state = selectors.sheet_state(sheet=access.sheet)
    return render(
        request,
        "scoring/history.html",
        {
            "access": access,
            "tournament": access.round.tournament,
            "round": access.round,
            "table": access.sheet.table,
            "sheet": access.sheet,
            "state": state,
            "changes": selectors.sheet_changes(sheet=access.sheet),
            # Who keeps a sheet not handed over (TSR 8.4.1, 10.1.4).
            "rule_keeper": sheet_keeper(keeper_seat=None, table_size=state.table_size),
        },
    )


# A table's page: its players and its sheet, for everyone once the seating is published ----


@require_GET
def table_detail(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """A table of a round: its players, and its sheet as it stands with the adjudicator's
    decisions (the points hidden while the organiser hides the standings)."""
    tournament = tournament_selectors.tournament_get(slug=slug, user=request.user)
    round_ = tournament_selectors.round_get(tournament=tournament, number=number)
    roles = roles_of(request, tournament)
    if tournament_policies.may_read_seating(round=round_, roles=roles):
        raise Http404  # no table to show yet
    row = tournament_selectors.table_get(round=round_, number=table)
    # Read along with the row (ScoresheetPlay.with_points, scoring/play.py): no query more.
    sheet = getattr(row.table, "scoresheet", None)
    context = {
        "tournament": tournament,
        "round": round_,
        "row": row,
        "sheet": sheet,
        "sheet_link": sheet is not None and bool(roles & SEES_SHEET_LINKS),
        # Hidden standings hide every table's points from the public too.
        "show_points": standings_mode(request, tournament) != "hidden",
    }
    if sheet is not None and len(row.seats) in (4, 5):
        # Who keeps the sheet: seat 4 (5), or the seat it was handed over to (TSR 3.1.1).
        context["keeper"] = sheet.keeper(len(row.seats))
    if policies.may_read_seat_links(roles=roles) is None:
        # The players' private links to the sheet, to hand out again if a printout is lost.
        context["seat_links"] = [
            (seat, absolute_url(request, reverse("sheet-link", args=[token])))
            for seat, token in zip(
                row.seats, tournament_selectors.seat_tokens(table=row.table).values(), strict=True
            )
        ]
    if sheet is not None and context["show_points"]:
        hands = list(sheet.hands.all())
        table_size = len(row.seats)
        adjudication = sheet_adjudication(sheet=sheet)
        context["hand_rows"] = scoresheet_rows(
            hands=hands, table_size=table_size, penalties=adjudication.penalties
        )
        context["adjudication"] = adjudication
        # The public sees what counts; staff also what is pending or was replaced on appeal.
        staff = bool(roles & STAFF)
        context["is_staff"] = staff
        context["decisions"] = adjudication.decisions if staff else adjudication.counting
        context["may_complain"] = (
            bool(roles & FIRST_INSTANCE)
            and round_.status in {Round.Status.RUNNING, Round.Status.FINISHED}
            and sheet.status != Scoresheet.Status.CONFIRMED
        )
        try:
            check = scoresheet_check(
                scoresheet=sheet,
                hands=hand_lines(hands),
                table_size=table_size,
                adjudication=adjudication,
            )
        except ValidationError:
            check = None
        context["check"] = check
        context["problems"] = [problem_message(p) for p in check.problems] if check else []
        context["warnings"] = [problem_message(w) for w in check.warnings] if check else []
        context["hands_per_match"] = round_.tournament.hands_at(table_size)
    return render(request, "scoring/table.html", context)


# The service worker (static/js/sw.js) -----------------------------------------------------------


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker that keeps the entry pages for a reload while the connection is
    down, from the site's root so that its scope covers ``/s/`` and ``/tournaments/`` alike.
    Always checked again (``no-cache``), so that a new version reaches every phone."""
    path = finders.find("js/sw.js")
    if not isinstance(path, str):
        raise Http404
    with open(path, "rb") as source:
        response = HttpResponse(source.read(), content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response
