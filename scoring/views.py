"""The scoresheet entry page of one table, for staff (with an account) and for the players of
the table through their seat's private link (no account).

Every write names the version it was based on; the services refuse a stale one and the page
then shows what changed in the meantime (HTTP 409). Rows are checked live against the TSR as
they are typed (``sheet_check``) and saved one at a time (``sheet_save``). A row typed while the
connection was down waits in the browser (static/js/offline-queue.js) and is saved later through
the same ``save/``, asking for JSON; the service worker that keeps the page for a reload while
offline is served from the site's root (``service_worker``).
"""

import functools
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.contrib.staticfiles import finders
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from doko.rules.deal import sheet_keeper
from doko.rules.double_entry import TAKE, Take
from doko.rules.sheet import HandLine, dealt_out_of_turn, with_dealers
from scoring import links, policies, scans, selectors, services
from scoring.api.sheets import changes_data, hands_data, sheet_data
from scoring.forms import MODES, HandForm, initial_for
from scoring.messages import problem_message
from scoring.models import (
    REPLAY_LABELS,
    RETURN_REASON_LENGTH,
    SCAN_MAX_BYTES,
    Scoresheet,
    ScoresheetChange,
    SecondEntry,
)
from scoring.rulings import sheet_adjudication
from scoring.selectors import hand_lines, hand_snapshot, scoresheet_check, scoresheet_rows
from scoring.services import Actor, StaleEntryError, StaleVersionError
from tournaments import policies as tournament_policies
from tournaments import selectors as tournament_selectors
from tournaments.models import Round, SheetKeeping
from tournaments.permissions import roles_of, standings_mode
from tournaments.policies import Refusal
from tournaments.roles import (
    FIRST_INSTANCE,
    SEES_SHEET_LINKS,
    SHEET_READERS,
    SHEET_STAFF,
    STAFF,
)
from tournaments.site import absolute_url, site_warning


@dataclass
class Access:
    """Who opened which sheet, and what they may do with it. ``blind``: the sheet's second
    entry (double entry), typed without seeing the first; ``entry`` is it, as far as typed."""

    sheet: Scoresheet
    actor: Actor
    roles: set[str]
    base: str  # the page's URL; the actions are below it
    blind: bool = False
    entry: SecondEntry | None = None

    @property
    def version(self) -> int:
        """The version the page's writes name: the sheet's, or its second entry's (0 before
        it is begun)."""
        if self.blind:
            return self.entry.version if self.entry is not None else 0
        return self.sheet.version

    @property
    def time_over_after_hand(self) -> int | None:
        """After which hand the playing time ended, as the entry on this page notes it."""
        if self.blind:
            return self.entry.time_over_after_hand if self.entry is not None else None
        return self.sheet.time_over_after_hand

    @property
    def staff(self) -> bool:
        return bool(self.roles & SHEET_STAFF)

    @property
    def round(self) -> Round:
        return self.sheet.table.round


def _access(
    request: HttpRequest, slug=None, number=None, table=None, token=None, blind=False
) -> Access:
    if token is not None:
        seat = links.seat_for_key(request, token)
        if seat is None:
            raise Http404
        try:
            sheet = seat.table.scoresheet
        except Scoresheet.DoesNotExist as error:
            raise Http404 from error
        base = reverse("sheet-link", kwargs={"token": token})
        # Who is logged in on this device too: staff who play at the table confirm nothing
        # with another seat's link (policies.may_confirm_sheet).
        logged_in = settings.SESSION_COOKIE_NAME in request.COOKIES  # else no query for it
        account = request.user if logged_in and request.user.is_authenticated else None
        actor = Actor(seat=seat, account=account)
        return Access(sheet=sheet, actor=actor, roles=set(), base=base)
    user = request.user
    tournament = tournament_selectors.tournament_get(slug=slug, user=user)
    roles = roles_of(request, tournament)
    # A visitor without a login holds no role (and _sheet_view sends him to log in first).
    if not roles & SHEET_READERS or not user.is_authenticated:
        raise PermissionDenied
    sheet = get_object_or_404(
        Scoresheet.objects.select_related("table__round__tournament", "scan"),
        table__round__tournament=tournament,
        table__round__number=number,
        table__number=table,
    )
    # A sheet names the seating: not before it is published, but to the staff.
    tournament_policies.enforce(
        tournament_policies.may_read_seating(round=sheet.table.round, roles=roles)
    )
    kwargs = {"slug": slug, "number": number, "table": table}
    if blind:
        return Access(
            sheet=sheet,
            actor=Actor(user=user),
            roles=roles,
            base=reverse("sheet-second", kwargs=kwargs),
            blind=True,
            entry=selectors.second_entry_get(sheet=sheet),
        )
    return Access(
        sheet=sheet, actor=Actor(user=user), roles=roles, base=reverse("sheet", kwargs=kwargs)
    )


