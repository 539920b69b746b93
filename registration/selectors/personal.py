"""What a personal link (``/p/<key>/``) opens: the player's entry, or, before they have a
place, their registration on the waiting list (or cancelled); and what the player's page and
the API show of it (``personal_view``)."""

import datetime
from dataclasses import dataclass

from django.db.models import Q
from django.utils import timezone

from doko.rules.deal import sheet_keeper
from registration.models import Registration
from registration.policies import may_withdraw_oneself
from tournaments import play, policies
from tournaments.models import Entry, Round, Seat, Table
from tournaments.policies import Refusal
from tournaments.selectors.clock import TablePlayingTime, table_playing_time
from tournaments.selectors.results import standings_read, standings_row

KEY_LENGTH = 32  # Entry.link_key, Registration.key: 24 random bytes, URL-safe base64


def personal_link_find(*, key: str) -> Entry | Registration | None:
    """The entry whose personal link this is; else the registration not (yet) admitted that
    holds the key; None for a key that opens nothing (made up, or replaced)."""
    if not 0 < len(key) <= KEY_LENGTH or "\x00" in key:
        return None
    entry = Entry.objects.select_related("tournament").filter(link_key=key).first()
    if entry is not None:
        return entry
    return (
        Registration.objects.select_related("tournament")
        .filter(key=key)
        .exclude(state=Registration.State.ADMITTED)
        .first()
    )


def waiting_place(*, registration: Registration) -> int | None:
    """The place shown on the waiting list: 1 + the waiting registrations before it in the
    list's order (waiting position, when they registered, pk); None when not waiting."""
    position = registration.waiting_position
    if registration.state != Registration.State.WAITING or position is None:
        return None
    created = registration.created_at
    before = registration.tournament.registrations.filter(
        Q(waiting_position__lt=position)
        | Q(waiting_position=position, created_at__lt=created)
        | Q(waiting_position=position, created_at=created, pk__lt=registration.pk),
        state=Registration.State.WAITING,
    )
    return before.count() + 1


@dataclass(frozen=True)
class PersonalSeat:
    """The player's place in one round whose seating is published."""

    round: Round
    table: int
    position: int
    keeper: int  # the seat that keeps the table's sheet (TSR 3.1.1, 8.4.1)
    players: list[tuple[int, Entry]]  # everyone at the table, the player too, in seat order
    token: str  # the seat's own link key (``/s/<token>/``)
    playing_time: TablePlayingTime | None  # the table's clock, while the round is played
    moved: bool  # moved by a withdrawal or late entry after the seating was published
    now: datetime.datetime  # when the clock was read

    @property
    def seconds_left(self) -> int | None:
        """The table's playing time left while it runs (TSR 8.5.1); None before the start."""
        if self.playing_time is None or self.playing_time.ends_at is None:
            return None
        return max(int((self.playing_time.ends_at - self.now).total_seconds()), 0)

    @property
    def keeps_sheet(self) -> bool:
        return self.position == self.keeper


@dataclass(frozen=True)
class PersonalRound:
    """The round the player goes to now, or next: its seat once its seating is published."""

    number: int
    round: Round | None  # None: not created yet
    published: bool
    seat: PersonalSeat | None  # None: not published, or the player has no seat in it
    second_seat: PersonalSeat | None = None  # a Springer's at his second table (TSR 10)

    @property
    def status(self) -> str:
        return self.round.status if self.round is not None else Round.Status.PLANNED

    @property
    def status_label(self) -> str:
        return str(Round.Status(self.status).label)


@dataclass(frozen=True)
class PersonalResult:
    """One round with a confirmed sheet, as the player played it."""

    round_number: int
    table: int
    points: int
    placing: int


@dataclass(frozen=True)
class PersonalView:
    entry: Entry
    current: PersonalRound | None  # the first round published and not closed
    next: PersonalRound | None  # the round after it (or the first to come), if one is to come
    results: list[PersonalResult]
    standings_public: bool
    rank: int | None  # with the standings public only
    points: int | None
    withdraw_refusal: Refusal | None  # why the player cannot withdraw here; None: they can
    live: bool  # something on the page can change soon: it refreshes itself

    @property
    def sheet_seat(self) -> PersonalSeat | None:
        """The seat whose sheet the player opens now: seated in the current round."""
        return self.current.seat if self.current is not None else None


def _seat(seat: Seat, *, players: list[Seat], keeper_seat: int | None) -> PersonalSeat:
    round_ = seat.round
    size = len(players)
    playing = round_.status in (Round.Status.RUNNING, Round.Status.FINISHED)
    return PersonalSeat(
        round=round_,
        table=seat.table.number,
        position=seat.position,
        keeper=sheet_keeper(keeper_seat=keeper_seat, table_size=size),
        players=[(other.position, other.entry) for other in players],
        token=seat.token,
        playing_time=table_playing_time(table=seat.table, size=size) if playing else None,
        moved=seat.moved_at is not None,
        now=timezone.now(),
    )


