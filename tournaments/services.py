"""Writes for players, tournaments, entries and rounds. Each service is one transaction."""

import datetime
import itertools
import logging
import secrets
from collections.abc import Collection

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.base import ContentFile
from django.db import transaction
from django.db.models import Count, F, Max, Q, QuerySet
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from doko import seating, standings
from doko.rules.contracts import Contract
from scoring import pdf as sheet_pdf
from scoring.models import Scoresheet
from scoring.selectors import sheet_state
from tournaments import pdf, player_import, policies, selectors
from tournaments.messages import seating_error_message
from tournaments.models import (
    Entry,
    ExtraTime,
    Job,
    Player,
    RankingList,
    Round,
    Seat,
    SeatingMethod,
    SeatResult,
    StandingsSnapshot,
    Table,
    Tournament,
    TournamentRole,
    new_seat_token,
)

logger = logging.getLogger(__name__)


def _save(instance):
    """Validate (fields, choices and the model's constraints) and save."""
    instance.full_clean()
    instance.save()
    return instance


@transaction.atomic
def player_create(
    *, first_name: str, last_name: str, club: str = "", ddv_number: str = ""
) -> Player:
    """Register a person who can enter tournaments."""
    return _save(
        Player(
            first_name=first_name.strip(),
            last_name=last_name.strip(),
            club=club.strip(),
            ddv_number=ddv_number.strip(),
        )
    )


def _unique_slug(name: str, starts_on: datetime.date) -> str:
    base = slugify(f"{name} {starts_on.year}")[:70] or "turnier"
    slug, suffix = base, 2
    while Tournament.objects.filter(slug=slug).exists():
        slug, suffix = f"{base}-{suffix}", suffix + 1
    return slug


@transaction.atomic
def tournament_create(
    *,
    name: str,
    starts_on: datetime.date,
    ends_on: datetime.date | None = None,
    venue: str = "",
    slug: str = "",
    planned_rounds: int = 3,
    allow_tables_of_five: bool = False,
    seating_method: SeatingMethod = SeatingMethod.RANDOM,
    is_public: bool = True,
    organiser: AbstractBaseUser | None = None,
) -> Tournament:
    """Create a tournament; the creating user becomes its organiser. Tables of four only
    (TSR 8.3.1) unless ``allow_tables_of_five`` (TSR 10)."""
    tournament = _save(
        Tournament(
            name=name.strip(),
            slug=slug or _unique_slug(name, starts_on),
            starts_on=starts_on,
            ends_on=ends_on or starts_on,
            venue=venue.strip(),
            planned_rounds=planned_rounds,
            allow_tables_of_five=allow_tables_of_five,
            seating_method=seating_method,
            is_public=is_public,
        )
    )
    if organiser is not None:
        TournamentRole.objects.create(
            tournament=tournament, user=organiser, role=TournamentRole.Role.ORGANISER
        )
    standings_schedule(tournament_id=tournament.pk)
    return tournament


@transaction.atomic
def tournament_tables_of_five_allow(*, tournament: Tournament, by: AbstractBaseUser) -> Tournament:
    """Allow tables of five (TSR 10) for the rest of the tournament, where the active players
    do not divide into tables of four (TSR 8.3.1); the organiser decides it.

    Rounds played or running keep their tables: the option counts from the next draw on. A
    round drawn but not started that waits for a substitute (it could not be seated again at
    tables of four after a disqualification) is seated again now, moving as few players as
    possible. Refused once the tournament is finished; allowing it twice changes nothing.
    """
    refusal = policies.may_allow_tables_of_five(
        roles=selectors.user_roles(user=by, tournament=tournament)
    )
    if refusal is not None:
        raise PermissionDenied(refusal)
    tournament = _locked_tournament(tournament)
    if tournament.status == Tournament.Status.FINISHED:
        raise ValidationError(
            {
                "allow_tables_of_five": _(
                    "The tournament is finished; no round is drawn any more (TSR 10)."
                )
            }
        )
    if tournament.allow_tables_of_five:
        return tournament
    tournament.allow_tables_of_five = True
    tournament.save(update_fields=["allow_tables_of_five"])
    _open_rounds_reseat(tournament=tournament, keep_going=True)
    return tournament


@transaction.atomic
def tournament_role_grant(
    *, tournament: Tournament, user: AbstractBaseUser, role: TournamentRole.Role
) -> TournamentRole:
    """Give a user a role in a tournament (TSR 8.2.1: adjudicator and arbitration panel)."""
    grant, _created = TournamentRole.objects.get_or_create(
        tournament=tournament, user=user, role=role
    )
    return grant


def _locked_tournament(tournament: Tournament) -> Tournament:
    """Lock the tournament row: changes to its field of players and seating go one at a time."""
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _next_start_number(tournament: Tournament) -> int:
    return (tournament.entries.aggregate(highest=Max("start_number"))["highest"] or 0) + 1


@transaction.atomic
def entry_create(
    *, tournament: Tournament, player: Player, start_number: int | None = None
) -> Entry:
    """Register a player, with the next free start number unless one is given.

    A late entry (rounds already drawn but not started) is seated in those rounds, moving as
    few players as possible.
    """
    tournament = _locked_tournament(tournament)
    if tournament.status == Tournament.Status.FINISHED:
        raise ValidationError(_("The tournament is finished; no more players can enter."))
    entry = _save(
        Entry(
            tournament=tournament,
            player=player,
            start_number=start_number or _next_start_number(tournament),
        )
    )
    _open_rounds_reseat(tournament=tournament)
    standings_schedule(tournament_id=tournament.pk)
    return entry


