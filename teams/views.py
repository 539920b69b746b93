"""Pages of team competitions: the list, a competition with its teams, match days and table,
its settings, a team and its players, a match day with its groups and line-ups, the season
table and the knock-out bracket. Thin: selectors read, services write, policies say who may
(and why not)."""

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import NON_FIELD_ERRORS, PermissionDenied, ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from teams import policies, selectors, services
from teams.forms import (
    CompetitionForm,
    LineUpForm,
    MatchDayForm,
    MemberAddForm,
    OrganiserForm,
    PersonSearchForm,
    PlanSwapForm,
    SeasonPlanForm,
    TeamForm,
    TieForm,
)
from teams.models import Competition, GroupTeam, MatchDay, Team, TeamMember
from tournaments import selectors as tournament_selectors
from tournaments import services as tournament_services
from tournaments.forms import error_messages, errors_to_form
from tournaments.models import Player
from tournaments.permissions import AuthenticatedHttpRequest


def _on_name(error: ValidationError) -> ValidationError:
    """A team's errors on its name: the one rule of a team not of a single field is that its
    name is unique in the competition (``team_name_unique_in_competition``)."""
    if hasattr(error, "error_dict") and NON_FIELD_ERRORS in error.error_dict:
        errors = dict(error.error_dict)
        errors["name"] = errors.get("name", []) + errors.pop(NON_FIELD_ERRORS)
        return ValidationError(errors)
    return error


def _competition(request: HttpRequest, slug: str) -> Competition:
    return selectors.competition_get(slug=slug, user=request.user)


def _managed(request: HttpRequest, slug: str) -> Competition:
    """The competition, for one of its organisers; 403 with the reason for anyone else."""
    competition = _competition(request, slug)
    if refusal := policies.may_manage_competition(competition=competition, user=request.user):
        raise PermissionDenied(refusal.message)
    return competition


def _manage_refusal(competition: Competition, user: User | AnonymousUser) -> Any:
    """Why the user may not change the competition (None: he may); for a signed-in user only,
    beside the buttons he does not get."""
    return policies.may_manage_competition(competition=competition, user=user)


def _competition_context(request: HttpRequest, competition: Competition) -> dict[str, Any]:
    refusal = _manage_refusal(competition, request.user)
    return {
        "competition": competition,
        "can_manage": refusal is None,
        "manage_refusal": refusal if request.user.is_authenticated else None,
        "is_championship": competition.kind == Competition.Kind.CHAMPIONSHIP,
    }


def _with_places(
    results: list[selectors.GroupResult], places: dict[tuple[int, int], int]
) -> list[tuple[selectors.GroupResult, list[tuple[selectors.TeamResult, int | None]]]]:
    """Each group's rows, each with its team's place in the group (``GroupTeam``) for the
    decision of a tie level at the cut."""
    return [
        (result, [(row, places.get((result.group.pk, row.team.pk))) for row in result.rows])
        for result in results
    ]


# The list and a competition -------------------------------------------------------------------