def _state(access: Access) -> selectors.SheetState:
    """The entry on the page: the sheet, or its second entry (never the first then)."""
    if access.blind:
        return selectors.second_entry_state(sheet=access.sheet, entry=access.entry)
    return selectors.sheet_state(sheet=access.sheet)


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
STEPS: dict[str, Callable[..., None]] = {
    "submit": services.scoresheet_submit_check,
    "confirm": services.scoresheet_confirm_check,
    "signed": functools.partial(services.scoresheet_confirm_check, from_signed_sheet=True),
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
    state = _state(access)
    may_edit = _may_edit(access, state)
    confirm = _refusal(policies.may_confirm_sheet, access, state)
    # Once every line of the match is written (24, 30 at five; fewer once the time is over or
    # the sheet ended early), no row follows for a new hand: a hand is only corrected then. A
    # row typed and refused is shown with the reason.
    new_row = may_edit and (editing is not None or form is not None or not state.check.complete)
    if new_row and form is None:
        form = _blank_form(request, state, editing)
    number = editing or len(state.lines) + 1
    # The lines still to come, numbered on from the last one written, after the entry row
    # where there is one: every viewer of the sheet sees the same numbers.
    first = len(state.lines) + (2 if new_row else 1)
    remaining = range(first, len(state.lines) + 1 + state.check.next.hands_remaining)
    # The mode as the form sent it, when it is one: it goes into the cookie the next page reads.
    mode = form["mode"].value() if form is not None else None
    return {
        "warnings": [problem_message(warning) for warning in state.check.warnings],
        "warning_hands": {warning.hand for warning in state.check.warnings},
        **_page(access, state),
        "problems": [problem_message(problem) for problem in state.check.problems],
        "problem_hands": {problem.hand for problem in state.check.problems},
        "form": form if new_row else None,
        "number": number,
        "editing": editing,
        "modes": MODES,
        "mode": mode if mode in MODES else "quick",
        "remaining": remaining if not editing else (),
        "may_edit": may_edit,
        # As the service asks: a sheet ended early takes no more hands but is handed in.
        "may_submit": bool(state.lines) and _may(policies.may_submit_sheet, access, state),
        "may_confirm": not access.blind and confirm is None,
        "version": access.version,
        # The match complete, the keyboard goes on to the next step rather than a new row; so
        # it does where an action was asked or answered below the sheet: on a phone the entry
        # row's focus would scroll its answer (a refusal, the totals to confirm) out of view.
        "focus_action": (state.check.complete and not editing)
        or (at == ACTIONS or step is not None or strike is not None),
        # Why a member of staff finds no entry row on a sheet still open to entry.
        "edit_refusal": _edit_refusal(access, state) if not may_edit else None,
        # The match complete: what comes next, and who does it.
        "next_step": _next_step(access, state, confirm=confirm) if state.check.complete else None,
        "sheet_url": _sheet_url(access, "sheet") if access.blind else access.base,
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
        "time_over_noted": access.time_over_after_hand is not None,
        "time_over_after_hand": access.time_over_after_hand,
        **_playing_time(access, state),
        **_paper(access, state, confirm),
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
        if confirm is None:
            return _(
                "It is handed in: check the totals and confirm it below, or send it back "
                "for correction (TSR 7.3.2)."
            )
        return _("Handed in; another player of the table or a member of staff confirms it.")
    if _refusal(policies.may_submit_sheet, access, state) is None:
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
        "entries_url": reverse("entries", args=[access.round.tournament.slug]),
    }


def _edit_refusal(access: Access, state: selectors.SheetState) -> Refusal | None:
    """Why this member of staff may not type on this page, where the entry is still open."""
    if access.blind:
        return _second_refusal(access)
    if access.actor.user is None or access.sheet.status != Scoresheet.Status.DRAFT:
        return None
    return _refusal(policies.may_edit_sheet, access, state)


def _page(access: Access, state: selectors.SheetState) -> dict:
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
        )
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
                "sheet-second",
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
    if template == "scoring/sheet.html":  # the signed sheet's section is outside the body
        context = {**_scan_context(context["access"], context["state"]), **context}
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
    another player (TSR 9.7.3)."""
    return with_dealers(
        lines,
        table_size=state.table_size,
        hands_per_match=state.hands_per_match,
        time_over_after_hand=time_over,
        kept=kept,
    )


def _with_hand(state: selectors.SheetState, number: int, line, time_over: int | None) -> list:
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


def _hand_asked(request: HttpRequest, name: str, access: Access) -> int | None:
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
        if access.blind and step is not None:
            raise Http404  # the second entry is compared, not handed in
        if strike is not None and not access.blind:
            services.scoresheet_hand_strike_check(
                scoresheet=access.sheet, number=strike, by=access.actor
            )
        elif step is not None:
            STEPS[step](scoresheet=access.sheet, by=access.actor)
    except (ValidationError, PermissionDenied) as error:
        texts = error.messages if isinstance(error, ValidationError) else [str(error)]
        at = strike if strike is not None else ACTIONS
        return _render(request, _context(request, access, errors=texts, at=at))
    return _render(request, _context(request, access, editing=editing, step=step, strike=strike))


@require_POST
@_sheet_view
def sheet_check(request: HttpRequest, access: Access) -> HttpResponse:
    """The live check of the row being typed: its points, and what the TSR says of the sheet
    with it. Nothing is saved."""
    state = _state(access)
    try:
        number = _number(request, state)
    except ValidationError:
        number = len(state.lines) + 1
    form = HandForm(request.POST, table_size=state.table_size, dealer=_dealer(state, number))
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
        lines = _with_hand(state, number, line, time_over)
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
            None if state.table_size == 5 and seat == line.dealer else line.points[seat]
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


def _stale(
    request: HttpRequest,
    access: Access,
    error: StaleVersionError | StaleEntryError,
    form=None,
    editing=None,
    at: str | int | None = None,
):
    if isinstance(error, StaleEntryError):
        access.entry = error.current
        conflict: list = []  # the second entry keeps no history; the page shows it as it is
    else:
        access.sheet = error.current
        conflict = selectors.sheet_changes(sheet=error.current, since=_version(request))
    context = _context(request, access, form=form, editing=editing, conflict=conflict, at=at)
    return _render(request, context, status=409)


def _refused(request: HttpRequest, access: Access, error: ValidationError, **kwargs):
    access.sheet.refresh_from_db()
    if access.blind:
        access.entry = selectors.second_entry_get(sheet=access.sheet)
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
    state = _state(access)
    try:
        number = _number(request, state)
    except ValidationError as error:
        return _refused(request, access, error)
    editing = number if number <= len(state.lines) else None
    form = HandForm(request.POST, table_size=state.table_size, dealer=_dealer(state, number))
    if not form.is_valid():
        context = _context(request, access, form=form, editing=editing)
        return _render(request, context, status=422)
    time_over = access.time_over_after_hand
    try:
        _hands_replace(
            access,
            hands=_with_hand(state, number, form.line, time_over),
            version=_version(request),
            time_over_after_hand=time_over,
        )
    except (StaleVersionError, StaleEntryError) as error:
        return _stale(request, access, error, form=form, editing=editing)
    except ValidationError as error:
        for message in error.messages:
            form.add_error(None, message)
        context = _context(request, access, form=form, editing=editing)
        return _render(request, context, status=422)
    if not request.headers.get("HX-Request"):
        return redirect(access.base)
    # The answer beside the buttons that asked it: on a phone the page stays down there, and
    # the buttons are gone (the sheet handed in, sent back, confirmed).
    return _render(request, {**_context(request, access), "done": True})


def _hands_replace(
    access: Access, *, hands: list, version: int, time_over_after_hand: int | None
) -> None:
    """Store the entry's hands: the sheet's, or its second entry's."""
    if access.blind:
        assert access.actor.user is not None  # the desk types the second entry
        access.entry = services.second_entry_hands_replace(
            scoresheet=access.sheet,
            hands=hands,
            by=access.actor.user,
            version=version,
            time_over_after_hand=time_over_after_hand,
        )
        return
    access.sheet = services.scoresheet_hands_replace(
        scoresheet=access.sheet,
        hands=hands,
        version=version,
        by=access.actor,
        time_over_after_hand=time_over_after_hand,
    )


