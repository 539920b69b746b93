"""The adjudicators' pages (TSR 8.2, 9): a dashboard for the phone, complaints and decisions,
appeals, sanctions, the catalogue of standard offences, the staff, and the log. Thin views:
forms parse, services decide, selectors read."""

from collections.abc import Callable, Set
from functools import partial
from typing import Any, TypeVar

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.forms import Form
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from adjudication import forms, policies, selectors, services
from adjudication.invitations import VALID_FOR
from adjudication.models import Appeal, Decision, Offence, Sanction
from adjudication.services.appeals import require_in_time
from doko.names import collapsed
from scoring.models import CONTRACT_LABELS, Scoresheet
from scoring.selectors import hand_lines
from tournaments import exports
from tournaments import selectors as tournament_selectors
from tournaments.forms import errors_to_form
from tournaments.models import Entry, Round, Tournament
from tournaments.permissions import AuthenticatedHttpRequest, require, roles_of
from tournaments.roles import ADJUDICATION_READERS, CATALOGUE, ORGANISER, Role
from tournaments.site import absolute_url

READERS = ADJUDICATION_READERS
ID_DIGITS = 18  # a number of 18 digits fits the 64 bits of an id

_T = TypeVar("_T")


def _tournament(request: HttpRequest, slug: str, roles: Set[str]) -> Tournament:
    tournament = tournament_selectors.tournament_get(slug=slug, user=request.user)
    require(request, tournament, roles)
    return tournament


def _allowed(refusal: policies.Refusal | None) -> None:
    """Refuse (403) what the policy refuses; the service would refuse it too."""
    policies.enforce(refusal)


def _apply(request: HttpRequest, form: Form, call: Callable[[], _T]) -> _T | None:
    """Run a service with the form's data; its refusal goes onto the form."""
    try:
        return call()
    except ValidationError as error:
        errors_to_form(form, error)
    except PermissionDenied as error:
        form.add_error(None, str(error) or _("You may not do this."))
    return None


