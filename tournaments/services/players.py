"""Writes for players and their entries: registration, import, withdrawal, disqualification,
reinstatement and substitutes (TSR 9.6.2 c, 10.1)."""

import unicodedata
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import caching, player_import
from tournaments.models import (
    Entry,
    Player,
    Round,
    Seat,
    Tournament,
    new_seat_token,
    player_search_key,
)
from tournaments.services.common import name_lock, save_validated, tournament_lock
from tournaments.services.results import standings_schedule
from tournaments.services.rounds import Reseating, open_rounds_reseat


@transaction.atomic
def player_create(
    *, first_name: str, last_name: str, club: str = "", ddv_number: str = ""
) -> Player:
    """Register a person who can enter tournaments."""
    return save_validated(
        Player(
            first_name=first_name.strip(),
            last_name=last_name.strip(),
            club=club.strip(),
            ddv_number=ddv_number.strip(),
        )
    )


def _next_start_number(tournament: Tournament) -> int:
    return (tournament.entries.aggregate(highest=Max("start_number"))["highest"] or 0) + 1


@dataclass(frozen=True)
class EntryChange:
    """An entry as a service left it, and what re-seating the drawn rounds did to the others."""

    entry: Entry
    reseating: Reseating


@dataclass(frozen=True)
class Imported:
    """The entries an import made, and what re-seating the drawn rounds did."""

    entries: list[Entry]
    reseating: Reseating


@transaction.atomic
def entry_create(
    *, tournament: Tournament, player: Player, start_number: int | None = None
) -> Entry:
    """Register a player, with the next free start number unless one is given.

    A late entry (rounds already drawn but not started) is seated in those rounds, moving as
    few players as possible (``entry_register`` also says whom it moved).
    """
    return _entry_add(tournament=tournament, player=player, start_number=start_number).entry


def _entry_add(*, tournament: Tournament, player: Player, start_number: int | None) -> EntryChange:
    tournament = tournament_lock(tournament)
    if tournament.status == Tournament.Status.FINISHED:
        raise ValidationError(_("The tournament is finished; no more players can enter."))
    entry = save_validated(
        Entry(
            tournament=tournament,
            player=player,
            start_number=start_number or _next_start_number(tournament),
        )
    )
    reseating = open_rounds_reseat(tournament=tournament)
    standings_schedule(tournament_id=tournament.pk)
    return EntryChange(entry=entry, reseating=reseating)


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
    # The start number is the tournament's to give, the name and number the person's (a
    # registration of the corrected person meanwhile then finds this player): both locked in
    # the order registrations take them, before the player's row.
    tournament_lock(entry.tournament)
    _person_lock(first_name, last_name, ddv_number)
    entry = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk)
    player = entry.player
    player.first_name = first_name.strip()
    player.last_name = last_name.strip()
    player.club = club.strip()
    player.ddv_number = ddv_number.strip()
    save_validated(player)
    entry.start_number = start_number
    entry.player = player
    save_validated(entry)
    # The player's name shows in the standings of every tournament they entered, and at the
    # desk of every round they are seated in.
    for tournament_id in player.entries.values_list("tournament_id", flat=True):
        standings_schedule(tournament_id=tournament_id)
    caching.round_changed(
        *Seat.objects.filter(entry__player=player).values_list("round_id", flat=True)
    )
    return entry


@transaction.atomic
def entry_withdraw(*, entry: Entry) -> EntryChange:
    """Withdraw a player from the rest of the tournament.

    Rounds played keep their seats and results; rounds drawn but not started are re-seated,
    moving as few players as possible.
    """
    tournament = tournament_lock(entry.tournament)
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
    reseating = open_rounds_reseat(tournament=tournament)
    standings_schedule(tournament_id=tournament.pk)
    return EntryChange(entry=entry, reseating=reseating)


@transaction.atomic
def entry_disqualify(*, entry: Entry) -> EntryChange:
    """Disqualify a player (TSR 9.6.2 c), for the arbitration panel's sanction: the rounds
    played keep their seats and results, the player is marked in the standings and not ranked,
    and rounds drawn but not started are re-seated without them. Among what it returns are the
    rounds that cannot be seated without them (``reseating.unseated``) (the field no longer fills tables of four and
    five): they keep the seat until a substitute takes it (``entry_replace``) or the round is
    drawn again; ``round_start`` refuses them until then."""
    tournament = tournament_lock(entry.tournament)
    entry = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk)
    if entry.status == Entry.Status.DISQUALIFIED:
        raise ValidationError(
            {"status": _("%(player)s is disqualified already.") % {"player": entry.player}}
        )
    was_active = entry.status == Entry.Status.ACTIVE
    entry.status = Entry.Status.DISQUALIFIED
    entry.save(update_fields=["status"])
    standings_schedule(tournament_id=tournament.pk)
    reseating = open_rounds_reseat(tournament=tournament, keep_going=True) if was_active else None
    return EntryChange(entry=entry, reseating=reseating or Reseating())


@transaction.atomic
def entry_reinstate(*, entry: Entry) -> EntryChange:
    """Take a withdrawn player back; rounds drawn but not started seat them again."""
    tournament = tournament_lock(entry.tournament)
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
    reseating = open_rounds_reseat(tournament=tournament)
    standings_schedule(tournament_id=tournament.pk)
    return EntryChange(entry=entry, reseating=reseating)