@transaction.atomic
def entry_update(
    *,
    entry: Entry,
    first_name: str,
    last_name: str,
    club: str = "",
    ddv_number: str = "",
    start_number: int,
) -> Entry:
    """Correct a registration: the player's name, club and DDV number, and the start number."""
    entry = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk)
    player = entry.player
    player.first_name = first_name.strip()
    player.last_name = last_name.strip()
    player.club = club.strip()
    player.ddv_number = ddv_number.strip()
    _save(player)
    entry.start_number = start_number
    entry.player = player
    _save(entry)
    # The player's name shows in the standings of every tournament they entered.
    for tournament_id in player.entries.values_list("tournament_id", flat=True):
        standings_schedule(tournament_id=tournament_id)
    return entry


@transaction.atomic
def entry_withdraw(*, entry: Entry) -> Entry:
    """Withdraw a player from the rest of the tournament.

    Rounds played keep their seats and results; rounds drawn but not started are re-seated,
    moving as few players as possible.
    """
    tournament = _locked_tournament(entry.tournament)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.status != Entry.Status.ACTIVE:
        raise ValidationError(
            {
                "status": _("%(player)s is not active (%(status)s).")
                % {"player": entry.player, "status": entry.get_status_display()}
            }
        )
    entry.status = Entry.Status.WITHDRAWN
    entry.save(update_fields=["status"])
    _open_rounds_reseat(tournament=tournament)
    standings_schedule(tournament_id=tournament.pk)
    return entry


@transaction.atomic
def entry_disqualify(*, entry: Entry) -> list[int]:
    """Disqualify a player (TSR 9.6.2 c), for the arbitration panel's sanction: the rounds
    played keep their seats and results, the player is marked in the standings and not ranked,
    and rounds drawn but not started are re-seated without them. Returns the numbers of the
    rounds that cannot be seated without them (the field no longer fills tables of four and
    five): they keep the seat until a substitute takes it (``entry_replace``) or the round is
    drawn again; ``round_start`` refuses them until then."""
    tournament = _locked_tournament(entry.tournament)
    entry = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk)
    if entry.status == Entry.Status.DISQUALIFIED:
        raise ValidationError(
            {"status": _("%(player)s is disqualified already.") % {"player": entry.player}}
        )
    was_active = entry.status == Entry.Status.ACTIVE
    entry.status = Entry.Status.DISQUALIFIED
    entry.save(update_fields=["status"])
    standings_schedule(tournament_id=tournament.pk)
    return _open_rounds_reseat(tournament=tournament, keep_going=True) if was_active else []


@transaction.atomic
def entry_reinstate(*, entry: Entry) -> Entry:
    """Take a withdrawn player back; rounds drawn but not started seat them again."""
    tournament = _locked_tournament(entry.tournament)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.status != Entry.Status.WITHDRAWN:
        raise ValidationError(
            {
                "status": _("Only a withdrawn player can be taken back, not one %(status)s.")
                % {"status": entry.get_status_display()}
            }
        )
    if tournament.status == Tournament.Status.FINISHED:
        raise ValidationError(_("The tournament is finished; no more players can enter."))
    entry.status = Entry.Status.ACTIVE
    entry.save(update_fields=["status"])
    _open_rounds_reseat(tournament=tournament)
    standings_schedule(tournament_id=tournament.pk)
    return entry


@transaction.atomic
def entry_replace(*, entry: Entry, player: Player) -> Entry:
    """Withdraw a player and let a substitute take their seats in the rounds not yet started;
    or give a disqualified player's seats there to a substitute.

    Nobody else moves, so this is how a field of tables of four only (TSR 8.3.1) stays whole.
    """
    tournament = _locked_tournament(entry.tournament)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.status == Entry.Status.WITHDRAWN:
        raise ValidationError(
            {
                "status": _("%(player)s is not active (%(status)s).")
                % {"player": entry.player, "status": entry.get_status_display()}
            }
        )
    substitute = _save(
        Entry(tournament=tournament, player=player, start_number=_next_start_number(tournament))
    )
    if entry.status == Entry.Status.ACTIVE:
        entry.status = Entry.Status.WITHDRAWN
        entry.save(update_fields=["status"])
    published = Seat.objects.filter(
        entry=entry, round__status=Round.Status.SEATED, round__published_at__isnull=False
    )
    published.update(entry=substitute, moved_at=timezone.now())
    # The substitute gets new private links: the withdrawn player's no longer open the sheets.
    for seat in Seat.objects.filter(entry=entry, round__status=Round.Status.SEATED):
        seat.entry = substitute
        seat.token = new_seat_token()
        seat.save(update_fields=["entry", "token"])
    standings_schedule(tournament_id=tournament.pk)
    return substitute


