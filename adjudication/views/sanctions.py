"""Sanctions for unsporting conduct (TSR 9.6): imposing one, its page, the appeal against it
and the arbitration panel's decision on that appeal (TSR 8.2.1)."""

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.forms import Form
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from adjudication import forms, policies, selectors, services
from adjudication.models import Sanction
from adjudication.views.appeals import panel_decided
from adjudication.views.common import READERS, allowed, form_apply, tournament_for
from tournaments.models import Entry, Round, Tournament
from tournaments.permissions import AuthenticatedHttpRequest


@login_required
@require_http_methods(["GET", "POST"])
def sanction_add(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_for(request, slug, READERS)
    allowed(policies.may_sanction(tournament=tournament, user=request.user))
    rounds = list(
        tournament.rounds.exclude(status__in=[Round.Status.PLANNED, Round.Status.SEATED]).order_by(
            "-number"
        )
    )
    form = forms.SanctionForm(
        request.POST or None,
        rounds=rounds,
        offences=selectors.offence_list(tournament=tournament),
        members=selectors.panel_members(tournament=tournament),
        initial={"start_number": request.GET.get("start_number")},
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        entry = Entry.objects.filter(
            tournament=tournament, start_number=data["start_number"]
        ).first()
        round_ = next(r for r in rounds if r.number == data["round"])  # the form offers these
        if entry is None:
            form.add_error("start_number", _("No player has this start number."))
        else:
            sanction = form_apply(
                request,
                form,
                lambda: services.sanction_impose(
                    entry=entry,
                    round=round_,
                    kind=data["kind"],
                    points=data["points"],
                    offence=data["offence"],
                    reasons=data["reasons"],
                    members=list(data["members"]),
                    by=request.user,
                ),
            )
            if sanction is not None:
                messages.success(
                    request,
                    _("%(player)s: %(sanction)s recorded.")
                    % {"player": entry.name, "sanction": sanction.get_kind_display()},
                )
                return redirect("adjudication:sanction", slug, sanction.pk)
    return render(
        request,
        "adjudication/sanction.html",
        {"tournament": tournament, "form": form},
        status=422 if form.errors else 200,
    )


def _sanction_context(
    request: AuthenticatedHttpRequest, tournament: Tournament, sanction: Sanction, **forms_: Form
) -> dict[str, Any]:
    seat = selectors.sanction_seat(sanction=sanction)
    appeal = getattr(sanction, "appealed", None)
    user = request.user
    refusals: list[policies.Refusal] = []
    context: dict[str, Any] = {
        "tournament": tournament,
        "sanction": sanction,
        "seat": seat,
        "appeal": appeal,
        "replacement": next(iter(appeal.replacement_sanction.all()), None) if appeal else None,
        "refusals": refusals,
    }
    appealable = (
        sanction.status == Sanction.Status.IN_FORCE
        and sanction.appeal_id is None
        and not sanction.members.all()
        and appeal is None
    )
    if appealable and policies.may_lodge_appeal(tournament=tournament, user=user) is None:
        if no_panel := policies.panel_appointed(tournament=tournament):
            refusals.append(no_panel)
        else:
            context["appeal_form"] = forms_.get("appeal_form") or forms.SanctionAppealForm()
    if appeal is not None and not appeal.outcome and seat is not None:
        refusal = policies.may_decide_as_panel(table=seat.table, user=user)
        if refusal and refusal.plays:
            refusals.append(refusal)
        elif refusal is None:
            context["panel_form"] = forms_.get("panel_form") or forms.PanelForm(
                members=selectors.panel_members(tournament=tournament),
                initial={"members": [user.pk]},
            )
            context["change_form"] = forms_.get("change_form") or forms.SanctionChangeForm(
                prefix="panel",
                initial={"kind": Sanction.Kind.DEDUCTION, "points": sanction.points},
            )
    return context


@login_required
@require_GET
def sanction_detail(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = tournament_for(request, slug, READERS)
    sanction = selectors.sanction_detail(tournament=tournament, pk=pk)
    return render(
        request,
        "adjudication/sanction_detail.html",
        _sanction_context(request, tournament, sanction),
    )


@login_required
@require_POST
def sanction_appeal_lodge(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = tournament_for(request, slug, READERS)
    allowed(policies.may_lodge_appeal(tournament=tournament, user=request.user))
    sanction = selectors.sanction_detail(tournament=tournament, pk=pk)
    form = forms.SanctionAppealForm(request.POST)
    if form.is_valid():
        appeal = form_apply(
            request,
            form,
            lambda: services.sanction_appeal_lodge(
                sanction=sanction, grounds=form.cleaned_data["grounds"], by=request.user
            ),
        )
        if appeal is not None:
            messages.success(
                request,
                _("Appeal lodged: the arbitration panel decides on the sanction (TSR 8.2.1)."),
            )
            return redirect("adjudication:sanction", slug, pk)
    context = _sanction_context(request, tournament, sanction, appeal_form=form)
    return render(request, "adjudication/sanction_detail.html", context, status=422)


@login_required
@require_POST
def sanction_appeal_decide(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = tournament_for(request, slug, READERS)
    sanction = selectors.sanction_detail(tournament=tournament, pk=pk)
    appeal = getattr(sanction, "appealed", None)
    seat = selectors.sanction_seat(sanction=sanction)
    if appeal is None or seat is None:
        raise Http404
    allowed(policies.may_decide_as_panel(table=seat.table, user=request.user))
    form = forms.PanelForm(request.POST, members=selectors.panel_members(tournament=tournament))
    change_form = forms.SanctionChangeForm(request.POST, prefix="panel")
    if panel_decided(
        request, appeal, form, change_form, lambda: {"sanction": change_form.sanction_ruling()}
    ):
        return redirect("adjudication:sanction", slug, pk)
    context = _sanction_context(
        request, tournament, sanction, panel_form=form, change_form=change_form
    )
    return render(request, "adjudication/sanction_detail.html", context, status=422)
