"""Reads of rounds, their tables and seats, and the seating drawn so far."""

from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.models import PermissionsMixin
from django.db.models import Count, F, FilteredRelation, Prefetch, Q, QuerySet, Sum
from django.db.models.lookups import Exact
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import translation
from django.utils.functional import Promise

from doko import seating, team_seating
from tournaments import caching, lineups, play, prepared
from tournaments.models import (
    Entry,
    Round,
    Seat,
    SeatingMethod,
    SeatResult,
    Table,
    Tournament,
    TournamentRole,
)
from tournaments.prepared import Prepared
from tournaments.selectors.find import name_key
from tournaments.selectors.tournaments import AnyUser, entry_count_of


def tournament_rounds(*, tournament: Tournament) -> QuerySet[Round]:
    """The rounds with how many tables they have and how many sheets are confirmed."""
    status = play.recorded().sheet_status(table="tables")
    return tournament.rounds.annotate(
        table_count=Count("tables", distinct=True),
        confirmed_count=Count(
            "tables", filter=Exact(status, play.SheetStatus.CONFIRMED), distinct=True
        ),
    ).order_by("number")


def _round_of(tournament_id: int, number: int) -> QuerySet[Round]:
    return Round.objects.filter(tournament_id=tournament_id, number=number)


# Compiled once (``Prepared``): the round clock and the table pages that every phone at the
# venue refreshes read it, and making its SQL again cost them more than the rest of a 304.
_ROUND = Prepared(_round_of)


def round_get(*, tournament: Tournament, number: int, counts: bool = True) -> Round:
    """One round, with the counts of ``tournament_rounds`` unless ``counts`` is false (its own
    row only, for the pages that phones refresh: the counts join every table and sheet of the
    round, a few milliseconds at 500 tables); 404 if there is none."""
    if counts:
        return get_object_or_404(tournament_rounds(tournament=tournament), number=number)
    found = _ROUND(tournament.pk, number)
    if not found:
        raise Http404("No Round matches the given query.")
    round_ = found[0]
    round_.tournament = tournament  # as the tournament's related manager gives it
    return round_


def round_with_roles(*, slug: str, number: int, user: AnyUser) -> tuple[Round, set[str]]:
    """A round with its tournament, and the user's roles in the tournament (``user_roles``),
    in one query, for the pages staff keep refreshing (404 if there is no such round): a row
    per role he holds, or one without."""
    rounds = Round.objects.select_related("tournament").filter(tournament__slug=slug, number=number)
    if isinstance(user, PermissionsMixin) and user.is_superuser:
        round_ = rounds.first()
        if round_ is None:
            raise Http404
        return round_, set(TournamentRole.Role.values)
    held = FilteredRelation(
        "tournament__roles", condition=Q(tournament__roles__user_id=user.pk or 0)
    )
    found = list(rounds.annotate(held=held, role=F("held__role")))
    if not found:
        raise Http404
    return found[0], {row.role for row in found if row.role}


def rounds_drawn_with(*, round: Round) -> QuerySet[Round]:
    """The rounds whose draw is undone with this round's (``services.round_unseat``), in order:
    by the DDV method, whose draw seats a round and every later one from one plan in advance,
    the round and every later round drawn and not started; by the other methods, which draw
    one round at a time, the round alone."""
    rounds = round.tournament.rounds.filter(status=Round.Status.SEATED)
    if round.tournament.seating_method == seating.Method.DDV:
        return rounds.filter(number__gte=round.number).order_by("number")
    return rounds.filter(pk=round.pk)


def round_is_last(*, round: Round) -> bool:
    """Whether no round of the tournament comes after this one."""
    return not round.tournament.rounds.filter(number__gt=round.number).exists()


@dataclass(frozen=True)
class SeatRow:
    position: int
    entry: Entry
    points: int | None  # the player's points on this table's sheet so far; None without hands
    moved: bool = False  # moved by a withdrawal or late entry after the seating was published
    team: str = ""  # on a team match day: the name of the team the player plays for
    second: bool = False  # a Springer's seat at his second table (TSR 10)


@dataclass(frozen=True)
class TableRow:
    table: Table
    seats: list[SeatRow]
    hand_count: int = 0
    sheet_status: str | None = None  # a ``play.SheetStatus``; None: the table has no sheet
    keeper_seat: int | None = None  # the seat the sheet was handed over to (TSR 3.1.1), if so

    @property
    def sheet_status_label(self) -> str | Promise:
        return play.SheetStatus(self.sheet_status).label if self.sheet_status else ""


