"""Restore one tournament, or a team competition with its match days' tournaments, from a
backup document (``backup/selectors.py`` writes it), in one transaction; the results and
standings are rebuilt from what it restored.

A backup may be restored onto a site that others share, and its file may have been changed:
what it says is taken only as the site itself would take it.

- **Persons** are found again as a registration finds them: by DDV number, and only under the
  same names (``number_holder_named``). A number that belongs here to a person of another name
  is not theirs to claim: that player is imported as a new person without the number, and the
  import says so (``ImportResult.numbers_cleared``).
- **Scans** of the signed sheets are cleaned as an upload is (``scoring.scans.scan_clean``:
  their type told by their content, the size limit, metadata stripped); one that fails is
  refused, naming its sheet, and nothing is imported.
- **Roles** (a tournament's staff, a competition's organisers) go to the accounts the import
  creates, and to accounts of the same user name that exist here already only when asked
  (``attach_roles_to_existing_accounts``): on a shared site that name may be someone else's.
  The roles left out are reported (``ImportResult.roles_not_given``).
"""

import base64
import binascii
import datetime
import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar, overload

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import IntegrityError, connection, models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from adjudication.models import Appeal, Decision, Event, Offence, Sanction
from adjudication.services.offences import standard_offence_named
from backup.format import (
    COMPETITION_FIELDS,
    COMPETITION_FORMAT,
    COMPETITION_VERSION,
    DECISION_FIELDS,
    DECISION_FIELDS_LATER,
    ENTRY_FIELDS_LATER,
    FORMAT,
    HAND_FIELDS,
    HAND_FIELDS_LATER,
    TOURNAMENT_FIELDS,
    TOURNAMENT_FIELDS_LATER,
    VERSION,
)
from rankings.services.lists import ranking_schedule_if_ranked
from scoring.models import (
    SCAN_MAX_BYTES,
    Hand,
    Scoresheet,
    ScoresheetChange,
    ScoresheetScan,
    SecondEntry,
)
from scoring.scans import content_type_of, scan_clean
from teams.models import (
    Competition,
    Group,
    GroupTeam,
    LineUp,
    MatchDay,
    PlannedPlace,
    SeasonPlan,
    Team,
    TeamMember,
)
from tournaments import services
from tournaments.models import (
    Entry,
    ExtraTime,
    Player,
    Round,
    Seat,
    Table,
    Tournament,
    TournamentRole,
    new_seat_token,
)
from tournaments.services.persons import number_holder_named, person_lock

M = TypeVar("M", bound=models.Model)
R = TypeVar("R")
Panelled = TypeVar("Panelled", Appeal, Sanction)  # decided with an arbitration panel
Appealed = TypeVar("Appealed", Decision, Sanction)  # may be made on an appeal


@overload
def _parse_time(value: str) -> datetime.datetime: ...
@overload
def _parse_time(value: None) -> None: ...
@overload
def _parse_time(value: str | None) -> datetime.datetime | None: ...
def _parse_time(value: str | None) -> datetime.datetime | None:
    if value is None:
        return None
    parsed = datetime.datetime.fromisoformat(value)
    if timezone.is_naive(parsed):
        parsed = timezone.make_aware(parsed)
    return parsed


@dataclass(frozen=True)
class NumberCleared:
    """A player of the backup whose DDV number belongs here to a person of another name,
    imported as a new person without the number."""

    first_name: str
    last_name: str
    ddv_number: str


@dataclass(frozen=True)
class RoleNotGiven:
    """A role the backup gives to a user name that has an account here already, not given:
    the name may be someone else's on this site. ``role``: its name, to be shown."""

    user: str
    role: str


@dataclass
class ImportResult:
    """What an import made, for the person running it."""

    tournament: Tournament
    users_created: list[str] = field(default_factory=list)
    players_created: int = 0
    players_reused: int = 0
    numbers_cleared: list[NumberCleared] = field(default_factory=list)
    roles_not_given: list[RoleNotGiven] = field(default_factory=list)
    tokens_renewed: int = 0
    # Key in the file -> the restored entry (a competition's line-ups name them by key).
    entries: dict[int, Entry] = field(default_factory=dict, repr=False)


@dataclass
class CompetitionImportResult:
    """What the import of a team competition made, for the person running it."""

    competition: Competition
    tournaments: list[ImportResult] = field(default_factory=list)
    users_created: list[str] = field(default_factory=list)
    players_created: int = 0
    players_reused: int = 0
    numbers_cleared: list[NumberCleared] = field(default_factory=list)
    roles_not_given: list[RoleNotGiven] = field(default_factory=list)


