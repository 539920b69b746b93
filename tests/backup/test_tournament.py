"""A tournament backed up with export_tournament and restored with import_tournament comes
back whole: the same standings, rows, sheets and adjudication, under new ids.

The round trip deletes the tournament, its players and two of its users before the import,
so that it restores into a database without them (as onto a new server): the counts of every
kind of row must then come back exactly, and the missing users are created inactive. A second
test imports under another short name next to the original, where the players are found
again by their DDV number and the seats' private links must change.
"""

import dataclasses
import json
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command

from adjudication import services as adjudication
from adjudication.models import Appeal, Decision, Event, Offence, Sanction
from backup.selectors import tournament_export
from backup.services import tournament_import
from doko.rules.penalty import Severity
from scoring import services as scoring_services
from scoring.models import Hand, Scoresheet, ScoresheetChange
from tests import factories
from tests.adjudication.helpers import (
    MATCH,
    appeal,
    confirm,
    decide,
    deduct,
    enter,
    staffed_tournament,
)
from tests.adjudication.helpers import started_round as _started_round
from tournaments import selectors
from tournaments import services as tournament_services
from tournaments.models import (
    Entry,
    ExtraTime,
    Player,
    Round,
    Seat,
    SeatResult,
    Table,
    Tournament,
    TournamentRole,
)

pytestmark = pytest.mark.django_db
Ruling = adjudication.Ruling
MODELS = [
    Tournament,
    Player,
    Entry,
    TournamentRole,
    Round,
    Table,
    Seat,
    ExtraTime,
    Scoresheet,
    Hand,
    ScoresheetChange,
    Offence,
    Decision,
    Appeal,
    Appeal.members.through,
    Sanction,
    Sanction.members.through,
    Event,
    SeatResult,
]


@pytest.fixture
def staff():
    return {
        "organiser": factories.user(username="organiser"),
        "adjudicator": factories.user(username="adjudicator"),
        "panel": [factories.user(username=f"panel{n}") for n in (1, 2, 3)],
        "keeper": factories.user(username="desk"),
    }


def sheets_of(round_: Round) -> list[Scoresheet]:
    return list(Scoresheet.objects.filter(table__round=round_).order_by("table__number"))


def play(staff) -> Tournament:
    """Two rounds of eight: round 1 closed with a decision initialled, one changed by the
    panel, a deduction and extra time; a late entry and a withdrawal; round 2 with one sheet
    confirmed and one submitted (provisional) with a ruling waiting for initials."""
    organiser, adjudicator = staff["organiser"], staff["adjudicator"]
    tournament = staffed_tournament(staff, players=8)
    entries = factories.entries(tournament)
    for number, entry in enumerate(entries[:4], start=1):
        Player.objects.filter(pk=entry.player_id).update(
            ddv_number=f"DDV-{number}", club="Kreuz As"
        )
    first_entry = entries[0]
    adjudication.role_grant(
        tournament=tournament,
        user=staff["keeper"],
        role=TournamentRole.Role.SCOREKEEPER,
        entry=first_entry,
        by=organiser,
    )
    offence = adjudication.offence_save(
        tournament=tournament,
        name="Revoke",
        kind=Offence.Kind.BREACH,
        severity=Severity.MINOR,
        rule="9.3.1",
        by=adjudicator,
    )

    round_ = _started_round(tournament)
    one, two = sheets_of(round_)
    enter(one, MATCH[:4])
    decide(one, staff, hand=3, offender=2, ruling=Ruling(Severity.MINOR), offence=offence)
    changed = decide(one, staff, hand=2, offender=3, ruling=Ruling(Severity.MINOR))
    appeal(changed, staff, outcome=Appeal.Outcome.CHANGE, ruling=Ruling(Severity.INSIGNIFICANT))
    tournament_services.table_extra_time_grant(
        table=two.table, minutes=7, reason="Lights went out", by=adjudicator
    )
    confirm(one)
    confirm(two)
    deduct(round_, two, staff, position=3, points=6)
    round_ = factories.round_end(round_)
    tournament_services.round_close(round=round_)

    late = tournament_services.entry_create(tournament=tournament, player=factories.player())
    tournament_services.entry_withdraw(entry=first_entry)
    assert late.start_number == 9

    round_ = _started_round(tournament, seed=2)
    one, two = sheets_of(round_)
    confirm(one)
    enter(two, MATCH[:6])
    decide(two, staff, hand=5, offender=1, ruling=Ruling(Severity.MINOR), initial=False)
    enter(two, MATCH)
    two.refresh_from_db()
    scoring_services.scoresheet_submit(
        scoresheet=two, version=two.version, by=factories.keeper(two)
    )
    return Tournament.objects.get(pk=tournament.pk)


