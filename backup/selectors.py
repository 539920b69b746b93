"""Write one tournament, or a team competition with its match days' tournaments, as a
JSON-ready backup document (its format: ``backup/format.py``)."""

import base64
import datetime
from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import models
from django.db.models import Q
from django.utils import timezone

from adjudication.models import Appeal, Decision, Event, Offence, Sanction
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
from scoring.models import Hand, Scoresheet, ScoresheetChange, ScoresheetScan, SecondEntry
from teams.models import Competition, GroupTeam, LineUp, MatchDay, SeasonPlan, TeamMember
from tournaments.models import (
    Entry,
    ExtraTime,
    Player,
    Round,
    Seat,
    Table,
    Tournament,
)


def _time(value: datetime.datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _keys(rows: Iterable[models.Model]) -> dict[int, int]:
    """Database id -> key in the file: 1, 2, 3 ... in the order of the ids."""
    return {row.pk: key for key, row in enumerate(rows, start=1)}


class _Users:
    """Users by their id, written by username; remembers every user the document names."""

    def __init__(self) -> None:
        User = get_user_model()
        self.names = dict(User._default_manager.values_list("pk", User.USERNAME_FIELD))
        self.named: set[str] = set()

    def name(self, pk: int) -> str:
        name = self.names[pk]
        self.named.add(name)
        return name

    def __call__(self, pk: int | None) -> str | None:
        return None if pk is None else self.name(pk)


def _key(keys: dict[int, int], pk: int | None) -> int | None:
    return None if pk is None else keys[pk]


@dataclass
class _Tournament:
    """A tournament's rows, in the order of their ids, and the keys they get in the file."""

    tournament: Tournament
    entries: list[Entry]
    players: list[Player]
    rounds: list[Round]
    tables: list[Table]
    seats: list[Seat]
    sheets: list[Scoresheet]
    offences: list[Offence]
    decisions: list[Decision]
    appeals: list[Appeal]
    sanctions: list[Sanction]

    def __post_init__(self) -> None:
        self.player_key, self.entry_key = _keys(self.players), _keys(self.entries)
        self.round_key, self.table_key = _keys(self.rounds), _keys(self.tables)
        self.seat_key, self.sheet_key = _keys(self.seats), _keys(self.sheets)
        self.offence_key, self.decision_key = _keys(self.offences), _keys(self.decisions)
        self.appeal_key, self.sanction_key = _keys(self.appeals), _keys(self.sanctions)


def _tournament_rows(tournament: Tournament) -> _Tournament:
    """Read the tournament's rows that the document refers to by key."""
    entries = list(tournament.entries.select_related("player").order_by("pk"))
    return _Tournament(
        tournament=tournament,
        entries=entries,
        players=sorted({entry.player for entry in entries}, key=lambda player: player.pk),
        rounds=list(tournament.rounds.order_by("pk")),
        tables=list(Table.objects.filter(round__tournament=tournament).order_by("pk")),
        seats=list(Seat.objects.filter(round__tournament=tournament).order_by("pk")),
        sheets=list(Scoresheet.objects.filter(table__round__tournament=tournament).order_by("pk")),
        offences=list(tournament.offences.order_by("pk")),
        decisions=list(
            Decision.objects.filter(scoresheet__table__round__tournament=tournament).order_by("pk")
        ),
        appeals=list(
            Appeal.objects.filter(
                Q(decision__scoresheet__table__round__tournament=tournament)
                | Q(sanction__entry__tournament=tournament)
            )
            .prefetch_related("members")
            .order_by("pk")
        ),
        sanctions=list(
            Sanction.objects.filter(entry__tournament=tournament)
            .prefetch_related("members")
            .order_by("pk")
        ),
    )


def tournament_export(*, tournament: Tournament, scans: bool = True) -> dict:
    """The whole tournament as plain JSON-ready data (see the module's docstring); ``scans``:
    with the photos or scans of the signed sheets, read from storage (``OSError`` if one is
    missing there)."""
    users = _Users()
    rows = _tournament_rows(tournament)
    data = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": _time(timezone.now()),
        "tournament": _tournament_settings(tournament),
        "players": _player_rows(rows.players, rows.player_key),
        "entries": _entry_rows(rows),
        "roles": [
            {
                "user": users(role.user_id),
                "role": role.role,
                "entry": _key(rows.entry_key, role.entry_id),
            }
            for role in tournament.roles.order_by("pk")
        ],
        "offences": _offence_rows(rows),
        "rounds": _round_rows(rows),
        "tables": [
            {
                "key": rows.table_key[table.pk],
                "round": rows.round_key[table.round_id],
                "number": table.number,
            }
            for table in rows.tables
        ],
        "seats": _seat_rows(rows),
        "extra_times": _extra_time_rows(rows, users),
        "scoresheets": _scoresheet_rows(rows, users, scans=scans),
        "decisions": _decision_rows(rows, users),
        "appeals": _appeal_rows(rows, users),
        "sanctions": _sanction_rows(rows, users),
        "events": _event_rows(rows, users),
    }
    data["users"] = sorted(users.named)
    return data