@dataclass
class _Accounts:
    """The accounts an import names, and which of them may be given the backup's roles: those
    it created, and those that existed already only when asked."""

    attach_roles_to_existing: bool
    created: set[str] = field(default_factory=set)

    def may_hold_roles(self, name: str) -> bool:
        return self.attach_roles_to_existing or name in self.created


class _Damaged(Exception):
    """The document refers to something it does not hold, or a value has the wrong form."""


def _check_format(data) -> None:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValidationError(
            _("This is not a tournament backup (format “%(format)s” expected).")
            % {"format": FORMAT}
        )
    if data.get("version") != VERSION:
        raise ValidationError(
            _("This backup has format version %(found)s; this program reads version %(version)d.")
            % {"found": data.get("version"), "version": VERSION}
        )


def tournament_import(
    *, data: dict, attach_roles_to_existing_accounts: bool = False, scans: bool = True
) -> Tournament:
    """Restore a tournament; see ``tournament_import_report``."""
    return tournament_import_report(
        data=data,
        attach_roles_to_existing_accounts=attach_roles_to_existing_accounts,
        scans=scans,
    ).tournament


def tournament_import_report(
    *, data: dict, attach_roles_to_existing_accounts: bool = False, scans: bool = True
) -> ImportResult:
    """Restore a tournament from ``tournament_export``'s document, in one transaction: all of
    it or nothing. Refused if a tournament with its slug exists. Unknown users are created
    inactive and without a password; players are found again by their DDV number and names;
    roles go to existing accounts only with ``attach_roles_to_existing_accounts`` (see the
    module). ``scans``: False leaves the scans of the signed sheets out."""
    _check_format(data)
    accounts = _Accounts(attach_roles_to_existing=attach_roles_to_existing_accounts)
    stored: list[str] = []  # the scans' files written, deleted again if the import fails
    try:
        result = _import_atomically(lambda: _import(data, stored, accounts, scans=scans))
    except BaseException:
        for name in stored:
            default_storage.delete(name)
        raise
    services.standings_rebuild(tournament_id=result.tournament.pk)
    return result


def _import_atomically(run: Callable[[], R]) -> R:
    try:
        with transaction.atomic():
            return run()
    except _Damaged as error:
        raise ValidationError(
            _("The backup is damaged or incomplete: %(error)s") % {"error": error}
        ) from error
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise ValidationError(
            _("The backup is damaged or incomplete: %(error)s") % {"error": repr(error)}
        ) from error
    except IntegrityError as error:
        raise ValidationError(
            _("The backup breaks a rule of the database: %(error)s") % {"error": error}
        ) from error


def _lookup(keys: dict, key, kind: str):
    if key is None:
        return None
    try:
        return keys[key]
    except (KeyError, TypeError):
        message = _("it names %(kind)s %(key)s, which it does not hold.")
        raise _Damaged(message % {"kind": kind, "key": key}) from None


def _insert(model: type[M], rows: list[M]) -> list[M]:
    """Insert the rows, learning their new ids."""
    if connection.features.can_return_rows_from_bulk_insert:
        return model._default_manager.bulk_create(rows)
    for row in rows:
        row.save(force_insert=True)
    return rows


def _keep_times(model: type[M], rows: list[M], items: list[dict], *names: str) -> None:
    """Put back the times the file holds: saving sets fields with ``auto_now(_add)`` to now."""
    for row, item in zip(rows, items, strict=True):
        for name in names:
            setattr(row, name, _parse_time(item[name]))
    if rows and names:
        model._default_manager.bulk_update(rows, list(names), batch_size=500)


def _users_named(
    usernames: list[str], created: list[str], accounts: _Accounts
) -> dict[str, AbstractBaseUser]:
    """The users of these names; those missing are created inactive, without a password (and
    may hold the backup's roles)."""
    User = get_user_model()
    names = sorted(set(usernames))
    found: dict[str, AbstractBaseUser] = {
        user.get_username(): user
        for user in User._default_manager.filter(**{f"{User.USERNAME_FIELD}__in": names})
    }
    for name in names:
        if name not in found:
            user = User(**{User.USERNAME_FIELD: name}, is_active=False)
            user.set_unusable_password()
            user.full_clean(exclude=["password"])
            user.save()
            found[name] = user
            created.append(name)
            accounts.created.add(name)
    return found


@dataclass
class _People:
    """The players of a backup as restored: key in the file -> the player; how many were
    made; whose DDV number was another person's here."""

    players: dict[int, Player]
    created: int
    numbers_cleared: list[NumberCleared]