def _wants_json(request: HttpRequest) -> bool:
    """Whether the request asks for JSON (``Accept: application/json``), as the offline queue
    of the entry page does (static/js/offline-queue.js); htmx and plain forms ask for HTML."""
    return request.get_preferred_type(["text/html", "application/json"]) == "application/json"


def _save_json(request: HttpRequest, access: Access) -> JsonResponse:
    """``save/`` for a row that waited in the browser while the connection was down.

    200: the entry's new ``version`` and the ``hand`` as stored (as the API shows it). 409: the
    entry changed since the ``version`` the row names (checked first: the row was typed on top
    of that version), with the ``current`` entry, the ``changes`` since and whether it holds
    this very hand already (``_stale_json``). 422: the ``messages`` that refuse it, by field in
    ``errors``; 403 when this link or account may not enter the sheet. Nothing is saved but on
    a 200. On the second entry's page the entry is the second entry, and nothing of the first
    is answered."""
    try:
        version = _version(request)
    except ValidationError as error:
        return _refused_json(error.message_dict)
    if version != access.version:
        return _stale_json(request, access, since=version)
    state = _state(access)
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
    time_over = access.time_over_after_hand
    try:
        _hands_replace(
            access,
            hands=_with_hand(state, number, form.line, time_over),
            version=version,
            time_over_after_hand=time_over,
        )
    except StaleVersionError as error:
        access.sheet = error.current
        return _stale_json(request, access, since=version)
    except StaleEntryError as error:
        access.entry = error.current
        return _stale_json(request, access, since=version)
    except ValidationError as error:
        return _refused_json(
            error.message_dict if hasattr(error, "error_dict") else {"hands": error.messages}
        )
    except PermissionDenied as error:
        return JsonResponse({"detail": str(error), "messages": [str(error)]}, status=403)
    data = _entry_data(access)
    return JsonResponse(
        {"version": data["version"], "number": number, "hand": data["hands"][number - 1]}
    )


