"""Writes for team competitions: the competition, its teams and players, match days (each a
tournament), their groups and line-ups, and the decisions of knock-out ties. Each service is one
transaction and asks ``policies`` first."""

import datetime
import secrets
import unicodedata
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Count, Max
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from doko import season_plan as season_planning
from doko import team_seating
from teams import policies, selectors
from teams.models import (
    COMPETITION_SETTINGS,
    LINE_UP_PLACES,
    MAX_MEMBERS,
    Competition,
    Group,
    GroupTeam,
    LineUp,
    MatchDay,
    OrganiserOffer,
    PlannedPlace,
    SeasonPlan,
    Team,
    TeamMember,
)
from tournaments import services as tournament_services
from tournaments.models import Entry, Player, Round, Tournament, TournamentRole
from tournaments.policies import enforce
from tournaments.services.common import save_validated

GROUP_SIZE = 4
COMPETITION_FIELDS = COMPETITION_SETTINGS


def _unique_slug(name: str, season: str) -> str:
    # "2026/27" becomes "2026-27", not "202627".
    base = slugify(f"{name} {season}".replace("/", " "))[:70] or "competition"
    slug, n = base, 2
    while Competition.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


@transaction.atomic
def competition_create(
    *, name: str, by: User, kind: str = Competition.Kind.LEAGUE, **settings: Any
) -> Competition:
    """Create a league season or a team championship; ``by`` becomes its organiser."""
    enforce(policies.may_create_competition(user=by))
    unknown = set(settings) - set(COMPETITION_FIELDS)
    if unknown:
        raise ValidationError({sorted(unknown)[0]: _("This setting does not exist.")})
    competition = Competition(name=name.strip(), kind=kind, **settings)
    competition.season = competition.season.strip()
    competition.slug = _unique_slug(competition.name, competition.season)
    try:
        with transaction.atomic():
            save_validated(competition)
    except IntegrityError as error:  # the same short name, saved meanwhile in parallel
        raise ValidationError(
            {"slug": _("Another competition has this short name; try again.")}
        ) from error
    competition.organisers.add(by)
    return competition


@transaction.atomic
def competition_update(*, competition: Competition, by: User, **settings: Any) -> Competition:
    """Change a competition's settings (its kind only while it has no match day)."""
    enforce(policies.may_manage_competition(competition=competition, user=by))
    competition = Competition.objects.select_for_update().get(pk=competition.pk)
    unknown = set(settings) - set(COMPETITION_FIELDS)
    if unknown:
        raise ValidationError({sorted(unknown)[0]: _("This setting does not exist.")})
    if (
        "kind" in settings
        and settings["kind"] != competition.kind
        and competition.match_days.exists()
    ):
        raise ValidationError(
            {"kind": _("The competition has match days; its kind cannot change any more.")}
        )
    for field, value in settings.items():
        setattr(competition, field, value.strip() if isinstance(value, str) else value)
    return save_validated(competition)


# How long an offer to organise a competition waits for its answer, as a staff offer does.
OFFER_VALID_FOR = datetime.timedelta(days=7)
MOST_WHO = 254


def _who_check(who: str) -> str:
    """The user name or e-mail address as given, spaces around it taken off; refused on
    ``user`` when empty, too long or with control characters."""
    who = who.strip()
    if not who:
        raise ValidationError({"user": _("Give the person's user name or e-mail address.")})
    if len(who) > MOST_WHO or any(unicodedata.category(char) in {"Cc", "Cs", "Co"} for char in who):
        raise ValidationError(
            {
                "user": _("Give a user name or an e-mail address of at most %(most)d characters.")
                % {"most": MOST_WHO}
            }
        )
    return who


@transaction.atomic
def competition_organiser_offer(*, competition: Competition, who: str, by: User) -> OrganiserOffer:
    """Offer to make another account an organiser of the competition (and of its match days),
    named by its user name or e-mail address; valid seven days, he organises it once he accepts,
    logged in (``competition_organiser_accept``). The offer, the answer and the queries are the
    same whether the name has an account: it is looked up once either way and kept with the
    offer (None: nobody can accept it). An earlier open offer of the same name is withdrawn."""
    enforce(policies.may_manage_competition(competition=competition, user=by))
    who = _who_check(who)
    now = timezone.now()
    OrganiserOffer.objects.filter(
        competition=competition,
        who__iexact=who,
        accepted_at__isnull=True,
        declined_at__isnull=True,
        withdrawn_at__isnull=True,
    ).update(withdrawn_at=now)
    return OrganiserOffer.objects.create(
        competition=competition,
        who=who,
        user=selectors.offer_account(who=who),
        offered_by=by,
        created_at=now,
        expires_at=now + OFFER_VALID_FOR,
    )


