"""Team competitions for tests, made through the services the application uses."""

from doko.rules.contracts import Contract
from doko.rules.deal import HANDS_PER_MATCH
from doko.rules.sheet import HandLine
from doko.sample_sheets import normal, solo
from teams import services
from teams.models import Competition, MatchDay, Team
from tests import factories


def league(*, teams: int = 8, members: int = 4, by=None, **settings) -> Competition:
    """A league of ``teams`` teams of ``members`` players each (the first the captain)."""
    by = by or factories.user(is_superuser=True)
    competition = services.competition_create(
        name=settings.pop("name", "Testliga"),
        season=settings.pop("season", "2026/27"),
        by=by,
        **settings,
    )
    for number in range(1, teams + 1):
        team = services.team_create(
            competition=competition, name=f"Team {number}", club=f"Club {number}", by=by
        )
        for index in range(members):
            services.team_member_add(
                team=team, player=factories.player(club=f"Club {number}"), by=by, captain=index == 0
            )
    return competition


def organiser_of(competition: Competition):
    return competition.organisers.first()


def teams(competition: Competition) -> list[Team]:
    return list(competition.teams.order_by("name"))


def favouring(seat: int) -> list[HandLine]:
    """A correct match of 24 hands (20 + 4 compulsory solos, TSR 8.5.1) in which ``seat``
    wins every normal game."""
    size = 4
    lines, dealer, owing = [], 1, list(range(1, size + 1))
    partner = seat % size + 1
    for main in range(HANDS_PER_MATCH[size] - size):
        if owing and main % 2 == 1:
            lines.append(solo(dealer, owing.pop(0), 2, contract=Contract.COMPULSORY_SOLO))
        lines.append(normal(dealer, (seat, partner), 1 + main % 3))
        dealer = dealer % size + 1
    return lines


def play_round(match_day: MatchDay, number: int, favoured_team: Team) -> None:
    """Draw (if needed), start and play round ``number``: at every table the player of
    ``favoured_team`` (or seat 1) wins every normal game; every sheet confirmed."""
    from tournaments import services as tournament_services

    tournament = match_day.tournament
    round_ = tournament.rounds.filter(number=number).first()
    if round_ is None or round_.status == round_.Status.PLANNED:
        round_ = round_ or tournament_services.round_create(tournament=tournament)
        round_ = tournament_services.round_seat(round=round_, seed=7)
    if round_.published_at is None:
        round_ = tournament_services.round_publish(round=round_)
    round_ = tournament_services.round_start(round=round_)
    members = set(
        favoured_team.line_ups.filter(match_day=match_day).values_list("entry_id", flat=True)
    )
    for table in round_.tables.all():
        seats = {seat.entry_id: seat.position for seat in table.seats.all()}
        seat = next((position for entry, position in seats.items() if entry in members), 1)
        factories.sheet_confirmed(table.scoresheet, favouring(seat))
    round_ = tournament.rounds.get(pk=round_.pk)
    if round_.status == round_.Status.RUNNING:
        round_ = factories.round_end(round_)
    if round_.status == round_.Status.FINISHED:
        tournament_services.round_close(round=round_)
