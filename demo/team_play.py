"""The demo's team competitions, built through the teams app's services like the pages and the
API build them:

- a league, "Doppelkopf-Liga Nord" 2026/27, of 8 teams: match day 1 played three weeks ago
  (two groups of four teams, four rounds, every sheet confirmed; a reserve came in from round 3),
  match day 2 today with round 1 running (some sheets handed in, some confirmed);
- a team championship, "Deutsche Mannschaftsmeisterschaft 2026", of 8 teams: its group stage
  played, its knock-out round of the best four teams drawn.

Each match day is a tournament: its rounds are played the way the demo plays its individual
tournaments (``demo.services._play_round``: simulated, correct sheets kept at the table).
"""

import datetime
import random
from collections.abc import Callable, Sequence

from django.contrib.auth.models import User

from teams import selectors as team_selectors
from teams import services as teams
from teams.models import Competition, MatchDay, Team
from tournaments import services
from tournaments.models import Round

# The league's teams: name, club (the last, ``RESERVE_TEAM``, names a reserve too).
LEAGUE_TEAMS = (
    ("Doko-Freunde Hannover I", "Doko-Freunde Hannover"),
    ("Kreuz-Dame Braunschweig", "DK Kreuz-Dame Braunschweig"),
    ("Doko-Füchse Lüneburg", "Doko-Füchse Lüneburg"),
    ("Re-Partei Bremen", "Re-Partei Bremen"),
    ("Schwarzspieler Hamburg", "Schwarzspieler Hamburg"),
    ("Vorbehalt Oldenburg", "Vorbehalt Oldenburg"),
    ("Pik-Buben Lübeck", "DKC Pik-Bube Lübeck"),
    ("Karo-Asse Celle", "Karo-Asse Celle"),
)
CHAMPIONSHIP_TEAMS = (
    ("Karlchen Köln", "Karlchen Köln"),
    ("DC Münster", "Doppelkopf-Club Münster"),
    ("Fuchsjäger Bielefeld", "Fuchsjäger Bielefeld"),
    ("Herz-Zehn Kassel", "DKC Herz-Zehn Kassel"),
    ("Doko Rhein-Main", "Doko Rhein-Main"),
    ("Keine 90 Dortmund", "Keine 90 Dortmund"),
    ("Pflichtsolisten Göttingen", "Die Pflichtsolisten Göttingen"),
    ("Doko-Freunde Hannover", "Doko-Freunde Hannover"),
)
# The team of the league with a reserve (a fifth player), who plays from round 3 of match day 1.
RESERVE_TEAM = "Karo-Asse Celle"

# ``demo.services._play_round`` and a name no other demo person has, passed in by
# ``demo.services.demo_build`` (which imports this module).
PlayRound = Callable[..., Round]
NewName = Callable[[], tuple[str, str]]


def _teams(
    *,
    competition: Competition,
    specs: Sequence[tuple[str, str]],
    new_name: NewName,
    first_number: int,
    organiser: User,
) -> list[Team]:
    """The competition's teams, each of four new persons of its club (the first the captain;
    the ``RESERVE_TEAM`` five), with DDV numbers of their own from ``first_number`` on (9xxxx:
    the individual tournaments' players have 1xxxx to 8xxxx)."""
    made, number = [], first_number
    for name, club in specs:
        team = teams.team_create(competition=competition, name=name, club=club, by=organiser)
        for index in range(5 if name == RESERVE_TEAM else 4):
            first, last = new_name()
            player = services.player_create(
                first_name=first, last_name=last, club=club, ddv_number=f"9{number:04d}"
            )
            number += 1
            teams.team_member_add(team=team, player=player, by=organiser, captain=index == 0)
        made.append(team)
    return made


def _groups(rng: random.Random, made: Sequence[Team]) -> list[list[Team]]:
    """Two groups of four, drawn from the demo's seed (the same seed, the same groups)."""
    order = list(made)
    rng.shuffle(order)
    return [order[:4], order[4:]]


def _reserve_in(*, match_day: MatchDay, organiser: User, from_round: int) -> None:
    """The reserve of ``RESERVE_TEAM`` plays place 4 from ``from_round`` on: he takes over the
    seats the draw gave that place (``teams.services.line_up_set``)."""
    team = match_day.competition.teams.get(name=RESERVE_TEAM)
    # The first four named play (the line-up's default); the fifth is the reserve.
    members = [member.player for member in team.members.select_related("player").order_by("pk")]
    teams.line_up_set(
        match_day=match_day,
        team=team,
        players=[*members[:3], members[4]],
        by=organiser,
        from_round=from_round,
    )