@transaction.atomic
def players_import(*, tournament: Tournament, data: bytes) -> list[Entry]:
    """Register every player of a CSV file, or none (see ``tournaments.player_import``).

    A player known by DDV number, or else by the same name and club, is reused.
    """
    preview = player_import.parse_players_csv(data)
    if not preview.ok:
        raise ValidationError(
            {"file": [*preview.errors, *(error for row in preview.rows for error in row.errors)]}
        )
    tournament = _locked_tournament(tournament)
    if tournament.status == Tournament.Status.FINISHED:
        raise ValidationError(_("The tournament is finished; no more players can enter."))
    registered = set(tournament.entries.values_list("player_id", flat=True))
    taken = set(tournament.entries.values_list("start_number", flat=True))
    next_number = _next_start_number(tournament)
    wanted = {row.start_number for row in preview.rows if row.start_number is not None}
    errors, entries = [], []
    for row in preview.rows:
        player = player_find_or_create(
            first_name=row.first_name,
            last_name=row.last_name,
            club=row.club,
            ddv_number=row.ddv_number,
        )
        if player.pk in registered:
            errors.append(
                _("Line %(line)d: %(player)s is already registered.")
                % {"line": row.line, "player": player}
            )
            continue
        if row.start_number in taken:
            errors.append(
                _("Line %(line)d: start number %(number)d is already taken.")
                % {"line": row.line, "number": row.start_number}
            )
            continue
        number = row.start_number
        if number is None:
            while next_number in taken or next_number in wanted:
                next_number += 1
            number = next_number
        taken.add(number)
        registered.add(player.pk)
        entries.append(Entry(tournament=tournament, player=player, start_number=number))
    if errors:
        raise ValidationError({"file": errors})
    created = Entry.objects.bulk_create(entries)
    _open_rounds_reseat(tournament=tournament)
    standings_schedule(tournament_id=tournament.pk)
    return created


@transaction.atomic
def player_find_or_create(
    *, first_name: str, last_name: str, club: str = "", ddv_number: str = ""
) -> Player:
    """The known player: by DDV number if one is given, else by name and club without a DDV
    number; a new player otherwise."""
    first_name, last_name, club, ddv_number = (
        value.strip() for value in (first_name, last_name, club, ddv_number)
    )
    if ddv_number:
        known = Player.objects.filter(ddv_number=ddv_number).first()
    else:
        known = Player.objects.filter(
            first_name__iexact=first_name,
            last_name__iexact=last_name,
            club__iexact=club,
            ddv_number="",
        ).first()
    return known or player_create(
        first_name=first_name, last_name=last_name, club=club, ddv_number=ddv_number
    )


@transaction.atomic
def entry_register(
    *,
    tournament: Tournament,
    first_name: str,
    last_name: str,
    club: str = "",
    ddv_number: str = "",
    start_number: int | None = None,
) -> Entry:
    """Register a person by name (a known player is reused, see ``player_find_or_create``)."""
    player = player_find_or_create(
        first_name=first_name, last_name=last_name, club=club, ddv_number=ddv_number
    )
    return entry_create(tournament=tournament, player=player, start_number=start_number)