def _offer_locked(offer: OrganiserOffer) -> OrganiserOffer:
    return (
        OrganiserOffer.objects.select_for_update(of=("self",))
        .select_related("competition", "offered_by", "user")
        .get(pk=offer.pk)
    )


@transaction.atomic
def competition_organiser_accept(*, offer: OrganiserOffer, by: User | AnonymousUser) -> Competition:
    """The account an offer was made to accepts it, logged in: he organises the competition
    and its match days from now on."""
    offer = _offer_locked(offer)
    enforce(policies.may_answer_organiser_offer(offer=offer, user=by))
    assert isinstance(by, User)  # the policy let only the offer's own account through
    offer.accepted_at = timezone.now()
    offer.save(update_fields=["accepted_at"])
    competition = offer.competition
    competition.organisers.add(by)
    for match_day in competition.match_days.select_related("tournament"):
        TournamentRole.objects.get_or_create(
            tournament=match_day.tournament, user=by, role=TournamentRole.Role.ORGANISER
        )
    return competition


@transaction.atomic
def competition_organiser_decline(
    *, offer: OrganiserOffer, by: User | AnonymousUser
) -> OrganiserOffer:
    """The account an offer was made to declines it: he organises nothing."""
    offer = _offer_locked(offer)
    enforce(policies.may_answer_organiser_offer(offer=offer, user=by))
    offer.declined_at = timezone.now()
    offer.save(update_fields=["declined_at"])
    return offer


@transaction.atomic
def competition_organiser_offer_withdraw(*, offer: OrganiserOffer, by: User) -> OrganiserOffer:
    """Withdraw an offer to organise a competition not yet answered."""
    offer = _offer_locked(offer)
    enforce(policies.may_withdraw_organiser_offer(offer=offer, user=by))
    offer.withdrawn_at = timezone.now()
    offer.save(update_fields=["withdrawn_at"])
    return offer


# Teams and their players ---------------------------------------------------------------------


@transaction.atomic
def team_create(*, competition: Competition, name: str, club: str = "", by: User) -> Team:
    """Add a team to the competition."""
    enforce(policies.may_manage_competition(competition=competition, user=by))
    return save_validated(Team(competition=competition, name=name.strip(), club=club.strip()))


@transaction.atomic
def team_update(*, team: Team, by: User, name: str | None = None, club: str | None = None) -> Team:
    """Rename a team or change its club."""
    enforce(policies.may_manage_competition(competition=team.competition, user=by))
    if name is not None:
        team.name = name.strip()
    if club is not None:
        team.club = club.strip()
    return save_validated(team)


@transaction.atomic
def team_delete(*, team: Team, by: User) -> None:
    """Remove a team that has played on no match day."""
    enforce(policies.may_manage_competition(competition=team.competition, user=by))
    if team.group_places.exists():
        raise ValidationError(
            {"team": _("The team is in a group of a match day; take it out there first.")}
        )
    if team.planned_places.exists():
        raise ValidationError(
            {
                "team": _(
                    "The team is in the season plan; draw the plan again without it first "
                    "(before the first match day), or keep the team."
                )
            }
        )
    team.delete()


@transaction.atomic
def team_member_add(*, team: Team, player: Player, by: User, captain: bool = False) -> TeamMember:
    """Add a player (a person, DDV number) to a team: four or more, reserves allowed; a person
    plays for one team per competition. A team without a captain gets its first player
    named as captain (the organiser can make another one later)."""
    enforce(policies.may_manage_competition(competition=team.competition, user=by))
    team = Team.objects.select_for_update().get(pk=team.pk)
    if team.members.count() >= MAX_MEMBERS:
        raise ValidationError(
            {
                "player": ngettext(
                    "A team names at most %(count)d player.",
                    "A team names at most %(count)d players.",
                    MAX_MEMBERS,
                )
                % {"count": MAX_MEMBERS}
            }
        )
    other = (
        TeamMember.objects.filter(competition_id=team.competition_id, player=player)
        .select_related("team")
        .first()
    )
    if other is not None:
        raise ValidationError(
            {
                "player": _("%(player)s already plays for %(team)s in this competition.")
                % {"player": player.name, "team": other.team.name}
            }
        )
    if captain:
        team.members.filter(is_captain=True).update(is_captain=False)
    elif not team.members.filter(is_captain=True).exists():
        captain = True
    return save_validated(
        TeamMember(team=team, competition_id=team.competition_id, player=player, is_captain=captain)
    )