def _tables(round_: Round) -> QuerySet[Table]:
    """The round's tables with their seats, and each seat's points on the sheet so far: game
    points, initialled penalty points (TSR 8.2.2), less deductions (TSR 9.6.2 b)."""
    recorded = play.recorded()
    seats = recorded.with_deductions(Seat.objects.select_related("entry"))
    return (
        recorded.with_points(round_.tables.all())
        .prefetch_related(Prefetch("seats", queryset=seats.order_by("position")))
        .order_by("number")
    )


def _seat_points(table: Table, seat: Seat) -> int | None:
    if not play.hand_count_of(table) or play.points_withheld(table):
        return None
    position = seat.position
    return (
        (play.points_of(table, position) or 0)
        + play.penalty_of(table, position)
        - play.deducted_of(seat)
    )


def _table_row(
    table: Table, teams: dict[int, str] | None = None, seats: list[Seat] | None = None
) -> TableRow:
    """``seats``: the table's, as ``_tables`` reads them; None: prefetched along with it."""
    teams = teams or {}
    return TableRow(
        table=table,
        sheet_status=play.sheet_status_of(table),
        keeper_seat=play.keeper_seat_of(table),
        hand_count=play.hand_count_of(table),
        seats=[
            SeatRow(
                position=seat.position,
                entry=seat.entry,
                points=_seat_points(table, seat),
                moved=seat.moved_at is not None,
                team=teams.get(seat.entry_id, ""),
                second=seat.second,
            )
            for seat in (table.seats.all() if seats is None else seats)
        ],
    )


def round_tables(*, round: Round, with_teams: bool = False) -> list[TableRow]:
    """Every table of a round with its players in seat order and their points so far; with
    ``with_teams``, on a team match day, each player's team, so that the round's page shows
    four different teams at a table (the exports and results need no team: no query)."""
    teams: dict[int, str] = {}
    if with_teams and round.tournament.is_match_day:
        field = lineups.team_field(tournament=round.tournament)
        if field is not None:
            teams = {
                entry: field.names[team]
                for team, entries in field.teams.items()
                for entry in entries
                if team in field.names
            }
    return [_table_row(table, teams) for table in _tables(round)]


def _table_of_round(round_id: int, number: int) -> QuerySet[Table]:
    return play.recorded().with_points(Table.objects.filter(round_id=round_id, number=number))


def _seats_of_table(round_id: int, number: int) -> QuerySet[Seat]:
    seats = play.recorded().with_deductions(Seat.objects.select_related("entry"))
    return seats.filter(table__round_id=round_id, table__number=number).order_by("position")


# A table's page, built after every change to its sheet for all its phones: ``_tables``'s
# queryset, its points summed for five seats with their penalties in subqueries, cost more to
# build and compile than to run (about 10 ms of a 30 ms answer on a field of 500 tables).
_TABLE = Prepared(_table_of_round)
_SEATS = Prepared(_seats_of_table)


def table_get(*, round: Round, number: int) -> TableRow:
    """One table of the round as ``round_tables`` has it (404 if there is none), in two reads
    compiled once (``Prepared``) and sent together (``prepared.run``: one round trip, where
    every phone at a changed table asks for its page again): the table with its points and
    sheet, and its seats, both found by the round and the table's number."""
    return table_get_with(round=round, number=number)[0]


def table_get_with(
    *, round: Round, number: int, also: Sequence[prepared.Step] = ()
) -> tuple[TableRow, list]:
    """``table_get``, with the caller's reads ``also`` sent in the same round trip (found by
    the table's round and number, as the table is), and their results."""
    found, seats, *results = prepared.run(
        _TABLE.bound(round.pk, number), _SEATS.bound(round.pk, number), *also
    )
    if not found:
        raise Http404("No table matches the given query.")
    table = found[0]
    table.round = round
    return _table_row(table, seats=seats), results


def table_etag(*, round: Round, number: int, mode: str) -> str | None:
    """The ETag of a table's page for a reader without roles, from the versions the services
    raise (``caching.round_changed`` for the round's seating and players, ``table_changed``
    for the table's sheet and decisions), the round's state, the reader's ``standings_mode``
    and the language: a refresh is answered 304 without reading the table. Read before the
    page is built, so that a change committed meanwhile raises it past what the page shows.
    None when the cache cannot be reached."""
    version = caching.table_version(round.pk, number)
    if version is None:
        return None
    shown = (round.pk, number, *version, round.status, mode, translation.get_language())
    return 'W/"table-' + "-".join(str(part) for part in shown) + '"'


def seat_tokens(*, table: Table) -> dict[int, str]:
    """The private key of each seat of a table, by position, in seat order. Secret: for the
    organiser's eyes only."""
    return dict(table.seats.order_by("position").values_list("position", "token"))


