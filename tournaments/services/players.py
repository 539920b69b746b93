"""Writes for players and their entries: registration, import, withdrawal, disqualification,
reinstatement and substitutes (TSR 9.6.2 c, 10.1). A withdrawal frees a place, which the apps
above may fill (``tournaments.entered``: the online registration's waiting list)."""

from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import caching, entered, player_import, selectors
from tournaments.models import (
    Entry,
    Named,
    PersonChange,
    Player,
    Round,
    Seat,
    Tournament,
    new_seat_token,
)
from tournaments.policies import may_correct_person_with_entry
from tournaments.services.common import save_validated, tournament_lock
from tournaments.services.persons import (
    entries_follow,
    found_or_created,
    person_lock,
    person_log,
    person_shown_again,
    person_snapshot,
    player_find_or_create,
)
from tournaments.services.rounds import Reseating, open_rounds_reseat
from tournaments.services.standings import standings_schedule
from tournaments.services.tournaments import tournament_tables_of_five_allow


def _next_start_number(tournament: Tournament) -> int:
    return (tournament.entries.aggregate(highest=Max("start_number"))["highest"] or 0) + 1


@dataclass(frozen=True)
class EntryChange:
    """An entry as a service left it, and what re-seating the drawn rounds did to the others."""

    entry: Entry
    reseating: Reseating
    # Who moved up into the place the change freed (``entered.place_freed``: the online
    # registration's waiting list).
    moved_up: tuple[Named, ...] = ()


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
    return entry_add(tournament=tournament, player=player, start_number=start_number).entry


def entry_add(
    *,
    tournament: Tournament,
    player: Player,
    start_number: int | None,
    first_name: str = "",
    last_name: str = "",
    club: str = "",
    email: str = "",
) -> EntryChange:
    """Register the player under these names (none given: the player's own, ``Entry``), with
    the address their personal link is mailed to (``email``, optional)."""
    tournament = tournament_lock(tournament)
    if tournament.status == Tournament.Status.FINISHED:
        raise ValidationError(_("The tournament is finished; no more players can enter."))
    entry = save_validated(
        Entry(
            tournament=tournament,
            player=player,
            first_name=first_name.strip(),
            last_name=last_name.strip(),
            club=club.strip(),
            email=email.strip(),
            start_number=start_number or _next_start_number(tournament),
        )
    )
    reseating = open_rounds_reseat(tournament=tournament, joining=True)
    standings_schedule(tournament_id=tournament.pk)
    return EntryChange(entry=entry, reseating=reseating)


def _only_theirs(*, player: Player, by: User | AnonymousUser) -> bool:
    """Whether every tournament the person plays in is one ``by`` organises."""
    tournament_ids = set(player.entries.values_list("tournament_id", flat=True))
    roles = selectors.user_roles_by_tournament(user=by, tournament_ids=tournament_ids)
    return (
        may_correct_person_with_entry(tournament_ids=tournament_ids, roles_by_tournament=roles)
        is None
    )