@transaction.atomic
def team_member_remove(*, member: TeamMember, by: User) -> None:
    """Take a player off a team, unless he is in a line-up of a match day."""
    enforce(policies.may_manage_competition(competition=member.team.competition, user=by))
    if LineUp.objects.filter(team=member.team, entry__player=member.player).exists():
        raise ValidationError(
            {
                "player": _("%(player)s is in a line-up of a match day; change that line-up first.")
                % {"player": member.player.name}
            }
        )
    member.delete()


@transaction.atomic
def team_captain_set(*, member: TeamMember, by: User) -> TeamMember:
    """Make a team's player its captain (the team has one)."""
    enforce(policies.may_manage_competition(competition=member.team.competition, user=by))
    TeamMember.objects.filter(team_id=member.team_id, is_captain=True).update(is_captain=False)
    member.is_captain = True
    member.save(update_fields=["is_captain"])
    return member


# Match days ----------------------------------------------------------------------------------


def _groups_checked(competition: Competition, groups: Sequence[Sequence[Team]]) -> None:
    seen: set[int] = set()
    if not groups:
        raise ValidationError({"groups": _("A match day needs at least one group of four teams.")})
    for number, group in enumerate(groups, start=1):
        if len(group) != GROUP_SIZE:
            raise ValidationError(
                {
                    "groups": ngettext(
                        "Group %(number)d has %(count)d team; a group has four teams, one "
                        "at each place of every table.",
                        "Group %(number)d has %(count)d teams; a group has four teams, one "
                        "at each place of every table.",
                        len(group),
                    )
                    % {"number": number, "count": len(group)}
                }
            )
        for team in group:
            if team.competition_id != competition.pk:
                raise ValidationError(
                    {"groups": _("%(team)s is not a team of this competition.") % {"team": team}}
                )
            if team.pk in seen:
                raise ValidationError(
                    {"groups": _("%(team)s is in two groups.") % {"team": team.name}}
                )
            seen.add(team.pk)


def _teams_can_field_four(groups: Sequence[Sequence[Team]]) -> None:
    """Refuse a group with a team that names fewer than four players: a team plays with four,
    one at every table of its group (team play, DDV; the TSR has none), and the draw would
    refuse it only later, with the match day made. Every such team is named at once."""
    named = {
        team.pk: team.count
        for team in Team.objects.filter(pk__in=[team.pk for group in groups for team in group])
        .annotate(count=Count("members"))
        .only("pk")
    }
    short = [
        ngettext(
            "Group %(group)d: %(team)s names %(count)d player; a team plays with four, one "
            "at every table of its group (team play, DDV). Add players to the team first.",
            "Group %(group)d: %(team)s names %(count)d players; a team plays with four, one "
            "at every table of its group (team play, DDV). Add players to the team first.",
            named.get(team.pk, 0),
        )
        % {"group": number, "team": team.name, "count": named.get(team.pk, 0)}
        for number, group in enumerate(groups, start=1)
        for team in group
        if named.get(team.pk, 0) < LINE_UP_PLACES
    ]
    if short:
        raise ValidationError({"groups": short})


def _groups_drawn(competition: Competition) -> list[list[Team]]:
    teams = {team.pk: team for team in competition.teams.all()}
    if len(teams) < GROUP_SIZE or len(teams) % GROUP_SIZE:
        raise ValidationError(
            {
                "groups": ngettext(
                    "The competition has %(count)d team; drawing groups of four needs a "
                    "multiple of four. Choose the groups yourself.",
                    "The competition has %(count)d teams; drawing groups of four needs a "
                    "multiple of four. Choose the groups yourself.",
                    len(teams),
                )
                % {"count": len(teams)}
            }
        )
    drawn = team_seating.team_groups(list(teams), seed=secrets.randbits(32), size=GROUP_SIZE)
    return [[teams[pk] for pk in group] for group in drawn]