@transaction.atomic
def round_create(*, tournament: Tournament) -> Round:
    """Add the next round (Spielrunde) of a tournament."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    number = (tournament.rounds.aggregate(n=Max("number"))["n"] or 0) + 1
    if number > tournament.planned_rounds:
        raise ValidationError(
            {
                "planned_rounds": _(
                    "The tournament plans %(planned)d rounds; raise the number of planned "
                    "rounds to add round %(number)d."
                )
                % {"planned": tournament.planned_rounds, "number": number}
            }
        )
    return Round.objects.create(tournament=tournament, number=number)


def _locked_round(round_: Round, *, allowed: set[str], action: str) -> Round:
    locked = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    if locked.status not in allowed:
        raise ValidationError(
            {
                "status": _("Round %(number)d is %(status)s and cannot be %(action)s.")
                % {"number": locked.number, "status": locked.get_status_display(), "action": action}
            }
        )
    return locked


@transaction.atomic
def round_seat(*, round: Round, seed: int | None = None) -> Round:
    """Draw the seating of a round for all active players (TSR 3.2.1, 8.3, 8.4, 10.1).

    By the tournament's method: ``ddv`` draws this round and every later planned round at once
    (creating them), ``random`` draws this round at random, ``standings`` seats this round by
    the points of the confirmed scoresheets so far (ranks 1-4 at table 1, and so on). Every
    draw keeps players who met in earlier rounds apart as far as it can, balances seat positions
    and tables of five, and in the first round keeps members of one club apart. A round already
    seated is drawn again as long as no scoresheet has any hand on it and it is not started.
    """
    round_ = _locked_round(
        round,
        allowed={Round.Status.PLANNED, Round.Status.SEATED},
        action=_("seated"),
    )
    tournament = round_.tournament
    method = seating.Method(tournament.seating_method)
    rounds = [round_]
    if method is seating.Method.DDV:
        rounds += _later_rounds(round_)
    if Scoresheet.objects.filter(table__round__in=rounds, hands__isnull=False).exists():
        raise ValidationError(_("Hands have been recorded in this round; it cannot be redrawn."))
    active = tournament.entries.filter(status=Entry.Status.ACTIVE).values_list("pk", flat=True)
    seed = seed if seed is not None else secrets.randbits(32)
    try:
        drawn = seating.draw(
            list(active),
            method=method,
            tables_of_five=tournament.allow_tables_of_five,
            seed=seed,
            rounds=len(rounds),
            history=selectors.seating_history(tournament=tournament, before=round_.number),
            ranking=selectors.entry_ranking(tournament=tournament, before=round_.number)
            if method is seating.Method.STANDINGS
            else (),
            apart_first_round=_club_mates(tournament) if round_.number == 1 else (),
        )
    except seating.SeatingError as error:
        raise ValidationError({"entries": seating_error_message(error)}) from error
    for each, plan in zip(rounds, drawn.rounds, strict=True):
        _seating_store(round_=each, plan=plan, moved=())
        each.status = Round.Status.SEATED
        each.seating_seed = seed
        each.published_at = None
        each.save(update_fields=["status", "seating_seed", "published_at"])
    return round_


def _later_rounds(round_: Round) -> list[Round]:
    """The planned rounds after ``round_``, created where missing and locked; none started."""
    tournament = round_.tournament
    existing = {
        each.number: each
        for each in tournament.rounds.select_for_update().filter(number__gt=round_.number)
    }
    later = []
    for number in range(round_.number + 1, tournament.planned_rounds + 1):
        each = existing.get(number) or Round.objects.create(tournament=tournament, number=number)
        if each.status not in {Round.Status.PLANNED, Round.Status.SEATED}:
            raise ValidationError(
                {
                    "status": _("Round %(number)d is %(status)s and cannot be seated.")
                    % {"number": number, "status": each.get_status_display()}
                }
            )
        each.tournament = tournament
        later.append(each)
    return later


def _round_plan(round_: Round) -> seating.SeatingPlan:
    tables: dict[int, list[int]] = {}
    for table_number, entry_id in round_.seats.order_by("table__number", "position").values_list(
        "table__number", "entry_id"
    ):
        tables.setdefault(table_number, []).append(entry_id)
    return seating.SeatingPlan(tables=tuple(tuple(tables[n]) for n in sorted(tables)))


def _seating_store(*, round_: Round, plan: seating.SeatingPlan, moved: Collection[int]) -> None:
    """Store a round's seating: its tables 1..n (each with an empty scoresheet) and seats.

    ``moved``: players whose seat changed after the seating was published; their seats say so.
    The seats of everyone else keep the mark they had.
    """
    marks = dict(round_.seats.exclude(moved_at=None).values_list("entry_id", "moved_at"))
    # A player who keeps their seat keeps its private link (perhaps printed already).
    tokens = {
        (number, position, entry_id): token
        for number, position, entry_id, token in round_.seats.values_list(
            "table__number", "position", "entry_id", "token"
        )
    }
    now = timezone.now()
    for entry_id in moved:
        marks[entry_id] = now
    round_.seats.all().delete()
    round_.tables.filter(number__gt=len(plan.tables)).delete()
    have = set(round_.tables.values_list("number", flat=True))
    Table.objects.bulk_create(
        Table(round=round_, number=number)
        for number in range(1, len(plan.tables) + 1)
        if number not in have
    )
    tables = {table.number: table for table in round_.tables.all()}
    with_sheet = set(
        Scoresheet.objects.filter(table__round=round_).values_list("table_id", flat=True)
    )
    Scoresheet.objects.bulk_create(
        Scoresheet(table=table) for table in tables.values() if table.pk not in with_sheet
    )
    Seat.objects.bulk_create(
        Seat(
            round=round_,
            table=tables[number],
            position=position,
            entry_id=entry_id,
            moved_at=marks.get(entry_id),
            token=tokens.get((number, position, entry_id)) or new_seat_token(),
        )
        for number, players in enumerate(plan.tables, start=1)
        for position, entry_id in enumerate(players, start=1)
    )


def _open_rounds_reseat(*, tournament: Tournament, keep_going: bool = False) -> list[int]:
    """After a withdrawal or a late entry: re-seat every round drawn but not started, moving
    only the players who must move (TSR 8.3, 10.1). The meetings of all other rounds, played
    or drawn in advance, count; in round 1 members of one club stay apart.

    A round that cannot be seated again refuses the change, or with ``keep_going`` keeps its
    seating and its number is returned (a disqualification stands all the same)."""
    unseated = []
    active = list(
        tournament.entries.filter(status=Entry.Status.ACTIVE).values_list("pk", flat=True)
    )
    for round_ in tournament.rounds.filter(status=Round.Status.SEATED).order_by("number"):
        plan = _round_plan(round_)
        if sorted(plan.players) == sorted(active):
            continue
        try:
            result = seating.reseat(
                plan,
                active,
                seed=round_.seating_seed or 0,
                tables_of_five=tournament.allow_tables_of_five,
                history=selectors.seating_other_rounds(round=round_),
                apart=_club_mates(tournament) if round_.number == 1 else (),
            )
        except seating.SeatingError as error:
            if keep_going:
                unseated.append(round_.number)
                continue
            raise ValidationError(
                {
                    "entries": _(
                        "Round %(number)d is drawn already and cannot be seated again: "
                        "%(problem)s Register a substitute in the player's place instead."
                    )
                    % {"number": round_.number, "problem": seating_error_message(error)}
                }
            ) from error
        _seating_store(
            round_=round_,
            plan=result.plan,
            moved=result.moved if round_.published_at else (),
        )
    return unseated


def _club_mates(tournament: Tournament) -> list[tuple[int, int]]:
    """Pairs of active players of one club (kept apart in round 1)."""
    clubs: dict[str, list[int]] = {}
    for entry_id, club in tournament.entries.filter(status=Entry.Status.ACTIVE).values_list(
        "pk", "player__club"
    ):
        if club.strip():
            clubs.setdefault(club.strip().casefold(), []).append(entry_id)
    return [pair for members in clubs.values() for pair in itertools.combinations(members, 2)]


@transaction.atomic
def round_publish(*, round: Round) -> Round:
    """Publish a round's seating: from now on players find their table on the public pages."""
    round_ = _locked_round(
        round,
        allowed={Round.Status.SEATED, Round.Status.RUNNING},
        action=_("published"),
    )
    if round_.published_at is None:
        round_.published_at = timezone.now()
        round_.save(update_fields=["published_at"])
    return round_


