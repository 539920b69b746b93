"""Back up one tournament as a JSON document, and restore it into another database.

The document is written field by field, so that it stays readable and stable across changes
of the models. Rows refer to each other by keys that count from 1 within each kind, in the
order the rows were made: database ids never leave the database, and an import makes new ones.
Users are named by their username; players carry their DDV number, by which an import finds
them again. The seats' results and the standings are not in it: they are rebuilt from the
sheets and the adjudication after an import.
"""

import datetime
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, models, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from adjudication.models import Appeal, Decision, Event, Offence, Sanction
from scoring.models import Hand, Scoresheet, ScoresheetChange
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

FORMAT = "doko-tournament"
VERSION = 1

TOURNAMENT_FIELDS = [
    "name",
    "slug",
    "venue",
    "status",
    "planned_rounds",
    "hands_per_match",
    "match_minutes",
    "allow_tables_of_five",
    "hands_per_match_five",
    "match_minutes_five",
    "seating_method",
    "is_public",
    "standings_public",
    "tiebreaks",
    "counts_for_ranking",
]
HAND_FIELDS = [
    "number",
    "section",
    "dealer",
    "contract",
    "solo_type",
    "soloist",
    "game_value",
    "points_1",
    "points_2",
    "points_3",
    "points_4",
    "points_5",
    "not_played",
]
DECISION_FIELDS = [
    "hand_number",
    "offender",
    "complainant",
    "description",
    "severity",
    "contract",
    "soloist",
    "solo_type",
    "disadvantages_soloist",
    "announcements",
    "decided",
    "penalty_1",
    "penalty_2",
    "penalty_3",
    "penalty_4",
    "penalty_5",
    "computed",
    "deviation_reason",
    "hand_not_played",
    "rule",
    "status",
]
# Added later: a file written before them lacks them, and the model's defaults fill in.
DECISION_FIELDS_LATER = ["wedding_clarified_as_solo", "played_without_game_points", "replaced_line"]