def personal_view(*, entry: Entry) -> PersonalView:
    """Everything the player's page shows: where to sit now and next (published seating only,
    ``policies.may_read_seating`` as anyone without a role), the results of the confirmed
    sheets, the rank when the standings are public, and whether they may still withdraw here
    (``may_withdraw_oneself``). A fixed number of queries."""
    tournament = entry.tournament
    rounds = list(tournament.rounds.order_by("number"))
    current_round, next_number = _current_round(rounds)
    next_round = {r.number: r for r in rounds}.get(next_number)
    wanted = [r for r in (current_round, next_round) if r is not None and r.published_at]
    seats = _SeatsOf.read(entry=entry, rounds=wanted)
    current = seats.round(current_round.number, current_round) if current_round else None
    next_ = (
        seats.round(next_number, next_round)
        if next_round is not None or next_number <= tournament.planned_rounds
        else None
    )
    results = _confirmed_results(entry)
    public = policies.may_read_standings(tournament=tournament, roles=()) is None
    row = (
        standings_row(table=standings_read(tournament=tournament), entry_id=entry.pk)
        if public
        else None
    )
    drawn = any(r.status != Round.Status.PLANNED for r in rounds)
    return PersonalView(
        entry=entry,
        current=current,
        next=next_,
        results=results,
        standings_public=public,
        rank=row.rank if row is not None else None,
        points=row.points if row is not None and row.played else None,
        withdraw_refusal=may_withdraw_oneself(entry=entry, drawn=drawn),
        live=tournament.status != tournament.Status.FINISHED
        and any(
            r.status in (Round.Status.SEATED, Round.Status.RUNNING, Round.Status.FINISHED)
            for r in rounds
        ),
    )


def _current_round(rounds: list[Round]) -> tuple[Round | None, int]:
    """The round the player plays, or plays next: the first published and not closed; and the
    number of the round after it (after the last closed one if none is published). A finished
    round is not closed until its sheets are confirmed, so its sheet stays at hand while the
    next round's seat, once published, shows beneath it."""
    published = [
        r
        for r in rounds
        if r.status != Round.Status.CLOSED and policies.may_read_seating(round=r, roles=()) is None
    ]
    current_round = published[0] if published else None
    if current_round is not None:
        return current_round, current_round.number + 1
    closed = [r.number for r in rounds if r.status == Round.Status.CLOSED]
    return None, max(closed, default=0) + 1


@dataclass(frozen=True)
class _SeatsOf:
    """The player's seats in some rounds, with the players at each of their tables and who
    keeps its sheet: read in three queries."""

    seats: dict[int, Seat]  # by round
    seconds: dict[int, Seat]  # a Springer's second seats (TSR 10), by round
    at_table: dict[int, list[Seat]]  # by table, in seat order
    keepers: dict[int, int | None]  # by table

    @classmethod
    def read(cls, *, entry: Entry, rounds: list[Round]) -> "_SeatsOf":
        seats: dict[int, Seat] = {}
        seconds: dict[int, Seat] = {}
        for seat in Seat.objects.filter(entry=entry, round__in=rounds).select_related(
            "round__tournament", "table__round__tournament"
        ):
            (seconds if seat.second else seats)[seat.round_id] = seat
        tables = [seat.table_id for seat in [*seats.values(), *seconds.values()]]
        at_table: dict[int, list[Seat]] = {}
        for other in (
            Seat.objects.filter(table__in=tables).select_related("entry").order_by("position")
        ):
            at_table.setdefault(other.table_id, []).append(other)
        keepers = dict(
            Table.objects.filter(pk__in=tables)
            .annotate(keeper=play.recorded().keeper_seat(table=""))
            .values_list("pk", "keeper")
        )
        return cls(seats=seats, seconds=seconds, at_table=at_table, keepers=keepers)

    def round(self, number: int, round_: Round | None) -> PersonalRound:
        """Round ``number`` as the player's page shows it: the seat only once it is published."""
        shown = round_ is not None and policies.may_read_seating(round=round_, roles=()) is None
        seat = self.seats.get(round_.pk) if shown and round_ is not None else None
        second = self.seconds.get(round_.pk) if shown and round_ is not None else None
        return PersonalRound(
            number=number,
            round=round_,
            published=shown,
            seat=self._seat(seat),
            second_seat=self._seat(second),
        )

    def _seat(self, seat: Seat | None) -> PersonalSeat | None:
        if seat is None:
            return None
        return _seat(
            seat,
            players=self.at_table.get(seat.table_id, []),
            keeper_seat=self.keepers.get(seat.table_id),
        )


def _confirmed_results(entry: Entry) -> list[PersonalResult]:
    """The player's results of the confirmed sheets, by round."""
    return [
        PersonalResult(
            round_number=result.round.number,
            table=result.table.number,
            points=result.points,
            placing=result.placing,
        )
        for result in entry.results.filter(confirmed=True)
        .select_related("round", "table")
        .order_by("round__number")
    ]