def _entry_data(access: Access) -> dict:
    """The entry on the page as the API shows a sheet: the sheet's own data, or for the second
    entry its version and hands alone."""
    if not access.blind:
        return sheet_data(access.sheet)
    return {"version": access.version, "hands": hands_data(_state(access))}


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


def _stale_json(request: HttpRequest, access: Access, *, since: int) -> JsonResponse:
    """409: the entry as it is now and what changed since ``since``, and for the row sent
    (``hand``): whether the entry holds it already at its number (``stored``: the save got
    through and its answer was lost, or someone typed the same hand), and if it was the first
    change after ``since`` the version it made (``saved_in``: the next row builds on it). A
    second entry keeps no history: its changes are none, and a hand it holds already is only
    ``stored``."""
    state = _state(access)
    changes = [] if access.blind else selectors.sheet_changes(sheet=access.sheet, since=since)
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
    detail = (
        StaleEntryError(current=access.entry)
        if access.blind
        else StaleVersionError(current=access.sheet)
    ).messages[0]
    return JsonResponse(
        {
            "detail": detail,
            "version": access.version,
            "current": _entry_data(access),
            "changes": [] if access.blind else changes_data(access.sheet, since=since),
            "hand": hand,
        },
        status=409,
    )


@require_POST
@_sheet_view
def sheet_delete(request: HttpRequest, access: Access) -> HttpResponse:
    """Strike out a hand; the later ones move up and are dealt again as the TSR says, and every
    hand is checked again. The page asks once first (``?strike=7``)."""
    state = _state(access)
    at = _strike_at(request, state)
    try:
        if access.blind:
            assert access.actor.user is not None  # the desk types the second entry
            access.entry = services.second_entry_hand_strike(
                scoresheet=access.sheet,
                number=_number(request, state),
                version=_version(request),
                by=access.actor.user,
            )
        else:
            access.sheet = services.scoresheet_hand_strike(
                scoresheet=access.sheet,
                number=_number(request, state),
                version=_version(request),
                by=access.actor,
            )
    except (StaleVersionError, StaleEntryError) as error:
        return _stale(request, access, error, at=at)
    except ValidationError as error:
        return _refused(request, access, error, at=at)
    return _done(request, access)