def _players(items: list[dict], known: Mapping[int, Player] | None = None) -> _People:
    """The players of the backup. Players are shared by all tournaments: one whose DDV number
    a person here holds under the same names is that person, as a registration finds them
    (``number_holder_named``); under other names it is someone else, made anew without the
    number. ``known``: the players restored already for these keys (a competition's, for its
    match days)."""
    known = known or {}
    items = [item for item in items if item["key"] not in known]
    numbered = [item for item in items if item["ddv_number"]]
    # As a registration of the same people waits, so that neither makes a person twice.
    person_lock(*((item["first_name"], item["last_name"], item["ddv_number"]) for item in numbered))
    holders = {
        p.ddv_number: p
        for p in Player.objects.filter(ddv_number__in=[item["ddv_number"] for item in numbered])
    }
    found: dict[int, Player] = {}
    cleared: dict[int, NumberCleared] = {}
    for item in numbered:
        holder = holders.get(item["ddv_number"])
        if holder is None:
            continue
        if number_holder_named(holder, first_name=item["first_name"], last_name=item["last_name"]):
            found[item["key"]] = holder
        else:
            cleared[item["key"]] = NumberCleared(
                item["first_name"], item["last_name"], item["ddv_number"]
            )
    new = _keyed(
        Player,
        [item for item in items if item["key"] not in found],
        lambda item: _player(item, ddv_number="" if item["key"] in cleared else item["ddv_number"]),
        "created_at",
    )
    return _People({**known, **found, **new}, len(new), list(cleared.values()))


def _player(item: dict, *, ddv_number: str) -> Player:
    """A new person as the backup names them, checked as a registration's would be."""
    player = Player(
        first_name=item["first_name"],
        last_name=item["last_name"],
        club=item["club"],
        ddv_number=ddv_number,
    )
    try:
        player.full_clean(validate_unique=False, validate_constraints=False)
    except ValidationError as error:
        raise _Damaged(
            _("the player %(name)s: %(error)s")
            % {
                "name": f"{item['first_name']} {item['last_name']}".strip(),
                "error": " ".join(error.messages),
            }
        ) from error
    return player


@dataclass
class _Restoring:
    """A tournament being restored: the rows made so far, by their keys in the file."""

    tournament: Tournament
    result: ImportResult
    users: dict[str, AbstractBaseUser]
    accounts: _Accounts
    stored: list[str]  # the scans' files written, deleted again if the import fails
    scans: bool  # False: the scans of the signed sheets are left out
    offences: dict[int, Offence] = field(default_factory=dict)
    rounds: dict[int, Round] = field(default_factory=dict)
    tables: dict[int, Table] = field(default_factory=dict)
    seats: dict[int, Seat] = field(default_factory=dict)
    sheets: dict[int, Scoresheet] = field(default_factory=dict)
    decisions: dict[int, Decision] = field(default_factory=dict)
    sanctions: dict[int, Sanction] = field(default_factory=dict)
    appeals: dict[int, Appeal] = field(default_factory=dict)

    @property
    def entries(self) -> dict[int, Entry]:
        return self.result.entries

    def user(self, name: str | None) -> Any:
        """The user of this name (None for None)."""
        return _lookup(self.users, name, _("the user"))


def _import(
    data: dict,
    stored: list[str],
    accounts: _Accounts,
    *,
    scans: bool,
    known_players: Mapping[int, Player] | None = None,
) -> ImportResult:
    """Restore one tournament from its document: its own fields, then each kind of row in an
    order that lets every row find the rows it names."""
    tournament = _tournament_restore(data["tournament"])
    result = ImportResult(tournament=tournament)
    users = _users_named(data["users"], result.users_created, accounts)
    run = _Restoring(tournament, result, users, accounts, stored, scans)
    people = _players(data["players"], known_players)
    result.players_created = people.created
    result.players_reused = len(data["players"]) - people.created
    result.numbers_cleared = people.numbers_cleared
    _entries_restore(run, data["entries"], people.players)
    _roles_restore(run, data["roles"])
    _offences_restore(run, data["offences"])
    _rounds_restore(run, data["rounds"], data["tables"])
    _seats_restore(run, data["seats"])
    _extra_times_restore(run, data["extra_times"])
    _scoresheets_restore(run, data["scoresheets"])
    _adjudication_restore(run, data["decisions"], data["sanctions"], data["appeals"])
    _events_restore(run, data["events"])
    services.results_refresh_all(tournament=tournament)
    ranking_schedule_if_ranked(tournament=tournament)
    return result


def _tournament_restore(fields: dict) -> Tournament:
    """The tournament itself; refused if one with its short name exists."""
    slug = fields["slug"]
    if Tournament.objects.filter(slug=slug).exists():
        raise ValidationError(
            _("A tournament with the short name “%(slug)s” exists already; nothing was imported.")
            % {"slug": slug}
        )
    tournament = Tournament(
        **{name: fields[name] for name in TOURNAMENT_FIELDS},
        **{name: fields[name] for name in TOURNAMENT_FIELDS_LATER if name in fields},
        starts_on=datetime.date.fromisoformat(fields["starts_on"]),
        ends_on=datetime.date.fromisoformat(fields["ends_on"]),
        # Added later: a file written before it has none, and the tournament is current.
        archived_at=_parse_time(fields.get("archived_at")),
    )
    tournament.full_clean(validate_unique=False)
    tournament.save()
    tournament.created_at = _parse_time(fields["created_at"])
    Tournament.objects.filter(pk=tournament.pk).update(created_at=tournament.created_at)
    return tournament


