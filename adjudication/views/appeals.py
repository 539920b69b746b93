"""Appeals to the arbitration panel (TSR 8.2.1, 9.7.7) on the page of what they are against, a
decision's or a sanction's: the appeal and the panel's decision shown (``appeal_context``), a
player's appeal lodged (``appeal_lodge``) and the panel's decision recorded (``appeal_decide``).
One flow for both; what differs is an ``AppealPage``, which ``decisions`` and ``sanctions`` give
and the URLs pass on."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.forms import Form
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from adjudication import forms, policies, selectors, services
from adjudication.models import Appeal
from adjudication.services.appeals import (
    Appealable,
    Appealed,
    against,
    appealed,
    require_in_time,
)
from adjudication.views.common import READERS, allowed, form_apply, tournament_for
from tournaments.models import Table, Tournament
from tournaments.permissions import AuthenticatedHttpRequest

R = TypeVar("R", bound=Appealable)


@dataclass(frozen=True)
class AppealPage(Generic[R]):
    """The page of what an appeal is against, as the appeal's views need it."""

    route: str  # the page's URL name
    template: str
    detail: Callable[[Tournament, int], R]  # read from the tournament, or 404
    table: Callable[[R], Table | None]  # the table concerned
    context: Callable[..., dict[str, Any]]  # (request, tournament, row, **forms)
    lodge_form: Callable[[R, Any], forms.AppealForm]  # (row, data)
    change_form: Callable[[R, Any], Form]  # the panel's own, with prefix "panel"
    change: Callable[[Any], dict[str, Any]]  # the change form's data, as appeal_decide's keyword
    lodged: Promise  # the message once lodged, translated lazily


def _too_late(what: Appealed) -> list[policies.Refusal]:
    """Why the appeal is no longer accepted (TSR 9.7.7), or nothing."""
    try:
        require_in_time(what)
    except ValidationError as late:
        return [policies.Refusal(message) for message in late.messages]
    return []


def appeal_context(
    request: AuthenticatedHttpRequest,
    tournament: Tournament,
    row: Appealable,
    *,
    table: Table | None,
    new_lodge_form: Callable[[], Form],
    new_change_form: Callable[[], Form],
    **forms_: Form,
) -> dict[str, Any]:
    """The appeal on the page of what it is against: the appeal and the panel's own
    (``replacement``), the form to lodge one, the panel's forms, and beside a missing form why
    it is missing and who can act (``refusals``). ``new_lodge_form``, ``new_change_form``: the empty
    forms; ``forms_``: those sent back with their errors."""
    user = request.user
    what = appealed(row)
    appeal: Appeal | None = getattr(row, "appealed", None)
    refusals: list[policies.Refusal] = []
    context: dict[str, Any] = {
        "appeal": appeal,
        "replacement": _replacement(appeal),
        "refusals": refusals,
    }
    if what.offered():
        refusal = policies.may_lodge_appeal(tournament=tournament, user=user)
        if refusal is not None:
            if refusal.field:  # no panel yet: who appoints it, not a form that cannot work
                refusals.append(refusal)
        elif late := _too_late(what):
            refusals.extend(late)  # TSR 9.7.7: say why there is no appeal any more
        else:
            context["appeal_form"] = forms_.get("appeal_form") or new_lodge_form()
    if appeal is not None and not appeal.outcome and table is not None:
        refusal = policies.may_decide_as_panel(table=table, user=user, appeal=appeal)
        # Who plays here, or decided in the first instance, is told who decides instead.
        own = policies.may_decide_as_panel(table=table, user=user) is None
        if refusal and (refusal.plays or own):
            refusals.append(refusal)
        elif refusal is None:
            context["panel_form"] = forms_.get("panel_form") or forms.PanelForm(
                members=selectors.panel_members(tournament=tournament),
                initial={"members": [user.pk]},
            )
            context["change_form"] = forms_.get("change_form") or new_change_form()
    return context


def _replacement(appeal: Appeal | None) -> Appealable | None:
    """The panel's own decision or sanction, put in place of what the appeal was against."""
    if appeal is None:
        return None
    if appeal.decision_id is not None:
        return next(iter(appeal.replacement.all()), None)
    return next(iter(appeal.replacement_sanction.all()), None)


@login_required
@require_POST
def appeal_lodge(
    request: AuthenticatedHttpRequest, slug: str, pk: int, *, page: AppealPage[Any]
) -> HttpResponse:
    tournament = tournament_for(request, slug, READERS)
    allowed(policies.may_lodge_appeal(tournament=tournament, user=request.user))
    row = page.detail(tournament, pk)
    form = page.lodge_form(row, request.POST)
    if form.is_valid():
        appeal = form_apply(
            request,
            form,
            lambda: services.appeal_lodge(
                **against(row),
                appellant=form.cleaned_data.get("appellant"),
                grounds=form.cleaned_data["grounds"],
                by=request.user,
            ),
        )
        if appeal is not None:
            messages.success(request, str(page.lodged))
            return redirect(page.route, slug, pk)
    context = page.context(request, tournament, row, appeal_form=form)
    return render(request, page.template, context, status=422)


@login_required
@require_POST
def appeal_decide(
    request: AuthenticatedHttpRequest, slug: str, pk: int, *, page: AppealPage[Any]
) -> HttpResponse:
    """The arbitration panel's decision (TSR 8.2.1) from the panel's form; when it changes
    the decision, the change form holds its own (a ruling on a hand or a sanction)."""
    tournament = tournament_for(request, slug, READERS)
    row = page.detail(tournament, pk)
    appeal = getattr(row, "appealed", None)
    table = page.table(row)
    if appeal is None or table is None:
        raise Http404
    allowed(policies.may_decide_as_panel(table=table, user=request.user, appeal=appeal))
    form = forms.PanelForm(request.POST, members=selectors.panel_members(tournament=tournament))
    change_form = page.change_form(row, request.POST)
    changes = request.POST.get("outcome") == Appeal.Outcome.CHANGE
    if form.is_valid() and (not changes or change_form.is_valid()):
        data = form.cleaned_data
        decided = form_apply(
            request,
            form,
            lambda: services.appeal_decide(
                appeal=appeal,
                outcome=data["outcome"],
                members=list(data["members"]),
                reasons=data["reasons"],
                interruption=data["interruption"] or 0,
                **(page.change(change_form) if changes else {}),
                by=request.user,
            ),
        )
        if decided is not None:
            messages.success(
                request,
                _("The arbitration panel's decision is recorded; it is final (TSR 8.2.1)."),
            )
            return redirect(page.route, slug, pk)
    context = page.context(request, tournament, row, panel_form=form, change_form=change_form)
    return render(request, page.template, context, status=422)
