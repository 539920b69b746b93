"""Writes for rounds: the seating drawn and mended, publishing, the clock and extra time
(TSR 8.5.1), closing."""

import datetime
import itertools
import secrets
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max, ProtectedError, RestrictedError
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from doko import seating, team_seating
from tournaments import caching, lineups, play, policies, ranked, selectors
from tournaments.messages import (
    fives_would_seat,
    seating_error_message,
    team_seating_error_message,
)
from tournaments.models import (
    Entry,
    ExtraTime,
    Round,
    Seat,
    Table,
    Tournament,
    new_seat_token,
)
from tournaments.services.common import save_validated


@transaction.atomic
def round_create(*, tournament: Tournament) -> Round:
    """Add the next round (Spielrunde) of a tournament."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    number = (tournament.rounds.aggregate(n=Max("number"))["n"] or 0) + 1
    if number > tournament.planned_rounds:
        raise ValidationError(
            {
                "planned_rounds": ngettext(
                    "The tournament plans %(planned)d round; raise the number of planned "
                    "rounds to add round %(number)d.",
                    "The tournament plans %(planned)d rounds; raise the number of planned "
                    "rounds to add round %(number)d.",
                    tournament.planned_rounds,
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

    A team match day (``tournaments.lineups``) draws this round and every later one at once by
    its teams' line-ups, four different teams at every table (``_team_draw``).
    """
    round_ = _locked_round(
        round,
        allowed={Round.Status.PLANNED, Round.Status.SEATED},
        action=_("seated"),
    )
    tournament = round_.tournament
    method = seating.Method(tournament.seating_method)
    team_field = lineups.team_field(tournament=tournament)
    rounds = [round_]
    if method is seating.Method.DDV or team_field is not None:
        rounds += _later_rounds(round_)
    if play.recorded().hands_written(rounds=rounds):
        raise ValidationError(_("Hands have been recorded in this round; it cannot be redrawn."))
    active = tournament.entries.filter(status=Entry.Status.ACTIVE).values_list("pk", flat=True)
    seed = seed if seed is not None else secrets.randbits(32)
    try:
        if team_field is not None:
            drawn = _team_draw(team_field, rounds=rounds, seed=seed)
        else:
            drawn = seating.draw(
                list(active),
                method=method,
                tables_of_five=tournament.allow_tables_of_five,
                large_tables=tournament.allow_tables_of_six_and_seven,
                springer=tournament.springer,
                seed=seed,
                rounds=len(rounds),
                history=selectors.seating_history(tournament=tournament, before=round_.number),
                ranking=selectors.entry_ranking(tournament=tournament, before=round_.number)
                if method is seating.Method.STANDINGS
                else (),
                apart_first_round=_club_mates(tournament) if round_.number == 1 else (),
            )
    except seating.SeatingError as error:
        raise ValidationError(
            {"entries": seating_error_message(error, official=tournament.official)}
        ) from error
    for each, plan in zip(rounds, drawn.rounds, strict=True):
        _seating_store(round_=each, plan=plan, moved=())
        each.status = Round.Status.SEATED
        each.seating_seed = seed
        each.published_at = None
        each.save(update_fields=["status", "seating_seed", "published_at"])
    return round_