def _entries_restore(run: _Restoring, items: list[dict], players: dict[int, Player]) -> None:
    """The entries, each of a player restored or found again."""
    run.result.entries = _keyed(
        Entry,
        items,
        lambda item: Entry(
            tournament=run.tournament,
            player=_lookup(players, item["player"], _("the player")),
            # Missing in a file written before: the player's (``Entry.names_default``).
            **{name: item.get(name, "") for name in ENTRY_FIELDS_LATER},
            start_number=item["start_number"],
            status=item["status"],
        ),
        "created_at",
    )


def _roles_restore(run: _Restoring, items: list[dict]) -> None:
    """Who holds which role in the tournament: the accounts that may hold the backup's roles
    (``_Accounts``); the others' roles are reported, not given."""
    roles = []
    for item in items:
        user, role = run.user(item["user"]), _role(item["role"])
        entry = _lookup(run.entries, item["entry"], _("the entry"))
        if run.accounts.may_hold_roles(item["user"]):
            roles.append(
                TournamentRole(tournament=run.tournament, user=user, role=role, entry=entry)
            )
        else:
            run.result.roles_not_given.append(RoleNotGiven(item["user"], str(role.label)))
    # One by one, not in bulk: the role history (``tournaments.roles_history``) keeps each.
    for grant in roles:
        grant.save(force_insert=True)


def _role(value: str) -> TournamentRole.Role:
    try:
        return TournamentRole.Role(value)
    except ValueError:
        raise _Damaged(
            _("it names the role “%(role)s”, which does not exist.") % {"role": value}
        ) from None


def _offences_restore(run: _Restoring, items: list[dict]) -> None:
    """The tournament's catalogue of offences, with the TSR's codes."""
    codes = _offence_codes(items)
    run.offences = _keyed(
        Offence,
        items,
        lambda item: Offence(
            tournament=run.tournament,
            name=item["name"],
            code=codes.get(item["key"], ""),
            rule=item["rule"],
            kind=item["kind"],
            severity=item["severity"],
            bound=item["bound"],
            deduction=item["deduction"],
        ),
    )


def _rounds_restore(run: _Restoring, items: list[dict], table_items: list[dict]) -> None:
    """The rounds and their tables."""
    run.rounds = _keyed(
        Round,
        items,
        lambda item: Round(
            tournament=run.tournament,
            number=item["number"],
            status=item["status"],
            published_at=_parse_time(item["published_at"]),
            seating_seed=item["seating_seed"],
            started_at=_parse_time(item["started_at"]),
            ended_at=_parse_time(item["ended_at"]),
        ),
    )
    run.tables = _keyed(
        Table,
        table_items,
        lambda item: Table(
            round=_lookup(run.rounds, item["round"], _("the round")), number=item["number"]
        ),
    )


def _seats_restore(run: _Restoring, items: list[dict]) -> None:
    """The seats. The private links stay as printed, unless another tournament here holds one
    already (the same tournament imported under another short name)."""
    taken = set(
        Seat.objects.filter(token__in=[item["token"] for item in items]).values_list(
            "token", flat=True
        )
    )

    def seat(item: dict) -> Seat:
        table = _lookup(run.tables, item["table"], _("the table"))
        token = item["token"]
        if not token or token in taken:
            token = new_seat_token()
            run.result.tokens_renewed += 1
        taken.add(token)
        return Seat(
            round_id=table.round_id,
            table=table,
            position=item["position"],
            entry=_lookup(run.entries, item["entry"], _("the entry")),
            moved_at=_parse_time(item["moved_at"]),
            token=token,
            second=bool(item.get("second", False)),
        )

    run.seats = _keyed(Seat, items, seat)


def _extra_times_restore(run: _Restoring, items: list[dict]) -> None:
    """The extra time granted to tables."""
    _rows(
        ExtraTime,
        items,
        lambda item: ExtraTime(
            table=_lookup(run.tables, item["table"], _("the table")),
            minutes=item["minutes"],
            reason=item["reason"],
            granted_by=run.user(item["granted_by"]),
        ),
        "granted_at",
    )