@transaction.atomic
def entry_replace(*, entry: Entry, player: Player) -> Entry:
    """Withdraw a player and let a substitute take their seats in the rounds not yet started;
    or give a disqualified player's seats there to a substitute.

    Nobody else moves, so this is how a field of tables of four only (TSR 8.3.1) stays whole.
    """
    tournament = tournament_lock(entry.tournament)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.status == Entry.Status.WITHDRAWN:
        raise ValidationError(
            {
                "status": _("%(player)s is not active (%(status)s).")
                % {"player": entry.player, "status": entry.get_status_display()}
            }
        )
    substitute = save_validated(
        Entry(tournament=tournament, player=player, start_number=_next_start_number(tournament))
    )
    if entry.status == Entry.Status.ACTIVE:
        entry.status = Entry.Status.WITHDRAWN
        entry.save(update_fields=["status"])
    caching.round_changed(
        *Seat.objects.filter(entry=entry, round__status=Round.Status.SEATED).values_list(
            "round_id", flat=True
        )
    )
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
def players_import(*, tournament: Tournament, data: bytes) -> Imported:
    """Register every player of a CSV file, or none (see ``tournaments.player_import``).

    A player known by DDV number, or else by the same name and club, is reused.
    """
    preview = player_import.parse_players_csv(data)
    if not preview.ok:
        raise ValidationError(
            {"file": [*preview.errors, *(error for row in preview.rows for error in row.errors)]}
        )
    tournament = tournament_lock(tournament)
    if tournament.status == Tournament.Status.FINISHED:
        raise ValidationError(_("The tournament is finished; no more players can enter."))
    # Every person of the file at once, in one order: an import into another tournament of
    # the same people waits, then finds the players this one made.
    name_lock(
        "player",
        *(_person_name(row.first_name, row.last_name, row.ddv_number) for row in preview.rows),
    )
    registered = set(tournament.entries.values_list("player_id", flat=True))
    taken = set(tournament.entries.values_list("start_number", flat=True))
    next_number = _next_start_number(tournament)
    wanted = {row.start_number for row in preview.rows if row.start_number is not None}
    errors, entries = [], []
    for row in preview.rows:
        player = _found_or_created(
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
    reseating = open_rounds_reseat(tournament=tournament)
    standings_schedule(tournament_id=tournament.pk)
    return Imported(entries=created, reseating=reseating)


def _folded(text: str) -> str:
    return unicodedata.normalize("NFC", text).lower()


def _person_name(first_name: str, last_name: str, ddv_number: str) -> str:
    """What a person is found by (``player_find_or_create``), as the name of their lock."""
    ddv_number = ddv_number.strip()
    if ddv_number:
        return f"ddv:{ddv_number}"
    return f"name:{player_search_key(first_name.strip(), last_name.strip())}"


def _person_lock(first_name: str, last_name: str, ddv_number: str) -> None:
    name_lock("player", _person_name(first_name, last_name, ddv_number))


@transaction.atomic
def player_find_or_create(
    *, first_name: str, last_name: str, club: str = "", ddv_number: str = ""
) -> Player:
    """The known player: by DDV number if one is given, else by name and club in any case
    ("MÜLLER" is Müller, "Mueller" another) without a DDV number; a new player otherwise.

    Two requests for the same new person at once make one player: the second waits for the
    first (a lock on what the person is found by, held to the end of the transaction) and
    then finds it."""
    _person_lock(first_name, last_name, ddv_number)
    return _found_or_created(
        first_name=first_name, last_name=last_name, club=club, ddv_number=ddv_number
    )


def _found_or_created(*, first_name: str, last_name: str, club: str, ddv_number: str) -> Player:
    """``player_find_or_create`` with the person locked already."""
    first_name, last_name, club, ddv_number = (
        value.strip() for value in (first_name, last_name, club, ddv_number)
    )
    if ddv_number:
        known = Player.objects.filter(ddv_number=ddv_number).first()
    else:
        # The indexed key narrows the search to the same name however spelt; the same name
        # is the same letters in any case, told here in Python so that SQLite (whose iexact
        # folds only ASCII) and PostgreSQL agree. "Mueller" and "Weiss" are other families,
        # as in the file's own check (``player_import``).
        same = (_folded(first_name), _folded(last_name), _folded(club))
        known = next(
            (
                player
                for player in Player.objects.filter(
                    search_key=player_search_key(first_name, last_name), ddv_number=""
                ).order_by("pk")
                if (_folded(player.first_name), _folded(player.last_name), _folded(player.club))
                == same
            ),
            None,
        )
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
) -> EntryChange:
    """Register a person by name (a known player is reused, see ``player_find_or_create``);
    returns the entry, and whom seating the late entry moved.

    The same person registered twice at once is one entry: the second request finds the
    player the first made, and is told the player is registered already."""
    # The tournament first, then the person, as the import takes them: never the other way.
    tournament = tournament_lock(tournament)
    player = player_find_or_create(
        first_name=first_name, last_name=last_name, club=club, ddv_number=ddv_number
    )
    return _entry_add(tournament=tournament, player=player, start_number=start_number)