@transaction.atomic
def tournament_seating_publish(*, tournament: Tournament) -> list[Round]:
    """Publish the seating of every round drawn and not yet published (the DDV way: the plan
    of all rounds in advance)."""
    rounds = list(
        tournament.rounds.select_for_update().filter(
            status=Round.Status.SEATED, published_at__isnull=True
        )
    )
    now = timezone.now()
    for round_ in rounds:
        round_.published_at = now
    Round.objects.bulk_update(rounds, ["published_at"])
    return rounds


@transaction.atomic
def round_start(*, round: Round, at: datetime.datetime | None = None) -> Round:
    """Start the round's clock for all tables at once (TSR 8.5.1); this publishes the seating."""
    round_ = _locked_round(round, allowed={Round.Status.SEATED}, action=_("started"))
    tournament = round_.tournament
    if tournament.rounds.filter(status=Round.Status.RUNNING).exists():
        raise ValidationError(_("Another round of this tournament is still running."))
    earlier = tournament.rounds.filter(
        number__lt=round_.number, status__in=[Round.Status.PLANNED, Round.Status.SEATED]
    ).first()
    if earlier is not None:
        raise ValidationError(
            _("Round %(number)d has not been played yet; the rounds are played in order.")
            % {"number": earlier.number}
        )
    gone = (
        Seat.objects.filter(table__round=round_)
        .exclude(entry__status=Entry.Status.ACTIVE)
        .select_related("entry__player")
        .order_by("entry__start_number")
    )
    if gone := list(gone):
        raise ValidationError(
            _(
                "Round %(number)d seats players who no longer play: %(players)s. Register a "
                "substitute in their place, or draw the round again (TSR 8.3)."
            )
            % {
                "number": round_.number,
                "players": ", ".join(
                    f"{seat.entry.player} ({seat.entry.get_status_display()})" for seat in gone
                ),
            }
        )
    round_.status = Round.Status.RUNNING
    round_.started_at = at or timezone.now()
    round_.published_at = round_.published_at or round_.started_at
    round_.save(update_fields=["status", "started_at", "published_at"])
    if tournament.status == Tournament.Status.PLANNED:
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    return round_


@transaction.atomic
def table_extra_time_grant(
    *, table: Table, minutes: int, reason: str, by: AbstractBaseUser
) -> ExtraTime:
    """Extend one table's playing time (TSR 8.5.1): by the length of an interruption for a
    complaint or a decision of the arbitration panel, or in another justified exception."""
    round_ = _locked_round(
        table.round,
        allowed={Round.Status.RUNNING, Round.Status.FINISHED},
        action=_("given extra time"),
    )
    if Scoresheet.objects.filter(table=table, status=Scoresheet.Status.CONFIRMED).exists():
        raise ValidationError(
            _("The scoresheet of table %(number)d is confirmed; its match is over (TSR 8.5.2).")
            % {"number": table.number}
        )
    table.round = round_
    return _save(ExtraTime(table=table, minutes=minutes, reason=reason.strip(), granted_by=by))


@transaction.atomic
def round_end(*, round: Round, by: AbstractBaseUser, at: datetime.datetime | None = None) -> Round:
    """Announce the end of the playing time (TSR 8.5.1, 8.5.3): only forced solos follow.

    Only an adjudicator or an organiser announces it (``policies.may_end_playing_time``). It
    ends the 100 minutes of the tables of four; a table of five plays its 125 (TSR 10.1.5), so
    it plays on for the difference, and a table given extra time for that too
    (``selectors.table_playing_time``)."""
    refusal = policies.may_end_playing_time(
        round=round, roles=selectors.user_roles(user=by, tournament=round.tournament)
    )
    if refusal is not None:
        raise PermissionDenied(refusal)
    round_ = _locked_round(round, allowed={Round.Status.RUNNING}, action=_("ended"))
    ended_at = at or timezone.now()
    if ended_at < round_.started_at:
        raise ValidationError({"ended_at": _("The round cannot end before it started.")})
    round_.status = Round.Status.FINISHED
    round_.ended_at = ended_at
    round_.save(update_fields=["status", "ended_at"])
    return round_


@transaction.atomic
def round_close(*, round: Round) -> Round:
    """Close a round once every table's scoresheet is confirmed (TSR 8.5.2)."""
    round_ = _locked_round(round, allowed={Round.Status.FINISHED}, action=_("closed"))
    open_sheets = Scoresheet.objects.filter(table__round=round_).exclude(
        status=Scoresheet.Status.CONFIRMED
    )
    if open_count := open_sheets.count():
        raise ValidationError(
            ngettext(
                "%(count)d scoresheet is not confirmed yet.",
                "%(count)d scoresheets are not confirmed yet.",
                open_count,
            )
            % {"count": open_count}
        )
    round_.status = Round.Status.CLOSED
    round_.save(update_fields=["status"])
    tournament = round_.tournament
    if round_.number >= tournament.planned_rounds:
        tournament.status = Tournament.Status.FINISHED
        tournament.save(update_fields=["status"])
        if tournament.counts_for_ranking:
            ranking_schedule()
    return round_


