"""What the adjudicators' pages share: the tournament a page is of, for a reader with one of
the roles it names; a policy's refusal as a 403; a service run with a form's data, its refusal
onto the form; and a button, which runs a service and goes back to the page with what happened."""

from collections.abc import Callable, Set
from typing import TypeVar

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.forms import Form
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from adjudication import policies
from tournaments import selectors as tournament_selectors
from tournaments.forms import errors_to_form
from tournaments.models import Tournament
from tournaments.permissions import require
from tournaments.roles import ADJUDICATION_READERS

READERS = ADJUDICATION_READERS

_T = TypeVar("_T")


def tournament_for(request: HttpRequest, slug: str, roles: Set[str]) -> Tournament:
    """The tournament at ``slug``, for a reader with one of ``roles`` (else 403)."""
    tournament = tournament_selectors.tournament_get(slug=slug, user=request.user)
    require(request, tournament, roles)
    return tournament


def allowed(refusal: policies.Refusal | None) -> None:
    """Refuse (403) what the policy refuses as not the user's to do; the service would refuse
    it too. A refusal on a field (the state of what is asked for) the service puts on the
    form."""
    if refusal is not None and refusal.field is None:
        policies.enforce(refusal)


def form_apply(request: HttpRequest, form: Form, call: Callable[[], _T]) -> _T | None:
    """Run a service with the form's data; its refusal goes onto the form."""
    try:
        return call()
    except ValidationError as error:
        errors_to_form(form, error)
    except PermissionDenied as error:
        form.add_error(None, str(error) or _("You may not do this."))
    return None


def button(
    request: HttpRequest, call: Callable[[], object], done: str, back: HttpResponse
) -> HttpResponse:
    """A button: the service, then back to the page with what happened."""
    try:
        call()
    except (ValidationError, PermissionDenied) as error:
        for message in getattr(error, "messages", None) or [str(error)]:
            messages.error(request, message)
    else:
        messages.success(request, done)
    return back