def _done(request: HttpRequest, access: Access) -> HttpResponse:
    if not request.headers.get("HX-Request"):
        return redirect(access.base)
    # The answer beside the buttons that asked it: on a phone the page stays down there, and
    # the buttons are gone (the sheet handed in, sent back, confirmed).
    return _render(request, {**_context(request, access), "done": True})


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
        _hands_replace(
            access,
            hands=_state(access).lines,
            version=_version(request),
            time_over_after_hand=after,
        )
    except (StaleVersionError, StaleEntryError) as error:
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


@require_POST
@_sheet_view
def sheet_confirm(request: HttpRequest, access: Access) -> HttpResponse:
    """Confirm the handed-in sheet (TSR 7.3.2, 8.5.2); ``from_signed_sheet``: the desk, from
    the players' signatures on the paper sheet, a complete draft handed in at once (TSR
    7.3.4)."""
    try:
        access.sheet = services.scoresheet_confirm(
            scoresheet=access.sheet,
            version=_version(request),
            by=access.actor,
            from_signed_sheet=request.POST.get("from_signed_sheet") == "1",
        )
    except StaleVersionError as error:
        return _stale(request, access, error, at=ACTIONS)
    except ValidationError as error:
        return _refused(request, access, error, at=ACTIONS)
    return _done(request, access)


sheet_reopen = _workflow(services.scoresheet_reopen, reason=True)
sheet_end_early = _workflow(services.scoresheet_end_early, reason=True)
sheet_end_undo = _workflow(services.scoresheet_end_undo)
sheet_replay = _workflow(services.scoresheet_hand_replay, replay=True, note=True)
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
            **_page(access, state),
            "changes": selectors.sheet_changes(sheet=access.sheet),
            # Attached beside the versions (it changes none), shown above them.
            **_scan_context(access, state),
            # Who keeps a sheet not handed over (TSR 8.4.1, 10.1.4).
            "rule_keeper": sheet_keeper(keeper_seat=None, table_size=state.table_size),
        },
    )


# The photo or scan of the signed paper sheet (TSR 7.3.4, 8.5.2) ------------------------------


def _scan_context(access: Access, state: selectors.SheetState) -> dict:
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


@csrf_exempt  # checked below, once the upload is received by the scan's own handler
def sheet_scan(request: HttpRequest, **kwargs) -> HttpResponseBase:
    """GET: the photo or scan of the signed sheet, shown in the browser. POST (multipart,
    ``file``): attach it, or replace it; the page again with the reason if it is refused."""
    if request.method == "POST":
        request.upload_handlers = scans.scan_upload_handlers(request)
    return _sheet_scan(request, **kwargs)


@csrf_protect
@require_http_methods(["GET", "HEAD", "POST"])
@_sheet_view
def _sheet_scan(request: HttpRequest, access: Access) -> HttpResponseBase:
    if request.method != "POST":
        tournament_policies.enforce(
            policies.may_read_scan(sheet=access.sheet, actor=access.actor, roles=access.roles)
        )
        scan = selectors.scoresheet_scan(sheet=access.sheet)
        if scan is None:
            raise Http404
        return scans.scan_response(request, scan)
    try:
        services.scoresheet_scan_attach(
            scoresheet=access.sheet, upload=request.FILES.get(scans.FIELD), by=access.actor
        )
    except ValidationError as error:
        access.sheet.refresh_from_db()
        context = _context(request, access)
        context["scan_errors"] = error.messages
        return _render(request, context, status=422)
    return redirect(f"{access.base}#scan")


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
    links_refused = policies.may_read_seat_links(roles=roles, table=row.table, user=request.user)
    if links_refused is not None and links_refused.plays:
        context["seat_links_refused"] = links_refused  # why, and who reads them instead
    elif links_refused is None:
        # The players' private links to the sheet, to hand out again if a printout is lost.
        context["seat_links"] = [
            (seat, absolute_url(request, reverse("sheet-link", args=[token])))
            for seat, token in zip(
                row.seats, tournament_selectors.seat_tokens(table=row.table).values(), strict=True
            )
        ]
        context["site_warning"] = site_warning(request)
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