def _scoresheets_restore(run: _Restoring, items: list[dict]) -> None:
    """The scoresheets, then their hands, second entries, changes and scans."""
    run.sheets = _keyed(
        Scoresheet,
        items,
        lambda item: Scoresheet(
            table=_lookup(run.tables, item["table"], _("the table")),
            status=item["status"],
            version=item["version"],
            time_over_after_hand=item["time_over_after_hand"],
            # Backups from before the scorekeeper could be handed over have none.
            keeper_seat=item.get("keeper_seat"),
            submitted_at=_parse_time(item["submitted_at"]),
            submitted_by=run.user(item["submitted_by"]),
            submitted_by_seat=_lookup(run.seats, item["submitted_by_seat"], _("the seat")),
            confirmed_at=_parse_time(item["confirmed_at"]),
            confirmed_by=run.user(item["confirmed_by"]),
            confirmed_by_seat=_lookup(run.seats, item["confirmed_by_seat"], _("the seat")),
            # Backups from before a sheet could be sent back have neither.
            sent_back_reason=item.get("sent_back_reason", ""),
            sent_back_by=item.get("sent_back_by", ""),
            # Backups from before a sheet could be ended early have none of it.
            ended_early_reason=item.get("ended_early_reason", ""),
            ended_early_at=_parse_time(item.get("ended_early_at")),
            ended_early_by=item.get("ended_early_by", ""),
            ended_early_hands_not_played=item.get("ended_early_hands_not_played"),
            # Backups from before paper sheets were confirmed at the desk have none.
            confirmation=item.get("confirmation", ""),
        ),
        "updated_at",
    )
    _insert(
        Hand,
        [
            Hand(
                scoresheet=run.sheets[item["key"]],
                **{name: hand[name] for name in HAND_FIELDS},
                **{name: hand[name] for name in HAND_FIELDS_LATER if name in hand},
            )
            for item in items
            for hand in item["hands"]
        ],
    )
    _second_entries_restore(run, items)
    _changes_restore(run, items)
    if run.scans:
        _scans_restore(run, items)


def _second_entries_restore(run: _Restoring, items: list[dict]) -> None:
    """The sheets' second entries (double entry), as typed."""
    _rows(
        SecondEntry,
        [
            {**item["second_entry"], "scoresheet": item["key"]}
            for item in items
            if item.get("second_entry")
        ],
        lambda second: SecondEntry(
            scoresheet=run.sheets[second["scoresheet"]],
            by=run.user(second["by"]),
            hands=second["hands"],
            time_over_after_hand=second["time_over_after_hand"],
            version=second["version"],
            differences=second["differences"],
            compared_at=_parse_time(second["compared_at"]),
        ),
        "started_at",
        "updated_at",
    )


def _changes_restore(run: _Restoring, items: list[dict]) -> None:
    """Each sheet's history of changes."""
    _rows(
        ScoresheetChange,
        [{**change, "scoresheet": item["key"]} for item in items for change in item["changes"]],
        lambda change: ScoresheetChange(
            scoresheet=run.sheets[change["scoresheet"]],
            version=change["version"],
            action=change["action"],
            by=run.user(change["by"]),
            by_seat=_lookup(run.seats, change["by_seat"], _("the seat")),
            by_name=change["by_name"],
            reason=change["reason"],
            before=change["before"],
            after=change["after"],
        ),
        "at",
    )


def _scans_restore(run: _Restoring, items: list[dict]) -> None:
    """The scans of the signed sheets, their files written back to storage. Backups from
    before sheets had scans have none."""
    scans = [(run.sheets[item["key"]], item["scan"]) for item in items if item.get("scan")]
    _insert(
        ScoresheetScan,
        [
            _scan(
                sheet,
                scan,
                run.stored,
                user=run.user,
                seat=_lookup(run.seats, scan["uploaded_by_seat"], _("the seat")),
            )
            for sheet, scan in scans
        ],
    )


def _adjudication_restore(
    run: _Restoring,
    decision_items: list[dict],
    sanction_items: list[dict],
    appeal_items: list[dict],
) -> None:
    """The decisions, sanctions and appeals. A decision of the panel names the appeal it was
    made on, and the appeal the decision appealed against: the decisions come first, and learn
    their appeals after. Sanctions too: an appeal may be against one, and the panel's own
    names its appeal."""
    _decisions_restore(run, decision_items)
    _sanctions_restore(run, sanction_items)
    _members(Sanction, run.sanctions, sanction_items, run.user)
    _appeals_restore(run, appeal_items)
    _appeals_link(run, Decision, run.decisions, decision_items)
    # Backups from before a sanction could be appealed name no appeal on it.
    _appeals_link(run, Sanction, run.sanctions, sanction_items, added_later=True)
    _members(Appeal, run.appeals, appeal_items, run.user)