def _tournament_settings(tournament: Tournament) -> dict:
    """The tournament's own fields."""
    return {
        **{name: getattr(tournament, name) for name in TOURNAMENT_FIELDS},
        **{name: getattr(tournament, name) for name in TOURNAMENT_FIELDS_LATER},
        "starts_on": tournament.starts_on.isoformat(),
        "ends_on": tournament.ends_on.isoformat(),
        "created_at": _time(tournament.created_at),
        "archived_at": _time(tournament.archived_at),
    }


def _player_rows(players: Iterable[Player], player_key: dict[int, int]) -> list[dict]:
    """The players, found again on import by their DDV number."""
    return [
        {
            "key": player_key[player.pk],
            "first_name": player.first_name,
            "last_name": player.last_name,
            "club": player.club,
            "ddv_number": player.ddv_number,
            "created_at": _time(player.created_at),
        }
        for player in players
    ]


def _entry_rows(rows: _Tournament) -> list[dict]:
    """The entries: who plays, under which name and start number."""
    return [
        {
            "key": rows.entry_key[entry.pk],
            "player": rows.player_key[entry.player_id],
            **{name: getattr(entry, name) for name in ENTRY_FIELDS_LATER},
            "start_number": entry.start_number,
            "status": entry.status,
            "created_at": _time(entry.created_at),
        }
        for entry in rows.entries
    ]


def _offence_rows(rows: _Tournament) -> list[dict]:
    """The tournament's catalogue of offences."""
    return [
        {
            "key": rows.offence_key[offence.pk],
            "name": offence.name,
            "code": offence.code,
            "rule": offence.rule,
            "kind": offence.kind,
            "severity": offence.severity,
            "bound": offence.bound,
            "deduction": offence.deduction,
        }
        for offence in rows.offences
    ]


def _round_rows(rows: _Tournament) -> list[dict]:
    """The rounds, with their seeds and times."""
    return [
        {
            "key": rows.round_key[round_.pk],
            "number": round_.number,
            "status": round_.status,
            "published_at": _time(round_.published_at),
            "seating_seed": round_.seating_seed,
            "started_at": _time(round_.started_at),
            "ended_at": _time(round_.ended_at),
        }
        for round_ in rows.rounds
    ]


def _seat_rows(rows: _Tournament) -> list[dict]:
    """The seats: who sits where at which table."""
    return [
        {
            "key": rows.seat_key[seat.pk],
            "table": rows.table_key[seat.table_id],
            "position": seat.position,
            "entry": rows.entry_key[seat.entry_id],
            "moved_at": _time(seat.moved_at),
            "token": seat.token,
            "second": seat.second,
        }
        for seat in rows.seats
    ]


