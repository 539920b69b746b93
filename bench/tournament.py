"""The synthetic tournament the suites share, built once per run in the run's database.

2,000 players (of a pool of 3,000) × 10 closed rounds at 500 tables of four, every sheet confirmed
with a simulated 24-hand match (its compulsory solos included), the results written from the sheets as
a confirm writes them, and the standings built. ``shared()`` builds it on the first call and
returns the same one after that; the suites that only read it leave it as it is, and those that
change it (a confirm, a draft sheet, a drawn round) either change nothing the others measure or
roll their change back.
"""

import datetime
import random
import time
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

PLAYERS, ROUNDS = 2000, 10
POOL = 3000  # the players' pool; the standings suite draws the ranking list's fields from it
SLUG = "gross"
MATCHES = 200  # simulated matches, dealt out to the sheets in turn
SEED = 7


@dataclass(frozen=True)
class Shared:
    pool: list  # Player, POOL of them
    tournament: object  # Tournament
    tables: list  # Table, round by round, each round's in number order
    seconds: float  # how long the build took

    @property
    def per_round(self) -> int:
        return len(self.tables) // ROUNDS

    def round_tables(self, number: int) -> list:
        return self.tables[(number - 1) * self.per_round : number * self.per_round]


built: Shared | None = None  # the run's, once shared() has built it


def shared() -> Shared:
    """The run's tournament, built on the first call (and its build time printed)."""
    global built
    if built is None:
        print(
            f"building the synthetic tournament: {PLAYERS:,} players × {ROUNDS} rounds, "
            f"{PLAYERS // 4 * ROUNDS:,} sheets ...",
            flush=True,
        )
        start = time.perf_counter()
        pool = players()
        tournament, tables = played(pool, slug=SLUG, players=PLAYERS, rounds=ROUNDS, seed=SEED)
        seconds = time.perf_counter() - start
        built = Shared(pool=pool, tournament=tournament, tables=tables, seconds=seconds)
        print(f"synthetic tournament built in {seconds:.1f} s", flush=True)
    return built


def players(count: int = POOL) -> list:
    from tournaments.models import Player

    return Player.objects.bulk_create(
        Player(first_name=f"Vorname{n}", last_name=f"Müller-{n}", club=f"Club {n % 150}")
        for n in range(1, count + 1)
    )


def tournament_row(*, slug: str, ends_on: datetime.date, **fields):
    from tournaments.models import Tournament

    return Tournament.objects.create(
        name=f"Turnier {slug}",
        slug=slug,
        starts_on=ends_on - datetime.timedelta(days=1),
        ends_on=ends_on,
        **{"planned_rounds": ROUNDS, **fields},
    )


def closed_rounds(tournament, at: datetime.datetime, count: int = ROUNDS):
    from tournaments.models import Round

    return Round.objects.bulk_create(
        Round(
            tournament=tournament,
            number=number,
            status=Round.Status.CLOSED,
            published_at=at,
            started_at=at,
            ended_at=at + datetime.timedelta(minutes=100),
        )
        for number in range(1, count + 1)
    )


def played(pool, *, slug: str, players: int, rounds: int, seed: int):
    """A running tournament of ``players`` from the pool and ``rounds`` closed rounds at
    tables of four, every sheet confirmed with a simulated 24-hand match (its compulsory
    solos included); its results written from the sheets as a confirm writes them, and the standings
    built after that commit (Celery runs in-process here, bench.backends)."""
    from tournaments import services

    tournament, tables = _sheets(pool, slug=slug, players=players, rounds=rounds, seed=seed)
    written = services.results_refresh_all(tournament=tournament)
    assert written == players * rounds, f"{slug}: {written} results"
    tournament.refresh_from_db()
    assert tournament.standings_version, f"{slug}: no standings built"
    return tournament, tables


@transaction.atomic
def _sheets(pool, *, slug: str, players: int, rounds: int, seed: int):
    from doko.simulation import simulate_match
    from scoring.models import Hand, Scoresheet
    from tournaments.models import Entry, Seat, Table, Tournament

    rng = random.Random(seed)
    now = timezone.now()
    tournament = tournament_row(
        slug=slug,
        ends_on=timezone.localdate(),
        status=Tournament.Status.RUNNING,
        counts_for_ranking=False,
        planned_rounds=rounds,
    )
    entries = Entry.objects.bulk_create(
        Entry(tournament=tournament, player=player, start_number=number)
        for number, player in enumerate(pool[:players], start=1)
    )
    played = closed_rounds(tournament, now - datetime.timedelta(hours=20), rounds)
    per_round = players // 4
    tables = Table.objects.bulk_create(
        Table(round=round_, number=number)
        for round_ in played
        for number in range(1, per_round + 1)
    )
    seats = []
    for round_ in played:
        order = entries[:]
        rng.shuffle(order)
        for index, entry in enumerate(order):
            table = tables[(round_.number - 1) * per_round + index // 4]
            seats.append(Seat(round=round_, table=table, position=index % 4 + 1, entry=entry))
    seats = Seat.objects.bulk_create(seats)
    sheets = Scoresheet.objects.bulk_create(
        Scoresheet(
            table=table,
            status=Scoresheet.Status.CONFIRMED,
            submitted_at=now,
            submitted_by_seat=seats[4 * index + 3],
            confirmed_at=now,
            confirmed_by_seat=seats[4 * index],
        )
        for index, table in enumerate(tables)
    )
    matches = [simulate_match(rng=rng, table_size=4, hands_per_match=24) for _ in range(MATCHES)]
    Hand.objects.bulk_create(
        Hand.from_line(scoresheet=sheet, number=number, line=line)
        for index, sheet in enumerate(sheets)
        for number, line in enumerate(matches[index % MATCHES], start=1)
    )
    return tournament, tables


def job_builder(kind: str, *, round_number: int = ROUNDS, table=None, site: str = ""):
    """What a Celery worker runs for a printout job of the run's tournament (one of
    ``printing.jobs.JOB_BUILDERS``: reading the round from the database, then building
    the PDF), as a function of no arguments that returns the PDF's bytes. The job itself is not
    stored."""
    from printing import jobs as printing_jobs
    from printing.models import Job

    tournament = shared().tournament
    job = Job(
        tournament=tournament,
        round=tournament.rounds.get(number=round_number),
        table=table,
        kind=kind,
        site_url=site,
    )
    build = printing_jobs.JOB_BUILDERS[kind]

    def run() -> bytes:
        _name, content = build(job, lambda _percent: None)
        return content

    return run