@transaction.atomic
def job_start(
    *,
    tournament: Tournament,
    kind: Job.Kind,
    by: AbstractBaseUser | None,
    round: Round | None = None,
    table: Table | None = None,
    site_url: str = "",
) -> Job:
    """Queue a long job; a Celery worker (or, without Redis or while it is down, this process)
    runs it after commit (``tasks.job_enqueue``).

    Printouts of a round name the round, a table's completed scoresheet names the table too;
    ``site_url`` is where links printed in it point.
    """
    from tournaments.tasks import job_enqueue

    job = _save(
        Job(
            tournament=tournament,
            round=round,
            table=table,
            kind=kind,
            language=translation.get_language() or settings.LANGUAGE_CODE,
            site_url=site_url,
            created_by=by,
        )
    )
    transaction.on_commit(lambda: job_enqueue(str(job.pk)))
    return job


def _build_entry_list(job: Job, progress) -> tuple[str, bytes]:
    entries = list(selectors.entry_list(tournament=job.tournament))
    content = pdf.entry_list_pdf(tournament=job.tournament, entries=entries, progress=progress)
    return f"{job.tournament.slug}-{slugify(_('players'))}.pdf", content


def _round_printout(document, name: str):
    """A builder for one of the printouts of a round's seating."""

    def build(job: Job, progress) -> tuple[str, bytes]:
        tables = selectors.round_tables(round=job.round)
        options = {}
        if document is pdf.table_cards_pdf and job.site_url:
            options["url_for_table"] = lambda number: (
                job.site_url.rstrip("/")
                + reverse("table", args=[job.tournament.slug, job.round.number, number])
            )
        content = document(
            tournament=job.tournament,
            round_number=job.round.number,
            tables=tables,
            progress=progress,
            **options,
        )
        filename = f"{job.tournament.slug}-{slugify(_('round'))}-{job.round.number}-{slugify(name)}"
        return f"{filename}.pdf", content

    return build


def _build_scoresheets(job: Job, progress) -> tuple[str, bytes]:
    """Blank scoresheets for every table of the round, each with its scorekeeper's link."""
    tables = selectors.round_tables(round=job.round)
    url_for_seat = None
    if job.site_url:
        tokens = dict(Seat.objects.filter(round=job.round).values_list("entry_id", "token"))
        site = job.site_url.rstrip("/")

        def url_for_seat(seat) -> str:
            return site + reverse("sheet-link", args=[tokens[seat.entry.pk]])

    content = sheet_pdf.blank_scoresheets_pdf(
        tournament=job.tournament,
        round_number=job.round.number,
        tables=tables,
        url_for_seat=url_for_seat,
        progress=progress,
    )
    name = f"{job.tournament.slug}-{slugify(_('round'))}-{job.round.number}"
    return f"{name}-{slugify(_('scoresheets'))}.pdf", content


def _build_scoresheet(job: Job, progress) -> tuple[str, bytes]:
    """The completed scoresheet of one table, as it stands (for the archive: as confirmed)."""
    table = job.table
    state = sheet_state(sheet=table.scoresheet)
    content = sheet_pdf.scoresheet_pdf(
        scoresheet=state.sheet,
        seats=state.seats,
        rows=state.rows,
        adjudication=state.adjudication,
        extra_times=list(table.extra_times.select_related("granted_by").order_by("granted_at")),
        progress=progress,
    )
    name = f"{job.tournament.slug}-{slugify(_('round'))}-{job.round.number}"
    return f"{name}-{slugify(_('table'))}-{table.number}.pdf", content


JOB_BUILDERS = {
    Job.Kind.ENTRY_LIST_PDF: _build_entry_list,
    Job.Kind.SEATING_BY_TABLE_PDF: _round_printout(pdf.seating_by_table_pdf, "tables"),
    Job.Kind.SEATING_ALPHABETICAL_PDF: _round_printout(pdf.seating_alphabetical_pdf, "names"),
    Job.Kind.TABLE_CARDS_PDF: _round_printout(pdf.table_cards_pdf, "table-cards"),
    Job.Kind.SCORESHEETS_PDF: _build_scoresheets,
    Job.Kind.SCORESHEET_PDF: _build_scoresheet,
}


def job_run(*, job_id: str) -> Job | None:
    """Do a queued job and keep its file. Safe to run again: a finished job is left alone, an
    interrupted one (its worker died) starts over.

    Unlike other services this is several short transactions, so that the progress is seen while
    the job runs.
    """
    with transaction.atomic():
        job = (
            Job.objects.select_for_update(of=("self",))
            .select_related("tournament", "round__tournament", "table")
            .filter(pk=job_id)
            .first()
        )
        if job is None or job.status == Job.Status.DONE:
            return job
        job.status = Job.Status.RUNNING
        job.attempts += 1
        job.progress = 0
        job.error = ""
        job.started_at = timezone.now()
        job.save(
            update_fields=["status", "attempts", "progress", "error", "started_at", "updated_at"]
        )

    def progress(percent: int) -> None:
        # updated_at too (update() skips auto_now): it tells jobs_recover the job is alive.
        Job.objects.filter(pk=job.pk).update(progress=percent, updated_at=timezone.now())

    try:
        with translation.override(job.language):
            filename, content = JOB_BUILDERS[job.kind](job, progress)
    except Exception as error:
        now = timezone.now()
        Job.objects.filter(pk=job.pk).update(
            status=Job.Status.FAILED, error=repr(error), finished_at=now, updated_at=now
        )
        raise
    with transaction.atomic():
        job.file.save(filename, ContentFile(content), save=False)
        job.status = Job.Status.DONE
        job.progress = 100
        job.finished_at = timezone.now()
        job.save(update_fields=["file", "status", "progress", "finished_at", "updated_at"])
    return job