def _decisions_restore(run: _Restoring, items: list[dict]) -> None:
    """The decisions on the sheets, without the appeals made on them yet."""
    run.decisions = _keyed(
        Decision,
        items,
        lambda item: Decision(
            scoresheet=_lookup(run.sheets, item["scoresheet"], _("the scoresheet")),
            **{name: item[name] for name in DECISION_FIELDS},
            **{name: item[name] for name in DECISION_FIELDS_LATER if name in item},
            offence=_lookup(run.offences, item["offence"], _("the offence")),
            recorded_by=run.user(item["recorded_by"]),
            initialled_by=run.user(item["initialled_by"]),
            initialled_at=_parse_time(item["initialled_at"]),
            ruled_by=run.user(item.get("ruled_by")),
            hands_at_initials=_hands_at_initials(item, run.sheets),
        ),
        "recorded_at",
    )


def _sanctions_restore(run: _Restoring, items: list[dict]) -> None:
    """The sanctions imposed on entries, without the appeals made on them yet."""
    run.sanctions = _keyed(
        Sanction,
        items,
        lambda item: Sanction(
            entry=_lookup(run.entries, item["entry"], _("the entry")),
            round=_lookup(run.rounds, item["round"], _("the round")),
            kind=item["kind"],
            points=item["points"],
            offence=_lookup(run.offences, item["offence"], _("the offence")),
            reasons=item["reasons"],
            decided_by=run.user(item["decided_by"]),
            status=item.get("status", Sanction.Status.IN_FORCE),
            hands_at_decision=item.get("hands_at_decision"),
        ),
        "decided_at",
    )


def _appeals_restore(run: _Restoring, items: list[dict]) -> None:
    """The appeals against decisions and sanctions."""
    run.appeals = _keyed(
        Appeal,
        items,
        lambda item: Appeal(
            decision=_lookup(run.decisions, item["decision"], _("the decision")),
            sanction=_lookup(run.sanctions, item.get("sanction"), _("the sanction")),
            appellant=item["appellant"],
            grounds=item["grounds"],
            lodged_by=run.user(item["lodged_by"]),
            outcome=item["outcome"],
            reasons=item["reasons"],
            interruption=item["interruption"],
            decided_by=run.user(item["decided_by"]),
            decided_at=_parse_time(item["decided_at"]),
        ),
        "lodged_at",
    )


def _appeals_link(
    run: _Restoring,
    model: type[Appealed],
    rows: Mapping[int, Appealed],
    items: list[dict],
    *,
    added_later: bool = False,
) -> None:
    """Give each decision or sanction made by the panel the appeal it was made on."""
    on_appeal = [
        (rows[item["key"]], _lookup(run.appeals, item["appeal"], _("the appeal")))
        for item in items
        if (item.get("appeal") if added_later else item["appeal"]) is not None
    ]
    for row, appeal in on_appeal:
        row.appeal = appeal
    model._default_manager.bulk_update([row for row, _appeal in on_appeal], ["appeal"])


def _events_restore(run: _Restoring, items: list[dict]) -> None:
    """The adjudication's log of events; one naming an offence names it by its new id."""

    def details(item: dict) -> dict:
        found = item["details"]
        if isinstance(found, dict) and found.get("offence") is not None:
            offence = run.offences.get(found["offence"])
            return {**found, "offence": offence.pk if offence else None}
        return found

    _rows(
        Event,
        items,
        lambda item: Event(
            tournament=run.tournament,
            by=run.user(item["by"]),
            action=item["action"],
            decision=_lookup(run.decisions, item["decision"], _("the decision")),
            appeal=_lookup(run.appeals, item["appeal"], _("the appeal")),
            sanction=_lookup(run.sanctions, item["sanction"], _("the sanction")),
            summary=item["summary"],
            message=item.get("message"),
            details=details(item),
        ),
        "at",
    )


def _scan(
    sheet: Scoresheet, item: dict, stored: list[str], *, user: Callable, seat: Seat | None
) -> ScoresheetScan:
    """A sheet's scan, checked against what the document says of it, then cleaned as an
    upload is (``scoring.scans.scan_clean``: the file may have been changed since its upload,
    or written before the cleaning was), and written to storage. A file the cleaning refuses
    refuses the import, naming the sheet."""
    try:
        content = base64.b64decode(item["data"], validate=True)
    except (binascii.Error, TypeError, ValueError) as error:
        raise _Damaged(_("a scan's file is not base64.")) from error
    if not (
        0 < len(content) <= SCAN_MAX_BYTES
        and len(content) == item["size"]
        and hashlib.sha256(content).hexdigest() == item["sha256"]
        and content_type_of(content) == item["content_type"]
    ):
        raise _Damaged(
            _("the scan of a sheet is not the file it describes (size, checksum or type).")
        )
    try:
        clean = scan_clean(ContentFile(content))
    except ValidationError as refused:
        table = sheet.table
        raise ValidationError(
            _(
                "The photo or scan of the sheet of round %(round)d, table %(table)d is refused: "
                "%(reason)s Nothing was imported."
            )
            % {
                "round": table.round.number,
                "table": table.number,
                "reason": " ".join(refused.messages),
            },
            code="scan_refused",
        ) from refused
    scan = ScoresheetScan(
        scoresheet=sheet,
        content_type=clean.content_type,
        size=len(clean.content),
        sha256=clean.sha256,
        uploaded_at=_parse_time(item["uploaded_at"]),
        uploaded_by=user(item["uploaded_by"]),
        uploaded_by_seat=seat,
        uploaded_by_name=item["uploaded_by_name"],
    )
    scan.file.save(f"scan.{clean.extension}", ContentFile(clean.content), save=False)
    stored.append(scan.file.name or "")
    return scan


