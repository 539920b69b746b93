"""Sanctions for unsporting conduct (TSR 9.6): imposing one, and its page, which shows the appeal
against it and the arbitration panel's decision on that appeal (TSR 8.2.1; lodged and decided
by ``appeals``'s views, with ``APPEALS``)."""

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.forms import Form
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods

from adjudication import forms, policies, selectors, services
from adjudication.models import Sanction
from adjudication.views.appeals import AppealPage, appeal_context
from adjudication.views.common import READERS, allowed, form_apply, tournament_for
from tournaments.models import Entry, Round, Table, Tournament
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


def sanction_context(
    request: AuthenticatedHttpRequest, tournament: Tournament, sanction: Sanction, **forms_: Form
) -> dict[str, Any]:
    seat = selectors.sanction_seat(sanction=sanction)
    appeals = appeal_context(
        request,
        tournament,
        sanction,
        table=seat.table if seat else None,
        new_lodge_form=lambda: forms.AppealForm(),
        new_change_form=lambda: forms.SanctionChangeForm(
            prefix="panel", initial={"kind": Sanction.Kind.DEDUCTION, "points": sanction.points}
        ),
        **forms_,
    )
    return {"tournament": tournament, "sanction": sanction, "seat": seat, **appeals}


@login_required
@require_GET
def sanction_detail(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = tournament_for(request, slug, READERS)
    sanction = selectors.sanction_detail(tournament=tournament, pk=pk)
    return render(
        request,
        "adjudication/sanction_detail.html",
        sanction_context(request, tournament, sanction),
    )


def _table(sanction: Sanction) -> Table | None:
    seat = selectors.sanction_seat(sanction=sanction)
    return seat.table if seat else None


APPEALS = AppealPage[Sanction](
    route="adjudication:sanction",
    template="adjudication/sanction_detail.html",
    detail=lambda tournament, pk: selectors.sanction_detail(tournament=tournament, pk=pk),
    table=_table,
    context=sanction_context,
    lodge_form=lambda sanction, data: forms.AppealForm(data),
    change_form=lambda sanction, data: forms.SanctionChangeForm(data, prefix="panel"),
    change=lambda form: {"sanction": form.sanction_ruling()},
    lodged=gettext_lazy(
        "Appeal lodged: the arbitration panel decides on the sanction (TSR 8.2.1)."
    ),
)
