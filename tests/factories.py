"""Test data, made through the services the application uses."""

import datetime
import itertools

from django.contrib.auth import get_user_model
from django.utils import timezone

from doko.rules.deal import sheet_keeper
from registration.models import OnlineRegistration, Registration
from scoring import services as scoring_services
from scoring.services import Actor
from tournaments import services
from tournaments.models import Entry, Player, Round, Tournament, TournamentRole

_counter = itertools.count(1)


def user(*, username: str | None = None, **fields):
    return get_user_model().objects.create_user(
        username=username or f"user{next(_counter)}", password="a-long-test-password", **fields
    )


def player(**fields) -> Player:
    number = next(_counter)
    defaults = {"first_name": f"Vorname{number}", "last_name": f"Nachname{number}"}
    return services.player_create(**{**defaults, **fields})


def tournament(*, players: int = 0, organiser=None, **fields) -> Tournament:
    defaults = {"name": f"Turnier {next(_counter)}", "starts_on": datetime.date(2026, 11, 21)}
    created = services.tournament_create(organiser=organiser, **{**defaults, **fields})
    for _ in range(players):
        services.entry_create(tournament=created, player=player())
    return created


def adjudicator(tournament: Tournament):
    """A new user who is the tournament's adjudicator: starts and ends the playing time,
    grants extra time (TSR 8.2.1, 8.5.1)."""
    adjudicator = user()
    role_grant(tournament=tournament, user=adjudicator, role=TournamentRole.Role.ADJUDICATOR)
    return adjudicator


def round_end(round_: Round, **fields) -> Round:
    """End the round's playing time as its adjudicator announces it (TSR 8.5.1)."""
    return services.round_end(round=round_, by=adjudicator(round_.tournament), **fields)


def entries(tournament: Tournament) -> list[Entry]:
    return list(tournament.entries.order_by("start_number"))


def seated_round(tournament: Tournament, *, seed: int = 1, publish: bool = True) -> Round:
    """The next round, drawn (and published, unless ``publish`` is false)."""
    round_ = services.round_create(tournament=tournament)
    round_ = services.round_seat(round=round_, seed=seed)
    return services.round_publish(round=round_) if publish else round_


def keeper(sheet) -> Actor:
    """The table's scorekeeper through their link: seat 4, at a table of five seat 5, or the
    seat the sheet was handed over to (TSR 3.1.1)."""
    seats = list(sheet.table.seats.order_by("position"))
    keeper_seat = type(sheet).objects.values_list("keeper_seat", flat=True).get(pk=sheet.pk)
    return Actor(seat=seats[sheet_keeper(keeper_seat=keeper_seat, table_size=len(seats)) - 1])


def checker(sheet) -> Actor:
    """Another player of the table, who confirms the sheet: seat 1."""
    return Actor(seat=sheet.table.seats.get(position=1))


def sheet_confirmed(sheet, hands):
    """Enter, hand in and confirm a sheet as the players of its table do."""
    sheet = scoring_services.scoresheet_hands_replace(
        scoresheet=sheet, hands=hands, version=sheet.version, by=keeper(sheet)
    )
    sheet = scoring_services.scoresheet_submit(
        scoresheet=sheet, version=sheet.version, by=keeper(sheet)
    )
    return scoring_services.scoresheet_confirm(
        scoresheet=sheet, version=sheet.version, by=checker(sheet)
    )


def organiser(tournament: Tournament):
    """A new user who organises the tournament (and no other)."""
    user_ = user()
    role_grant(tournament=tournament, user=user_, role=TournamentRole.Role.ORGANISER)
    return user_


def role_grant(*, tournament: Tournament, user, role: str, entry=None) -> TournamentRole:
    """A role in the tournament, as the organiser's appointment leaves it
    (``adjudication.services.role_grant``, which also asks who appoints and logs it): for
    setting up a test, where nobody appoints."""
    grant, _created = TournamentRole.objects.update_or_create(
        tournament=tournament, user=user, role=role, defaults={"entry": entry}
    )
    return grant


def registration_open(
    tournament: Tournament, *, capacity: int | None = None, waiting_list: bool = True, **fields
) -> OnlineRegistration:
    """The tournament's online registration, open since yesterday until tomorrow."""
    now = timezone.now()
    return OnlineRegistration.objects.create(
        tournament=tournament,
        opens_at=now - datetime.timedelta(days=1),
        closes_at=now + datetime.timedelta(days=1),
        capacity=capacity,
        waiting_list=waiting_list,
        **fields,
    )


def waiting(tournament: Tournament, *last_names: str) -> list[Registration]:
    """Players on the tournament's waiting list, in this order ("Wartende <last name>",
    registered in German)."""
    return [
        Registration.objects.create(
            tournament=tournament,
            first_name="Wartende",
            last_name=last_name,
            email=f"{last_name.lower()}@example.org",
            state=Registration.State.WAITING,
            waiting_position=position,
            language="de",
        )
        for position, last_name in enumerate(last_names, start=1)
    ]