def _time(value: datetime.datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _parse_time(value: str | None) -> datetime.datetime | None:
    if value is None:
        return None
    parsed = datetime.datetime.fromisoformat(value)
    if timezone.is_naive(parsed):
        parsed = timezone.make_aware(parsed)
    return parsed


def _keys(rows: Iterable[models.Model]) -> dict[int, int]:
    """Database id -> key in the file: 1, 2, 3 ... in the order of the ids."""
    return {row.pk: key for key, row in enumerate(rows, start=1)}


# Export --------------------------------------------------------------------------------------


def tournament_export(*, tournament: Tournament) -> dict:
    """The whole tournament as plain JSON-ready data (see the module's docstring)."""
    User = get_user_model()
    usernames: set[str] = set()
    user_names = dict(User._default_manager.values_list("pk", User.USERNAME_FIELD))

    def user(pk: int | None) -> str | None:
        if pk is None:
            return None
        name = user_names[pk]
        usernames.add(name)
        return name

    entries = list(tournament.entries.select_related("player").order_by("pk"))
    players = sorted({entry.player for entry in entries}, key=lambda player: player.pk)
    rounds = list(tournament.rounds.order_by("pk"))
    tables = list(Table.objects.filter(round__tournament=tournament).order_by("pk"))
    seats = list(Seat.objects.filter(round__tournament=tournament).order_by("pk"))
    sheets = list(Scoresheet.objects.filter(table__round__tournament=tournament).order_by("pk"))
    offences = list(tournament.offences.order_by("pk"))
    decisions = list(
        Decision.objects.filter(scoresheet__table__round__tournament=tournament).order_by("pk")
    )
    appeals = list(
        Appeal.objects.filter(
            Q(decision__scoresheet__table__round__tournament=tournament)
            | Q(sanction__entry__tournament=tournament)
        )
        .prefetch_related("members")
        .order_by("pk")
    )
    sanctions = list(
        Sanction.objects.filter(entry__tournament=tournament)
        .prefetch_related("members")
        .order_by("pk")
    )
    player_key, entry_key, round_key = _keys(players), _keys(entries), _keys(rounds)
    table_key, seat_key, sheet_key = _keys(tables), _keys(seats), _keys(sheets)
    offence_key, decision_key = _keys(offences), _keys(decisions)
    appeal_key, sanction_key = _keys(appeals), _keys(sanctions)
    hands: dict[int, list[Hand]] = {}
    for hand in Hand.objects.filter(scoresheet__in=sheets).order_by("pk"):
        hands.setdefault(hand.scoresheet_id, []).append(hand)
    changes: dict[int, list[ScoresheetChange]] = {}
    for change in ScoresheetChange.objects.filter(scoresheet__in=sheets).order_by("pk"):
        changes.setdefault(change.scoresheet_id, []).append(change)

    def key(keys: dict[int, int], pk: int | None) -> int | None:
        return None if pk is None else keys[pk]

    def members(row: Appeal | Sanction) -> list[str]:
        return sorted(user(member.pk) for member in row.members.all())

    def details(event: Event) -> dict:
        # A change to the catalogue names the offence by id; it may have been taken out since.
        if isinstance(event.details, dict) and "offence" in event.details:
            return {**event.details, "offence": offence_key.get(event.details["offence"])}
        return event.details

    data = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": _time(timezone.now()),
        "tournament": {
            **{name: getattr(tournament, name) for name in TOURNAMENT_FIELDS},
            "starts_on": tournament.starts_on.isoformat(),
            "ends_on": tournament.ends_on.isoformat(),
            "created_at": _time(tournament.created_at),
        },
        "players": [
            {
                "key": player_key[player.pk],
                "first_name": player.first_name,
                "last_name": player.last_name,
                "club": player.club,
                "ddv_number": player.ddv_number,
                "created_at": _time(player.created_at),
            }
            for player in players
        ],
        "entries": [
            {
                "key": entry_key[entry.pk],
                "player": player_key[entry.player_id],
                "start_number": entry.start_number,
                "status": entry.status,
                "created_at": _time(entry.created_at),
            }
            for entry in entries
        ],
        "roles": [
            {"user": user(role.user_id), "role": role.role, "entry": key(entry_key, role.entry_id)}
            for role in tournament.roles.order_by("pk")
        ],
        "offences": [
            {
                "key": offence_key[offence.pk],
                "name": offence.name,
                "rule": offence.rule,
                "kind": offence.kind,
                "severity": offence.severity,
                "bound": offence.bound,
                "deduction": offence.deduction,
            }
            for offence in offences
        ],
        "rounds": [
            {
                "key": round_key[round_.pk],
                "number": round_.number,
                "status": round_.status,
                "published_at": _time(round_.published_at),
                "seating_seed": round_.seating_seed,
                "started_at": _time(round_.started_at),
                "ended_at": _time(round_.ended_at),
            }
            for round_ in rounds
        ],
        "tables": [
            {"key": table_key[table.pk], "round": round_key[table.round_id], "number": table.number}
            for table in tables
        ],
        "seats": [
            {
                "key": seat_key[seat.pk],
                "table": table_key[seat.table_id],
                "position": seat.position,
                "entry": entry_key[seat.entry_id],
                "moved_at": _time(seat.moved_at),
                "token": seat.token,
            }
            for seat in seats
        ],
        "extra_times": [
            {
                "table": table_key[extra.table_id],
                "minutes": extra.minutes,
                "reason": extra.reason,
                "granted_by": user(extra.granted_by_id),
                "granted_at": _time(extra.granted_at),
            }
            for extra in ExtraTime.objects.filter(table__round__tournament=tournament).order_by(
                "pk"
            )
        ],
        "scoresheets": [
            {
                "key": sheet_key[sheet.pk],
                "table": table_key[sheet.table_id],
                "status": sheet.status,
                "version": sheet.version,
                "time_over_after_hand": sheet.time_over_after_hand,
                "keeper_seat": sheet.keeper_seat,
                "submitted_at": _time(sheet.submitted_at),
                "submitted_by": user(sheet.submitted_by_id),
                "submitted_by_seat": key(seat_key, sheet.submitted_by_seat_id),
                "confirmed_at": _time(sheet.confirmed_at),
                "confirmed_by": user(sheet.confirmed_by_id),
                "confirmed_by_seat": key(seat_key, sheet.confirmed_by_seat_id),
                "updated_at": _time(sheet.updated_at),
                "hands": [
                    {name: getattr(hand, name) for name in HAND_FIELDS}
                    for hand in hands.get(sheet.pk, [])
                ],
                "changes": [
                    {
                        "version": change.version,
                        "action": change.action,
                        "at": _time(change.at),
                        "by": user(change.by_id),
                        "by_seat": key(seat_key, change.by_seat_id),
                        "by_name": change.by_name,
                        "reason": change.reason,
                        "before": change.before,
                        "after": change.after,
                    }
                    for change in changes.get(sheet.pk, [])
                ],
            }
            for sheet in sheets
        ],
        "decisions": [
            {
                "key": decision_key[decision.pk],
                "scoresheet": sheet_key[decision.scoresheet_id],
                **{name: getattr(decision, name) for name in DECISION_FIELDS},
                **{name: getattr(decision, name) for name in DECISION_FIELDS_LATER},
                "offence": key(offence_key, decision.offence_id),
                "recorded_by": user(decision.recorded_by_id),
                "recorded_at": _time(decision.recorded_at),
                "initialled_by": user(decision.initialled_by_id),
                "initialled_at": _time(decision.initialled_at),
                "appeal": key(appeal_key, decision.appeal_id),
            }
            for decision in decisions
        ],
        "appeals": [
            {
                "key": appeal_key[appeal.pk],
                "decision": key(decision_key, appeal.decision_id),
                "sanction": key(sanction_key, appeal.sanction_id),
                "appellant": appeal.appellant,
                "grounds": appeal.grounds,
                "lodged_by": user(appeal.lodged_by_id),
                "lodged_at": _time(appeal.lodged_at),
                "outcome": appeal.outcome,
                "members": members(appeal),
                "reasons": appeal.reasons,
                "interruption": appeal.interruption,
                "decided_by": user(appeal.decided_by_id),
                "decided_at": _time(appeal.decided_at),
            }
            for appeal in appeals
        ],
        "sanctions": [
            {
                "key": sanction_key[sanction.pk],
                "entry": entry_key[sanction.entry_id],
                "round": round_key[sanction.round_id],
                "kind": sanction.kind,
                "points": sanction.points,
                "offence": key(offence_key, sanction.offence_id),
                "reasons": sanction.reasons,
                "members": members(sanction),
                "decided_by": user(sanction.decided_by_id),
                "decided_at": _time(sanction.decided_at),
                "status": sanction.status,
                "appeal": key(appeal_key, sanction.appeal_id),
            }
            for sanction in sanctions
        ],
        "events": [
            {
                "at": _time(event.at),
                "by": user(event.by_id),
                "action": event.action,
                "decision": key(decision_key, event.decision_id),
                "appeal": key(appeal_key, event.appeal_id),
                "sanction": key(sanction_key, event.sanction_id),
                "summary": event.summary,
                "details": details(event),
            }
            for event in tournament.adjudication_events.order_by("pk")
        ],
    }
    data["users"] = sorted(usernames)
    return data


