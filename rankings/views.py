"""Ranking lists across tournaments: public. The keeping of
a list on its page: its maintainers appoint and remove each other and admit or decline the
tournaments whose organisers ask (from the tournament's settings page)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from rankings import policies, selectors
from rankings.forms import MaintainerForm, RankingRequestForm
from rankings.models import RankingAdmission
from rankings.services import admissions
from tournaments.forms import error_messages
from tournaments.permissions import AuthenticatedHttpRequest, roles_of
from tournaments.selectors.tournaments import tournament_get


@require_GET
def ranking_list(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "rankings/rankings.html",
        {"ranking_lists": selectors.ranking_lists(user=request.user)},
    )


@require_GET
def ranking_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """A ranking list across tournaments: average points per round over the last months."""
    ranking = selectors.ranking_get(slug=slug, user=request.user)
    lines = selectors.ranking_lines(ranking_list=ranking)
    return render(
        request,
        "rankings/ranking.html",
        {
            "ranking": ranking,
            "keeping": selectors.ranking_keeping(ranking_list=ranking, user=request.user),
            "ranked": [line for line in lines if line.rank is not None],
            "unranked": [line for line in lines if line.rank is None],
        },
    )


def _refused(request: HttpRequest, error: ValidationError) -> None:
    """What stands in the way (a criterion unmet, a reason missing), on the page it goes back
    to; what is not the user's to do is a 403 with the reason, before anything is asked."""
    for message in error_messages(error):
        messages.error(request, message)


@login_required
@require_POST
def ranking_maintainers(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """A maintainer appoints another by user name or e-mail address (``action=add``,
    ``user``), or removes one (``action=remove``, ``username``); back to the list's page."""
    ranking = selectors.ranking_get(slug=slug, user=request.user)
    if refusal := policies.may_change_maintainers(ranking_list=ranking, user=request.user):
        raise PermissionDenied(refusal.message)
    action = request.POST.get("action")
    form = MaintainerForm(request.POST)
    try:
        if not form.is_valid():
            raise ValidationError(form.errors.as_data())
        if action == "add":
            user = admissions.ranking_maintainer_add(
                ranking_list=ranking, who=form.cleaned_data["user"], by=request.user
            )
            messages.success(
                request,
                _("%(user)s maintains the list now.") % {"user": user.get_username()},
            )
        elif action == "remove":
            user = get_object_or_404(ranking.maintainers, username=form.cleaned_data["username"])
            admissions.ranking_maintainer_remove(ranking_list=ranking, user=user, by=request.user)
            messages.success(
                request,
                _("%(user)s no longer maintains the list.") % {"user": user.get_username()},
            )
        else:
            raise ValidationError({"action": _("Choose what to do.")})
    except ValidationError as error:
        _refused(request, error)
    return redirect("rankings:ranking", slug)


@login_required
@require_POST
def ranking_admission(
    request: AuthenticatedHttpRequest, slug: str, tournament: str
) -> HttpResponse:
    """A maintainer admits (again) or declines a tournament (``action``, ``reason``); back to
    the list's page, which says why if he may not."""
    ranking = selectors.ranking_get(slug=slug, user=request.user)
    admission = selectors.admission_get(
        ranking_list=ranking, tournament_slug=tournament, user=request.user
    )
    refusal = policies.may_decide_admission(admission=admission, user=request.user)
    if refusal is not None and refusal.field is None:
        raise PermissionDenied(refusal.message)
    decide = {
        "admit": admissions.ranking_admission_admit,
        "decline": admissions.ranking_admission_decline,
    }.get(request.POST.get("action", ""))
    try:
        if decide is None:
            raise ValidationError({"action": _("Choose what to do.")})
        admission = decide(
            admission=admission, by=request.user, reason=request.POST.get("reason", "")
        )
    except ValidationError as error:
        _refused(request, error)
    else:
        if admission.status == RankingAdmission.Status.ADMITTED:
            messages.success(
                request,
                _("%(tournament)s is admitted to the list.")
                % {"tournament": admission.tournament.name},
            )
        else:
            messages.success(
                request,
                _("%(tournament)s is declined.") % {"tournament": admission.tournament.name},
            )
    return redirect("rankings:ranking", slug)


@login_required
@require_POST
def ranking_requests(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """The tournament's organiser asks a ranking list to admit it (``action=request``,
    ``list``) or withdraws the request (``action=withdraw``); back to its settings page."""
    tournament = tournament_get(slug=slug, user=request.user, counts=False)
    roles = roles_of(request, tournament)
    if refusal := policies.may_request_admission(tournament=tournament, roles=roles):
        raise PermissionDenied(refusal.message)
    form = RankingRequestForm(request.POST)
    ranking = (
        selectors.ranking_lists(user=request.user).filter(slug=form.cleaned_data["list"]).first()
        if form.is_valid()
        else None
    )
    try:
        if ranking is None:
            raise ValidationError({"list": _("There is no such ranking list.")})
        if request.POST.get("action") == "withdraw":
            admission = get_object_or_404(
                RankingAdmission.objects.select_related("tournament", "ranking_list"),
                ranking_list=ranking,
                tournament=tournament,
            )
            admissions.ranking_admission_withdraw(admission=admission, by=request.user)
            messages.success(request, _("The request is withdrawn."))
        else:
            admissions.ranking_admission_request(
                ranking_list=ranking, tournament=tournament, by=request.user
            )
            messages.success(
                request,
                _("Asked: a maintainer of “%(list)s” admits the tournament or declines it.")
                % {"list": ranking.name},
            )
    except ValidationError as error:
        _refused(request, error)
    return redirect("tournaments:tournament-settings", slug)