def standings_of(tournament: Tournament):
    """The standings without the entries' ids, which an import renews."""
    table = selectors.standings_read(tournament=Tournament.objects.get(pk=tournament.pk))

    def without_id(row):
        return dataclasses.replace(
            row,
            entrant=dataclasses.replace(row.entrant, entry_id=0),
            results=tuple(result and result._replace(entry_id=0) for result in row.results),
        )

    return (
        table.rounds,
        table.tiebreaks,
        table.provisional_rounds,
        [without_id(row) for row in table.rows],
    )


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in MODELS}


def hands_of(tournament: Tournament) -> dict:
    return {
        (round_number, table_number, status): [
            {k: v for k, v in hand.items() if k not in {"id", "scoresheet_id"}}
            for hand in Hand.objects.filter(scoresheet_id=sheet).order_by("number").values()
        ]
        for sheet, round_number, table_number, status in Scoresheet.objects.filter(
            table__round__tournament=tournament
        ).values_list("pk", "table__round__number", "table__number", "status")
    }


def through_json(data: dict) -> dict:
    return json.loads(json.dumps(data))


def test_a_tournament_comes_back_whole(staff, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        tournament = play(staff)
    standings, rows, hands = standings_of(tournament), counts(), hands_of(tournament)
    assert standings[2] == (2,)  # round 2 is provisional
    assert len(standings[3]) == 9
    assert rows["Appeal"] == 1
    assert rows["Sanction"] == 1
    assert rows["ExtraTime"] == 1
    assert Entry.objects.filter(status=Entry.Status.WITHDRAWN).count() == 1
    tokens = set(Seat.objects.values_list("token", flat=True))
    old_ids = set(Seat.objects.values_list("pk", flat=True))
    data = through_json(tournament_export(tournament=tournament))
    assert data["format"] == "doko-tournament"
    assert data["version"] == 1

    # Restore into a database without the tournament, its players and two panel members.
    with django_capture_on_commit_callbacks(execute=True):
        tournament.delete()
        Player.objects.all().delete()
        get_user_model().objects.filter(username__in=["panel2", "panel3"]).delete()
    assert not Seat.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        # Onto the site it came from: the staff's accounts are theirs.
        restored = tournament_import(data=data, attach_roles_to_existing_accounts=True)

    assert standings_of(restored) == standings
    assert counts() == rows
    assert hands_of(restored) == hands
    assert set(Seat.objects.values_list("token", flat=True)) == tokens
    assert not old_ids & set(Seat.objects.values_list("pk", flat=True))
    recreated = get_user_model().objects.filter(username__in=["panel2", "panel3"])
    assert [(u.is_active, u.has_usable_password()) for u in recreated] == [(False, False)] * 2
    appeal_ = Appeal.objects.get()
    assert {u.username for u in appeal_.members.all()} == {"panel1", "panel2", "panel3"}
    assert appeal_.replacement.get().status == Decision.Status.INITIALLED
    # Exported again, it is the same document, times and keys included.
    again = through_json(tournament_export(tournament=restored))
    assert {**again, "exported_at": None} == {**data, "exported_at": None}


def test_an_import_next_to_the_original_reuses_players_and_renews_links(
    staff, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        tournament = play(staff)
    data = through_json(tournament_export(tournament=tournament))
    data["tournament"]["slug"] = "copy"
    players = Player.objects.count()
    with django_capture_on_commit_callbacks(execute=True):
        copy = tournament_import(data=data)
    # The four players with a DDV number are the same people; the others cannot be told apart.
    assert Player.objects.count() == players + 9 - 4
    assert not set(copy.entries.values_list("player", flat=True)) & set(
        tournament.entries.filter(player__ddv_number="").values_list("player", flat=True)
    )
    mine = set(Seat.objects.filter(round__tournament=copy).values_list("token", flat=True))
    theirs = set(Seat.objects.filter(round__tournament=tournament).values_list("token", flat=True))
    assert len(mine) == len(theirs) == 16
    assert not mine & theirs
    assert standings_of(copy) == standings_of(tournament)


def test_an_existing_short_name_is_refused_and_nothing_saved(
    staff, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        tournament = play(staff)
    data = through_json(tournament_export(tournament=tournament))
    Player.objects.update(ddv_number="")  # so that the import would create players first
    rows = counts()
    users = get_user_model().objects.count()
    data["users"].append("newcomer")
    with pytest.raises(ValidationError, match="exists already"):
        tournament_import(data=data)
    assert counts() == rows
    assert get_user_model().objects.count() == users


def test_a_failure_halfway_saves_nothing(staff, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        tournament = play(staff)
    data = through_json(tournament_export(tournament=tournament))
    data["tournament"]["slug"] = "copy"
    data["events"][-1]["decision"] = 999  # the last thing imported
    rows = counts()
    with pytest.raises(ValidationError, match="damaged"):
        tournament_import(data=data)
    assert counts() == rows


def test_an_entry_key_held_twice_is_refused_as_every_row_keys_are(staff):
    """Entries are restored by key like every other row: a file that holds one key twice is
    damaged, says so, and nothing is imported."""
    tournament = play(staff)
    data = through_json(tournament_export(tournament=tournament))
    data["tournament"]["slug"] = "copy"
    data["entries"][1]["key"] = data["entries"][0]["key"]
    rows = counts()
    with pytest.raises(ValidationError, match="twice"):
        tournament_import(data=data)
    assert counts() == rows


def test_a_sheet_handed_over_comes_back_with_its_keeper():
    """TSR 3.1.1: the seat that took the sheet over is part of the sheet; a backup from
    before it could be handed over (no ``keeper_seat``) restores with the rule's seat."""
    organiser = factories.user()
    tournament = factories.tournament(players=4, organiser=organiser)
    round_ = tournament_services.round_start(round=factories.seated_round(tournament))
    sheet = Scoresheet.objects.get(table__round=round_)
    scoring_services.scoresheet_keeper_move(
        scoresheet=sheet, seat=3, version=1, by=scoring_services.Actor(user=organiser)
    )
    data = through_json(tournament_export(tournament=tournament))
    assert data["scoresheets"][0]["keeper_seat"] == 3
    data["tournament"]["slug"] = "copy"
    copy = tournament_import(data=data)
    assert Scoresheet.objects.get(table__round__tournament=copy).keeper(4) == 3
    del data["scoresheets"][0]["keeper_seat"]
    data["tournament"]["slug"] = "older"
    older = tournament_import(data=data)
    assert Scoresheet.objects.get(table__round__tournament=older).keeper(4) == 4


def test_a_sheet_sent_back_comes_back_with_its_reason():
    """TSR 7.3.2: the reason a player sent the sheet back is shown to its scorekeeper until
    he hands it in again; a backup from before sheets could be sent back has none."""
    tournament = factories.tournament(players=4)
    round_ = tournament_services.round_start(round=factories.seated_round(tournament))
    sheet = Scoresheet.objects.get(table__round=round_)
    keeper = factories.keeper(sheet)
    sheet = scoring_services.scoresheet_hands_replace(
        scoresheet=sheet, hands=MATCH, version=1, by=keeper
    )
    sheet = scoring_services.scoresheet_submit(scoresheet=sheet, version=2, by=keeper)
    scoring_services.scoresheet_return(
        scoresheet=sheet, version=3, by=factories.checker(sheet), reason="Hand 7"
    )
    data = through_json(tournament_export(tournament=tournament))
    data["tournament"]["slug"] = "copy"
    copy = Scoresheet.objects.get(table__round__tournament=tournament_import(data=data))
    assert copy.sent_back_reason == "Hand 7"
    assert copy.sent_back_by.endswith("(seat 1)")
    assert copy.changes.latest("version").action == "return"
    del data["scoresheets"][0]["sent_back_reason"], data["scoresheets"][0]["sent_back_by"]
    data["tournament"]["slug"] = "older"
    older = Scoresheet.objects.get(table__round__tournament=tournament_import(data=data))
    assert older.sent_back_reason == ""


def test_paper_sheets_come_back_with_how_they_were_confirmed_and_their_second_entry():
    """A sheet confirmed from the signed paper sheet says so after the import, and a sheet's
    blind second entry (double entry) comes back with its differences; a backup from before
    paper sheets restores with the defaults."""
    organiser = factories.user(username="erste")
    second = factories.user(username="zweite")
    tournament = factories.tournament(players=8, organiser=organiser)
    tournament.double_entry = True
    tournament.save()
    factories.role_grant(tournament=tournament, user=second, role=TournamentRole.Role.SCOREKEEPER)
    round_ = tournament_services.round_start(round=factories.seated_round(tournament))
    one, two = Scoresheet.objects.filter(table__round=round_).order_by("table__number")
    for sheet in (one, two):
        sheet = scoring_services.scoresheet_hands_replace(
            scoresheet=sheet, hands=MATCH, version=1, by=scoring_services.Actor(user=organiser)
        )
        scoring_services.scoresheet_submit(
            scoresheet=sheet, version=2, by=scoring_services.Actor(user=organiser)
        )
    scoring_services.second_entry_submit(scoresheet=one, hands=MATCH, by=second)
    wrong = list(MATCH)
    wrong[3] = dataclasses.replace(wrong[3], points={s: -p for s, p in wrong[3].points.items()})
    scoring_services.second_entry_submit(scoresheet=two, hands=wrong, by=second)
    data = through_json(tournament_export(tournament=tournament))
    data["tournament"]["slug"] = "copy"
    copy = tournament_import(data=data)
    assert copy.double_entry
    one, two = Scoresheet.objects.filter(table__round__tournament=copy).order_by("table__number")
    assert (one.confirmation, one.confirmed_by.username) == ("double_entry", "zweite")
    assert (two.status, two.second_entry.differences) == ("submitted", [4])
    assert two.second_entry.by.username == "zweite"
    del data["tournament"]["double_entry"], data["tournament"]["sheet_keeping"]
    for sheet in data["scoresheets"]:
        del sheet["confirmation"], sheet["second_entry"]
    data["tournament"]["slug"] = "older"
    older = tournament_import(data=data)
    assert (older.sheet_keeping, older.double_entry) == ("both", False)


def test_the_offences_of_the_tsr_come_back_by_their_code():
    """A backup from before offences had codes names them in the language of whoever added
    them: the import finds their code, once per offence."""
    organiser = factories.user()
    tournament = factories.tournament(players=4, organiser=organiser)
    adjudication.offences_default(tournament=tournament, by=organiser)
    data = through_json(tournament_export(tournament=tournament))
    assert {item["code"] for item in data["offences"]} >= {"not-following-suit", "counting-aloud"}
    data["tournament"]["slug"] = "copy"
    copy = tournament_import(data=data)
    assert set(copy.offences.values_list("code", flat=True)) == set(
        tournament.offences.values_list("code", flat=True)
    )

    for item in data["offences"]:
        del item["code"]
    first = next(item for item in data["offences"] if item["name"] == "Not following suit")
    first["name"] = "Nicht bedient"
    data["offences"].append({**first, "key": 99, "name": "Not following suit"})
    data["tournament"]["slug"] = "older"
    older = tournament_import(data=data)
    assert dict(older.offences.values_list("name", "code")) == {
        **dict(tournament.offences.values_list("name", "code")),
        "Nicht bedient": "not-following-suit",
        "Not following suit": "",
    }


def test_an_archived_tournament_comes_back_archived():
    organiser = factories.user()
    tournament = factories.tournament(players=4, organiser=organiser)
    archived = tournament_services.tournament_archive(tournament=tournament, by=organiser)
    data = through_json(tournament_export(tournament=archived))
    assert data["tournament"]["archived_at"] == archived.archived_at.isoformat()
    data["tournament"]["slug"] = "restored"
    restored = tournament_import(data=data)
    restored.refresh_from_db()
    assert restored.archived_at == archived.archived_at


def test_a_springer_comes_back_at_his_two_tables():
    """TSR 10: the setting and the Springer's second seat survive a round trip."""
    tournament = factories.tournament(
        players=7, allow_tables_of_six_and_seven=True, springer=True, planned_rounds=1
    )
    factories.seated_round(tournament)
    data = through_json(tournament_export(tournament=tournament))
    data["tournament"]["slug"] = "restored"
    restored = tournament_import(data=data)
    restored.refresh_from_db()
    assert restored.springer is True
    (second,) = Seat.objects.filter(round__tournament=restored, second=True)
    assert Seat.objects.filter(round=second.round, entry=second.entry).count() == 2


def test_a_file_written_before_archiving_existed_comes_back_current():
    data = through_json(tournament_export(tournament=factories.tournament(players=4)))
    del data["tournament"]["archived_at"]
    data["tournament"]["slug"] = "older"
    restored = tournament_import(data=data)
    restored.refresh_from_db()
    assert restored.archived_at is None


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"version": 2}, "version 2"),
        ({"version": None}, "version None"),
        ({"format": "something-else"}, "not a tournament backup"),
    ],
)
def test_a_wrong_format_or_version_is_refused(change, message):
    data = {**tournament_export(tournament=factories.tournament(players=4)), **change}
    data["tournament"]["slug"] = "other"
    with pytest.raises(ValidationError, match=message):
        tournament_import(data=data)
    assert not Tournament.objects.filter(slug="other").exists()