# Import --------------------------------------------------------------------------------------


@dataclass
class ImportResult:
    """What an import made, for the person running it."""

    tournament: Tournament
    users_created: list[str] = field(default_factory=list)
    players_created: int = 0
    players_reused: int = 0
    tokens_renewed: int = 0


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


def tournament_import(*, data: dict) -> Tournament:
    """Restore a tournament; see ``tournament_import_report``."""
    return tournament_import_report(data=data).tournament


def tournament_import_report(*, data: dict) -> ImportResult:
    """Restore a tournament from ``tournament_export``'s document, in one transaction: all of
    it or nothing. Refused if a tournament with its slug exists. Unknown users are created
    inactive and without a password; players are found again by their DDV number."""
    _check_format(data)
    try:
        with transaction.atomic():
            result = _import(data)
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
    services.standings_rebuild(tournament_id=result.tournament.pk)
    return result


def _lookup(keys: dict, key, kind: str):
    if key is None:
        return None
    try:
        return keys[key]
    except (KeyError, TypeError):
        message = _("it names %(kind)s %(key)s, which it does not hold.")
        raise _Damaged(message % {"kind": kind, "key": key}) from None


def _insert(model: type[models.Model], rows: list[models.Model]) -> list[models.Model]:
    """Insert the rows, learning their new ids."""
    if connection.features.can_return_rows_from_bulk_insert:
        return model._default_manager.bulk_create(rows)
    for row in rows:
        row.save(force_insert=True)
    return rows


