"""The adjudicator's dashboard for the phone, complaints and the decisions on them (TSR 8.2.1,
8.2.2, 9.2-9.5): "called to table N", a complaint noted at a table, the decision's page with its
ruling and initials; the appeal against it and the panel's forms are shown on the same page
(``decision_context``, with ``appeals.appeal_context``), which the appeals' views render again
with their forms (``APPEALS``)."""

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.forms import Form
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from adjudication import forms, policies, selectors, services
from adjudication.models import Decision
from adjudication.views.appeals import AppealPage, appeal_context
from adjudication.views.common import READERS, allowed, button, form_apply, tournament_for
from scoring import policies as scoring_policies
from scoring import services as scoring_services
from scoring.models import CONTRACT_LABELS, Scoresheet
from scoring.policies import Actor
from scoring.selectors import hand_lines
from tournaments.models import Tournament
from tournaments.permissions import AuthenticatedHttpRequest, roles_of
from tournaments.roles import Role


@login_required
@require_GET
def dashboard(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_for(request, slug, READERS)
    roles = roles_of(request, tournament)
    board = selectors.adjudication_dashboard(tournament=tournament)
    user = request.user
    return render(
        request,
        "adjudication/dashboard.html",
        {
            "tournament": tournament,
            "board": board,
            "tables": board.round.tables.order_by("number") if board.round else [],
            "may_decide": policies.may_adjudicate(tournament=tournament, user=user) is None,
            "may_sanction": policies.may_sanction(tournament=tournament, user=user) is None,
            "is_organiser": Role.ORGANISER in roles,
        },
    )


@login_required
@require_GET
def complaint_pick(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """The dashboard's "called to table N": the complaint form of that table this round."""
    tournament = tournament_for(request, slug, READERS)
    allowed(policies.may_adjudicate(tournament=tournament, user=request.user))
    board_round = selectors.playing_round(tournament=tournament)
    try:
        table = int(request.GET.get("table", ""))
    except ValueError:
        table = 0
    if board_round is None or not board_round.tables.filter(number=table).exists():
        messages.error(request, _("Choose a table of the round being played."))
        return redirect("adjudication:adjudication", slug)
    return redirect("adjudication:complaint-add", slug, board_round.number, table)


def _sheet(tournament: Tournament, number: int, table: int) -> Scoresheet:
    sheet = selectors.scoresheet_at(tournament=tournament, round_number=number, table_number=table)
    if sheet is None:
        raise Http404
    return sheet


@login_required
@require_http_methods(["GET", "POST"])
def complaint_add(
    request: AuthenticatedHttpRequest, slug: str, number: int, table: int
) -> HttpResponse:
    tournament = tournament_for(request, slug, READERS)
    sheet = _sheet(tournament, number, table)
    allowed(policies.may_rule(table=sheet.table, user=request.user))
    seats = list(sheet.table.seats.select_related("entry").order_by("position"))
    played = sheet.hands.count()
    form = forms.ComplaintForm(
        request.POST or None,
        size=len(seats),
        offences=selectors.offence_list(tournament=tournament),
        initial={"hand_number": played + 1},
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        decision = form_apply(
            request,
            form,
            lambda: services.complaint_record(
                scoresheet=sheet,
                hand_number=data["hand_number"],
                offender=data["offender"],
                complainant=data["complainant"],
                offence=data["offence"],
                description=data["description"],
                by=request.user,
            ),
        )
        if decision is not None:
            messages.success(request, _("The complaint is noted; now rule on it."))
            return redirect("adjudication:decision", slug, decision.pk)
    return render(
        request,
        "adjudication/complaint.html",
        {"tournament": tournament, "sheet": sheet, "seats": seats, "played": played, "form": form},
    )


def decision_context(
    request: AuthenticatedHttpRequest, tournament: Tournament, decision: Decision, **forms_: Form
) -> dict[str, Any]:
    sheet = decision.scoresheet
    seats = list(sheet.table.seats.select_related("entry").order_by("position"))
    # The ruled hand's line is part of the sheet's first entry: read while it is blind (double
    # entry), that is recorded, and the reader no longer types its second entry.
    if scoring_policies.first_entry_hidden(sheet=sheet, actor=Actor(user=request.user)):
        scoring_services.sheet_first_entry_open(scoresheet=sheet, by=request.user, where="ruling")
    lines = hand_lines(list(sheet.hands.all()))
    line = lines[decision.hand_number - 1] if decision.hand_number <= len(lines) else None
    size = len(seats)
    context = {
        "tournament": tournament,
        "decision": decision,
        "sheet": sheet,
        "seats": seats,
        "line": line,
        "line_label": CONTRACT_LABELS[line.contract] if line else "",
        "penalty": [decision.penalty.get(seat.position) for seat in seats],
        "computed": [(decision.computed or {}).get(str(seat.position)) for seat in seats],
    }
    user = request.user
    refusals = []
    if decision.status in {Decision.Status.OPEN, Decision.Status.DRAFT}:
        refusal = policies.may_rule(table=sheet.table, user=user)
        if refusal is None:
            context["ruling_form"] = forms_.get("ruling_form") or forms.RulingForm(
                size=size,
                written=line is not None,
                initial=forms.RulingForm.initial_for(decision, line),
            )
        elif refusal.plays:  # he would rule, but plays here: who decides instead
            refusals.append(refusal)
    if decision.status == Decision.Status.DRAFT:
        # TSR 8.2.2: a member of the panel initials too, who does not rule.
        context["may_initial"] = policies.may_initial(table=sheet.table, user=user) is None
    appeals = appeal_context(
        request,
        tournament,
        decision,
        table=sheet.table,
        new_lodge_form=lambda: forms.AppealForm(size=size),
        new_change_form=lambda: forms.RulingForm(
            size=size,
            prefix="panel",
            written=line is not None,
            initial=forms.RulingForm.initial_for(decision, line),
        ),
        **forms_,
    )
    appeals["refusals"][:0] = refusals
    return {**context, **appeals}


@login_required
@require_GET
def decision_detail(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = tournament_for(request, slug, READERS)
    decision = selectors.decision_detail(tournament=tournament, pk=pk)
    return render(
        request, "adjudication/decision.html", decision_context(request, tournament, decision)
    )


def seat_count(decision: Decision) -> int:
    return decision.scoresheet.table.seats.count()


def hand_written(decision: Decision) -> bool:
    """Whether the decision's hand has its line on the sheet (TSR 9.4.3, 9.4.4 ask which)."""
    return decision.hand_number <= decision.scoresheet.hands.count()


@login_required
@require_POST
def decision_ruling(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = tournament_for(request, slug, READERS)
    decision = selectors.decision_detail(tournament=tournament, pk=pk)
    allowed(policies.may_rule(table=decision.scoresheet.table, user=request.user))
    form = forms.RulingForm(request.POST, size=seat_count(decision), written=hand_written(decision))
    if form.is_valid():
        ruled = form_apply(
            request,
            form,
            lambda: services.decision_rule(
                decision=decision, ruling=form.ruling(), by=request.user
            ),
        )
        if ruled is not None:
            messages.success(
                request,
                _("Ruled (%(rule)s). Check the penalty points and initial them.")
                % {"rule": ruled.rule},
            )
            return redirect("adjudication:decision", slug, pk)
    context = decision_context(request, tournament, decision, ruling_form=form)
    return render(request, "adjudication/decision.html", context, status=422)


@login_required
@require_POST
def decision_initial(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = tournament_for(request, slug, READERS)
    decision = selectors.decision_detail(tournament=tournament, pk=pk)
    allowed(policies.may_initial(table=decision.scoresheet.table, user=request.user))
    return button(
        request,
        lambda: services.decision_initial(decision=decision, by=request.user),
        _("Initialled: the penalty points count (TSR 8.2.2)."),
        redirect("adjudication:decision", slug, pk),
    )


APPEALS = AppealPage[Decision](
    route="adjudication:decision",
    template="adjudication/decision.html",
    detail=lambda tournament, pk: selectors.decision_detail(tournament=tournament, pk=pk),
    table=lambda decision: decision.scoresheet.table,
    context=decision_context,
    lodge_form=lambda decision, data: forms.AppealForm(data, size=seat_count(decision)),
    change_form=lambda decision, data: forms.RulingForm(
        data, size=seat_count(decision), prefix="panel", written=hand_written(decision)
    ),
    change=lambda form: {"ruling": form.ruling()},
    lodged=gettext_lazy(
        "Appeal lodged: the game stays suspended until the arbitration panel decides (TSR 9.7.7)."
    ),
)