def _team_draw(field: lineups.TeamField, *, rounds: list[Round], seed: int) -> seating.Draw:
    """The seating of a team match day's ``rounds``: each group at its own tables, one player
    of each of four different teams at every table (``doko.team_seating``), the meetings of
    the rounds before counting. Drawn by line-up slots, then each slot's player of the round
    seated in it; the quality is that of the whole field."""
    first = rounds[0].number
    history = selectors.seating_history(tournament=rounds[0].tournament, before=first)
    slots = lineups.slot_players(field, range(1, first))
    slot_history = [
        seating.SeatingPlan(
            tables=tuple(
                tuple(slots[number][entry] for entry in table if entry in slots[number])
                for table in plan.tables
            )
        )
        for number, plan in enumerate(history, start=1)
    ]
    try:
        per_group = [
            team_seating.team_draw(
                group, rounds=len(rounds), seed=seed + index, history=slot_history
            )
            for index, group in enumerate(field.groups)
        ]
    except team_seating.TeamSeatingError as error:
        raise ValidationError(
            {"line_ups": team_seating_error_message(error, names=field.names)}
        ) from error
    plans = []
    for index, round_ in enumerate(rounds):
        players = field.players.get(round_.number, {})
        tables = []
        for draw in per_group:
            for table in draw.rounds[index].tables:
                missing = [slot for slot in table if slot not in players]
                if missing:
                    raise ValidationError(
                        {
                            "line_ups": _(
                                "The line-up of %(team)s for round %(number)d is not complete: "
                                "name who plays each place before the draw."
                            )
                            % {
                                "team": field.names[missing[0] // lineups.SLOTS],
                                "number": round_.number,
                            }
                        }
                    )
                tables.append(tuple(players[slot] for slot in table))
        plans.append(seating.SeatingPlan(tables=tuple(tables)))
    quality = team_seating.team_quality(plans, teams=field.teams, history=history)
    return seating.Draw(rounds=tuple(plans), quality=quality)


def _not_started(round_: Round, *, doing: str) -> None:
    """Refuse on ``status`` unless the round is planned or drawn: what started stays."""
    if round_.status not in {Round.Status.PLANNED, Round.Status.SEATED}:
        raise ValidationError(
            {
                "status": _("Round %(number)d is %(status)s: %(doing)s")
                % {"number": round_.number, "status": round_.get_status_display(), "doing": doing}
            }
        )


def _tables_remove(rounds: list[Round]) -> None:
    """The seats and tables of these rounds, not started, with their empty scoresheets (taken
    off by the app that records the play, which refuses any with something written)."""
    if play.recorded().hands_written(rounds=rounds):
        raise ValidationError(_("Hands have been recorded in this round; it cannot be undone."))
    tables = Table.objects.filter(round__in=rounds)
    play.recorded().tables_undrawn(tables=tables)
    Seat.objects.filter(round__in=rounds).delete()
    tables.delete()


@transaction.atomic
def round_unseat(*, round: Round, by: User) -> list[Round]:
    """Undo the draw of a round that has not started: its seats and tables go with their
    empty scoresheets, and it is planned again, to be drawn anew (TSR 8.3). Printed seating
    lists, seat slips and blank sheets of it no longer apply; the seats' links stop working.

    By the DDV method one draw seats a round and every later one from one plan made in advance
    (``round_seat``). Undoing it undoes that plan from this round on: every later round drawn
    and not started is planned again with it (``selectors.rounds_drawn_with``), so that the
    next draw plans them together once more, with the rounds before as its history. Rounds
    before it keep their seating. By the other methods the round alone is undone.

    Only an organiser (``policies.may_undo_draw``), and only while the round is drawn and no
    hand is written. Returns the rounds planned again, in order."""
    policies.enforce(
        policies.may_undo_draw(
            round=round, roles=selectors.user_roles(user=by, tournament=round.tournament)
        )
    )
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    _not_started(round_, doing=_("a draw is undone only before the round starts."))
    if round_.status == Round.Status.PLANNED:
        raise ValidationError(
            {
                "status": _("Round %(number)d has not been drawn: there is no draw to undo.")
                % {"number": round_.number}
            }
        )
    rounds = list(selectors.rounds_drawn_with(round=round_).select_for_update())
    _tables_remove(rounds)
    for each in rounds:
        each.status = Round.Status.PLANNED
        each.published_at = None
        each.seating_seed = None
    Round.objects.bulk_update(rounds, ["status", "published_at", "seating_seed"])
    return rounds


@transaction.atomic
def round_delete(*, round: Round, by: User) -> int:
    """Delete the tournament's last round while it has not started, planned or drawn; a drawn
    one's seats and tables go with their empty scoresheets. Only the last, so that the rounds
    stay numbered 1 to n; the planned number of rounds stays as it is. Only an organiser
    (``policies.may_delete_round``). Returns the number of the round deleted."""
    tournament = Tournament.objects.select_for_update().get(pk=round.tournament_id)
    policies.enforce(
        policies.may_delete_round(
            round=round, roles=selectors.user_roles(user=by, tournament=tournament)
        )
    )
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    _not_started(round_, doing=_("only a round that has not started is deleted."))
    if not selectors.round_is_last(round=round_):
        raise ValidationError(
            {
                "number": _(
                    "Round %(number)d is not the last round: only the last one is deleted, "
                    "so that the rounds stay numbered without a gap."
                )
                % {"number": round_.number}
            }
        )
    _tables_remove([round_])
    try:
        round_.delete()
    except (ProtectedError, RestrictedError) as error:
        raise ValidationError(
            _("Round %(number)d is named elsewhere (a sanction, say) and stays.")
            % {"number": round_.number}
        ) from error
    return round_.number


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
    """Store a round's seating: its tables 1..n (each with an empty scoresheet, from the app
    that records the play) and seats.

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
    play.recorded().tables_drawn(tables=list(tables.values()))
    # A Springer (TSR 10) sits at two tables: his seat at the later one is his second.
    seen: set[int] = set()
    seats = []
    for number, players in enumerate(plan.tables, start=1):
        for position, entry_id in enumerate(players, start=1):
            seats.append(
                Seat(
                    round=round_,
                    table=tables[number],
                    position=position,
                    entry_id=entry_id,
                    moved_at=marks.get(entry_id),
                    token=tokens.get((number, position, entry_id)) or new_seat_token(),
                    second=entry_id in seen,
                )
            )
            seen.add(entry_id)
    Seat.objects.bulk_create(seats)
    caching.round_changed(round_.pk)  # the desk names each table's players


@dataclass(frozen=True)
class Reseating:
    """What re-seating the rounds drawn but not started did after the field changed: how many
    players moved in each published round (by its number; their seats are marked), and the
    rounds that could not be seated again and kept their seating (``keep_going``)."""

    moved: Mapping[int, int] = field(default_factory=dict)
    unseated: tuple[int, ...] = ()


def open_rounds_reseat(
    *, tournament: Tournament, keep_going: bool = False, joining: bool = False
) -> Reseating:
    """After a withdrawal or a late entry: re-seat every round drawn but not started, moving
    only the players who must move (TSR 8.3, 10.1). The meetings of all other rounds, played
    or drawn in advance, count; in round 1 members of one club stay apart.

    A round that cannot be seated again refuses the change, or with ``keep_going`` keeps its
    seating and its number is among ``unseated`` (a disqualification stands all the same).
    ``joining``: players join the field (a late entry, a player taken back), and the refusal
    says what lets them in (``late_entry_refusal``). Returns what moved, for the organiser to
    be told."""
    seated = list(tournament.rounds.filter(status=Round.Status.SEATED).order_by("number"))
    if not seated or lineups.team_field(tournament=tournament) is not None:
        # Nothing drawn to re-seat (a registration before the draw asks nothing more); or a
        # team match day, which seats line-ups, not its entries: a substitute takes over a
        # slot's seats (the teams app's line-ups), and nobody else is moved.
        return Reseating()
    unseated = []
    moved: dict[int, int] = {}
    active = list(
        tournament.entries.filter(status=Entry.Status.ACTIVE).values_list("pk", flat=True)
    )
    for round_ in seated:
        plan = _round_plan(round_)
        if set(plan.players) == set(active):  # a Springer (TSR 10) is in the plan twice
            continue
        try:
            result = seating.reseat(
                plan,
                active,
                seed=round_.seating_seed or 0,
                tables_of_five=tournament.allow_tables_of_five,
                large_tables=tournament.allow_tables_of_six_and_seven,
                springer=tournament.springer,
                history=selectors.seating_other_rounds(round=round_),
                apart=_club_mates(tournament) if round_.number == 1 else (),
            )
        except seating.SeatingError as error:
            if keep_going:
                unseated.append(round_.number)
                continue
            if joining:
                raise late_entry_refusal(
                    tournament=tournament,
                    error=error,
                    rounds=[each.number for each in seated if each.number >= round_.number],
                ) from error
            raise ValidationError(
                {
                    "entries": _(
                        "Round %(number)d is drawn already and cannot be seated again: "
                        "%(problem)s Register a substitute in the player's place instead."
                    )
                    % {
                        "number": round_.number,
                        "problem": seating_error_message(error, official=tournament.official),
                    }
                }
            ) from error
        published_moves = result.moved if round_.published_at else ()
        _seating_store(round_=round_, plan=result.plan, moved=published_moves)
        if seated_moves := set(published_moves) & set(result.plan.players):
            moved[round_.number] = len(seated_moves)
    return Reseating(moved=moved, unseated=tuple(unseated))


def late_entry_refusal(
    *, tournament: Tournament, error: seating.SeatingError, rounds: list[int]
) -> ValidationError:
    """Why players cannot join a field whose ``rounds`` (drawn, not started) are seated at
    tables of four, and what lets them in (TSR 8.3.1, 10).

    Those rounds are drawn for a field that fills its tables; by the DDV method the plan of
    every later round is drawn at once, so the field's size is fixed for all of them. Each
    late entry re-seats them at once (moving as few players as possible), so one player more
    fits only at a table of five: where tables of five would seat the field and are not
    allowed yet, the refusal is keyed ``allow_tables_of_five``, the setting that lets the
    player in. Otherwise (``entries``) the players who are missing register together (an
    imported list re-seats once), or the draw is undone and made again with them."""
    if tournament.seating_method == seating.Method.DDV and len(rounds) > 1:
        drawn = ngettext(
            "The DDV seating plan of rounds %(first)d to %(last)d is drawn for a field that "
            "fills its tables; %(players)d player with the late entry does not (TSR 8.3.1).",
            "The DDV seating plan of rounds %(first)d to %(last)d is drawn for a field that "
            "fills its tables; %(players)d players with the late entry do not (TSR 8.3.1).",
            error.players,
        ) % {"first": rounds[0], "last": rounds[-1], "players": error.players}
    else:
        drawn = ngettext(
            "Round %(number)d is drawn already for a field that fills its tables; "
            "%(players)d player with the late entry does not (TSR 8.3.1).",
            "Round %(number)d is drawn already for a field that fills its tables; "
            "%(players)d players with the late entry do not (TSR 8.3.1).",
            error.players,
        ) % {"number": rounds[0], "players": error.players}
    if not tournament.allow_tables_of_five and fives_would_seat(error.players):
        return ValidationError(
            {
                "allow_tables_of_five": drawn
                + " "
                + _(
                    "A late entry fits in only at a table of five: allow tables of five "
                    "(TSR 10), then enter the player again."
                )
            }
        )
    return ValidationError(
        {
            "entries": drawn
            + " "
            + _(
                "%(problem)s Register the missing players together (import them as a list), "
                "or undo the draw and draw again once the field is complete."
            )
            % {"problem": seating_error_message(error, official=tournament.official)}
        }
    )


def _club_mates(tournament: Tournament) -> list[tuple[int, int]]:
    """Pairs of active players of one club (kept apart in round 1)."""
    clubs: dict[str, list[int]] = {}
    for entry_id, club in tournament.entries.filter(status=Entry.Status.ACTIVE).values_list(
        "pk", "club"
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
    gone = list(
        Seat.objects.filter(table__round=round_)
        .exclude(entry__status=Entry.Status.ACTIVE)
        .select_related("entry")
        .order_by("entry__start_number")
    )
    if gone:
        raise ValidationError(
            _(
                "Round %(number)d seats players who no longer play: %(players)s. Register a "
                "substitute in their place, or draw the round again (TSR 8.3)."
            )
            % {
                "number": round_.number,
                "players": ", ".join(
                    f"{seat.entry.name} ({seat.entry.get_status_display()})" for seat in gone
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
def table_extra_time_grant(*, table: Table, minutes: int, reason: str, by: User) -> ExtraTime:
    """Extend one table's playing time (TSR 8.5.1): by the length of an interruption for a
    complaint, or in another justified exception. Whoever may rule at that table gives it,
    never at his own (``policies.may_grant_extra_time``)."""
    policies.enforce(
        policies.may_grant_extra_time(
            table=table,
            user=by,
            roles=selectors.user_roles(user=by, tournament=table.round.tournament),
        )
    )
    return _extra_time_add(table, minutes=minutes, reason=reason, by=by)


@transaction.atomic
def table_extra_time_give_back(*, table: Table, minutes: int, reason: str, by: User) -> ExtraTime:
    """The time a decision of the arbitration panel took, given back to a table it concerns
    (TSR 8.5.1: "Bei Entscheidungen des Schiedsgerichts wird die Spielzeit des betroffenen
    Tisches und der Tische, an denen die Mitglieder des Schiedsgerichtes spielen, ...
    verlängert"): it follows from the decision, so no one's grant is asked; for adjudication's
    panel services, which have checked the member who records it."""
    return _extra_time_add(table, minutes=minutes, reason=reason, by=by)


def _extra_time_add(table: Table, *, minutes: int, reason: str, by: User) -> ExtraTime:
    round_ = _locked_round(
        table.round,
        allowed={Round.Status.RUNNING, Round.Status.FINISHED},
        action=_("given extra time"),
    )
    if play.recorded().confirmed(table=table):
        raise ValidationError(
            _("The scoresheet of table %(number)d is confirmed; its match is over (TSR 8.5.2).")
            % {"number": table.number}
        )
    table.round = round_
    granted = save_validated(
        ExtraTime(
            table=table,
            minutes=minutes,
            reason=reason.strip(),
            granted_by=by,
        )
    )
    caching.round_changed(round_.pk)  # the desk shows each table's playing time
    return granted


@transaction.atomic
def round_end(*, round: Round, by: User, at: datetime.datetime | None = None) -> Round:
    """Announce the end of the playing time (TSR 8.5.1, 8.5.3): only forced solos follow.

    Only an adjudicator or an organiser announces it (``policies.may_end_playing_time``). It
    ends the playing time of the tables of four; a table of five plays until its 125 minutes of
    net playing time from the start are over, if that is later (TSR 10.1.5), and a table given
    extra time plays on for that too (``selectors.table_playing_time``)."""
    policies.enforce(
        policies.may_end_playing_time(
            round=round, roles=selectors.user_roles(user=by, tournament=round.tournament)
        )
    )
    round_ = _locked_round(round, allowed={Round.Status.RUNNING}, action=_("ended"))
    ended_at = at or timezone.now()
    assert round_.started_at is not None  # running: started (round_started_has_start_time)
    if ended_at < round_.started_at:
        raise ValidationError({"ended_at": _("The round cannot end before it started.")})
    round_.status = Round.Status.FINISHED
    round_.ended_at = ended_at
    round_.save(update_fields=["status", "ended_at"])
    # Every sheet whose table's time is over now notes it after the hands written so far
    # (TSR 8.5.3); the tables that play on note it when their time is over.
    play.recorded().time_ended(round=round_, by=by)
    return round_


@transaction.atomic
def round_close(*, round: Round) -> Round:
    """Close a round once every table's scoresheet is confirmed (TSR 8.5.2). A round closed
    already (by its last confirmation, ``round_close_when_confirmed``) stays as it is."""
    round_ = _locked_round(
        round, allowed={Round.Status.FINISHED, Round.Status.CLOSED}, action=_("closed")
    )
    if round_.status == Round.Status.CLOSED:
        return round_
    if open_count := play.recorded().unconfirmed(tables=round_.tables.all()):
        # Name the tables and who confirms, so that the desk knows where to go (no dead end).
        open_tables = (
            round_.tables.annotate(sheet=play.recorded().sheet_status(table=""))
            .exclude(sheet=play.SheetStatus.CONFIRMED)
            .exclude(sheet=None)
            .order_by("number")
            .values_list("number", flat=True)
        )
        raise ValidationError(
            ngettext(
                "%(count)d scoresheet is not confirmed yet (table %(tables)s). Another player "
                "of the table confirms it, or the desk does from the signed paper sheet "
                "(“Desk: every table's sheet”).",
                "%(count)d scoresheets are not confirmed yet (tables %(tables)s). Another "
                "player of each table confirms its sheet, or the desk does from the signed "
                "paper sheet (“Desk: every table's sheet”).",
                open_count,
            )
            % {"count": open_count, "tables": ", ".join(str(n) for n in open_tables)}
        )
    return _closed(round_)


def _closed(round_: Round) -> Round:
    """The locked round closed; the last round's close finishes the tournament."""
    round_.status = Round.Status.CLOSED
    round_.save(update_fields=["status", "ended_at"])
    tournament = round_.tournament
    if round_.number >= tournament.planned_rounds:
        tournament.status = Tournament.Status.FINISHED
        tournament.save(update_fields=["status"])
        ranked.tournament_changed(tournament=tournament)
    caching.round_changed(round_.pk)  # the clock stops, the desk shows the round closed
    return round_


def round_close_when_confirmed(*, round_id: int) -> Round | None:
    """Close a running or finished round as its last scoresheet is confirmed (TSR 8.5.2), on a
    match day as at any tournament: nothing is left to play or to check, so its clock stops (a
    round still running ends its playing time now). Returns the round closed, else None.

    Every confirmation asks, once it is committed, and all but the last find a sheet still
    open: that is asked first without a lock, and the round is locked (and asked again) only
    when none is. Of two last sheets confirmed at once, the one committed later sees both."""
    if play.recorded().unconfirmed(tables=Table.objects.filter(round_id=round_id)):
        return None
    return _close_when_confirmed(round_id)


@transaction.atomic
def _close_when_confirmed(round_id: int) -> Round | None:
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_id)
    if round_.status not in {Round.Status.RUNNING, Round.Status.FINISHED}:
        return None
    tables = round_.tables.all()
    if not tables.exists() or play.recorded().unconfirmed(tables=tables):
        return None
    if round_.ended_at is None:
        assert round_.started_at is not None  # running: started (round_started_has_start_time)
        round_.ended_at = max(timezone.now(), round_.started_at)
    return _closed(round_)


@transaction.atomic
def seats_substitute(*, round: Round, changes: Mapping[int, int]) -> list[Seat]:
    """In a round drawn but not started, seat each new player where the old one sits
    (``changes``: entry id to entry id): a team's reserve takes over a place of the line-up,
    or two players swap places. Each seat keeps its table and position; its private link is
    new (the one handed to the player who left opens nothing) and a published seat is marked
    as moved. Old players without a seat in the round are passed over. Returns the new seats."""
    round_ = _locked_round(
        round, allowed={Round.Status.PLANNED, Round.Status.SEATED}, action=_("changed")
    )
    seats = list(round_.seats.filter(entry_id__in=list(changes)))
    if not seats:
        return []
    moved_at = timezone.now() if round_.published_at is not None else None
    Seat.objects.filter(pk__in=[seat.pk for seat in seats]).delete()
    created = Seat.objects.bulk_create(
        Seat(
            round=round_,
            table_id=seat.table_id,
            position=seat.position,
            entry_id=changes[seat.entry_id],
            moved_at=moved_at or seat.moved_at,
            token=new_seat_token(),
            second=seat.second,
        )
        for seat in seats
    )
    caching.round_changed(round_.pk)
    return created