def _plans(*, tournament: Tournament, before: int) -> dict[int, seating.SeatingPlan]:
    """The seating of each round numbered below ``before``, by round number, in one query."""
    tables: dict[tuple[int, int], list[int]] = {}
    for round_number, table_number, entry_id in (
        Seat.objects.filter(round__tournament=tournament, round__number__lt=before)
        .order_by("round__number", "table__number", "position")
        .values_list("round__number", "table__number", "entry_id")
    ):
        tables.setdefault((round_number, table_number), []).append(entry_id)
    plans: dict[int, list[tuple[int, ...]]] = {}
    for (round_number, _table), players in tables.items():
        plans.setdefault(round_number, []).append(tuple(players))
    return {number: seating.SeatingPlan(tables=tuple(plan)) for number, plan in plans.items()}


def seating_history(*, tournament: Tournament, before: int) -> list[seating.SeatingPlan]:
    """The seating of the tournament's rounds numbered below ``before``, in order."""
    plans = _plans(tournament=tournament, before=before)
    return [plans[number] for number in sorted(plans)]


def seating_other_rounds(*, round: Round) -> list[seating.SeatingPlan]:
    """The seating of every other round of the tournament, earlier and drawn in advance."""
    plans = _plans(tournament=round.tournament, before=2**15)
    plans.pop(round.number, None)
    return [plans[number] for number in sorted(plans)]


def seating_quality(*, round: Round) -> seating.Quality | None:
    """The quality report of the seating up to this round: repeat meetings against the best
    possible, seat positions, tables of five (None before the round is drawn). On a team match
    day the best possible counts that team-mates never meet (``doko.team_seating``)."""
    plans = _plans(tournament=round.tournament, before=round.number + 1)
    this = plans.pop(round.number, None)
    if this is None:
        return None
    history = [plans[number] for number in sorted(plans)]
    team_field = lineups.team_field(tournament=round.tournament)
    if team_field is not None:
        return team_seating.team_quality([this], teams=team_field.teams, history=history)
    return seating.quality([this], history=history)


def springer_corrections(results: QuerySet[SeatResult]) -> dict[int, int]:
    """For the Springers among ``results`` (TSR 10), by entry: what the sum of their results
    but those of second seats (``second=False``) lacks for each of his rounds to count as the
    mean of his two tables (``doko.standings.springer_result``). One query."""
    rows = results.filter(entry_id__in=results.filter(second=True).values("entry_id")).values_list(
        "entry_id", "round_id", "second", "points"
    )
    by_round: dict[tuple[int, int], dict[bool, int]] = {}
    for entry_id, round_id, second, points in rows.order_by():
        by_round.setdefault((entry_id, round_id), {})[second] = points
    corrections: dict[int, int] = {}
    for (entry_id, _round), pair in by_round.items():
        if True not in pair:
            continue
        first = pair.get(False)
        change = pair[True] if first is None else (first + pair[True]) // 2 - first
        corrections[entry_id] = corrections.get(entry_id, 0) + change
    return corrections


def entry_points(*, tournament: Tournament, before: int | None = None) -> dict[int, int]:
    """Each entry's points on the confirmed scoresheets (of rounds before ``before``): game
    points, initialled penalty points (TSR 8.2.2), less deductions (TSR 9.6.2 b). One query;
    with a Springer (TSR 10) two, his round counting as the mean of his two tables."""
    results = SeatResult.objects.filter(round__tournament=tournament, confirmed=True)
    if before is not None:
        results = results.filter(round__number__lt=before)
    if not tournament.springer:
        return dict(
            results.values("entry_id")
            .annotate(total=Sum("points"))
            .values_list("entry_id", "total")
        )
    points = dict(
        results.filter(second=False)
        .values("entry_id")
        .annotate(total=Sum("points"))
        .values_list("entry_id", "total")
    )
    for entry_id, change in springer_corrections(results).items():
        points[entry_id] = points.get(entry_id, 0) + change
    return points


def entry_ranking(*, tournament: Tournament, before: int | None = None) -> list[int]:
    """Active entries best first by points on confirmed sheets, then by start number."""
    points = entry_points(tournament=tournament, before=before)
    active = tournament.entries.filter(status=Entry.Status.ACTIVE).values_list("pk", "start_number")
    return [pk for pk, number in sorted(active, key=lambda e: (-points.get(e[0], 0), e[1]))]


def seating_shortfall(*, tournament: Tournament) -> seating.SeatingError | None:
    """Why the tournament's active players cannot be seated as it stands (tables of four only,
    TSR 8.3.1, or with tables of five, TSR 10.1), with how many more or fewer would do; None
    when they can. Counted by ``tournament_get`` already, else in one query.

    A team match day has none: the team draw seats each round's line-ups (four players per
    team), not its active players, whose reserves brought in make a count that need not
    divide by four, and says itself what keeps a round from being drawn."""
    if tournament.is_match_day:
        return None
    players = entry_count_of(tournament)
    if players is None:
        players = tournament.entries.filter(status=Entry.Status.ACTIVE).count()
    try:
        seating.table_sizes(
            players,
            tables_of_five=tournament.allow_tables_of_five,
            large_tables=tournament.allow_tables_of_six_and_seven,
        )
    except seating.SeatingError as error:
        return error
    return None


