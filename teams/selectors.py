"""Reads of team competitions: the competitions one may see, a match day's groups with their
teams' points and match points, the season table and the knock-out bracket. Points are read
off the confirmed scoresheets (``SeatResult``, penalty points included, as in the individual
standings) and scored by the core (``doko.team_scoring``)."""

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Prefetch, Q, QuerySet, Sum
from django.http import Http404
from django.shortcuts import get_object_or_404

from doko import season_plan as season_planning
from doko import team_scoring
from teams import policies
from teams.models import (
    Competition,
    Group,
    GroupTeam,
    LineUp,
    MatchDay,
    OrganiserOffer,
    SeasonPlan,
    Team,
    TeamMember,
)
from tournaments import play
from tournaments.models import Round, SeatResult, Table


def competitions_visible(*, user: User | AnonymousUser) -> QuerySet[Competition]:
    """The public competitions and those the user organises, newest first."""
    competitions = Competition.objects.all()
    if user.is_authenticated and user.is_superuser:
        return competitions
    if user.is_authenticated:
        return competitions.filter(Q(is_public=True) | Q(organisers=user)).distinct()
    return competitions.filter(is_public=True)


def competition_get(*, slug: str, user: User | AnonymousUser) -> Competition:
    """A competition the user may read (404 otherwise: a hidden one is not shown to exist)."""
    competition = Competition.objects.filter(slug=slug).first()
    if competition is None or policies.may_read_competition(competition=competition, user=user):
        raise Http404
    return competition


def teams_of(*, competition: Competition) -> list[Team]:
    """The competition's teams with their players (captain first), in two queries."""
    return list(
        competition.teams.prefetch_related(
            _members_prefetch(),
        ).order_by("name")
    )


def _members_prefetch() -> Prefetch:
    return Prefetch(
        "members",
        queryset=TeamMember.objects.select_related("player").order_by(
            "-is_captain", "player__last_name", "player__first_name"
        ),
    )


def match_days_of(*, competition: Competition) -> list[MatchDay]:
    """The competition's match days with their tournaments, in order."""
    return list(competition.match_days.select_related("tournament").order_by("number"))


def match_day_get(*, competition: Competition, number: int) -> MatchDay:
    match_day = (
        competition.match_days.select_related("tournament", "competition")
        .filter(number=number)
        .first()
    )
    if match_day is None:
        raise Http404
    return match_day


def match_day_drawn_rounds(*, match_day: MatchDay) -> list[int]:
    """The numbers of the match day's rounds drawn (seated, running or over): once one is, the
    match day stays (``policies.may_delete_match_day``)."""
    return list(
        match_day.tournament.rounds.exclude(status=Round.Status.PLANNED)
        .order_by("number")
        .values_list("number", flat=True)
    )


@dataclass(frozen=True)
class LineUpRow:
    round_number: int
    players: tuple[str, ...]  # the names of the places 1-4


def line_ups_of(*, match_day: MatchDay, team: Team) -> list[LineUpRow]:
    """A team's line-up of each round of the match day (places without a player: empty)."""
    rows: dict[int, list[str]] = {
        number: [""] * 4 for number in range(1, match_day.tournament.planned_rounds + 1)
    }
    for line in LineUp.objects.filter(match_day=match_day, team=team).select_related("entry"):
        if line.round_number in rows:
            rows[line.round_number][line.place - 1] = line.entry.name
    return [LineUpRow(round_number=n, players=tuple(rows[n])) for n in sorted(rows)]


# Results -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HalfResult:
    """A team's result in one half of a double match day: its points there and the match
    points they give on their own (None while no sheet of the half is confirmed)."""

    points: int
    match_points: Fraction | None


@dataclass(frozen=True)
class TeamResult:
    """A team's line in its group of a match day: its players' summed points on confirmed
    sheets, the match points they give (None while no sheet is confirmed), its place in the
    group, and in a knock-out tie whether it goes through (None: not known yet, or level at
    the cut and not decided). On a double match day ``halves`` holds the two halves, each
    scored on its own, and ``match_points`` is their sum; otherwise it is empty."""

    team: Team
    points: int
    match_points: Fraction | None
    place: int
    through: bool | None
    halves: tuple[HalfResult, ...] = ()