# Double entry: the second entry compared, and the differences settled from the paper -------


def _sheet_url(access: Access, name: str) -> str:
    table = access.sheet.table
    return reverse(
        name,
        kwargs={
            "slug": table.round.tournament.slug,
            "number": table.round.number,
            "table": table.number,
        },
    )


@require_POST
@_sheet_view
def sheet_second_compare(request: HttpRequest, access: Access) -> HttpResponse:
    """Compare the second entry, once complete, with the handed-in first: both agreeing, the
    sheet is confirmed; else the desk settles the differences (their page)."""
    assert access.actor.user is not None  # the staff pages need a login (_sheet_view)
    try:
        comparison = services.second_entry_compare(scoresheet=access.sheet, by=access.actor.user)
    except ValidationError as error:
        return _refused(request, access, error, at=ACTIONS)
    if comparison.confirmed:
        messages.success(
            request,
            _("Both entries agree: the scoresheet of table %(table)d is confirmed.")
            % {"table": access.sheet.table.number},
        )
        return redirect(_sheet_url(access, "sheet"))
    return redirect(_sheet_url(access, "sheet-differences"))


@require_POST
@_sheet_view
def sheet_second_discard(request: HttpRequest, access: Access) -> HttpResponse:
    """Throw the second entry away, to type it again."""
    assert access.actor.user is not None  # the staff pages need a login (_sheet_view)
    try:
        services.second_entry_discard(scoresheet=access.sheet, by=access.actor.user)
    except ValidationError as error:
        return _refused(request, access, error, at=ACTIONS)
    return redirect(access.base)


@_sheet_view
def sheet_differences(request: HttpRequest, access: Access) -> HttpResponse:
    """The hands in which the two entries of a paper sheet differ, side by side, each to be
    settled from the paper sheet (POST: all at once, then the sheet is confirmed)."""
    if request.method not in ("GET", "HEAD", "POST"):
        return HttpResponse(status=405, headers={"Allow": "GET, HEAD, POST"})
    entry = selectors.second_entry_get(sheet=access.sheet)
    refusal = policies.may_settle_differences(
        sheet=access.sheet, actor=access.actor, roles=access.roles
    )
    differences = (
        selectors.second_entry_differences(sheet=access.sheet, entry=entry)
        if entry is not None
        else []
    )
    errors: list[str] = []
    choices: dict[int | None, Take] = {}
    if request.method == "POST" and refusal is not None:
        tournament_policies.enforce(refusal if refusal.field is None else None)
        errors = [refusal.message]
    elif request.method == "POST":
        for difference in differences:
            name = "time-over" if difference.hand is None else f"hand-{difference.hand}"
            for take in TAKE:
                if request.POST.get(name) == take:
                    choices[difference.hand] = take
        assert access.actor.user is not None  # the staff pages need a login (_sheet_view)
        try:
            services.second_entry_settle(
                scoresheet=access.sheet, choices=choices, by=access.actor.user
            )
        except ValidationError as error:
            errors = error.messages
        else:
            messages.success(
                request,
                _("Settled from the paper sheet: the scoresheet of table %(table)d is confirmed.")
                % {"table": access.sheet.table.number},
            )
            return redirect(_sheet_url(access, "sheet"))
    state = selectors.sheet_state(sheet=access.sheet)
    return render(
        request,
        "scoring/differences.html",
        {
            **_page(access, state),
            "entry": entry,
            "differences": differences,
            "choices": choices,
            "refusal": refusal,
            "errors": [] if refusal is not None else errors,
            "sheet_url": _sheet_url(access, "sheet"),
            "second_url": _sheet_url(access, "sheet-second"),
        },
        status=422 if errors else 200,
    )


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