def _offence_codes(items: list[dict]) -> dict[int, str]:
    """The code of each offence of the TSR in a catalogue (key in the file -> code). A file
    written before offences had codes names them in the language of whoever added them: the
    first one of each name gets its code, later ones (the same offence added in another
    language) stay as they are."""
    codes: dict[int, str] = {}
    for item in items:
        code = item.get("code")
        if code is None:
            standard = standard_offence_named(item["name"])
            code = standard.code if standard else ""
        if code and code not in codes.values():
            codes[item["key"]] = code
    return codes


def _hands_at_initials(item: dict, sheets: dict) -> int | None:
    """The lines on the sheet at the initials (TSR 9.7.7); for a file from before the count
    was kept, an initialled decision's sheet's hands as restored, as migration 0010 counts."""
    if "hands_at_initials" in item or item["initialled_at"] is None:
        return item.get("hands_at_initials")
    return Hand.objects.filter(
        scoresheet=_lookup(sheets, item["scoresheet"], _("the scoresheet"))
    ).count()


def _rows(model: type[M], items: list[dict], build: Callable[[dict], M], *times: str) -> list[M]:
    """Insert one row per item, built by ``build``, with the times ``times`` as the file holds
    them."""
    rows = _insert(model, [build(item) for item in items])
    _keep_times(model, rows, items, *times)
    return rows


def _keyed(
    model: type[M], items: list[dict], build: Callable[[dict], M], *times: str
) -> dict[int, M]:
    """``_rows``, by key in the file: key -> the new row."""
    rows = _rows(model, items, build, *times)
    keyed: dict[int, M] = {}
    for item, row in zip(items, rows, strict=True):
        if item["key"] in keyed:
            raise _Damaged(_("it holds the key %(key)s twice.") % {"key": item["key"]})
        keyed[item["key"]] = row
    return keyed


def _members(
    model: type[Panelled],
    rows: Mapping[int, Panelled],
    items: list[dict],
    user: Callable[[str], AbstractBaseUser],
) -> None:
    """The members of the arbitration panel of each appeal or sanction."""
    members = model._meta.get_field("members")
    through = model.members.through  # members.remote_field.through, as its model's type
    own, theirs = members.m2m_column_name(), members.m2m_reverse_name()
    through.objects.bulk_create(
        through(**{own: rows[item["key"]].pk, theirs: user(name).pk})
        for item in items
        for name in item["members"]
    )


# Team competitions -----------------------------------------------------------------------------


def competition_import(
    *, data: dict, attach_roles_to_existing_accounts: bool = False, scans: bool = True
) -> CompetitionImportResult:
    """Restore a team competition from ``competition_export``'s document, in one transaction:
    all of it or nothing (its match days' tournaments as ``tournament_import_report`` restores
    them, with the same options). Refused if a competition with its short name, or a tournament
    with one of its match days' short names, exists. Its organisers are roles too: given to
    existing accounts only with ``attach_roles_to_existing_accounts``."""
    if not isinstance(data, dict) or data.get("format") != COMPETITION_FORMAT:
        raise ValidationError(
            _("This is not a team competition backup (format “%(format)s” expected).")
            % {"format": COMPETITION_FORMAT}
        )
    if data.get("version") != COMPETITION_VERSION:
        raise ValidationError(
            _("This backup has format version %(found)s; this program reads version %(version)d.")
            % {"found": data.get("version"), "version": COMPETITION_VERSION}
        )
    accounts = _Accounts(attach_roles_to_existing=attach_roles_to_existing_accounts)
    stored: list[str] = []
    try:
        result = _import_atomically(
            lambda: _competition_import(data, stored, accounts, scans=scans)
        )
    except BaseException:
        for name in stored:
            default_storage.delete(name)
        raise
    for imported in result.tournaments:
        services.standings_rebuild(tournament_id=imported.tournament.pk)
    return result