def _played_match_day(
    *,
    competition: Competition,
    played_on: datetime.date,
    venue: str,
    groups: list[list[Team]],
    rng: random.Random,
    now: datetime.datetime,
    organiser: User,
    play_round: PlayRound,
    reserve_from_round: int | None = None,
) -> MatchDay:
    """A match day played on ``played_on`` from 10 o'clock, every round and sheet; with
    ``reserve_from_round`` the reserve comes in from that round."""
    match_day = teams.match_day_create(
        competition=competition, starts_on=played_on, venue=venue, groups=groups, by=organiser
    )
    start = datetime.datetime.combine(played_on, datetime.time(10), tzinfo=now.tzinfo)
    for number in range(match_day.tournament.planned_rounds):
        if reserve_from_round is not None and number + 1 == reserve_from_round:
            _reserve_in(match_day=match_day, organiser=organiser, from_round=reserve_from_round)
        play_round(
            rng=rng,
            tournament=match_day.tournament,
            started_at=start + datetime.timedelta(minutes=130 * number),
            organiser=organiser,
        )
    return match_day


def league_build(
    *,
    rng: random.Random,
    now: datetime.datetime,
    organiser: User,
    new_name: NewName,
    play_round: PlayRound,
) -> Competition:
    """The league "Doppelkopf-Liga Nord" 2026/27: 8 teams, one promoted and two relegated;
    match day 1 played three weeks ago, match day 2 today with round 1 running."""
    league = teams.competition_create(
        name="Doppelkopf-Liga Nord",
        season="2026/27",
        club="Doko-Freunde Hannover",
        promotion_places=1,
        relegation_places=2,
        by=organiser,
    )
    made = _teams(
        competition=league,
        specs=LEAGUE_TEAMS,
        new_name=new_name,
        first_number=1,
        organiser=organiser,
    )
    _played_match_day(
        competition=league,
        played_on=(now - datetime.timedelta(days=21)).date(),
        venue="Hannover, Freizeitheim Linden",
        groups=_groups(rng, made),
        rng=rng,
        now=now,
        organiser=organiser,
        play_round=play_round,
        reserve_from_round=3,
    )
    second = teams.match_day_create(
        competition=league,
        starts_on=now.date(),
        venue="Bremen, Bürgerhaus Vegesack",
        groups=_groups(rng, made),
        by=organiser,
    )
    round_1_start = now - datetime.timedelta(minutes=35)
    play_round(
        rng=rng,
        tournament=second.tournament,
        started_at=round_1_start,
        organiser=organiser,
        running_for=now - round_1_start,
    )
    return league


def championship_build(
    *,
    rng: random.Random,
    now: datetime.datetime,
    organiser: User,
    new_name: NewName,
    play_round: PlayRound,
) -> Competition:
    """The team championship "Deutsche Mannschaftsmeisterschaft 2026": 8 teams, the group stage
    played last week, the knock-out round of each group's best two drawn for next week (the
    best of the four teams is the champion)."""
    championship = teams.competition_create(
        name="Deutsche Mannschaftsmeisterschaft",
        season="2026",
        kind=Competition.Kind.CHAMPIONSHIP,
        club="Deutscher Doppelkopf-Verband (Demo)",
        by=organiser,
    )
    made = _teams(
        competition=championship,
        specs=CHAMPIONSHIP_TEAMS,
        new_name=new_name,
        first_number=101,
        organiser=organiser,
    )
    groups = _played_match_day(
        competition=championship,
        played_on=(now - datetime.timedelta(days=6)).date(),
        venue="Kassel, Stadthalle",
        groups=_groups(rng, made),
        rng=rng,
        now=now,
        organiser=organiser,
        play_round=play_round,
    )
    best = [
        row.team
        for result in team_selectors.group_results(match_day=groups)
        for row in result.rows[:2]
    ]
    final = teams.match_day_create(
        competition=championship,
        starts_on=(now + datetime.timedelta(days=8)).date(),
        venue="Kassel, Stadthalle",
        stage=MatchDay.Stage.KNOCKOUT,
        groups=[best],
        advance=1,
        by=organiser,
    )
    round_1 = services.round_create(tournament=final.tournament)
    services.round_seat(round=round_1, seed=rng.randrange(2**32))
    services.tournament_seating_publish(tournament=final.tournament)
    return championship