@transaction.atomic
def match_day_create(
    *,
    competition: Competition,
    starts_on: datetime.date,
    by: User,
    venue: str = "",
    rounds: int = 4,
    stage: str = MatchDay.Stage.GROUPS,
    groups: Sequence[Sequence[Team]] | None = None,
    advance: int = 1,
    double: bool | None = None,
) -> MatchDay:
    """Add a match day: a tournament (its rounds, tables, scoresheets, checks and standings as
    any tournament's, 24 hands a round, TSR 8.5.1) whose draw seats its groups of four teams,
    one player of each team at every table. ``groups``: the teams of each group; None takes
    the season plan's groups for this match day where the plan has it, else draws them at
    random. A knock-out round's groups are its ties, of which the best ``advance`` teams go
    through. ``double``: a double match day, its rounds in two halves each scored 4/3/2/1 on
    its own (None: as the season plan says, else not). Every team names four players or more,
    as it plays with four. Each team's line-up starts as the first four players it named, for
    every round; change it before the draw (``line_up_set``)."""
    enforce(policies.may_manage_competition(competition=competition, user=by))
    competition = Competition.objects.select_for_update().get(pk=competition.pk)
    plan = SeasonPlan.objects.filter(competition=competition).first()
    if double is None:
        double = plan is not None and plan.double and stage == MatchDay.Stage.GROUPS
    if double and stage != MatchDay.Stage.GROUPS:
        raise ValidationError(
            {"double": _("Only a match day of groups is played as a double match day.")}
        )
    if double and (rounds < 2 or rounds % 2):
        raise ValidationError(
            {
                "rounds": _(
                    "A double match day plays its rounds in two halves of equal length: give "
                    "an even number of rounds."
                )
            }
        )
    if stage not in MatchDay.Stage.values:
        raise ValidationError({"stage": _("Choose the group stage or a knock-out round.")})
    if stage == MatchDay.Stage.KNOCKOUT and competition.kind != Competition.Kind.CHAMPIONSHIP:
        raise ValidationError(
            {"stage": _("Only a team championship plays knock-out rounds; a league plays groups.")}
        )
    if stage == MatchDay.Stage.KNOCKOUT and not 1 <= advance <= GROUP_SIZE - 1:
        raise ValidationError(
            {"advance": _("From a tie of four teams one, two or three go through.")}
        )
    number = (competition.match_days.aggregate(n=Max("number"))["n"] or 0) + 1
    if groups is not None:
        chosen = [list(group) for group in groups]
    elif (
        stage == MatchDay.Stage.GROUPS
        and plan is not None
        and (planned := _planned_groups(plan, number))
    ):
        chosen = planned
    else:
        chosen = _groups_drawn(competition)
    _groups_checked(competition, chosen)
    _teams_can_field_four(chosen)
    label = (
        _("knock-out round %(number)d")
        if stage == MatchDay.Stage.KNOCKOUT
        else _("match day %(number)d")
    ) % {"number": number}
    tournament = tournament_services.tournament_create(
        name=f"{competition.name} {competition.season}".strip() + f" – {label}",
        starts_on=starts_on,
        venue=venue,
        planned_rounds=rounds,
        seating_method="ddv",
        counts_for_ranking=False,
        organiser=by,
        is_public=competition.is_public,
    )
    Tournament.objects.filter(pk=tournament.pk).update(is_match_day=True)
    tournament.is_match_day = True
    for user in competition.organisers.exclude(pk=by.pk):
        TournamentRole.objects.create(
            tournament=tournament, user=user, role=TournamentRole.Role.ORGANISER
        )
    match_day = MatchDay.objects.create(
        competition=competition, number=number, stage=stage, tournament=tournament, double=double
    )
    for group_number, teams in enumerate(chosen, start=1):
        group = Group.objects.create(
            match_day=match_day,
            number=group_number,
            advance=advance if stage == MatchDay.Stage.KNOCKOUT else 0,
        )
        for team in teams:
            GroupTeam.objects.create(group=group, match_day=match_day, team=team)
            # The first four named: a reserve is named after the regulars.
            members = list(team.members.select_related("player").order_by("pk")[:LINE_UP_PLACES])
            if len(members) == LINE_UP_PLACES:
                _line_up_store(
                    match_day=match_day,
                    team=team,
                    players=[member.player for member in members],
                    from_round=1,
                )
    return match_day


