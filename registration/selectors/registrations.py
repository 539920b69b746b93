"""Reads of the online registration: its state and counts for the public page, the tournament's
page and the organiser's page, and the lists of those registered online and waiting."""

from dataclasses import dataclass

from django.db.models import Count, Exists, IntegerField, OuterRef, Subquery
from django.utils import timezone

from registration.models import OnlineRegistration, Registration
from tournaments.models import Entry, Round, Tournament


@dataclass(frozen=True)
class RegistrationCounts:
    """The registration's settings (None: not set up) and how full it is."""

    settings: OnlineRegistration | None
    active: int  # active entries, those the organiser added by hand among them
    online: int  # registered online (admitted)
    waiting: int
    is_open: bool

    @property
    def capacity(self) -> int | None:
        return self.settings.capacity if self.settings else None

    @property
    def places_left(self) -> int | None:
        """Free places (None: no limit); 0 when full or beyond."""
        if self.capacity is None:
            return None
        return max(0, self.capacity - self.active)

    @property
    def over_capacity(self) -> int:
        """How many more active players than places (a capacity lowered below them)."""
        if self.capacity is None:
            return 0
        return max(0, self.active - self.capacity)


def _count(queryset) -> Subquery:
    """A count of ``queryset`` (filtered by ``OuterRef("tournament")``) as a subquery."""
    return Subquery(
        queryset.order_by().values("tournament").annotate(n=Count("pk")).values("n"),
        output_field=IntegerField(),
    )


def registration_counts(*, tournament: Tournament) -> RegistrationCounts:
    """The registration's state and counts, in one query (the tournament's page shows them)."""
    settings = (
        OnlineRegistration.objects.filter(tournament=tournament)
        .annotate(
            active=_count(
                Entry.objects.filter(tournament=OuterRef("tournament"), status=Entry.Status.ACTIVE)
            ),
            online=_count(
                Registration.objects.filter(
                    tournament=OuterRef("tournament"), state=Registration.State.ADMITTED
                )
            ),
            waiting=_count(
                Registration.objects.filter(
                    tournament=OuterRef("tournament"), state=Registration.State.WAITING
                )
            ),
            drawn=Exists(
                Round.objects.filter(tournament=OuterRef("tournament")).exclude(
                    status=Round.Status.PLANNED
                )
            ),
        )
        .first()
    )
    if settings is None:
        return RegistrationCounts(settings=None, active=0, online=0, waiting=0, is_open=False)
    is_open = (
        settings.is_open(timezone.now())
        and tournament.status != Tournament.Status.FINISHED
        and not settings.drawn
    )
    return RegistrationCounts(
        settings=settings,
        active=settings.active or 0,
        online=settings.online or 0,
        waiting=settings.waiting or 0,
        is_open=is_open,
    )


@dataclass(frozen=True)
class WaitingLine:
    """A registration on the waiting list, with the place the player is shown."""

    registration: Registration
    place: int


def registrations_admitted(*, tournament: Tournament) -> list[Registration]:
    """Those registered online who have a place, by start number, with their entries."""
    return list(
        tournament.registrations.filter(state=Registration.State.ADMITTED)
        .select_related("entry__player")
        .order_by("entry__start_number", "pk")
    )


def waiting_list(*, tournament: Tournament) -> list[WaitingLine]:
    """The waiting list in order, each with its place (1 for the first)."""
    waiting = tournament.registrations.filter(state=Registration.State.WAITING).order_by(
        "waiting_position", "created_at", "pk"
    )
    return [
        WaitingLine(registration=registration, place=place)
        for place, registration in enumerate(waiting, start=1)
    ]


def registrations_all(*, tournament: Tournament) -> list[Registration]:
    """Every registration of the tournament (the API's list), the waiting ones in order first
    by state, with their entries."""
    return list(
        tournament.registrations.select_related("entry").order_by(
            "state", "waiting_position", "created_at", "pk"
        )
    )