def jobs_recover(*, older_than: datetime.timedelta) -> list[str]:
    """Queue again the jobs that were lost on the way: running without progress for longer than
    ``older_than`` (their worker died, and the broker keeps the unacknowledged message hidden for
    its visibility timeout, an hour with Redis), or queued that long and never taken (the message
    was lost, e.g. Redis restarted without saving). Returns their ids.

    ``job_run`` starts such a job over; one that was only slow and still finishes is left done.
    ``older_than`` must be longer than a job's longest step between two progress updates and than
    the usual wait in the queue, or a job runs twice. Safe to run often (from cron): a job queued
    again counts as updated now, so the next run leaves it alone for ``older_than``.
    """
    from tournaments.tasks import job_enqueue

    now = timezone.now()
    with transaction.atomic():
        # Locked, so two recoveries at once queue a job once: the second waits and then finds
        # the row updated.
        ids = [
            str(pk)
            for pk in Job.objects.select_for_update()
            .filter(
                status__in=[Job.Status.QUEUED, Job.Status.RUNNING], updated_at__lt=now - older_than
            )
            .order_by("created_at")
            .values_list("pk", flat=True)
        ]
        Job.objects.filter(pk__in=ids).update(status=Job.Status.QUEUED, updated_at=now)
        for job_id in ids:
            transaction.on_commit(lambda job_id=job_id: job_enqueue(job_id))
    return ids


# Results, standings and ranking lists -------------------------------------------------------

SOLO_CONTRACTS = [contract.value for contract in Contract if contract.is_solo]
HANDED_IN = [Scoresheet.Status.SUBMITTED, Scoresheet.Status.CONFIRMED]


def _results_of(tables: QuerySet[Table]) -> list[SeatResult]:
    """The results of every seat at the handed-in tables among ``tables``, in two queries:
    game points, initialled penalty points (TSR 8.2.2), deductions (TSR 9.6.2 b) and solos
    (TSR 4.2, 4.3) from each table's sheet; the placing at the table from the points."""
    solo = Q(scoresheet__hands__contract__in=SOLO_CONTRACTS, scoresheet__hands__not_played=False)
    sums = {
        row["id"]: row
        for row in selectors.seat_sums(tables.filter(scoresheet__status__in=HANDED_IN))
        .annotate(
            sheet_status=F("scoresheet__status"),
            **{
                f"solos_{s}": Count(
                    "scoresheet__hands", filter=solo & Q(scoresheet__hands__soloist=s)
                )
                for s in range(1, 6)
            },
            **{
                f"won_{s}": Count(
                    "scoresheet__hands",
                    filter=solo
                    & Q(scoresheet__hands__soloist=s, **{f"scoresheet__hands__points_{s}__gt": 0}),
                )
                for s in range(1, 6)
            },
        )
        .values()
        .order_by()
    }
    by_table: dict[int, list[SeatResult]] = {}
    for seat in selectors.seats_with_deductions().filter(table__in=list(sums)):
        table = sums[seat.table_id]
        position = seat.position
        game = table[f"points_{position}"] or 0
        penalty = table[f"penalty_{position}"]
        by_table.setdefault(seat.table_id, []).append(
            SeatResult(
                table_id=seat.table_id,
                round_id=seat.round_id,
                entry_id=seat.entry_id,
                position=position,
                game_points=game,
                penalty=penalty,
                deducted=seat.deducted,
                points=game + penalty - seat.deducted,
                placing=1,
                confirmed=table["sheet_status"] == Scoresheet.Status.CONFIRMED,
                hands=table["hand_count"],
                solos_played=table[f"solos_{position}"],
                solos_won=table[f"won_{position}"],
            )
        )
    results = []
    for seats in by_table.values():
        placings = standings.table_placings({r.position: r.points for r in seats})
        for result in seats:
            result.placing = placings[result.position]
            results.append(result)
    return results


@transaction.atomic
def results_refresh(*, tables: Collection[Table]) -> int:
    """Rewrite the results of these tables from their sheets and the adjudication; the
    standings are rebuilt after commit if anything changed. Called by every service that
    changes what a handed-in sheet counts. Returns the number of results written."""
    ids = [table.pk for table in tables]
    if not ids:
        return 0
    deleted, _counts = SeatResult.objects.filter(table_id__in=ids).delete()
    results = _results_of(Table.objects.filter(pk__in=ids))
    SeatResult.objects.bulk_create(results)
    if deleted or results:
        for tournament_id in set(
            Table.objects.filter(pk__in=ids).values_list("round__tournament_id", flat=True)
        ):
            standings_schedule(tournament_id=tournament_id)
    return len(results)


def results_refresh_all(*, tournament: Tournament) -> int:
    """Rewrite every result of a tournament (after an import, or to repair)."""
    return results_refresh(tables=list(Table.objects.filter(round__tournament=tournament)))