@login_required
@require_GET
def dashboard(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(request, slug, READERS)
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


def _sheet(tournament: Tournament, number: int, table: int) -> Scoresheet:
    sheet = selectors.scoresheet_at(tournament=tournament, round_number=number, table_number=table)
    if sheet is None:
        raise Http404
    return sheet


@login_required
@require_GET
def complaint_pick(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """The dashboard's "called to table N": the complaint form of that table this round."""
    tournament = _tournament(request, slug, READERS)
    _allowed(policies.may_adjudicate(tournament=tournament, user=request.user))
    board_round = selectors.playing_round(tournament=tournament)
    try:
        table = int(request.GET.get("table", ""))
    except ValueError:
        table = 0
    if board_round is None or not board_round.tables.filter(number=table).exists():
        messages.error(request, _("Choose a table of the round being played."))
        return redirect("adjudication", slug)
    return redirect("complaint-add", slug, board_round.number, table)


@login_required
@require_http_methods(["GET", "POST"])
def complaint_add(
    request: AuthenticatedHttpRequest, slug: str, number: int, table: int
) -> HttpResponse:
    tournament = _tournament(request, slug, READERS)
    sheet = _sheet(tournament, number, table)
    _allowed(policies.may_rule(table=sheet.table, user=request.user))
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
        decision = _apply(
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
            return redirect("decision", slug, decision.pk)
    return render(
        request,
        "adjudication/complaint.html",
        {"tournament": tournament, "sheet": sheet, "seats": seats, "played": played, "form": form},
    )


def _too_late(decision: Decision) -> list[policies.Refusal]:
    """Why the appeal against ``decision`` is no longer accepted (TSR 9.7.7), or nothing."""
    try:
        require_in_time(decision)
    except ValidationError as late:
        return [policies.Refusal(message) for message in late.messages]
    return []


def _decision_context(
    request: AuthenticatedHttpRequest, tournament: Tournament, decision: Decision, **forms_: Form
) -> dict[str, Any]:
    sheet = decision.scoresheet
    seats = list(sheet.table.seats.select_related("entry").order_by("position"))
    lines = hand_lines(list(sheet.hands.all()))
    line = lines[decision.hand_number - 1] if decision.hand_number <= len(lines) else None
    size = len(seats)
    appeal = getattr(decision, "appealed", None)
    context = {
        "tournament": tournament,
        "decision": decision,
        "sheet": sheet,
        "seats": seats,
        "line": line,
        "line_label": CONTRACT_LABELS[line.contract] if line else "",
        "appeal": appeal,
        "penalty": [decision.penalty.get(seat.position) for seat in seats],
        "computed": [(decision.computed or {}).get(str(seat.position)) for seat in seats],
        "replacement": next(iter(appeal.replacement.all()), None) if appeal else None,
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
    if (
        decision.status == Decision.Status.INITIALLED
        and appeal is None
        and decision.appeal_id is None
        and policies.may_lodge_appeal(tournament=tournament, user=user) is None
    ):
        if no_panel := policies.panel_appointed(tournament=tournament):
            refusals.append(no_panel)  # who appoints it, instead of a form that cannot work
        elif late := _too_late(decision):
            refusals.extend(late)  # TSR 9.7.7: say why there is no appeal any more
        else:
            context["appeal_form"] = forms_.get("appeal_form") or forms.AppealForm(size=size)
    if appeal is not None and not appeal.outcome:
        refusal = policies.may_decide_as_panel(table=sheet.table, user=user, appeal=appeal)
        # Who plays here, or ruled on the decision, is told who decides instead.
        own = policies.may_decide_as_panel(table=sheet.table, user=user) is None
        if refusal and (refusal.plays or own):
            refusals.append(refusal)
        elif refusal is None:
            context["panel_form"] = forms_.get("panel_form") or forms.PanelForm(
                members=selectors.panel_members(tournament=tournament),
                initial={"members": [user.pk]},
            )
            context["panel_ruling_form"] = forms_.get("panel_ruling_form") or forms.RulingForm(
                size=size,
                prefix="panel",
                written=line is not None,
                initial=forms.RulingForm.initial_for(decision, line),
            )
    context["refusals"] = refusals
    return context


@login_required
@require_GET
def decision_detail(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = _tournament(request, slug, READERS)
    decision = selectors.decision_detail(tournament=tournament, pk=pk)
    return render(
        request, "adjudication/decision.html", _decision_context(request, tournament, decision)
    )


def _size(decision: Decision) -> int:
    return decision.scoresheet.table.seats.count()


def _written(decision: Decision) -> bool:
    """Whether the decision's hand has its line on the sheet (TSR 9.4.3, 9.4.4 ask which)."""
    return decision.hand_number <= decision.scoresheet.hands.count()


@login_required
@require_POST
def decision_ruling(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = _tournament(request, slug, READERS)
    decision = selectors.decision_detail(tournament=tournament, pk=pk)
    _allowed(policies.may_rule(table=decision.scoresheet.table, user=request.user))
    form = forms.RulingForm(request.POST, size=_size(decision), written=_written(decision))
    if form.is_valid():
        ruled = _apply(
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
            return redirect("decision", slug, pk)
    context = _decision_context(request, tournament, decision, ruling_form=form)
    return render(request, "adjudication/decision.html", context, status=422)


def _button(
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


@login_required
@require_POST
def decision_initial(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = _tournament(request, slug, READERS)
    decision = selectors.decision_detail(tournament=tournament, pk=pk)
    _allowed(policies.may_initial(table=decision.scoresheet.table, user=request.user))
    return _button(
        request,
        lambda: services.decision_initial(decision=decision, by=request.user),
        _("Initialled: the penalty points count (TSR 8.2.2)."),
        redirect("decision", slug, pk),
    )


@login_required
@require_POST
def appeal_lodge(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = _tournament(request, slug, READERS)
    _allowed(policies.may_lodge_appeal(tournament=tournament, user=request.user))
    decision = selectors.decision_detail(tournament=tournament, pk=pk)
    form = forms.AppealForm(request.POST, size=_size(decision))
    if form.is_valid():
        appeal = _apply(
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
            return redirect("decision", slug, pk)
    context = _decision_context(request, tournament, decision, appeal_form=form)
    return render(request, "adjudication/decision.html", context, status=422)


def _panel_decided(
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
    decided = _apply(
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
    tournament = _tournament(request, slug, READERS)
    decision = selectors.decision_detail(tournament=tournament, pk=pk)
    appeal = getattr(decision, "appealed", None)
    if appeal is None:
        raise Http404
    _allowed(
        policies.may_decide_as_panel(
            table=decision.scoresheet.table, user=request.user, appeal=appeal
        )
    )
    form = forms.PanelForm(request.POST, members=selectors.panel_members(tournament=tournament))
    ruling_form = forms.RulingForm(
        request.POST, size=_size(decision), prefix="panel", written=_written(decision)
    )
    if _panel_decided(request, appeal, form, ruling_form, lambda: {"ruling": ruling_form.ruling()}):
        return redirect("decision", slug, pk)
    context = _decision_context(
        request, tournament, decision, panel_form=form, panel_ruling_form=ruling_form
    )
    return render(request, "adjudication/decision.html", context, status=422)


@login_required
@require_http_methods(["GET", "POST"])
def sanction_add(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(request, slug, READERS)
    _allowed(policies.may_sanction(tournament=tournament, user=request.user))
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
            sanction = _apply(
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
                return redirect("sanction", slug, sanction.pk)
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
    tournament = _tournament(request, slug, READERS)
    sanction = selectors.sanction_detail(tournament=tournament, pk=pk)
    return render(
        request,
        "adjudication/sanction_detail.html",
        _sanction_context(request, tournament, sanction),
    )


@login_required
@require_POST
def sanction_appeal_lodge(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = _tournament(request, slug, READERS)
    _allowed(policies.may_lodge_appeal(tournament=tournament, user=request.user))
    sanction = selectors.sanction_detail(tournament=tournament, pk=pk)
    form = forms.SanctionAppealForm(request.POST)
    if form.is_valid():
        appeal = _apply(
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
            return redirect("sanction", slug, pk)
    context = _sanction_context(request, tournament, sanction, appeal_form=form)
    return render(request, "adjudication/sanction_detail.html", context, status=422)


@login_required
@require_POST
def sanction_appeal_decide(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = _tournament(request, slug, READERS)
    sanction = selectors.sanction_detail(tournament=tournament, pk=pk)
    appeal = getattr(sanction, "appealed", None)
    seat = selectors.sanction_seat(sanction=sanction)
    if appeal is None or seat is None:
        raise Http404
    _allowed(policies.may_decide_as_panel(table=seat.table, user=request.user))
    form = forms.PanelForm(request.POST, members=selectors.panel_members(tournament=tournament))
    change_form = forms.SanctionChangeForm(request.POST, prefix="panel")
    if _panel_decided(
        request, appeal, form, change_form, lambda: {"sanction": change_form.sanction_ruling()}
    ):
        return redirect("sanction", slug, pk)
    context = _sanction_context(
        request, tournament, sanction, panel_form=form, change_form=change_form
    )
    return render(request, "adjudication/sanction_detail.html", context, status=422)


@login_required
@require_http_methods(["GET", "POST"])
def offences(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(request, slug, CATALOGUE)
    edit = None
    refused = False
    field, pk = (
        ("edit", request.GET["edit"]) if request.GET.get("edit") else ("pk", request.POST.get("pk"))
    )
    if pk and not (pk.isascii() and pk.isdigit() and len(pk) <= ID_DIGITS):
        # Not an id at all (a typed or broken link): said on the page, 400; nothing is saved.
        messages.error(
            request,
            _("“%(field)s” must be the number of an offence of the catalogue.") % {"field": field},
        )
        refused = True
    elif pk:
        edit = get_object_or_404(Offence, tournament=tournament, pk=int(pk))
    initial = (
        {
            "name": edit.label,
            "rule": edit.rule,
            "kind": edit.kind,
            "severity": edit.severity,
            "bound": edit.bound,
            "deduction": edit.deduction,
        }
        if edit
        else {}
    )
    form = forms.OffenceForm(request.POST or None, initial=initial)
    if request.method == "POST" and not refused and form.is_valid():
        saved = _apply(
            request,
            form,
            lambda: services.offence_save(
                tournament=tournament, offence=edit, by=request.user, **form.cleaned_data
            ),
        )
        if saved is not None:
            messages.success(request, _("“%(name)s” is saved.") % {"name": saved.label})
            return redirect("offences", slug)
    return render(
        request,
        "adjudication/offences.html",
        {
            "tournament": tournament,
            # By the names the reader reads (the TSR's are stored in English), umlauts with
            # their vowel as German lists sort them.
            "offences": sorted(
                selectors.offence_list(tournament=tournament),
                key=lambda offence: (offence.kind, collapsed(offence.label)),
            ),
            "form": form,
            "edit": edit,
        },
        status=400 if refused else 422 if form.errors else 200,
    )


@login_required
@require_POST
def offence_delete(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = _tournament(request, slug, CATALOGUE)
    offence = get_object_or_404(Offence, tournament=tournament, pk=pk)
    return _button(
        request,
        lambda: services.offence_delete(offence=offence, by=request.user),
        _("“%(name)s” is out of the catalogue.") % {"name": offence.label},
        redirect("offences", slug),
    )


@login_required
@require_POST
def offences_default(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(request, slug, CATALOGUE)
    added = services.offences_default(tournament=tournament, by=request.user)
    messages.success(
        request,
        ngettext(
            "%(count)d standard offence of the TSR added.",
            "%(count)d standard offences of the TSR added.",
            len(added),
        )
        % {"count": len(added)},
    )
    return redirect("offences", slug)


def _role_text(grant) -> str:
    return f"{grant.user.get_full_name() or grant.user.get_username()} ({grant.get_role_display()})"


# The invitation just made, kept in the session for the staff page that the form redirects to.
INVITATION_SESSION_KEY = "adjudication-invitation"


def _staff_entry(form: Form, tournament: Tournament) -> Entry | None:
    """The player a member of staff is, by the form's start number; an error on the form if
    there is none."""
    number = form.cleaned_data["start_number"]
    if not number:
        return None
    entry = Entry.objects.filter(tournament=tournament, start_number=number).first()
    if entry is None:
        form.add_error("start_number", _("No player has this start number."))
    return entry


def _staff_page(
    request: AuthenticatedHttpRequest,
    tournament: Tournament,
    *,
    form: forms.RoleForm | None = None,
    invite_form: forms.InviteForm | None = None,
) -> HttpResponse:
    """The staff and the open invitations, the search for an account, and the forms to appoint
    someone with an account and to invite someone by e-mail address; a form with errors is
    shown as it was sent (422)."""
    search = forms.AccountSearchForm(request.GET)
    query = search.cleaned_data["q"] if search.is_valid() else ""
    invitation = None
    stored = request.session.get(INVITATION_SESSION_KEY)
    if request.method == "GET" and stored and stored.get("slug") == tournament.slug:
        invitation = request.session.pop(INVITATION_SESSION_KEY)
    mail_sent = services.mail_leaves_the_server()
    invitations = selectors.staff_invitations(tournament=tournament)
    # Every open invitation keeps its link to pass on, where the site sends no mail (where
    # it does, the link goes to the address only: see ``services.staff_invite``). The one
    # just made shows it above, with how to pass it on.
    just_made = invitation.get("pk") if invitation else None
    links = [
        (sent, absolute_url(request, path) if path and sent.pk != just_made else None)
        for sent, path in (
            selectors.staff_invitation_links(
                invitations=invitations, roles=roles_of(request, tournament)
            )
            if not mail_sent
            else [(sent, None) for sent in invitations]
        )
    ]
    return render(
        request,
        "adjudication/staff.html",
        {
            "tournament": tournament,
            "roles": selectors.staff_roles(tournament=tournament),
            "invitations": links,
            "now": timezone.now(),
            "search": search,
            "query": query,
            "accounts": selectors.accounts_matching(query=query) if query else None,
            "form": form or forms.RoleForm(initial={"username": request.GET.get("username", "")}),
            "invite_form": invite_form or forms.InviteForm(),
            "invitation": invitation,
            "valid_days": VALID_FOR.days,
            "mail_sent": mail_sent,
        },
        status=422 if (form and form.errors) or (invite_form and invite_form.errors) else 200,
    )


def _invitation_show(
    request: AuthenticatedHttpRequest, tournament: Tournament, made: services.Invitation
) -> HttpResponse:
    """Back to the staff page: "Invitation sent to …", the same for every address; where the
    site sends no mail, with the link, shown once, to pass on."""
    email = made.invitation.email
    if made.url is None:
        messages.success(request, _("Invitation sent to %(email)s.") % {"email": email})
    else:
        request.session[INVITATION_SESSION_KEY] = {
            "slug": tournament.slug,
            "pk": made.invitation.pk,
            "url": made.url,
            "name": made.invitation.name,
            "email": email,
        }
    return redirect("staff", tournament.slug)


@login_required
@require_http_methods(["GET", "POST"])
def staff(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """The staff page; a POST appoints someone who has an account, by its user name."""
    tournament = _tournament(request, slug, ORGANISER)
    if request.method == "GET":
        return _staff_page(request, tournament)
    form = forms.RoleForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        user = selectors.users_named(usernames=[data["username"]]).get(data["username"])
        entry = _staff_entry(form, tournament)
        if user is None:
            form.add_error(
                "username",
                _(
                    "No account has this user name. Find it by name above, or invite the person "
                    "below with name and e-mail address."
                ),
            )
        if user is not None and not form.errors:
            grant = _apply(
                request,
                form,
                lambda: services.role_grant(
                    tournament=tournament,
                    user=user,
                    role=data["role"],
                    entry=entry,
                    by=request.user,
                ),
            )
            if grant is not None:
                messages.success(request, _("Appointed: %(who)s.") % {"who": _role_text(grant)})
                return redirect("staff", slug)
    return _staff_page(request, tournament, form=form)


@login_required
@require_POST
def staff_invite(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Invite someone by name and e-mail address: the same answer for every address; the link
    is mailed after it (or, where the site sends no mail, shown to pass on)."""
    tournament = _tournament(request, slug, ORGANISER)
    form = forms.InviteForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        entry = _staff_entry(form, tournament)
        if not form.errors:
            made = _apply(
                request,
                form,
                lambda: services.staff_invite(
                    tournament=tournament,
                    name=data["name"],
                    email=data["email"],
                    role=data["role"],
                    entry=entry,
                    address=partial(absolute_url, request),
                    by=request.user,
                ),
            )
            if made is not None:
                return _invitation_show(request, tournament, made)
    return _staff_page(request, tournament, invite_form=form)


@login_required
@require_POST
def staff_invite_again(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    """A fresh link for an open invitation; the earlier one stops working."""
    tournament = _tournament(request, slug, ORGANISER)
    invitation = selectors.staff_invitation_detail(tournament=tournament, pk=pk)
    try:
        made = services.staff_invite_again(
            invitation=invitation, address=partial(absolute_url, request), by=request.user
        )
    except (ValidationError, PermissionDenied) as error:
        for message in getattr(error, "messages", None) or [str(error)]:
            messages.error(request, message)
        return redirect("staff", slug)
    return _invitation_show(request, tournament, made)


@login_required
@require_POST
def staff_invitation_withdraw(
    request: AuthenticatedHttpRequest, slug: str, pk: int
) -> HttpResponse:
    tournament = _tournament(request, slug, ORGANISER)
    invitation = selectors.staff_invitation_detail(tournament=tournament, pk=pk)
    return _button(
        request,
        lambda: services.staff_invitation_withdraw(invitation=invitation, by=request.user),
        _("Invitation of %(email)s withdrawn.") % {"email": invitation.email},
        redirect("staff", slug),
    )


@login_required
@require_POST
def staff_revoke(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = _tournament(request, slug, ORGANISER)
    grant = get_object_or_404(selectors.staff_roles(tournament=tournament), pk=pk)
    return _button(
        request,
        lambda: services.role_revoke(grant=grant, by=request.user),
        _("No longer: %(who)s.") % {"who": _role_text(grant)},
        redirect("staff", slug),
    )


@login_required
@require_GET
def log(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(request, slug, READERS)
    return render(
        request,
        "adjudication/log.html",
        {"tournament": tournament, "events": selectors.event_log(tournament=tournament)},
    )


@login_required
@require_GET
def log_csv(request: AuthenticatedHttpRequest, slug: str) -> StreamingHttpResponse:
    """The log for the organiser's files and the federation: one row per action."""
    tournament = _tournament(request, slug, READERS)
    header = [_("time"), _("by"), _("action"), _("what")]

    def rows():
        yield header
        for event in selectors.event_log(tournament=tournament).iterator(chunk_size=500):
            yield [
                timezone.localtime(event.at).isoformat(timespec="seconds"),
                event.by.get_username(),
                event.get_action_display(),
                event.text,
            ]

    return exports.csv_streaming_response(
        filename=f"{tournament.slug}-adjudication.csv", rows=rows()
    )
