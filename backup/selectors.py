"""Write one tournament, or a team competition with its match days' tournaments, as a
JSON-ready backup document (its format: ``backup/format.py``)."""

import base64
import datetime
from collections.abc import Iterable

from django.contrib.auth import get_user_model
from django.db import models
from django.db.models import Q
from django.utils import timezone

from adjudication.models import Appeal, Decision, Event, Sanction
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
from teams.models import Competition, GroupTeam, LineUp, TeamMember
from tournaments.models import (
    ExtraTime,
    Seat,
    Table,
    Tournament,
)


def _time(value: datetime.datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _keys(rows: Iterable[models.Model]) -> dict[int, int]:
    """Database id -> key in the file: 1, 2, 3 ... in the order of the ids."""
    return {row.pk: key for key, row in enumerate(rows, start=1)}


def tournament_export(*, tournament: Tournament, scans: bool = True) -> dict:
    """The whole tournament as plain JSON-ready data (see the module's docstring); ``scans``:
    with the photos or scans of the signed sheets, read from storage (``OSError`` if one is
    missing there)."""
    User = get_user_model()
    usernames: set[str] = set()
    user_names = dict(User._default_manager.values_list("pk", User.USERNAME_FIELD))

    def username(pk: int) -> str:
        name = user_names[pk]
        usernames.add(name)
        return name

    def user(pk: int | None) -> str | None:
        return None if pk is None else username(pk)

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

    def key(keys: dict[int, int], pk: int | None) -> int | None:
        return None if pk is None else keys[pk]

    def scan(sheet: Scoresheet) -> dict | None:
        """The sheet's scan with its file as stored, byte for byte (base64)."""
        row = scanned.get(sheet.pk)
        if row is None:
            return None
        with row.file.open("rb") as file:
            content = file.read()
        return {
            "content_type": row.content_type,
            "size": row.size,
            "sha256": row.sha256,
            "uploaded_at": _time(row.uploaded_at),
            "uploaded_by": user(row.uploaded_by_id),
            "uploaded_by_seat": key(seat_key, row.uploaded_by_seat_id),
            "uploaded_by_name": row.uploaded_by_name,
            "data": base64.b64encode(content).decode("ascii"),
        }

    def members(row: Appeal | Sanction) -> list[str]:
        return sorted(username(member.pk) for member in row.members.all())

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
            **{name: getattr(tournament, name) for name in TOURNAMENT_FIELDS_LATER},
            "starts_on": tournament.starts_on.isoformat(),
            "ends_on": tournament.ends_on.isoformat(),
            "created_at": _time(tournament.created_at),
            "archived_at": _time(tournament.archived_at),
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
                **{name: getattr(entry, name) for name in ENTRY_FIELDS_LATER},
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
                "code": offence.code,
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
                "sent_back_reason": sheet.sent_back_reason,
                "sent_back_by": sheet.sent_back_by,
                "ended_early_reason": sheet.ended_early_reason,
                "ended_early_at": _time(sheet.ended_early_at),
                "ended_early_by": sheet.ended_early_by,
                "ended_early_hands_not_played": sheet.ended_early_hands_not_played,
                "confirmation": sheet.confirmation,
                "second_entry": _second_entry(second_entries.get(sheet.pk), user),
                "updated_at": _time(sheet.updated_at),
                "hands": [
                    {name: getattr(hand, name) for name in HAND_FIELDS + HAND_FIELDS_LATER}
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
                "scan": scan(sheet),
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
                "ruled_by": user(decision.ruled_by_id),
                "hands_at_initials": decision.hands_at_initials,
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
                "hands_at_decision": sanction.hands_at_decision,
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
                "message": event.message,
                "details": details(event),
            }
            for event in tournament.adjudication_events.order_by("pk")
        ],
    }
    data["users"] = sorted(usernames)
    return data


def _second_entry(entry: SecondEntry | None, user) -> dict | None:
    """A sheet's second entry (double entry), as typed; None without one."""
    if entry is None:
        return None
    return {
        "by": user(entry.by_id),
        "hands": entry.hands,
        "time_over_after_hand": entry.time_over_after_hand,
        "version": entry.version,
        "differences": entry.differences,
        "compared_at": _time(entry.compared_at),
        "started_at": _time(entry.started_at),
        "updated_at": _time(entry.updated_at),
    }


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
    match_days = []
    for match_day in competition.match_days.select_related("tournament").order_by("number"):
        tournament = match_day.tournament
        # The keys ``tournament_export`` gives the entries: in the order of their ids.
        entries = list(tournament.entries.order_by("pk"))
        entry_key = _keys(entries)
        document = tournament_export(tournament=tournament, scans=scans)
        player_of_entry = {item["key"]: item["player"] for item in document["entries"]}
        match_days.append(
            {
                "number": match_day.number,
                "stage": match_day.stage,
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
        )
    return {
        "format": COMPETITION_FORMAT,
        "version": COMPETITION_VERSION,
        "exported_at": _time(timezone.now()),
        "competition": {
            **{name: getattr(competition, name) for name in COMPETITION_FIELDS},
            "created_at": _time(competition.created_at),
        },
        "organisers": sorted(user.get_username() for user in competition.organisers.all()),
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
        "match_days": match_days,
    }