@transaction.atomic
def entry_update(
    *,
    entry: Entry,
    first_name: str,
    last_name: str,
    club: str = "",
    ddv_number: str = "",
    start_number: int,
    by: User | AnonymousUser,
    same_person: bool = False,
    email: str = "",
) -> Entry:
    """Correct a registration: the name and club the tournament registered the player under,
    and the start number; never a person who plays elsewhere too.

    When every tournament of the person is one ``by`` organises, the person is only his and
    follows the correction (logged). The DDV number is the person's: another number makes the
    entry another person's, found or made as a registration finds them (refused under another
    name, ``player_find_or_create``); a person left without entries is deleted."""
    first_name, last_name, club, ddv_number = (
        value.strip() for value in (first_name, last_name, club, ddv_number)
    )
    # The start number is the tournament's to give, the person the registration's: both
    # locked in the order registrations take them (the tournament, then the person as he was
    # and as he is now, at once), before the entry's row.
    tournament_lock(entry.tournament)
    was = Player.objects.filter(pk=entry.player_id).values_list(
        "first_name", "last_name", "ddv_number"
    )
    person_lock(*was, (first_name, last_name, ddv_number))
    entry = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk)
    player = Player.objects.select_for_update().get(pk=entry.player_id)
    entry.first_name, entry.last_name, entry.club = first_name, last_name, club
    entry.start_number = start_number
    entry.email = email.strip()
    followed = _only_theirs(player=player, by=by)
    number_free = (
        not ddv_number
        or not Player.objects.filter(ddv_number=ddv_number).exclude(pk=player.pk).exists()
    )
    left: Player | None = None
    if followed and number_free:
        before = person_snapshot(player)
        player.first_name, player.last_name, player.club = first_name, last_name, club
        player.ddv_number = ddv_number
        if person_snapshot(player) != before:
            save_validated(player)
            entries_follow(player=player, before=before)
            person_log(
                player=player,
                kind=PersonChange.Kind.FOLLOWED,
                by=by,
                before=before,
                after=person_snapshot(player),
            )
    elif ddv_number != player.ddv_number:
        left = player
        entry.player = found_or_created(
            first_name=first_name,
            last_name=last_name,
            club=club,
            ddv_number=ddv_number,
            same_person=same_person,
        )
    save_validated(entry)
    entered.entry_corrected(entry=entry, by=by if isinstance(by, User) else None)
    if left is not None and not left.entries.exists():
        person_log(
            player=None,
            kind=PersonChange.Kind.DELETED,
            by=by,
            before=person_snapshot(left),
            after={},
        )
        left.delete()
    if followed:
        person_shown_again(player=entry.player)
    else:
        standings_schedule(tournament_id=entry.tournament_id)
        caching.round_changed(*entry.seats.values_list("round_id", flat=True))
    return entry


@transaction.atomic
def entry_withdraw(*, entry: Entry) -> EntryChange:
    """Withdraw a player from the rest of the tournament.

    Rounds played keep their seats and results; rounds drawn but not started are re-seated,
    moving as few players as possible. Before the first draw the place goes to the first on the
    online registration's waiting list (``entered.place_freed``).
    """
    tournament = tournament_lock(entry.tournament)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.status != Entry.Status.ACTIVE:
        raise ValidationError(
            {
                "status": _("%(player)s is not active (%(status)s).")
                % {"player": entry.name, "status": entry.get_status_display()}
            }
        )
    entry.status = Entry.Status.WITHDRAWN
    entry.save(update_fields=["status"])
    reseating = open_rounds_reseat(tournament=tournament)
    moved_up = entered.place_freed(tournament=tournament)
    standings_schedule(tournament_id=tournament.pk)
    return EntryChange(entry=entry, reseating=reseating, moved_up=tuple(moved_up))