@transaction.atomic
def match_day_delete(*, match_day: MatchDay, by: User) -> int:
    """Delete a match day with its tournament (entries, planned rounds, staff roles), groups
    and line-ups: whoever may create it, until a round of it is drawn
    (``policies.may_delete_match_day``). The persons and the teams stay; the other match days
    keep their numbers. Returns the number of the match day deleted."""
    match_day = (
        MatchDay.objects.select_for_update(of=("self",))
        .select_related("competition", "tournament")
        .get(pk=match_day.pk)
    )
    # Its rounds locked, as a draw locks its round: no draw slips in meanwhile.
    list(Round.objects.select_for_update().filter(tournament_id=match_day.tournament_id))
    enforce(
        policies.may_delete_match_day(
            match_day=match_day,
            user=by,
            drawn=selectors.match_day_drawn_rounds(match_day=match_day),
        )
    )
    number = match_day.number
    match_day.tournament.delete()  # the match day, its groups and line-ups go with it
    return number


def _entry_for(match_day: MatchDay, player: Player) -> Entry:
    """The player's entry in the match day's tournament, made when he first plays."""
    entry = match_day.tournament.entries.filter(player=player).first()
    if entry is None:
        entry = tournament_services.entry_create(tournament=match_day.tournament, player=player)
    return entry


def _line_up_store(
    *, match_day: MatchDay, team: Team, players: Sequence[Player], from_round: int
) -> list[LineUp]:
    """Store the line-up from ``from_round`` to the last round, in a few queries whatever the
    rounds (the players are the team's and differ, which the callers checked, so the
    database's constraints hold without a check per row). A drawn round seats the new player
    of a place where the old one sat."""
    planned = match_day.tournament.planned_rounds
    entries = [_entry_for(match_day, player) for player in players]
    lines = LineUp.objects.filter(match_day=match_day, team=team, round_number__gte=from_round)
    before = {
        (round_number, place): entry_id
        for round_number, place, entry_id in lines.values_list("round_number", "place", "entry_id")
    }
    lines.delete()
    stored = LineUp.objects.bulk_create(
        LineUp(match_day=match_day, team=team, round_number=round_number, place=place, entry=entry)
        for round_number in range(from_round, planned + 1)
        for place, entry in enumerate(entries, start=1)
    )
    rounds = match_day.tournament.rounds.filter(number__gte=from_round, number__lte=planned)
    for round_ in rounds.exclude(status=Round.Status.PLANNED):
        changes = {
            old: entry.pk
            for place, entry in enumerate(entries, start=1)
            if (old := before.get((round_.number, place))) is not None and old != entry.pk
        }
        if changes:
            tournament_services.seats_substitute(round=round_, changes=changes)
    _unnamed_entries_remove(
        match_day=match_day, left=set(before.values()) - {e.pk for e in entries}
    )
    return stored


def _unnamed_entries_remove(*, match_day: MatchDay, left: set[int]) -> None:
    """A player's entry is made when a line-up first names him (``_entry_for``): one who left
    every line-up of the day before he was seated in any round never played it, so he is no
    longer one of its players (the reserve is not counted with the four who play). One who
    was seated keeps his entry, with his rounds."""
    if not left:
        return
    unnamed = match_day.tournament.entries.filter(
        pk__in=left, line_ups__isnull=True, seats__isnull=True
    )
    if unnamed.exists():
        Entry.objects.filter(pk__in=list(unnamed.values_list("pk", flat=True))).delete()
        tournament_services.standings_schedule(tournament_id=match_day.tournament_id)


