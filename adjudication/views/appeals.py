"""Appeals to the arbitration panel (TSR 8.2.1, 9.7.7): a player's appeal against an initialled
decision, and the panel's decision on it; ``panel_decided`` records the panel's decision on an
appeal against a decision or a sanction."""

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.forms import Form
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from adjudication import forms, policies, selectors, services
from adjudication.models import Appeal
from adjudication.views.common import READERS, allowed, form_apply, tournament_for
from adjudication.views.decisions import decision_context, hand_written, seat_count
from tournaments.permissions import AuthenticatedHttpRequest


@login_required
@require_POST
def appeal_lodge(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = tournament_for(request, slug, READERS)
    allowed(policies.may_lodge_appeal(tournament=tournament, user=request.user))
    decision = selectors.decision_detail(tournament=tournament, pk=pk)
    form = forms.AppealForm(request.POST, size=seat_count(decision))
    if form.is_valid():
        appeal = form_apply(
            request,
            form,
            lambda: services.appeal_lodge(
                decision=decision,
                appellant=form.cleaned_data["appellant"],
                grounds=form.cleaned_data["grounds"],
                by=request.user,
            ),
        )
        if appeal is not None:
            messages.success(
                request,
                _(
                    "Appeal lodged: the game stays suspended until the arbitration panel decides (TSR 9.7.7)."
                ),
            )
            return redirect("adjudication:decision", slug, pk)
    context = decision_context(request, tournament, decision, appeal_form=form)
    return render(request, "adjudication/decision.html", context, status=422)


def panel_decided(
    request: AuthenticatedHttpRequest,
    appeal: Appeal,
    form: Form,
    change_form: Form,
    change: Callable[[], dict[str, Any]],
) -> bool:
    """Record the arbitration panel's decision on an appeal (TSR 8.2.1) from ``form``; when it
    changes the decision, ``change_form`` holds its own (``change()``: the service's keyword,
    a ruling on a hand or a sanction). Whether it was recorded; if not, the forms say why."""
    changes = request.POST.get("outcome") == Appeal.Outcome.CHANGE
    if not form.is_valid() or (changes and not change_form.is_valid()):
        return False
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
            **(change() if changes else {}),
            by=request.user,
        ),
    )
    if decided is None:
        return False
    messages.success(
        request, _("The arbitration panel's decision is recorded; it is final (TSR 8.2.1).")
    )
    return True


@login_required
@require_POST
def appeal_decide(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = tournament_for(request, slug, READERS)
    decision = selectors.decision_detail(tournament=tournament, pk=pk)
    appeal = getattr(decision, "appealed", None)
    if appeal is None:
        raise Http404
    allowed(
        policies.may_decide_as_panel(
            table=decision.scoresheet.table, user=request.user, appeal=appeal
        )
    )
    form = forms.PanelForm(request.POST, members=selectors.panel_members(tournament=tournament))
    ruling_form = forms.RulingForm(
        request.POST, size=seat_count(decision), prefix="panel", written=hand_written(decision)
    )
    if panel_decided(request, appeal, form, ruling_form, lambda: {"ruling": ruling_form.ruling()}):
        return redirect("adjudication:decision", slug, pk)
    context = decision_context(
        request, tournament, decision, panel_form=form, panel_ruling_form=ruling_form
    )
    return render(request, "adjudication/decision.html", context, status=422)