@transaction.atomic
def entry_disqualify(*, entry: Entry) -> EntryChange:
    """Disqualify a player (TSR 9.6.2 c), for the arbitration panel's sanction: the rounds
    played keep their seats and results, the player is marked in the standings and not ranked,
    and rounds drawn but not started are re-seated without them. Among what it returns are the
    rounds that cannot be seated without them (``reseating.unseated``) (the field no longer fills tables of four and
    five): they keep the seat until a substitute takes it (``entry_replace``) or the round is
    drawn again; ``round_start`` refuses them until then."""
    tournament = tournament_lock(entry.tournament)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.status == Entry.Status.DISQUALIFIED:
        raise ValidationError(
            {"status": _("%(player)s is disqualified already.") % {"player": entry.name}}
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
    reseating = open_rounds_reseat(tournament=tournament, joining=True)
    standings_schedule(tournament_id=tournament.pk)
    return EntryChange(entry=entry, reseating=reseating)


@transaction.atomic
def entry_replace(
    *, entry: Entry, player: Player, first_name: str = "", last_name: str = "", club: str = ""
) -> Entry:
    """Withdraw a player and let a substitute take their seats in the rounds not yet started;
    or give a disqualified player's seats there to a substitute, registered under the names
    given (none: the substitute's own).

    Nobody else moves, so this is how a field of tables of four only (TSR 8.3.1) stays whole.
    """
    tournament = tournament_lock(entry.tournament)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.status == Entry.Status.WITHDRAWN:
        raise ValidationError(
            {
                "status": _("%(player)s is not active (%(status)s).")
                % {"player": entry.name, "status": entry.get_status_display()}
            }
        )
    substitute = save_validated(
        Entry(
            tournament=tournament,
            player=player,
            first_name=first_name.strip(),
            last_name=last_name.strip(),
            club=club.strip(),
            start_number=_next_start_number(tournament),
        )
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
    person_lock(*((row.first_name, row.last_name, row.ddv_number) for row in preview.rows))
    registered = set(tournament.entries.values_list("player_id", flat=True))
    taken = set(tournament.entries.values_list("start_number", flat=True))
    next_number = _next_start_number(tournament)
    wanted = {row.start_number for row in preview.rows if row.start_number is not None}
    errors: list[str] = []
    entries: list[Entry] = []
    for row in preview.rows:
        try:
            player = found_or_created(
                first_name=row.first_name,
                last_name=row.last_name,
                club=row.club,
                ddv_number=row.ddv_number,
            )
        except ValidationError as refused:
            errors.extend(
                _("Line %(line)d: %(error)s") % {"line": row.line, "error": message}
                for message in refused.messages
            )
            continue
        if player.pk in registered:
            errors.append(
                _("Line %(line)d: %(player)s is already registered.")
                % {"line": row.line, "player": f"{row.first_name} {row.last_name}".strip()}
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
        entries.append(
            Entry(
                tournament=tournament,
                player=player,
                first_name=row.first_name.strip(),
                last_name=row.last_name.strip(),
                club=row.club.strip(),
                email=row.email,
                start_number=number,
            )
        )
    if errors:
        raise ValidationError({"file": errors})
    created = Entry.objects.bulk_create(entries)
    reseating = open_rounds_reseat(tournament=tournament, joining=True)
    standings_schedule(tournament_id=tournament.pk)
    return Imported(entries=created, reseating=reseating)


@transaction.atomic
def entry_register(
    *,
    tournament: Tournament,
    first_name: str,
    last_name: str,
    club: str = "",
    ddv_number: str = "",
    start_number: int | None = None,
    same_person: bool = False,
    email: str = "",
) -> EntryChange:
    """Register a person by name (a known player is reused, see ``player_find_or_create``,
    which refuses another's DDV number unless ``same_person``) under the name and club typed;
    returns the entry, and whom seating the late entry moved.

    The same person registered twice at once is one entry: the second request finds the
    player the first made, and is told the player is registered already."""
    # The tournament first, then the person, as the import takes them: never the other way.
    tournament = tournament_lock(tournament)
    player = player_find_or_create(
        first_name=first_name,
        last_name=last_name,
        club=club,
        ddv_number=ddv_number,
        same_person=same_person,
    )
    return entry_add(
        tournament=tournament,
        player=player,
        start_number=start_number,
        first_name=first_name,
        last_name=last_name,
        club=club,
        email=email,
    )


@transaction.atomic
def entry_register_at_tables_of_five(
    *,
    tournament: Tournament,
    by: User,
    first_name: str,
    last_name: str,
    club: str = "",
    ddv_number: str = "",
    start_number: int | None = None,
    same_person: bool = False,
    email: str = "",
) -> EntryChange:
    """A late entry that fits in only at a table of five (TSR 8.3.1, 10): allow tables of five
    (the organiser's decision, ``tournament_tables_of_five_allow``) and register the player
    (``entry_register``), both or neither."""
    tournament_tables_of_five_allow(tournament=tournament, by=by)
    return entry_register(
        tournament=tournament,
        first_name=first_name,
        last_name=last_name,
        club=club,
        ddv_number=ddv_number,
        start_number=start_number,
        same_person=same_person,
        email=email,
    )