@transaction.atomic
def line_up_set(
    *,
    match_day: MatchDay,
    team: Team,
    players: Sequence[Player],
    by: User,
    from_round: int = 1,
) -> list[LineUp]:
    """Name who plays the four places of a team's line-up from round ``from_round`` to the
    match day's last (Aufstellung): four different players of the team. In a round already
    drawn (not started) a new player takes over the seats of the place he plays."""
    enforce(policies.may_manage_competition(competition=match_day.competition, user=by))
    if not GroupTeam.objects.filter(match_day=match_day, team=team).exists():
        raise ValidationError(
            {"team": _("%(team)s plays in no group of this match day.") % {"team": team.name}}
        )
    planned = match_day.tournament.planned_rounds
    if not 1 <= from_round <= planned:
        raise ValidationError(
            {"from_round": _("Choose a round from 1 to %(planned)d.") % {"planned": planned}}
        )
    if len(players) != LINE_UP_PLACES or len({player.pk for player in players}) != len(players):
        raise ValidationError(
            {"players": _("A line-up names four different players, one for each place.")}
        )
    members = set(team.members.values_list("player_id", flat=True))
    for player in players:
        if player.pk not in members:
            raise ValidationError(
                {
                    "players": _("%(player)s does not play for %(team)s.")
                    % {"player": player.name, "team": team.name}
                }
            )
    started = match_day.tournament.rounds.filter(number__gte=from_round).exclude(
        status__in=[Round.Status.PLANNED, Round.Status.SEATED]
    )
    if first := started.order_by("number").first():
        raise ValidationError(
            {
                "from_round": _(
                    "Round %(number)d has started: a line-up changes only from a round not "
                    "started yet."
                )
                % {"number": first.number}
            }
        )
    return _line_up_store(match_day=match_day, team=team, players=players, from_round=from_round)


@transaction.atomic
def tie_decide(*, place: GroupTeam, through: bool, by: User) -> GroupTeam:
    """The director's decision where a knock-out tie ended level at the cut: whether this team
    goes through (``doko.team_scoring.knockout_winner`` decides no further)."""
    enforce(policies.may_manage_competition(competition=place.match_day.competition, user=by))
    if place.match_day.stage != MatchDay.Stage.KNOCKOUT:
        raise ValidationError(
            {"through": _("Only knock-out ties are decided; a group scores match points.")}
        )
    place.through = through
    place.save(update_fields=["through"])
    return place


# The season plan -----------------------------------------------------------------------------


def _planned_groups(plan: SeasonPlan, number: int) -> list[list[Team]]:
    """The teams of each group the plan has for match day ``number`` (none past its end)."""
    groups: dict[int, list[Team]] = {}
    for place in plan.places.filter(match_day=number).select_related("team").order_by("pk"):
        groups.setdefault(place.group, []).append(place.team)
    return [groups[group] for group in sorted(groups)]


def _made(competition: Competition) -> list[int]:
    return list(competition.match_days.order_by("number").values_list("number", flat=True))


@transaction.atomic
def season_plan_create(
    *,
    competition: Competition,
    match_days: int,
    by: User,
    double: bool = False,
    seed: int | None = None,
) -> SeasonPlan:
    """Draw a league's season plan: the groups of four of all ``match_days`` match days at
    once, every pair of teams meeting as evenly as possible (``doko.season_plan``: exactly
    once for 16 teams over five match days). Replaces an earlier plan, before the first match
    day is made (``policies.may_change_season_plan``). ``double``: its match days are double
    match days. ``seed``: the draw's chance (None: a fresh one)."""
    competition = Competition.objects.select_for_update().get(pk=competition.pk)
    enforce(
        policies.may_change_season_plan(competition=competition, user=by, made=_made(competition))
    )
    if competition.kind != Competition.Kind.LEAGUE:
        raise ValidationError(
            {
                "match_days": _(
                    "A season plan is a league's; a team championship draws its groups match "
                    "day by match day."
                )
            }
        )
    teams = list(competition.teams.values_list("pk", flat=True))
    try:
        drawn = season_planning.season_plan(
            teams,
            match_days=match_days,
            seed=secrets.randbits(32) if seed is None else seed,
        )
    except season_planning.SeasonPlanError as error:
        if error.reason == "match_days":
            raise ValidationError(
                {
                    "match_days": _("Plan 1 to %(most)d match days.")
                    % {"most": season_planning.MOST_MATCH_DAYS}
                }
            ) from error
        raise ValidationError(
            {
                "teams": ngettext(
                    "The competition has %(count)d team; a season plan draws groups of four "
                    "(every group plays four teams, one at each place of every table), so it "
                    "needs four teams or a multiple of four. Add or remove teams first.",
                    "The competition has %(count)d teams; a season plan draws groups of four "
                    "(every group plays four teams, one at each place of every table), so it "
                    "needs four teams or a multiple of four. Add or remove teams first.",
                    len(teams),
                )
                % {"count": len(teams)}
            }
        ) from error
    SeasonPlan.objects.filter(competition=competition).delete()
    plan = SeasonPlan.objects.create(
        competition=competition, match_days=match_days, double=double, created_by=by
    )
    PlannedPlace.objects.bulk_create(
        PlannedPlace(plan=plan, match_day=day, group=group, team_id=team)
        for day, groups in enumerate(drawn.days, start=1)
        for group, members in enumerate(groups, start=1)
        for team in members
    )
    return plan