def standings_schedule(*, tournament_id: int) -> None:
    """Rebuild the tournament's standings once the current transaction commits: in a Celery
    worker, or here if the broker cannot be reached (a confirm never fails for want of it)."""
    from tournaments.tasks import send_or_run, standings_rebuild_task

    transaction.on_commit(lambda: send_or_run(standings_rebuild_task, tournament_id))


def standings_rebuild(*, tournament_id: int) -> StandingsSnapshot | None:
    """Compute the standings from the results and store them (``StandingsSnapshot``) with a new
    version, which names them in the cache and in ETags. Rebuilds of one tournament take turns
    (the tournament's row is locked), and each reads what is committed when its turn comes."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if tournament is None:  # deleted since the rebuild was queued
            return None
        computed = standings.standings(
            entrants=selectors.standings_entrants(tournament=tournament),
            results=selectors.standings_results(tournament=tournament),
            tiebreaks=selectors.tiebreaks_of(tournament),
            built_at=timezone.now(),
        )
        version = tournament.standings_version + 1
        packed = computed.pack()
        fields = {"version": version, "built_at": computed.built_at, "packed": packed}
        # A plain UPDATE: update_or_create would first read the old standings.
        if not StandingsSnapshot.objects.filter(tournament=tournament).update(**fields):
            StandingsSnapshot.objects.create(tournament=tournament, **fields)
        Tournament.objects.filter(pk=tournament.pk).update(standings_version=version)
    selectors.tournament_head_forget(slug=tournament.slug)
    selectors.standings_cache_put(
        tournament_id=tournament_id, version=version, packed=packed, value=computed
    )
    return StandingsSnapshot(tournament=tournament, **fields)


@transaction.atomic
def tournament_publication_update(
    *, tournament: Tournament, is_public: bool, standings_public: bool, tiebreaks: str
) -> Tournament:
    """What the public sees of a tournament and how its standings break ties."""
    locked = _locked_tournament(tournament)
    rerank = locked.tiebreaks != tiebreaks
    locked.is_public = is_public
    locked.standings_public = standings_public
    locked.tiebreaks = tiebreaks
    _save(locked)
    if rerank:
        standings_schedule(tournament_id=locked.pk)
    return locked


def ranking_schedule() -> None:
    """Rebuild every ranking list after commit (a tournament finished or changed)."""
    from tournaments.tasks import ranking_rebuild_task, send_or_run

    transaction.on_commit(lambda: send_or_run(ranking_rebuild_task))


def ranking_rebuild(
    *, ranking_list: RankingList, today: datetime.date | None = None
) -> RankingList:
    """Rank the players by their average per round over the list's months (the DDV's
    Rangliste), from the confirmed rounds of finished tournaments that count for it."""
    today = today or timezone.localdate()
    rows = standings.ranking(
        played=selectors.ranking_rounds(
            since=standings.months_before(today, ranking_list.months), until=today
        ),
        today=today,
        months=ranking_list.months,
        min_rounds=ranking_list.min_rounds,
    )
    with transaction.atomic():
        locked = RankingList.objects.select_for_update().get(pk=ranking_list.pk)
        locked.data = [[row.rank, row.player_id, row.rounds, row.points] for row in rows]
        locked.version += 1
        locked.built_at = timezone.now()
        locked.built_for = today
        locked.save(update_fields=["data", "version", "built_at", "built_for"])
    return locked


@transaction.atomic
def ranking_list_save(
    *,
    name: str,
    slug: str,
    months: int = 24,
    min_rounds: int = 36,
    is_public: bool = True,
    ranking_list: RankingList | None = None,
) -> RankingList:
    """Create a ranking list, or change one; it is rebuilt after commit."""
    ranking_list = ranking_list or RankingList()
    ranking_list.name = name.strip()
    ranking_list.slug = slug
    ranking_list.months = months
    ranking_list.min_rounds = min_rounds
    ranking_list.is_public = is_public
    _save(ranking_list)
    ranking_schedule()
    return ranking_list


def rankings_rebuild(*, today: datetime.date | None = None) -> list[RankingList]:
    """Rebuild every ranking list."""
    return [ranking_rebuild(ranking_list=r, today=today) for r in RankingList.objects.all()]


# Printouts of the standings and of a round's results ----------------------------------------


def _build_standings(job: Job, progress) -> tuple[str, bytes]:
    """The standings as last rebuilt (never computed from the results here); before the first
    rebuild, every player with no points yet."""
    tournament = job.tournament
    table = selectors.standings_read(tournament=tournament)
    if table is None:
        table = standings.standings(
            entrants=selectors.standings_entrants(tournament=tournament),
            results=[],
            tiebreaks=selectors.tiebreaks_of(tournament),
        )
    content = pdf.standings_pdf(
        tournament=tournament, standings=table, progress=progress, as_of=table.built_at
    )
    return f"{tournament.slug}-{slugify(_('standings'))}.pdf", content


def _build_round_results(job: Job, progress) -> tuple[str, bytes]:
    """The results of the round table by table, confirmed or not (TSR 8.5.2)."""
    tables = selectors.round_results(round=job.round)
    content = pdf.round_results_pdf(
        tournament=job.tournament, round=job.round, tables=tables, progress=progress
    )
    name = f"{job.tournament.slug}-{slugify(_('round'))}-{job.round.number}"
    return f"{name}-{slugify(_('results'))}.pdf", content


JOB_BUILDERS.update(
    {
        Job.Kind.STANDINGS_PDF: _build_standings,
        Job.Kind.ROUND_RESULTS_PDF: _build_round_results,
    }
)