@dataclass(frozen=True)
class GroupResult:
    group: Group
    rows: tuple[TeamResult, ...]
    complete: bool  # every sheet of the match day confirmed: the match points are final
    level_at_cut: bool  # a knock-out tie level at the cut, waiting for the director


def team_points(*, match_day: MatchDay) -> dict[int, int]:
    """Each team's points on the match day's confirmed sheets: the sum over its players of
    every round (game points, penalty points, less deductions: ``SeatResult.points``)."""
    return _confirmed_points(match_day)[0]


def halves(*, match_day: MatchDay) -> list[range]:
    """The round numbers of each half of a double match day (the first half of the planned
    rounds, then the second); a single match day is one "half" of all its rounds."""
    planned = match_day.tournament.planned_rounds
    if not match_day.double:
        return [range(1, planned + 1)]
    return [range(1, planned // 2 + 1), range(planned // 2 + 1, planned + 1)]


def _confirmed_points(
    match_day: MatchDay, rounds: range | None = None
) -> tuple[dict[int, int], set[int]]:
    """``team_points`` (of ``rounds`` only, if given), and the teams that have a player on a
    confirmed sheet."""
    results = SeatResult.objects.filter(
        round__tournament_id=match_day.tournament_id, confirmed=True
    )
    if rounds is not None:
        results = results.filter(round__number__gte=rounds.start, round__number__lt=rounds.stop)
    by_entry = dict(
        results.values("entry_id").annotate(total=Sum("points")).values_list("entry_id", "total")
    )
    team_of = dict(
        LineUp.objects.filter(match_day=match_day).values_list("entry_id", "team_id").distinct()
    )
    points = dict.fromkeys(
        GroupTeam.objects.filter(match_day=match_day).values_list("team_id", flat=True), 0
    )
    scored = set()
    for entry_id, total in by_entry.items():
        team = team_of.get(entry_id)
        if team is not None:
            points[team] = points.get(team, 0) + total
            scored.add(team)
    return points, scored


def match_day_complete(*, match_day: MatchDay) -> bool:
    """Whether every planned round of the match day is drawn and every sheet of it confirmed
    (TSR 8.5.2): then its match points are final."""
    tournament = match_day.tournament
    tables = Table.objects.filter(round__tournament=tournament)
    drawn = tables.values("round_id").distinct().count()
    return drawn >= tournament.planned_rounds and play.recorded().unconfirmed(tables=tables) == 0


def group_results(*, match_day: MatchDay) -> list[GroupResult]:
    """Each group of the match day, its teams by points with their match points (4, 3, 2, 1;
    ties as the competition sets) or, in a knock-out round, who goes through."""
    competition = match_day.competition
    points, scored = _confirmed_points(match_day)
    # A double match day: each half scored 4/3/2/1 on its own (DDV Bundesliga).
    by_half = (
        [_confirmed_points(match_day, rounds) for rounds in halves(match_day=match_day)]
        if match_day.double
        else []
    )
    complete = match_day_complete(match_day=match_day)
    places = list(GroupTeam.objects.filter(match_day=match_day).select_related("team", "group"))
    results = []
    for group in sorted({place.group for place in places}, key=lambda group: group.number):
        members = [place for place in places if place.group_id == group.pk]
        group_points = {place.team_id: points.get(place.team_id, 0) for place in members}
        # Match points once the group has a confirmed sheet (provisional until ``complete``).
        won = (
            team_scoring.match_points(group_points, ties=competition.ties)
            if scored & set(group_points)
            else {}
        )
        half_results: dict[int, list[HalfResult]] = {place.team_id: [] for place in members}
        for half_points, half_scored in by_half:
            in_half = {team: half_points.get(team, 0) for team in group_points}
            half_won = (
                team_scoring.match_points(in_half, ties=competition.ties)
                if half_scored & set(in_half)
                else {}
            )
            for team, value in in_half.items():
                half_results[team].append(HalfResult(points=value, match_points=half_won.get(team)))
        if by_half:
            won = {
                team: sum((half.match_points or Fraction(0) for half in results_), Fraction(0))
                for team, results_ in half_results.items()
                if any(half.match_points is not None for half in results_)
            }
        order = sorted(members, key=lambda place: (-group_points[place.team_id], place.team.name))
        through: dict[int, bool | None] = {}
        level = False
        if group.advance and complete:
            through, level = _through(members, group_points, group.advance)
        rows = tuple(
            TeamResult(
                team=place.team,
                points=group_points[place.team_id],
                match_points=won.get(place.team_id),
                place=1
                + sum(value > group_points[place.team_id] for value in group_points.values()),
                through=through.get(place.team_id),
                halves=tuple(half_results[place.team_id]),
            )
            for place in order
        )
        results.append(GroupResult(group=group, rows=rows, complete=complete, level_at_cut=level))
    return results


def _through(
    members: Sequence[GroupTeam], points: dict[int, int], advance: int
) -> tuple[dict[int, bool | None], bool]:
    """Who goes through a knock-out tie: the best ``advance`` by points; teams level at the cut
    by the director's decision (``GroupTeam.through``), else undecided (None)."""
    ordered = sorted(points.values(), reverse=True)
    cut = ordered[advance - 1]
    above = sum(value > cut for value in ordered)
    at_cut = [place for place in members if points[place.team_id] == cut]
    through: dict[int, bool | None] = {}
    if above + len(at_cut) == advance:
        return {place.team_id: points[place.team_id] >= cut for place in members}, False
    for place in members:
        value = points[place.team_id]
        through[place.team_id] = True if value > cut else False if value < cut else place.through
    return through, any(place.through is None for place in at_cut)


# The season table -----------------------------------------------------------------------------


def match_days_not_counted(*, competition: Competition) -> list[int]:
    """The numbers of the group stage's match days that the season table does not count yet
    (a sheet of theirs is not confirmed, or a round not drawn)."""
    return [
        match_day.number
        for match_day in competition.match_days.filter(stage=MatchDay.Stage.GROUPS)
        .select_related("tournament")
        .order_by("number")
        if not match_day_complete(match_day=match_day)
    ]


@dataclass(frozen=True)
class SeasonLine:
    team: Team
    match_points: Fraction
    game_points: int
    rank: int
    shared: bool
    zone: str  # "promotion", "relegation" or ""
    # False before any match day counts: every team equal, none ranked above another.
    ranked: bool = True


def season_table(*, competition: Competition) -> list[SeasonLine]:
    """The season table over the group stage's complete match days (every sheet confirmed, so
    the match points are final): match points summed, then the competition's tie-breaks; the
    promotion and relegation places marked (once a match day counts). A match day under way
    shows on its own page."""
    meetings: list[dict[int, tuple[Fraction | int, int]]] = []
    for match_day in competition.match_days.filter(stage=MatchDay.Stage.GROUPS).select_related(
        "tournament", "competition"
    ):
        for result in group_results(match_day=match_day):
            if not result.complete:
                break
            if match_day.double:  # each half a meeting of its own (direct comparison too)
                for half in range(len(halves(match_day=match_day))):
                    meetings.append(
                        {
                            row.team.pk: (
                                row.halves[half].match_points or 0,
                                row.halves[half].points,
                            )
                            for row in result.rows
                        }
                    )
                continue
            meetings.append(
                {row.team.pk: (row.match_points or 0, row.points) for row in result.rows}
            )
    # Before a match day counts nobody stands on a promotion or relegation place.
    counted = bool(meetings)
    teams = {team.pk: team for team in competition.teams.all()}
    for team_id in teams:  # a team yet to play stands at the bottom with nothing
        if not any(team_id in meeting for meeting in meetings):
            meetings.append({team_id: (0, 0)})
    rows = team_scoring.season_table(meetings, tiebreaks=tuple(competition.tiebreaks.split(",")))
    count = len(rows)
    return [
        SeasonLine(
            team=teams[row.team],
            match_points=row.match_points,
            game_points=row.game_points,
            rank=row.rank,
            shared=row.shared,
            zone=""
            if not counted
            else "promotion"
            if index < competition.promotion_places
            else "relegation"
            if index >= count - competition.relegation_places
            else "",
            ranked=counted,
        )
        for index, row in enumerate(rows)
    ]


@dataclass(frozen=True)
class BracketRound:
    match_day: MatchDay
    ties: tuple[GroupResult, ...]


def bracket(*, competition: Competition) -> list[BracketRound]:
    """The knock-out rounds of a team championship, in order, with their ties."""
    return [
        BracketRound(match_day=match_day, ties=tuple(group_results(match_day=match_day)))
        for match_day in competition.match_days.filter(stage=MatchDay.Stage.KNOCKOUT)
        .select_related("tournament", "competition")
        .order_by("number")
    ]


@dataclass(frozen=True)
class LineUpPlace:
    round_number: int
    place: int
    player_id: int
    name: str
    start_number: int  # in the match day's tournament


def line_up_places(*, match_day: MatchDay, team: Team) -> list[LineUpPlace]:
    """A team's line-up of each round of the match day, place by place, with each player's
    person and start number (for the API: the seats of a round name start numbers)."""
    return [
        LineUpPlace(
            round_number=line.round_number,
            place=line.place,
            player_id=line.entry.player_id,
            name=line.entry.name,
            start_number=line.entry.start_number,
        )
        for line in LineUp.objects.filter(match_day=match_day, team=team)
        .select_related("entry")
        .order_by("round_number", "place")
    ]


# The season plan -----------------------------------------------------------------------------


@dataclass(frozen=True)
class PlannedDay:
    number: int
    groups: tuple[tuple[int, tuple[Team, ...]], ...]  # (group number, its teams by name)
    made: bool  # the match day exists: its groups are its own now


@dataclass(frozen=True)
class PlanView:
    """A league's season plan as the page, the print and the API show it: each planned match
    day's groups, and how often every pair of teams meets (``matrix[i][j]`` for ``teams[i]``
    and ``teams[j]``; None on the diagonal)."""

    plan: SeasonPlan
    days: tuple[PlannedDay, ...]
    teams: tuple[Team, ...]
    matrix: tuple[tuple[int | None, ...], ...]
    most: int
    least_most: int  # no plan of this field has every pair meet fewer times at most
    every_pair_once: bool
    never_met: int  # pairs of planned teams that never meet


def season_plan_of(*, competition: Competition) -> PlanView | None:
    """The competition's season plan (None: it has none), in three queries."""
    plan = SeasonPlan.objects.filter(competition=competition).first()
    if plan is None:
        return None
    made = set(competition.match_days.values_list("number", flat=True))
    grouped: dict[int, dict[int, list[Team]]] = {}
    for place in plan.places.select_related("team").order_by("match_day", "group", "team__name"):
        grouped.setdefault(place.match_day, {}).setdefault(place.group, []).append(place.team)
    days = tuple(
        PlannedDay(
            number=number,
            groups=tuple(
                (group, tuple(teams)) for group, teams in sorted(grouped.get(number, {}).items())
            ),
            made=number in made,
        )
        for number in range(1, plan.match_days + 1)
    )
    teams = tuple(
        sorted(
            {team.pk: team for day in days for _, group in day.groups for team in group}.values(),
            key=lambda team: team.name,
        )
    )
    met = season_planning.pair_meetings(
        [[[team.pk for team in group] for _, group in day.groups] for day in days]
    )
    matrix = tuple(
        tuple(
            None if a.pk == b.pk else met.get((min(a.pk, b.pk), max(a.pk, b.pk)), 0) for b in teams
        )
        for a in teams
    )
    pairs = len(teams) * (len(teams) - 1) // 2
    return PlanView(
        plan=plan,
        days=days,
        teams=teams,
        matrix=matrix,
        most=max(met.values(), default=0),
        least_most=season_planning.least_most(len(teams), plan.match_days) if teams else 0,
        every_pair_once=pairs > 0 and len(met) == pairs and set(met.values()) == {1},
        never_met=pairs - len(met),
    )


# The pages' reads -----------------------------------------------------------------------------


@dataclass(frozen=True)
class TeamLineUps:
    team: Team
    rows: tuple[LineUpRow, ...]


def line_ups_by_team(*, match_day: MatchDay) -> list[TeamLineUps]:
    """Every team's line-up of each round of the match day, the teams by name: two queries
    however many teams play (``line_ups_of`` for all of them)."""
    planned = match_day.tournament.planned_rounds
    teams = [
        place.team
        for place in GroupTeam.objects.filter(match_day=match_day)
        .select_related("team")
        .order_by("team__name")
    ]
    rows: dict[int, dict[int, list[str]]] = {
        team.pk: {number: [""] * 4 for number in range(1, planned + 1)} for team in teams
    }
    for line in LineUp.objects.filter(match_day=match_day).select_related("entry"):
        by_round = rows.get(line.team_id, {})
        if line.round_number in by_round:
            by_round[line.round_number][line.place - 1] = line.entry.name
    return [
        TeamLineUps(
            team=team,
            rows=tuple(
                LineUpRow(round_number=n, players=tuple(names))
                for n, names in sorted(rows[team.pk].items())
            ),
        )
        for team in teams
    ]


def team_get(*, competition: Competition, pk: int) -> Team:
    """A team of the competition with its players (captain first), or 404."""
    team = competition.teams.filter(pk=pk).prefetch_related(_members_prefetch()).first()
    if team is None:
        raise Http404
    return team


def offer_account(*, who: str) -> User | None:
    """The active account an offer to ``who`` (a user name or an e-mail address, case aside)
    goes to: the one of exactly that user name, else the only one of that user name in another
    case, else the only one with that address; None if there is none or the address is
    several accounts'. One query, whatever the answer (``services.competition_organiser_offer``),
    so that neither the answer nor its time tells whether an account exists."""
    found = list(
        User.objects.filter(Q(username__iexact=who) | Q(email__iexact=who), is_active=True)[:10]
    )
    for named in (
        [user for user in found if user.username == who],
        [user for user in found if user.username.casefold() == who.casefold()],
        [user for user in found if user.email.casefold() == who.casefold()],
    ):
        if named:
            return named[0] if len(named) == 1 else None
    return None


def organiser_offers(*, competition: Competition) -> QuerySet[OrganiserOffer]:
    """The competition's offers to organise it not answered or withdrawn, run out or not."""
    return (
        OrganiserOffer.objects.filter(
            competition=competition,
            accepted_at__isnull=True,
            declined_at__isnull=True,
            withdrawn_at__isnull=True,
        )
        .select_related("competition", "offered_by")
        .order_by("created_at", "pk")
    )


def organiser_offer_detail(*, competition: Competition, pk: int) -> OrganiserOffer:
    return get_object_or_404(
        OrganiserOffer.objects.filter(competition=competition).select_related(
            "competition", "offered_by"
        ),
        pk=pk,
    )


def organiser_offers_for(*, user: User) -> list[OrganiserOffer]:
    """The competitions ``user`` is offered to organise and may still accept, oldest first."""
    return list(
        OrganiserOffer.objects.open()
        .filter(user=user)
        .select_related("competition", "offered_by")
        .order_by("created_at", "pk")
    )


def organiser_offer_of(*, user: User, pk: int) -> OrganiserOffer:
    """One of the offers made to ``user``; a 404 for anyone else's, as for one that does not
    exist."""
    return get_object_or_404(
        OrganiserOffer.objects.filter(user=user).select_related("competition", "offered_by"),
        pk=pk,
    )


def competitions_organised(*, user: User) -> QuerySet[Competition]:
    """The competitions ``user`` is one of the organisers of."""
    return Competition.objects.filter(organisers=user).order_by("name", "season")