@transaction.atomic
def season_plan_swap(
    *, competition: Competition, match_day: int, teams: Sequence[Team], by: User
) -> list[PlannedPlace]:
    """Swap two teams between their groups of a planned match day, until that match day is
    made (``policies.may_change_season_plan``). Returns the two places changed."""
    competition = Competition.objects.select_for_update().get(pk=competition.pk)
    enforce(
        policies.may_change_season_plan(
            competition=competition, user=by, made=_made(competition), match_day=match_day
        )
    )
    plan = SeasonPlan.objects.filter(competition=competition).first()
    if plan is None:
        raise ValidationError({"plan": _("The competition has no season plan; draw one first.")})
    if not 1 <= match_day <= plan.match_days:
        raise ValidationError(
            {
                "match_day": _("The season plan has match days 1 to %(most)d.")
                % {"most": plan.match_days}
            }
        )
    if len(teams) != 2 or teams[0].pk == teams[1].pk:
        raise ValidationError({"teams": _("Name two different teams to swap.")})
    places = {
        place.team_id: place
        for place in plan.places.select_for_update()
        .filter(match_day=match_day, team__in=[team.pk for team in teams])
        .select_related("team")
    }
    for team in teams:
        if team.pk not in places:
            raise ValidationError(
                {
                    "teams": _("%(team)s is not planned on match day %(number)d.")
                    % {"team": team.name, "number": match_day}
                }
            )
    first, second = places[teams[0].pk], places[teams[1].pk]
    if first.group == second.group:
        raise ValidationError(
            {
                "teams": _(
                    "%(first)s and %(second)s are in the same group of match day %(number)d; "
                    "swap teams of two different groups."
                )
                % {"first": first.team.name, "second": second.team.name, "number": match_day}
            }
        )
    first.group, second.group = second.group, first.group
    PlannedPlace.objects.bulk_update([first, second], ["group"])
    return [first, second]


# The API's way of naming a player ------------------------------------------------------------


@transaction.atomic
def team_player_add(
    *,
    team: Team,
    by: User,
    player_id: int | None = None,
    ddv_number: str = "",
    first_name: str = "",
    last_name: str = "",
    club: str = "",
    captain: bool = False,
) -> TeamMember:
    """Add a person to a team, named by their record (``player_id``), by their DDV number alone,
    or by name (club, DDV number) as a tournament registers them: the known person is found,
    else a new one made (``player_find_or_create``). Nothing is made when the team refuses him."""
    enforce(policies.may_manage_competition(competition=team.competition, user=by))
    player: Player | None
    if player_id is not None:
        player = Player.objects.filter(pk=player_id).first()
        if player is None:
            raise ValidationError({"player_id": _("No person has this number.")})
    elif first_name.strip() or last_name.strip():
        if not first_name.strip() or not last_name.strip():
            field = "last_name" if first_name.strip() else "first_name"
            raise ValidationError({field: _("A new person needs a first and a last name.")})
        player = tournament_services.player_find_or_create(
            first_name=first_name, last_name=last_name, club=club, ddv_number=ddv_number
        )
    elif ddv_number.strip():
        player = Player.objects.filter(ddv_number=ddv_number.strip()).first()
        if player is None:
            raise ValidationError(
                {
                    "ddv_number": _(
                        "No person has this DDV number yet; give the first and last name too "
                        "to add a new person."
                    )
                }
            )
    else:
        raise ValidationError(
            {"player_id": _("Name the player: a person's number, a DDV number, or a name.")}
        )
    return team_member_add(team=team, player=player, by=by, captain=captain)