def test_the_commands_end_to_end(staff, tmp_path, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        tournament = play(staff)
    standings = standings_of(tournament)
    out = StringIO()
    call_command("export_tournament", tournament.slug, stdout=out)
    from_stdout = json.loads(out.getvalue())
    path = tmp_path / "backup.json"
    out = StringIO()
    call_command("export_tournament", tournament.slug, "--output", str(path), stdout=out)
    assert str(path) in out.getvalue()
    from_file = json.loads(path.read_text(encoding="utf-8"))
    assert {**from_file, "exported_at": None} == {**from_stdout, "exported_at": None}

    with pytest.raises(CommandError, match="exists already"):
        call_command("import_tournament", str(path), stdout=StringIO())

    with django_capture_on_commit_callbacks(execute=True):
        tournament.delete()
        get_user_model().objects.filter(username="panel3").delete()
    out = StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("import_tournament", str(path), stdout=out)
    assert f"({tournament.slug}): 9 players, 2 rounds" in out.getvalue()
    assert "players were known already" in out.getvalue()
    assert "inactive user accounts without a password" in out.getvalue()
    assert "panel3" in out.getvalue()
    assert standings_of(Tournament.objects.get(slug=tournament.slug)) == standings

    with pytest.raises(CommandError, match="No tournament"):
        call_command("export_tournament", "nowhere", stdout=StringIO())
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(CommandError, match="not JSON"):
        call_command("import_tournament", str(path), stdout=StringIO())