def _extra_time_rows(rows: _Tournament, users: _Users) -> list[dict]:
    """The extra time granted to tables."""
    return [
        {
            "table": rows.table_key[extra.table_id],
            "minutes": extra.minutes,
            "reason": extra.reason,
            "granted_by": users(extra.granted_by_id),
            "granted_at": _time(extra.granted_at),
        }
        for extra in ExtraTime.objects.filter(table__round__tournament=rows.tournament).order_by(
            "pk"
        )
    ]


def _scoresheet_rows(rows: _Tournament, users: _Users, *, scans: bool) -> list[dict]:
    """The scoresheets with their hands, changes, second entry and scan."""
    sheets = rows.sheets
    hands: dict[int, list[Hand]] = {}
    for hand in Hand.objects.filter(scoresheet__in=sheets).order_by("pk"):
        hands.setdefault(hand.scoresheet_id, []).append(hand)
    second_entries = {
        entry.scoresheet_id: entry for entry in SecondEntry.objects.filter(scoresheet__in=sheets)
    }
    changes: dict[int, list[ScoresheetChange]] = {}
    for change in ScoresheetChange.objects.filter(scoresheet__in=sheets).order_by("pk"):
        changes.setdefault(change.scoresheet_id, []).append(change)
    scanned = (
        {scan.scoresheet_id: scan for scan in ScoresheetScan.objects.filter(scoresheet__in=sheets)}
        if scans
        else {}
    )
    seat_key = rows.seat_key
    return [
        {
            "key": rows.sheet_key[sheet.pk],
            "table": rows.table_key[sheet.table_id],
            "status": sheet.status,
            "version": sheet.version,
            "time_over_after_hand": sheet.time_over_after_hand,
            "keeper_seat": sheet.keeper_seat,
            "submitted_at": _time(sheet.submitted_at),
            "submitted_by": users(sheet.submitted_by_id),
            "submitted_by_seat": _key(seat_key, sheet.submitted_by_seat_id),
            "confirmed_at": _time(sheet.confirmed_at),
            "confirmed_by": users(sheet.confirmed_by_id),
            "confirmed_by_seat": _key(seat_key, sheet.confirmed_by_seat_id),
            "sent_back_reason": sheet.sent_back_reason,
            "sent_back_by": sheet.sent_back_by,
            "ended_early_reason": sheet.ended_early_reason,
            "ended_early_at": _time(sheet.ended_early_at),
            "ended_early_by": sheet.ended_early_by,
            "ended_early_hands_not_played": sheet.ended_early_hands_not_played,
            "confirmation": sheet.confirmation,
            "second_entry": _second_entry(second_entries.get(sheet.pk), users),
            "updated_at": _time(sheet.updated_at),
            "hands": [
                {name: getattr(hand, name) for name in HAND_FIELDS + HAND_FIELDS_LATER}
                for hand in hands.get(sheet.pk, [])
            ],
            "changes": [_change(change, users, seat_key) for change in changes.get(sheet.pk, [])],
            "scan": _scan(scanned.get(sheet.pk), users, seat_key),
        }
        for sheet in sheets
    ]


def _change(change: ScoresheetChange, users: _Users, seat_key: dict[int, int]) -> dict:
    """One entry of a sheet's history of changes."""
    return {
        "version": change.version,
        "action": change.action,
        "at": _time(change.at),
        "by": users(change.by_id),
        "by_seat": _key(seat_key, change.by_seat_id),
        "by_name": change.by_name,
        "reason": change.reason,
        "before": change.before,
        "after": change.after,
    }


def _scan(row: ScoresheetScan | None, users: _Users, seat_key: dict[int, int]) -> dict | None:
    """The sheet's scan with its file as stored, byte for byte (base64); None without one."""
    if row is None:
        return None
    with row.file.open("rb") as file:
        content = file.read()
    return {
        "content_type": row.content_type,
        "size": row.size,
        "sha256": row.sha256,
        "uploaded_at": _time(row.uploaded_at),
        "uploaded_by": users(row.uploaded_by_id),
        "uploaded_by_seat": _key(seat_key, row.uploaded_by_seat_id),
        "uploaded_by_name": row.uploaded_by_name,
        "data": base64.b64encode(content).decode("ascii"),
    }