@require_GET
def competition_list(request: HttpRequest) -> HttpResponse:
    refusal = policies.may_create_competition(user=request.user)
    return render(
        request,
        "teams/competitions.html",
        {
            "competitions": selectors.competitions_visible(user=request.user),
            "can_create": refusal is None,
            # Signed in without the right: why the button is missing, and who grants it.
            "create_refusal": refusal if request.user.is_authenticated else None,
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def competition_new(request: AuthenticatedHttpRequest) -> HttpResponse:
    """A new league season or team championship, whose creator becomes its organiser."""
    if refusal := policies.may_create_competition(user=request.user):
        raise PermissionDenied(refusal.message)
    form = CompetitionForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        settings = form.settings()
        try:
            competition = services.competition_create(
                name=settings.pop("name"), by=request.user, **settings
            )
        except ValidationError as error:
            errors_to_form(form, error)
        else:
            messages.success(request, _("The competition is created, and you are its organiser."))
            return redirect("teams:competition", competition.slug)
    return render(
        request, "teams/competition_new.html", {"form": form}, status=400 if form.errors else 200
    )


@require_GET
def competition_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """The competition: its teams with their players, its match days, and its season table
    (league) or the tables of its group stage (championship)."""
    competition = _competition(request, slug)
    context = _competition_context(request, competition)
    match_days = selectors.match_days_of(competition=competition)
    if context["is_championship"]:
        context["group_days"] = [
            (match_day, _with_places(selectors.group_results(match_day=match_day), {}))
            for match_day in match_days
            if match_day.stage == MatchDay.Stage.GROUPS
        ]
    else:
        context["table"] = selectors.season_table(competition=competition)
        context["plan"] = selectors.season_plan_of(competition=competition)
    return render(
        request,
        "teams/competition.html",
        {
            **context,
            "teams": selectors.teams_of(competition=competition),
            "match_days": match_days,
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def competition_settings(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    competition = _managed(request, slug)
    form = CompetitionForm(request.POST if request.method == "POST" else None, instance=competition)
    if request.method == "POST" and form.is_valid():
        try:
            competition = services.competition_update(
                competition=competition, by=request.user, **form.settings()
            )
        except ValidationError as error:
            errors_to_form(form, error)
        else:
            messages.success(request, _("The settings are saved."))
            return redirect("teams:competition", competition.slug)
    return render(
        request,
        "teams/competition_settings.html",
        {
            "competition": competition,
            "form": form,
            "organisers": competition.organisers.order_by("username"),
            "offers": selectors.organiser_offers(competition=competition),
            "now": timezone.now(),
            "organiser_form": OrganiserForm(),
        },
        status=400 if form.errors else 200,
    )


@login_required
@require_POST
def competition_organisers(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """An organiser offers another account (user name or e-mail address) to organise the
    competition and its match days: the same answer whether it has an account; he organises
    it once he accepts. Back to the settings."""
    competition = _managed(request, slug)
    form = OrganiserForm(request.POST)
    try:
        if not form.is_valid():
            raise ValidationError(form.errors.as_data())
        offer = services.competition_organiser_offer(
            competition=competition, who=form.cleaned_data["user"], by=request.user
        )
    except ValidationError as error:
        for message in error_messages(error):
            messages.error(request, message)
    else:
        messages.success(
            request,
            _(
                "Offered to %(who)s: they organise the competition once they accept, logged in, "
                "under “Your roles” (the user name at the top of every page). The offer is valid "
                "for 7 days."
            )
            % {"who": offer.who},
        )
    return redirect("teams:competition-settings", competition.slug)


@login_required
@require_POST
def competition_organiser_offer_withdraw(
    request: AuthenticatedHttpRequest, slug: str, pk: int
) -> HttpResponse:
    """Withdraw an offer to organise the competition not yet answered."""
    competition = _managed(request, slug)
    offer = selectors.organiser_offer_detail(competition=competition, pk=pk)
    try:
        services.competition_organiser_offer_withdraw(offer=offer, by=request.user)
    except (ValidationError, PermissionDenied) as error:
        for message in getattr(error, "messages", None) or [str(error)]:
            messages.error(request, message)
    else:
        messages.success(request, _("Offer to %(who)s withdrawn.") % {"who": offer.who})
    return redirect("teams:competition-settings", competition.slug)


# Teams and their players ----------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def team_new(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    competition = _managed(request, slug)
    form = TeamForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            team = services.team_create(
                competition=competition, by=request.user, **form.cleaned_data
            )
        except ValidationError as error:
            errors_to_form(form, _on_name(error))
        else:
            messages.success(
                request,
                _("%(team)s is added; now name its players.") % {"team": team.name},
            )
            return redirect("teams:team", competition.slug, team.pk)
    return render(
        request,
        "teams/team_new.html",
        {"competition": competition, "form": form},
        status=400 if form.errors else 200,
    )


def _team_page(
    request: HttpRequest,
    competition: Competition,
    team: Team,
    *,
    rename: TeamForm | None = None,
    add: MemberAddForm | None = None,
    status: int = 200,
) -> HttpResponse:
    context = _competition_context(request, competition)
    search = PersonSearchForm(request.GET or None)
    query = search.cleaned_data["q"] if search.is_valid() else ""
    found: list[Player] = []
    if context["can_manage"] and query:
        taken = set(team.members.values_list("player_id", flat=True))
        found = [
            player
            for player in tournament_selectors.persons_find(query=query)
            if player.pk not in taken
        ]
    return render(
        request,
        "teams/team.html",
        {
            **context,
            "team": team,
            "members": list(team.members.all()),
            "search": search,
            "query": query,
            "found": found,
            "rename": rename or TeamForm(initial={"name": team.name, "club": team.club}),
            "add": add or MemberAddForm(),
        },
        status=status,
    )


@require_GET
def team_detail(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A team's players (the captain marked); its organisers rename it, and find, add, remove
    players and make one the captain."""
    competition = _competition(request, slug)
    return _team_page(request, competition, selectors.team_get(competition=competition, pk=pk))


@login_required
@require_POST
def team_edit(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    competition = _managed(request, slug)
    team = selectors.team_get(competition=competition, pk=pk)
    form = TeamForm(request.POST)
    if form.is_valid():
        try:
            services.team_update(team=team, by=request.user, **form.cleaned_data)
        except ValidationError as error:
            errors_to_form(form, _on_name(error))
        else:
            messages.success(request, _("The team is saved."))
            return redirect("teams:team", competition.slug, team.pk)
    team = selectors.team_get(competition=competition, pk=pk)  # as it was
    return _team_page(request, competition, team, rename=form, status=400)


@login_required
@require_POST
def team_delete(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    competition = _managed(request, slug)
    team = selectors.team_get(competition=competition, pk=pk)
    try:
        services.team_delete(team=team, by=request.user)
    except ValidationError as error:
        for message in error_messages(error):
            messages.error(request, message)
        return redirect("teams:team", competition.slug, team.pk)
    messages.success(request, _("%(team)s is removed.") % {"team": team.name})
    return redirect("teams:competition", competition.slug)


@login_required
@require_POST
def team_member_add(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    """Add a person found by the search (``player``), or a new one by name, club and DDV
    number (a known person by that DDV number, or name and club, is found, not made twice)."""
    competition = _managed(request, slug)
    team = selectors.team_get(competition=competition, pk=pk)
    form = MemberAddForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            # One transaction: a new person is not kept when the team refuses him.
            with transaction.atomic():
                if data["player"] is not None:
                    player = Player.objects.filter(pk=data["player"]).first()
                    if player is None:
                        raise ValidationError({"player": _("This person does not exist.")})
                else:
                    player = tournament_services.player_find_or_create(
                        first_name=data["first_name"],
                        last_name=data["last_name"],
                        club=data["club"],
                        ddv_number=data["ddv_number"],
                    )
                member = services.team_member_add(
                    team=team, player=player, by=request.user, captain=data["captain"]
                )
        except ValidationError as error:
            errors_to_form(form, error)
        else:
            messages.success(
                request,
                _("%(player)s plays for %(team)s.")
                % {"player": member.player.name, "team": team.name},
            )
            return redirect("teams:team", competition.slug, team.pk)
    return _team_page(request, competition, team, add=form, status=400)


def _member(request: HttpRequest, slug: str, pk: int, member: int) -> TeamMember:
    competition = _managed(request, slug)
    team = selectors.team_get(competition=competition, pk=pk)
    return get_object_or_404(
        TeamMember.objects.select_related("player", "team__competition"), team=team, pk=member
    )


@login_required
@require_POST
def team_member_remove(
    request: AuthenticatedHttpRequest, slug: str, pk: int, member: int
) -> HttpResponse:
    found = _member(request, slug, pk, member)
    try:
        services.team_member_remove(member=found, by=request.user)
    except ValidationError as error:
        for message in error_messages(error):
            messages.error(request, message)
    else:
        messages.success(
            request,
            _("%(player)s no longer plays for %(team)s.")
            % {"player": found.player.name, "team": found.team.name},
        )
    return redirect("teams:team", slug, pk)


@login_required
@require_POST
def team_captain(
    request: AuthenticatedHttpRequest, slug: str, pk: int, member: int
) -> HttpResponse:
    found = _member(request, slug, pk, member)
    services.team_captain_set(member=found, by=request.user)
    messages.success(request, _("%(player)s is the captain now.") % {"player": found.player.name})
    return redirect("teams:team", slug, pk)


# Match days -----------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def match_day_new(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """A new match day: a tournament whose draw seats its groups of four teams."""
    competition = _managed(request, slug)
    teams = selectors.teams_of(competition=competition)
    plan = selectors.season_plan_of(competition=competition)
    form = MatchDayForm(
        request.POST if request.method == "POST" else None,
        competition=competition,
        teams=teams,
        initial={"double": plan is not None and plan.plan.double},
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            match_day = services.match_day_create(
                competition=competition,
                by=request.user,
                starts_on=data["starts_on"],
                venue=data["venue"],
                rounds=data["rounds"],
                stage=data["stage"],
                groups=form.groups(),
                advance=data.get("advance") or 1,
                double=data["double"],
            )
        except ValidationError as error:
            errors_to_form(form, error)
        else:
            messages.success(
                request,
                _("Match day %(number)d is added; check the line-ups before the draw.")
                % {"number": match_day.number},
            )
            return redirect("teams:match-day", competition.slug, match_day.number)
    return render(
        request,
        "teams/match_day_new.html",
        {
            "competition": competition,
            "form": form,
            "teams": teams,
            "plan": plan,
            "plan_url": reverse("teams:season-plan", args=[competition.slug]),
        },
        status=400 if form.errors else 200,
    )


@require_GET
def match_day_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A match day: its groups with their teams' points and match points (provisional while a
    sheet is not confirmed), who goes through a knock-out tie, the line-ups, and the links to
    its tournament's pages."""
    competition = _competition(request, slug)
    match_day = selectors.match_day_get(competition=competition, number=number)
    context = _competition_context(request, competition)
    groups = selectors.group_results(match_day=match_day)
    places = {
        (place.group_id, place.team_id): place.pk
        for place in GroupTeam.objects.filter(match_day=match_day)
    }
    return render(
        request,
        "teams/match_day.html",
        {
            **context,
            "match_day": match_day,
            "tournament": match_day.tournament,
            "groups": _with_places(groups, places),
            "complete": selectors.match_day_complete(match_day=match_day),
            "line_ups": selectors.line_ups_by_team(match_day=match_day),
            "rounds": list(match_day.tournament.rounds.order_by("number")),
            "knockout": match_day.stage == MatchDay.Stage.KNOCKOUT,
            "delete_refusal": _delete_refusal(match_day, request.user)
            if context["can_manage"]
            else None,
        },
    )


def _delete_refusal(match_day: MatchDay, user: User | AnonymousUser) -> Any:
    return policies.may_delete_match_day(
        match_day=match_day,
        user=user,
        drawn=selectors.match_day_drawn_rounds(match_day=match_day),
    )


@login_required
@require_http_methods(["GET", "POST"])
def match_day_delete(request: AuthenticatedHttpRequest, slug: str, number: int) -> HttpResponse:
    """Delete a match day, asked once on a page that says what goes with it: whoever may create
    it, until a round of it is drawn; after that the page says why it stays."""
    competition = _competition(request, slug)
    match_day = selectors.match_day_get(competition=competition, number=number)
    refusal = _delete_refusal(match_day, request.user)
    if refusal is not None and refusal.field is None:
        raise PermissionDenied(refusal.message)
    if request.method == "POST" and refusal is None:
        try:
            services.match_day_delete(match_day=match_day, by=request.user)
        except ValidationError as error:  # a round drawn meanwhile
            for message in error_messages(error):
                messages.error(request, message)
            return redirect("teams:match-day-delete", competition.slug, number)
        messages.success(request, _("Match day %(number)d is deleted.") % {"number": number})
        return redirect("teams:competition", competition.slug)
    return render(
        request,
        "teams/match_day_delete.html",
        {
            **_competition_context(request, competition),
            "match_day": match_day,
            "groups": selectors.group_results(match_day=match_day),
            "refusal": refusal,
        },
        status=400 if request.method == "POST" else 200,
    )


@login_required
@require_http_methods(["GET", "POST"])
def line_up_edit(
    request: AuthenticatedHttpRequest, slug: str, number: int, team: int
) -> HttpResponse:
    """Change a team's line-up from a round on: four of its players."""
    competition = _managed(request, slug)
    match_day = selectors.match_day_get(competition=competition, number=number)
    chosen = selectors.team_get(competition=competition, pk=team)
    members = list(chosen.members.all())
    current = next(
        (
            line_ups.rows
            for line_ups in selectors.line_ups_by_team(match_day=match_day)
            if line_ups.team.pk == chosen.pk
        ),
        (),
    )
    by_name = {member.player.name: member.player_id for member in members}
    initial: dict[str, Any] = {"from_round": 1}
    if current:
        for place, name in enumerate(current[0].players, start=1):
            initial[f"place_{place}"] = by_name.get(name)
    form = LineUpForm(
        request.POST if request.method == "POST" else None,
        initial=initial,
        members=members,
        rounds=match_day.tournament.planned_rounds,
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.line_up_set(
                match_day=match_day,
                team=chosen,
                players=form.players(),
                by=request.user,
                from_round=form.cleaned_data["from_round"],
            )
        except ValidationError as error:
            errors_to_form(form, error)
        else:
            messages.success(
                request,
                _("The line-up of %(team)s is saved from round %(number)d on.")
                % {"team": chosen.name, "number": form.cleaned_data["from_round"]},
            )
            return redirect("teams:match-day", competition.slug, match_day.number)
    return render(
        request,
        "teams/line_up.html",
        {
            "competition": competition,
            "match_day": match_day,
            "team": chosen,
            "current": current,
            "form": form,
        },
        status=400 if form.errors else 200,
    )


@login_required
@require_POST
def tie_decide(request: AuthenticatedHttpRequest, slug: str, number: int) -> HttpResponse:
    """The director decides whether a team level at the cut of a knock-out tie goes through."""
    competition = _managed(request, slug)
    match_day = selectors.match_day_get(competition=competition, number=number)
    form = TieForm(request.POST)
    if not form.is_valid():
        for message in error_messages(ValidationError(form.errors)):
            messages.error(request, message)
        return redirect("teams:match-day", competition.slug, match_day.number)
    place = get_object_or_404(
        GroupTeam.objects.select_related("team", "match_day__competition"),
        match_day=match_day,
        pk=form.cleaned_data["place"],
    )
    try:
        services.tie_decide(place=place, through=form.cleaned_data["through"], by=request.user)
    except ValidationError as error:
        for message in error_messages(error):
            messages.error(request, message)
    else:
        messages.success(
            request,
            (
                _("%(team)s goes through.")
                if form.cleaned_data["through"]
                else _("%(team)s goes out.")
            )
            % {"team": place.team.name},
        )
    return redirect("teams:match-day", competition.slug, match_day.number)


# The season plan ------------------------------------------------------------------------------


def _plan_context(request: HttpRequest, competition: Competition) -> dict[str, Any]:
    """The plan, and for each planned match day either its swap form or why it cannot change
    (for a signed-in user: a stranger sees why, an organiser sees which day is made)."""
    context = _competition_context(request, competition)
    view = selectors.season_plan_of(competition=competition)
    made = list(competition.match_days.order_by("number").values_list("number", flat=True))
    days = []
    if view is not None:
        for day in view.days:
            refusal = policies.may_change_season_plan(
                competition=competition, user=request.user, made=made, match_day=day.number
            )
            form = None
            if refusal is None:
                teams = sorted(
                    (team for _number, group in day.groups for team in group),
                    key=lambda team: team.name,
                )
                form = PlanSwapForm(
                    teams=teams, initial={"match_day": day.number}, auto_id=f"id_{day.number}_%s"
                )
            days.append((day, form, refusal if request.user.is_authenticated else None))
    draw_refusal = policies.may_change_season_plan(
        competition=competition, user=request.user, made=made
    )
    return {
        **context,
        "plan": view,
        "plan_rows": list(zip(view.teams, view.matrix, strict=True)) if view else [],
        "plan_days": days,
        "draw_refusal": draw_refusal if request.user.is_authenticated else None,
        "can_draw": draw_refusal is None and not context["is_championship"],
    }


@require_GET
def season_plan(request: HttpRequest, slug: str) -> HttpResponse:
    """A league's season plan: each match day's groups, how often every pair of teams meets,
    and, for its organisers, the draw and the swaps of a match day not made yet."""
    competition = _competition(request, slug)
    context = _plan_context(request, competition)
    teams = competition.teams.count()
    initial = {"match_days": max(1, (teams - 1) // 3) if teams else 1}
    if context["plan"] is not None:
        initial = {
            "match_days": context["plan"].plan.match_days,
            "double": context["plan"].plan.double,
        }
    return render(
        request,
        "teams/season_plan.html",
        {**context, "form": SeasonPlanForm(initial=initial), "team_count": teams},
    )


@login_required
@require_POST
def season_plan_draw(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Draw the season plan (again), before the first match day."""
    competition = _managed(request, slug)
    form = SeasonPlanForm(request.POST)
    if form.is_valid():
        try:
            services.season_plan_create(
                competition=competition,
                by=request.user,
                match_days=form.cleaned_data["match_days"],
                double=form.cleaned_data["double"],
            )
        except ValidationError as error:
            errors_to_form(form, error)
        else:
            messages.success(request, _("The season plan is drawn."))
            return redirect("teams:season-plan", competition.slug)
    context = _plan_context(request, competition)
    # The form again with its errors, the refusal of a draw after the first match day too.
    return render(
        request,
        "teams/season_plan.html",
        {**context, "form": form, "team_count": competition.teams.count(), "can_draw": True},
        status=400,
    )


@login_required
@require_POST
def season_plan_swap(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Swap two teams between groups of a planned match day not made yet."""
    competition = _managed(request, slug)
    form = PlanSwapForm(request.POST, teams=list(competition.teams.all()))
    if not form.is_valid():
        for message in error_messages(ValidationError(form.errors)):
            messages.error(request, message)
        return redirect("teams:season-plan", competition.slug)
    chosen = {
        team.pk: team
        for team in competition.teams.filter(
            pk__in=[form.cleaned_data["first"], form.cleaned_data["second"]]
        )
    }
    try:
        services.season_plan_swap(
            competition=competition,
            match_day=form.cleaned_data["match_day"],
            teams=[chosen[form.cleaned_data["first"]], chosen[form.cleaned_data["second"]]],
            by=request.user,
        )
    except ValidationError as error:
        for message in error_messages(error):
            messages.error(request, message)
    else:
        messages.success(
            request,
            _("%(first)s and %(second)s swap groups on match day %(number)d.")
            % {
                "first": chosen[form.cleaned_data["first"]].name,
                "second": chosen[form.cleaned_data["second"]].name,
                "number": form.cleaned_data["match_day"],
            },
        )
    return redirect("teams:season-plan", competition.slug)


# The season table and the bracket -------------------------------------------------------------


@require_GET
def season_table(request: HttpRequest, slug: str) -> HttpResponse:
    competition = _competition(request, slug)
    return render(
        request,
        "teams/season_table.html",
        {
            **_competition_context(request, competition),
            "table": selectors.season_table(competition=competition),
            "not_counted": selectors.match_days_not_counted(competition=competition),
        },
    )


@require_GET
def bracket(request: HttpRequest, slug: str) -> HttpResponse:
    competition = _competition(request, slug)
    context = _competition_context(request, competition)
    return render(
        request,
        "teams/bracket.html",
        {
            **context,
            "rounds": selectors.bracket(competition=competition)
            if context["is_championship"]
            else [],
        },
    )