def current_round(*, tournament: Tournament, published_only: bool = True) -> Round | None:
    """The round being played, or else the next one drawn, or else the last one."""
    candidates = tournament.rounds.order_by("number")
    if published_only:
        candidates = candidates.exclude(published_at=None)
    rounds = list(candidates)
    for wanted in (Round.Status.RUNNING, Round.Status.FINISHED, Round.Status.SEATED):
        for round_ in rounds:
            if round_.status == wanted:
                return round_
    return rounds[-1] if rounds else None


@dataclass(frozen=True)
class ScreenShows:
    """What the venue screen shows: a round (its clock and seating), or, once the rounds
    published so far are over, the standings after the last of them (``standings_after``)."""

    round: Round | None
    standings_after: int | None = None


def screen_shows(*, tournament: Tournament) -> ScreenShows:
    """The venue screen's round: the one being played; one whose time has ended while a sheet
    is still out; else the next round drawn and published. A round closed, or ended with every
    sheet confirmed, is over: the screen moves on to the next published round, or else to the
    standings, rather than keep showing its clock at 00:00."""
    rounds = list(tournament.rounds.exclude(published_at=None).order_by("number"))
    for round_ in rounds:
        if round_.status == Round.Status.RUNNING:
            return ScreenShows(round=round_)
    for round_ in rounds:
        if round_.status == Round.Status.FINISHED and play.recorded().unconfirmed(
            tables=round_.tables.all()
        ):
            return ScreenShows(round=round_)
    for round_ in rounds:
        if round_.status == Round.Status.SEATED:
            return ScreenShows(round=round_)
    over = [r for r in rounds if r.status in {Round.Status.FINISHED, Round.Status.CLOSED}]
    if over:
        return ScreenShows(round=None, standings_after=over[-1].number)
    return ScreenShows(round=rounds[-1] if rounds else None)


@dataclass(frozen=True)
class RoundNeighbours:
    """The numbers of the rounds before and after one (None: there is none), and, if there is
    no next round yet, the number the next would have while the tournament plans it and it is
    added by hand (by the DDV method the draw of the first round adds every later one)."""

    previous: int | None
    next: int | None
    next_planned: int | None


def round_neighbours(*, round: Round) -> RoundNeighbours:
    """The rounds either side of ``round``, for the links between the round pages."""
    numbers = set(
        round.tournament.rounds.filter(number__in=[round.number - 1, round.number + 1]).values_list(
            "number", flat=True
        )
    )
    following = round.number + 1
    return RoundNeighbours(
        previous=round.number - 1 if round.number - 1 in numbers else None,
        next=following if following in numbers else None,
        next_planned=following
        if following not in numbers
        and following <= round.tournament.planned_rounds
        and round.tournament.seating_method != SeatingMethod.DDV
        else None,
    )


@dataclass(frozen=True)
class NamedSeat:
    name: str  # "Last, First"
    start_number: int
    table: int
    position: int
    moved: bool


def round_seats_by_name(*, round: Round) -> list[NamedSeat]:
    """Every seat of a round, alphabetically by the player's last name, in one query."""
    seats = [
        NamedSeat(
            name=f"{last}, {first}",
            start_number=number,
            table=table,
            position=position,
            moved=moved_at is not None,
        )
        for last, first, number, table, position, moved_at in round.seats.values_list(
            "entry__last_name",
            "entry__first_name",
            "entry__start_number",
            "table__number",
            "position",
            "moved_at",
        )
    ]
    return sorted(seats, key=lambda seat: (name_key(seat.name), seat.start_number))


def rulers_missing(*, tournament: Tournament) -> list[str]:
    """Who is not appointed yet of those who rule on the day (TSR 8.2.1: "Es werden ein
    Schiedsrichter und ein Schiedsgericht eingesetzt"): ``TournamentRole.Role`` values,
    ``adjudicator`` (neither the adjudicator nor a deputy) and ``panel``. Without a panel an
    appeal is refused (adjudication's ``may_lodge_appeal``), so the round page warns first."""
    held = set(
        TournamentRole.objects.filter(tournament_id=tournament.pk).values_list("role", flat=True)
    )
    missing = []
    if not held & {TournamentRole.Role.ADJUDICATOR, TournamentRole.Role.DEPUTY}:
        missing.append(TournamentRole.Role.ADJUDICATOR.value)
    if TournamentRole.Role.PANEL not in held:
        missing.append(TournamentRole.Role.PANEL.value)
    return missing
