"""The steps of a sheet's workflow on its page: hand it in, confirm it (also from the signed
paper sheet), send it back, reopen it, end it early and take that back, put a hand as dealt
again, and hand it over to another seat (TSR 3.1.1, 7.3, 8.4.1, 9.1.3). Each answer is shown
beside the buttons that asked it."""

from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring import services
from scoring.selectors import SheetState
from scoring.services import StaleVersionError
from scoring.views.access import Access, sheet_view
from scoring.views.page import ACTIONS, done_answer, refused_answer, stale_answer, version_named


def _written(access: Access, state: SheetState) -> None:
    """The sheet as a step left it, with what the step read under its lock: the answer shows
    it without reading it again, unless this reader sees its entry otherwise (the second entry,
    or a blind first entry withheld)."""
    access.sheet = state.sheet
    if not access.blind and access.withheld is None:
        access.state_known(state)


def _workflow(service, **extra):
    """A step of the sheet's workflow; its answer is shown beside the buttons that ask it."""

    @require_POST
    @sheet_view
    def view(request: HttpRequest, access: Access) -> HttpResponse:
        try:
            kwargs = {name: request.POST.get(name, "") for name in extra}
            done = service(
                scoresheet=access.sheet,
                version=version_named(request),
                by=access.actor,
                **kwargs,
            )
            if isinstance(done, SheetState):
                _written(access, done)
            else:
                access.sheet = done
        except StaleVersionError as error:
            return stale_answer(request, access, error, at=ACTIONS)
        except ValidationError as error:
            return refused_answer(request, access, error, at=ACTIONS)
        return done_answer(request, access)

    view.__name__ = service.__name__
    return view


@require_POST
@sheet_view
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
            scoresheet=access.sheet, seat=seat, version=version_named(request), by=access.actor
        )
    except StaleVersionError as error:
        return stale_answer(request, access, error, at=ACTIONS)
    except ValidationError as error:
        return refused_answer(request, access, error, at=ACTIONS)
    return done_answer(request, access)


sheet_submit = _workflow(services.scoresheet_submit_write)


@require_POST
@sheet_view
def sheet_confirm(request: HttpRequest, access: Access) -> HttpResponse:
    """Confirm the handed-in sheet (TSR 7.3.2, 8.5.2); ``from_signed_sheet``: the desk, from
    the players' signatures on the paper sheet, a complete draft handed in at once (TSR
    7.3.4)."""
    try:
        state = services.scoresheet_confirm_write(
            scoresheet=access.sheet,
            version=version_named(request),
            by=access.actor,
            from_signed_sheet=request.POST.get("from_signed_sheet") == "1",
        )
    except StaleVersionError as error:
        return stale_answer(request, access, error, at=ACTIONS)
    except ValidationError as error:
        return refused_answer(request, access, error, at=ACTIONS)
    _written(access, state)
    return done_answer(request, access)


sheet_reopen = _workflow(services.scoresheet_reopen, reason=True)
sheet_end_early = _workflow(services.scoresheet_end_early, reason=True)
sheet_end_undo = _workflow(services.scoresheet_end_undo)
sheet_replay = _workflow(services.scoresheet_hand_replay, replay=True, note=True)
sheet_return = _workflow(services.scoresheet_return, reason=True)