def _competition_import(
    data: dict, stored: list[str], accounts: _Accounts, *, scans: bool
) -> CompetitionImportResult:
    """Restore a team competition: its own fields and organisers, its players, its teams, then
    each match day with its tournament."""
    competition = _competition_restore(data["competition"])
    result = CompetitionImportResult(competition=competition)
    organisers = _users_named(data["organisers"], result.users_created, accounts)
    competition.organisers.set(
        [user.pk for name, user in organisers.items() if accounts.may_hold_roles(name)]
    )
    result.roles_not_given = [
        RoleNotGiven(name, _("organiser of the team competition"))
        for name in organisers
        if not accounts.may_hold_roles(name)
    ]
    people = _players(data["players"])
    result.players_created = people.created
    result.players_reused = len(data["players"]) - people.created
    result.numbers_cleared = people.numbers_cleared
    teams = _teams_restore(competition, data["teams"], people.players)
    # Backups made before season plans (issue 46) have none.
    if plan := data.get("season_plan"):
        _season_plan_restore(competition, plan, teams)
    for item in data["match_days"]:
        _match_day_restore(
            competition,
            item,
            stored,
            result,
            accounts,
            scans=scans,
            players=people.players,
            teams=teams,
        )
    return result


def _competition_restore(fields: dict) -> Competition:
    """The competition itself; refused if one with its short name exists."""
    if Competition.objects.filter(slug=fields["slug"]).exists():
        raise ValidationError(
            _(
                "A team competition with the short name “%(slug)s” exists already; nothing was "
                "imported."
            )
            % {"slug": fields["slug"]}
        )
    competition = Competition(**{name: fields[name] for name in COMPETITION_FIELDS})
    competition.full_clean(validate_unique=False)
    competition.save()
    Competition.objects.filter(pk=competition.pk).update(
        created_at=_parse_time(fields["created_at"])
    )
    return competition


def _teams_restore(
    competition: Competition, items: list[dict], players: dict[int, Player]
) -> dict[int, Team]:
    """The teams and their members."""
    teams = _keyed(
        Team,
        items,
        lambda item: Team(competition=competition, name=item["name"], club=item["club"]),
        "created_at",
    )
    _insert(
        TeamMember,
        [
            TeamMember(
                team=teams[item["key"]],
                competition=competition,
                player=_lookup(players, member["player"], _("the player")),
                is_captain=member["is_captain"],
            )
            for item in items
            for member in item["members"]
        ],
    )
    return teams


def _season_plan_restore(competition: Competition, item: dict, teams: dict[int, Team]) -> None:
    """A league's season plan with its planned places."""
    plan = SeasonPlan(competition=competition, match_days=item["match_days"], double=item["double"])
    plan.full_clean(validate_unique=False)
    plan.save()
    _insert(
        PlannedPlace,
        [
            PlannedPlace(
                plan=plan,
                match_day=match_day,
                group=group,
                team=_lookup(teams, team, _("the team")),
            )
            for match_day, group, team in item["places"]
        ],
    )


def _match_day_restore(
    competition: Competition,
    item: dict,
    stored: list[str],
    result: CompetitionImportResult,
    accounts: _Accounts,
    *,
    scans: bool,
    players: dict[int, Player],
    teams: dict[int, Team],
) -> None:
    """One match day: its tournament (as ``_import`` restores it, with the competition's
    players), its groups and its line-ups."""
    document = item["tournament"]
    _check_format(document)
    known = {own: _lookup(players, theirs, _("the player")) for own, theirs in item["players"]}
    imported = _import(document, stored, accounts, scans=scans, known_players=known)
    result.tournaments.append(imported)
    result.users_created += [
        name for name in imported.users_created if name not in result.users_created
    ]
    result.numbers_cleared += imported.numbers_cleared
    result.roles_not_given += [
        role for role in imported.roles_not_given if role not in result.roles_not_given
    ]
    match_day = MatchDay.objects.create(
        competition=competition,
        number=item["number"],
        stage=item["stage"],
        # Backups made before double match days (issue 46) have none.
        double=bool(item.get("double", False)),
        tournament=imported.tournament,
    )
    for group_item in item["groups"]:
        group = Group.objects.create(
            match_day=match_day, number=group_item["number"], advance=group_item["advance"]
        )
        _insert(
            GroupTeam,
            [
                GroupTeam(
                    group=group,
                    match_day=match_day,
                    team=_lookup(teams, place["team"], _("the team")),
                    through=place["through"],
                )
                for place in group_item["teams"]
            ],
        )
    _insert(
        LineUp,
        [
            LineUp(
                match_day=match_day,
                team=_lookup(teams, line["team"], _("the team")),
                round_number=line["round_number"],
                place=line["place"],
                entry=_lookup(imported.entries, line["entry"], _("the entry")),
            )
            for line in item["line_ups"]
        ],
    )