def _keep_times(model, rows: list[models.Model], items: list[dict], *names: str) -> None:
    """Put back the times the file holds: saving sets fields with ``auto_now(_add)`` to now."""
    for row, item in zip(rows, items, strict=True):
        for name in names:
            setattr(row, name, _parse_time(item[name]))
    if rows:
        model._default_manager.bulk_update(rows, list(names), batch_size=500)


def _users(data: dict, result: ImportResult) -> dict[str, models.Model]:
    User = get_user_model()
    names = sorted(set(data["users"]))
    found = {
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
            result.users_created.append(name)
    return found


def _import(data: dict) -> ImportResult:
    fields = data["tournament"]
    slug = fields["slug"]
    if Tournament.objects.filter(slug=slug).exists():
        raise ValidationError(
            _("A tournament with the short name “%(slug)s” exists already; nothing was imported.")
            % {"slug": slug}
        )
    tournament = Tournament(
        **{name: fields[name] for name in TOURNAMENT_FIELDS},
        starts_on=datetime.date.fromisoformat(fields["starts_on"]),
        ends_on=datetime.date.fromisoformat(fields["ends_on"]),
    )
    tournament.full_clean(validate_unique=False)
    tournament.save()
    tournament.created_at = _parse_time(fields["created_at"])
    Tournament.objects.filter(pk=tournament.pk).update(created_at=tournament.created_at)
    result = ImportResult(tournament=tournament)
    users = _users(data, result)

    def user(name):
        return _lookup(users, name, _("the user"))

    # Players are shared by all tournaments: one with the same DDV number is the same person.
    items = data["players"]
    numbers = [item["ddv_number"] for item in items if item["ddv_number"]]
    known = {p.ddv_number: p for p in Player.objects.filter(ddv_number__in=numbers)}
    new_items = [
        item for item in items if item["ddv_number"] not in known or not item["ddv_number"]
    ]
    new_players = _insert(
        Player,
        [
            Player(
                first_name=item["first_name"],
                last_name=item["last_name"],
                club=item["club"],
                ddv_number=item["ddv_number"],
            )
            for item in new_items
        ],
    )
    _keep_times(Player, new_players, new_items, "created_at")
    new = {item["key"]: player for item, player in zip(new_items, new_players, strict=True)}
    players = {item["key"]: new.get(item["key"]) or known[item["ddv_number"]] for item in items}
    result.players_created, result.players_reused = len(new_players), len(items) - len(new_players)

    items = data["entries"]
    entries = dict(
        zip(
            [item["key"] for item in items],
            _insert(
                Entry,
                [
                    Entry(
                        tournament=tournament,
                        player=_lookup(players, item["player"], _("the player")),
                        start_number=item["start_number"],
                        status=item["status"],
                    )
                    for item in items
                ],
            ),
            strict=True,
        )
    )
    _keep_times(Entry, list(entries.values()), items, "created_at")

    _insert(
        TournamentRole,
        [
            TournamentRole(
                tournament=tournament,
                user=user(item["user"]),
                role=item["role"],
                entry=_lookup(entries, item["entry"], _("the entry")),
            )
            for item in data["roles"]
        ],
    )

    items = data["offences"]
    offences = _keyed(
        Offence,
        items,
        lambda item: Offence(
            tournament=tournament,
            name=item["name"],
            rule=item["rule"],
            kind=item["kind"],
            severity=item["severity"],
            bound=item["bound"],
            deduction=item["deduction"],
        ),
    )
    rounds = _keyed(
        Round,
        data["rounds"],
        lambda item: Round(
            tournament=tournament,
            number=item["number"],
            status=item["status"],
            published_at=_parse_time(item["published_at"]),
            seating_seed=item["seating_seed"],
            started_at=_parse_time(item["started_at"]),
            ended_at=_parse_time(item["ended_at"]),
        ),
    )
    tables = _keyed(
        Table,
        data["tables"],
        lambda item: Table(
            round=_lookup(rounds, item["round"], _("the round")), number=item["number"]
        ),
    )

    # The private links stay as printed, unless another tournament here holds one already (the
    # same tournament imported under another short name).
    items = data["seats"]
    taken = set(
        Seat.objects.filter(token__in=[item["token"] for item in items]).values_list(
            "token", flat=True
        )
    )

    def seat(item) -> Seat:
        table = _lookup(tables, item["table"], _("the table"))
        token = item["token"]
        if not token or token in taken:
            token = new_seat_token()
            result.tokens_renewed += 1
        taken.add(token)
        return Seat(
            round_id=table.round_id,
            table=table,
            position=item["position"],
            entry=_lookup(entries, item["entry"], _("the entry")),
            moved_at=_parse_time(item["moved_at"]),
            token=token,
        )

    seats = _keyed(Seat, items, seat)

    items = data["extra_times"]
    extra = _insert(
        ExtraTime,
        [
            ExtraTime(
                table=_lookup(tables, item["table"], _("the table")),
                minutes=item["minutes"],
                reason=item["reason"],
                granted_by=user(item["granted_by"]),
            )
            for item in items
        ],
    )
    _keep_times(ExtraTime, extra, items, "granted_at")

    items = data["scoresheets"]
    sheets = _keyed(
        Scoresheet,
        items,
        lambda item: Scoresheet(
            table=_lookup(tables, item["table"], _("the table")),
            status=item["status"],
            version=item["version"],
            time_over_after_hand=item["time_over_after_hand"],
            # Backups from before the scorekeeper could be handed over have none.
            keeper_seat=item.get("keeper_seat"),
            submitted_at=_parse_time(item["submitted_at"]),
            submitted_by=user(item["submitted_by"]),
            submitted_by_seat=_lookup(seats, item["submitted_by_seat"], _("the seat")),
            confirmed_at=_parse_time(item["confirmed_at"]),
            confirmed_by=user(item["confirmed_by"]),
            confirmed_by_seat=_lookup(seats, item["confirmed_by_seat"], _("the seat")),
        ),
    )
    _keep_times(Scoresheet, list(sheets.values()), items, "updated_at")
    _insert(
        Hand,
        [
            Hand(scoresheet=sheets[item["key"]], **{name: hand[name] for name in HAND_FIELDS})
            for item in items
            for hand in item["hands"]
        ],
    )
    changes = [(sheets[item["key"]], change) for item in items for change in item["changes"]]
    change_rows = _insert(
        ScoresheetChange,
        [
            ScoresheetChange(
                scoresheet=sheet,
                version=change["version"],
                action=change["action"],
                by=user(change["by"]),
                by_seat=_lookup(seats, change["by_seat"], _("the seat")),
                by_name=change["by_name"],
                reason=change["reason"],
                before=change["before"],
                after=change["after"],
            )
            for sheet, change in changes
        ],
    )
    _keep_times(ScoresheetChange, change_rows, [change for _sheet, change in changes], "at")

    # A decision of the panel names the appeal it was made on, and the appeal the decision
    # appealed against: the decisions come first, and learn their appeals after.
    items = data["decisions"]
    decisions = _keyed(
        Decision,
        items,
        lambda item: Decision(
            scoresheet=_lookup(sheets, item["scoresheet"], _("the scoresheet")),
            **{name: item[name] for name in DECISION_FIELDS},
            **{name: item[name] for name in DECISION_FIELDS_LATER if name in item},
            offence=_lookup(offences, item["offence"], _("the offence")),
            recorded_by=user(item["recorded_by"]),
            initialled_by=user(item["initialled_by"]),
            initialled_at=_parse_time(item["initialled_at"]),
        ),
    )
    _keep_times(Decision, list(decisions.values()), items, "recorded_at")
    # Sanctions too: an appeal may be against one, and the panel's own names its appeal.
    sanction_items = data["sanctions"]
    sanctions = _keyed(
        Sanction,
        sanction_items,
        lambda item: Sanction(
            entry=_lookup(entries, item["entry"], _("the entry")),
            round=_lookup(rounds, item["round"], _("the round")),
            kind=item["kind"],
            points=item["points"],
            offence=_lookup(offences, item["offence"], _("the offence")),
            reasons=item["reasons"],
            decided_by=user(item["decided_by"]),
            status=item.get("status", Sanction.Status.IN_FORCE),
        ),
    )
    _keep_times(Sanction, list(sanctions.values()), sanction_items, "decided_at")
    _members(Sanction, sanctions, sanction_items, user)
    appeal_items = data["appeals"]
    appeals = _keyed(
        Appeal,
        appeal_items,
        lambda item: Appeal(
            decision=_lookup(decisions, item["decision"], _("the decision")),
            sanction=_lookup(sanctions, item.get("sanction"), _("the sanction")),
            appellant=item["appellant"],
            grounds=item["grounds"],
            lodged_by=user(item["lodged_by"]),
            outcome=item["outcome"],
            reasons=item["reasons"],
            interruption=item["interruption"],
            decided_by=user(item["decided_by"]),
            decided_at=_parse_time(item["decided_at"]),
        ),
    )
    _keep_times(Appeal, list(appeals.values()), appeal_items, "lodged_at")
    on_appeal = [
        (decisions[item["key"]], _lookup(appeals, item["appeal"], _("the appeal")))
        for item in items
        if item["appeal"] is not None
    ]
    for decision, appeal in on_appeal:
        decision.appeal = appeal
    Decision.objects.bulk_update([decision for decision, _appeal in on_appeal], ["appeal"])
    sanctions_on_appeal = [
        (sanctions[item["key"]], _lookup(appeals, item["appeal"], _("the appeal")))
        for item in sanction_items
        if item.get("appeal") is not None
    ]
    for sanction, appeal in sanctions_on_appeal:
        sanction.appeal = appeal
    Sanction.objects.bulk_update(
        [sanction for sanction, _appeal in sanctions_on_appeal], ["appeal"]
    )
    _members(Appeal, appeals, appeal_items, user)

    items = data["events"]

    def details(item) -> dict:
        found = item["details"]
        if isinstance(found, dict) and found.get("offence") is not None:
            offence = offences.get(found["offence"])
            return {**found, "offence": offence.pk if offence else None}
        return found

    events = _insert(
        Event,
        [
            Event(
                tournament=tournament,
                by=user(item["by"]),
                action=item["action"],
                decision=_lookup(decisions, item["decision"], _("the decision")),
                appeal=_lookup(appeals, item["appeal"], _("the appeal")),
                sanction=_lookup(sanctions, item["sanction"], _("the sanction")),
                summary=item["summary"],
                details=details(item),
            )
            for item in items
        ],
    )
    _keep_times(Event, events, items, "at")

    services.results_refresh_all(tournament=tournament)
    if tournament.status == Tournament.Status.FINISHED and tournament.counts_for_ranking:
        services.ranking_schedule()
    return result


def _keyed(model, items: list[dict], build) -> dict[int, models.Model]:
    """Insert one row per item; key in the file -> the new row."""
    rows = _insert(model, [build(item) for item in items])
    keyed = {}
    for item, row in zip(items, rows, strict=True):
        if item["key"] in keyed:
            raise _Damaged(_("it holds the key %(key)s twice.") % {"key": item["key"]})
        keyed[item["key"]] = row
    return keyed


def _members(model, rows: dict[int, models.Model], items: list[dict], user) -> None:
    """The members of the arbitration panel of each appeal or sanction."""
    members = model._meta.get_field("members")
    through = members.remote_field.through
    own, theirs = members.m2m_column_name(), members.m2m_reverse_name()
    through.objects.bulk_create(
        through(**{own: rows[item["key"]].pk, theirs: user(name).pk})
        for item in items
        for name in item["members"]
    )