def _second_entry(entry: SecondEntry | None, users: _Users) -> dict | None:
    """A sheet's second entry (double entry), as typed; None without one."""
    if entry is None:
        return None
    return {
        "by": users(entry.by_id),
        "hands": entry.hands,
        "time_over_after_hand": entry.time_over_after_hand,
        "version": entry.version,
        "differences": entry.differences,
        "compared_at": _time(entry.compared_at),
        "started_at": _time(entry.started_at),
        "updated_at": _time(entry.updated_at),
    }


def _decision_rows(rows: _Tournament, users: _Users) -> list[dict]:
    """The adjudicators' decisions on the sheets."""
    return [
        {
            "key": rows.decision_key[decision.pk],
            "scoresheet": rows.sheet_key[decision.scoresheet_id],
            **{name: getattr(decision, name) for name in DECISION_FIELDS},
            **{name: getattr(decision, name) for name in DECISION_FIELDS_LATER},
            "offence": _key(rows.offence_key, decision.offence_id),
            "recorded_by": users(decision.recorded_by_id),
            "recorded_at": _time(decision.recorded_at),
            "initialled_by": users(decision.initialled_by_id),
            "ruled_by": users(decision.ruled_by_id),
            "hands_at_initials": decision.hands_at_initials,
            "initialled_at": _time(decision.initialled_at),
            "appeal": _key(rows.appeal_key, decision.appeal_id),
        }
        for decision in rows.decisions
    ]


def _members(row: Appeal | Sanction, users: _Users) -> list[str]:
    """The members of the panel that decided, by username."""
    return sorted(users.name(member.pk) for member in row.members.all())


def _appeal_rows(rows: _Tournament, users: _Users) -> list[dict]:
    """The appeals against decisions and sanctions."""
    return [
        {
            "key": rows.appeal_key[appeal.pk],
            "decision": _key(rows.decision_key, appeal.decision_id),
            "sanction": _key(rows.sanction_key, appeal.sanction_id),
            "appellant": appeal.appellant,
            "grounds": appeal.grounds,
            "lodged_by": users(appeal.lodged_by_id),
            "lodged_at": _time(appeal.lodged_at),
            "outcome": appeal.outcome,
            "members": _members(appeal, users),
            "reasons": appeal.reasons,
            "interruption": appeal.interruption,
            "decided_by": users(appeal.decided_by_id),
            "decided_at": _time(appeal.decided_at),
        }
        for appeal in rows.appeals
    ]


def _sanction_rows(rows: _Tournament, users: _Users) -> list[dict]:
    """The sanctions imposed on entries."""
    return [
        {
            "key": rows.sanction_key[sanction.pk],
            "entry": rows.entry_key[sanction.entry_id],
            "round": rows.round_key[sanction.round_id],
            "kind": sanction.kind,
            "points": sanction.points,
            "offence": _key(rows.offence_key, sanction.offence_id),
            "reasons": sanction.reasons,
            "members": _members(sanction, users),
            "decided_by": users(sanction.decided_by_id),
            "decided_at": _time(sanction.decided_at),
            "hands_at_decision": sanction.hands_at_decision,
            "status": sanction.status,
            "appeal": _key(rows.appeal_key, sanction.appeal_id),
        }
        for sanction in rows.sanctions
    ]


def _event_rows(rows: _Tournament, users: _Users) -> list[dict]:
    """The adjudication's log of events."""
    return [
        {
            "at": _time(event.at),
            "by": users(event.by_id),
            "action": event.action,
            "decision": _key(rows.decision_key, event.decision_id),
            "appeal": _key(rows.appeal_key, event.appeal_id),
            "sanction": _key(rows.sanction_key, event.sanction_id),
            "summary": event.summary,
            "message": event.message,
            "details": _event_details(event, rows.offence_key),
        }
        for event in rows.tournament.adjudication_events.order_by("pk")
    ]


