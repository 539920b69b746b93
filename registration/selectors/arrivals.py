"""Reads for the check-in at the door: the counts, the active players to tick off, and what
withdrawing the no-shows would do (``services.no_shows_withdraw``), read without running it."""

import hashlib
from dataclasses import dataclass

from django.db.models import Count, Q, QuerySet

from registration.models import OnlineRegistration, Registration
from tournaments.models import Entry, Round, Tournament
from tournaments.selectors.find import entry_filter


@dataclass(frozen=True)
class CheckInCounts:
    """The active players (``registered``), those of them checked in (``arrived``) and not
    (``missing``); the waiting list's length and the withdrawn players, who are not listed."""

    registered: int
    arrived: int
    missing: int
    waiting: int
    withdrawn: int


def check_in_counts(*, tournament: Tournament) -> CheckInCounts:
    """The counts at the top of the check-in page, in two queries."""
    counts = tournament.entries.aggregate(
        registered=Count("pk", filter=Q(status=Entry.Status.ACTIVE)),
        arrived=Count("pk", filter=Q(status=Entry.Status.ACTIVE, arrived_at__isnull=False)),
        withdrawn=Count("pk", filter=Q(status=Entry.Status.WITHDRAWN)),
    )
    waiting = tournament.registrations.filter(state=Registration.State.WAITING).count()
    return CheckInCounts(
        registered=counts["registered"],
        arrived=counts["arrived"],
        missing=counts["registered"] - counts["arrived"],
        waiting=waiting,
        withdrawn=counts["withdrawn"],
    )


def check_in_list(
    *, tournament: Tournament, query: str = "", missing_only: bool = False
) -> QuerySet[Entry]:
    """The active players by start number, those a search finds (a start number, or a name in
    any case or spelling: ``entry_filter``), perhaps only those not checked in yet."""
    entries = tournament.entries.filter(status=Entry.Status.ACTIVE).order_by("start_number")
    if missing_only:
        entries = entries.filter(arrived_at__isnull=True)
    return entry_filter(entries, query=query) if query.strip() else entries


def check_in_etag(*, counts: CheckInCounts, entries: list[Entry], extra: str) -> str:
    """A version of what the check-in list shows (its counts and rows, ``extra``: what else
    shapes the answer, the search, the language, the reader's rights), for a 304 while the
    desk's phones refresh and nothing changed."""
    stamp = hashlib.sha256(repr((counts, extra)).encode())
    for entry in entries:
        stamp.update(
            repr((entry.pk, entry.start_number, entry.name, entry.club, entry.arrived_at)).encode()
        )
    return f'"check-in-{stamp.hexdigest()[:32]}"'


@dataclass(frozen=True)
class NoShowsPreview:
    """What withdrawing the no-shows now would do: withdraw ``missing``, and give the freed
    places to ``moving_up`` (the first of the waiting list, in order)."""

    missing: list[Entry]
    moving_up: list[Registration]


def no_shows_preview(*, tournament: Tournament) -> NoShowsPreview:
    """Every active player not checked in, and who would move up from the waiting list: as
    ``waiting_list_advance`` fills the places after the withdrawal, the first K waiting
    registrations, K = the capacity less the players checked in (nobody without a capacity,
    or once a round is drawn)."""
    active = tournament.entries.filter(status=Entry.Status.ACTIVE)
    missing = list(active.filter(arrived_at__isnull=True).order_by("start_number"))
    moving_up: list[Registration] = []
    settings = OnlineRegistration.objects.filter(tournament=tournament).first()
    drawn = tournament.rounds.exclude(status=Round.Status.PLANNED).exists()
    if missing and settings is not None and settings.capacity is not None and not drawn:
        free = settings.capacity - active.filter(arrived_at__isnull=False).count()
        if free > 0:
            moving_up = list(
                tournament.registrations.filter(state=Registration.State.WAITING).order_by(
                    "waiting_position", "created_at", "pk"
                )[:free]
            )
    return NoShowsPreview(missing=missing, moving_up=moving_up)
