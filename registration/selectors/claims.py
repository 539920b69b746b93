"""Reads of the open claims of players registered online to be a person on record (issue 44,
``services.claims``): for the desk, which confirms them after comparing an ID, and for the
organiser's lists. Each with the person it names now and whoever else in the tournament names
or plays as that person (a conflict: only one of them is)."""

from dataclasses import dataclass

from django.db.models import Count, Q

from registration.claim_links import ClaimLink
from registration.models import Registration
from tournaments.models import Entry, Player, Tournament


@dataclass(frozen=True)
class ClaimOther:
    """Another player of the tournament who names the same person (``plays_as``: plays as
    that person already, registered by the organiser or confirmed); ``start_number`` None: on
    the waiting list."""

    start_number: int | None
    name: str
    plays_as: bool


@dataclass(frozen=True)
class OpenClaim:
    """An open claim of a player registered online: the DDV number it gave (blank: it names
    the person by name and club), the person on record it names now (None: nobody has the
    number yet), how many tournaments that person plays in, and the conflicts."""

    registration: Registration
    person: Player | None
    tournaments: int
    others: tuple[ClaimOther, ...]

    @property
    def ddv_number(self) -> str:
        return self.registration.ddv_number


def claims_open(*, tournament: Tournament) -> dict[int, OpenClaim]:
    """The open claims of the players registered online, by their entry's id: five queries,
    however many."""
    registrations = list(
        tournament.registrations.filter(
            state=Registration.State.ADMITTED, claim=Registration.Claim.OPEN
        ).select_related("entry", "claimed_person")
    )
    if not registrations:
        return {}
    numbers = {r.ddv_number for r in registrations if r.ddv_number}
    holders = {
        player.ddv_number: player for player in Player.objects.filter(ddv_number__in=numbers)
    }
    named = {
        r.pk: holders.get(r.ddv_number) if r.ddv_number else r.claimed_person for r in registrations
    }
    persons = {person.pk for person in named.values() if person is not None}
    counts = dict(
        Entry.objects.filter(player_id__in=persons)
        .values("player_id")
        .annotate(n=Count("tournament_id", distinct=True))
        .values_list("player_id", "n")
    )
    playing = list(
        tournament.entries.filter(player_id__in=persons).values_list(
            "pk", "start_number", "first_name", "last_name", "player_id"
        )
    )
    by_name = {r.claimed_person_id for r in registrations if not r.ddv_number}
    naming = list(
        tournament.registrations.exclude(state=Registration.State.CANCELLED)
        .filter(claim__in=[Registration.Claim.OPEN, Registration.Claim.CONFIRMED])
        .filter(Q(ddv_number__in=numbers) | Q(ddv_number="", claimed_person_id__in=by_name))
        .select_related("entry")
    )
    found: dict[int, OpenClaim] = {}
    for registration in registrations:
        assert registration.entry is not None  # admitted: it has its entry
        person = named[registration.pk]
        others = [
            ClaimOther(start_number=number, name=f"{first} {last}", plays_as=True)
            for pk, number, first, last, player_id in playing
            if person is not None and player_id == person.pk and pk != registration.entry_id
        ]
        shown = {other.start_number for other in others}
        others += [
            ClaimOther(
                start_number=other.entry.start_number if other.entry else None,
                name=other.name,
                plays_as=False,
            )
            for other in naming
            if other.pk != registration.pk
            and (
                other.ddv_number == registration.ddv_number
                if registration.ddv_number
                else not other.ddv_number
                and other.claimed_person_id == registration.claimed_person_id
            )
            and (other.entry is None or other.entry.start_number not in shown)
        ]
        found[registration.entry.pk] = OpenClaim(
            registration=registration,
            person=person,
            tournaments=counts.get(person.pk, 0) if person is not None else 0,
            others=tuple(others),
        )
    return found


def claim_link_find(*, link: ClaimLink) -> Registration | None:
    """The registration a claim link was made for (``claim_links``), while it names the
    person and the DDV number the link was mailed for; None for one deleted or changed since.
    """
    registration = (
        Registration.objects.select_related("tournament", "entry", "claimed_person")
        .filter(pk=link.registration_id, ddv_number=link.ddv_number)
        .first()
    )
    if registration is None or registration.claimed_person_id != link.person_id:
        return None
    return registration