def _event_details(event: Event, offence_key: dict[int, int]) -> dict:
    # A change to the catalogue names the offence by id; it may have been taken out since.
    if isinstance(event.details, dict) and "offence" in event.details:
        return {**event.details, "offence": offence_key.get(event.details["offence"])}
    return event.details


def competition_export(*, competition: Competition, scans: bool = True) -> dict:
    """A team competition as plain JSON-ready data (``backup/format.py``): its settings,
    organisers, players, teams and members, and each match day with its groups, line-ups and
    tournament (``tournament_export``)."""
    members = list(
        TeamMember.objects.filter(competition=competition).select_related("player").order_by("pk")
    )
    players = sorted({member.player for member in members}, key=lambda player: player.pk)
    player_key = _keys(players)
    teams = list(competition.teams.order_by("pk"))
    team_key = _keys(teams)
    return {
        "format": COMPETITION_FORMAT,
        "version": COMPETITION_VERSION,
        "exported_at": _time(timezone.now()),
        "competition": {
            **{name: getattr(competition, name) for name in COMPETITION_FIELDS},
            "created_at": _time(competition.created_at),
        },
        "organisers": sorted(user.get_username() for user in competition.organisers.all()),
        "players": _player_rows(players, player_key),
        "teams": [
            {
                "key": team_key[team.pk],
                "name": team.name,
                "club": team.club,
                "created_at": _time(team.created_at),
                "members": [
                    {"player": player_key[member.player_id], "is_captain": member.is_captain}
                    for member in members
                    if member.team_id == team.pk
                ],
            }
            for team in teams
        ],
        "match_days": [
            _match_day(match_day, player_key=player_key, team_key=team_key, scans=scans)
            for match_day in competition.match_days.select_related("tournament").order_by("number")
        ],
        "season_plan": _season_plan(competition, team_key=team_key),
    }


def _season_plan(competition: Competition, *, team_key: dict[int, int]) -> dict | None:
    """A league's season plan: its match days, whether double, and each planned place (the
    match day, the group, the team's key); None without one."""
    plan = SeasonPlan.objects.filter(competition=competition).first()
    if plan is None:
        return None
    return {
        "match_days": plan.match_days,
        "double": plan.double,
        "places": [
            [place.match_day, place.group, team_key[place.team_id]]
            for place in plan.places.order_by("match_day", "group", "pk")
        ],
    }


def _match_day(
    match_day: MatchDay, *, player_key: dict[int, int], team_key: dict[int, int], scans: bool
) -> dict:
    """One match day: its tournament (``tournament_export``), which of its players is which of
    the competition's, its groups and its line-ups."""
    tournament = match_day.tournament
    # The keys ``tournament_export`` gives the entries: in the order of their ids.
    entries = list(tournament.entries.order_by("pk"))
    entry_key = _keys(entries)
    document = tournament_export(tournament=tournament, scans=scans)
    player_of_entry = {item["key"]: item["player"] for item in document["entries"]}
    return {
        "number": match_day.number,
        "stage": match_day.stage,
        "double": match_day.double,
        "tournament": document,
        "players": [
            [player_of_entry[entry_key[entry.pk]], player_key[entry.player_id]]
            for entry in entries
            if entry.player_id in player_key
        ],
        "groups": [
            {
                "number": group.number,
                "advance": group.advance,
                "teams": [
                    {"team": team_key[place.team_id], "through": place.through}
                    for place in GroupTeam.objects.filter(group=group).order_by("pk")
                ],
            }
            for group in match_day.groups.order_by("number")
        ],
        "line_ups": [
            {
                "team": team_key[line.team_id],
                "round_number": line.round_number,
                "place": line.place,
                "entry": entry_key[line.entry_id],
            }
            for line in LineUp.objects.filter(match_day=match_day).order_by("pk")
        ],
    }
