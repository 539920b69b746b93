"""What each write of a tournament day asks of the database (issue 45): the hand's save, the
live check, handing in, confirming and the desk's blind second entry, through the entry page
and through the API. Each reads the sheet with its hands and decisions once, writes once and
raises the version once; the answer is made from what the write read. The counts include the
savepoints of the services' transactions (inside the test's own)."""

import contextlib
from dataclasses import dataclass, field

import psycopg
import pytest
from django.db import connection
from django.urls import reverse

from doko.sample_sheets import full_match
from scoring import services
from scoring.models import Scoresheet
from scoring.services import Actor
from tests import factories
from tournaments import services as tournament_services
from tournaments.models import SheetKeeping, TournamentRole

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
TYPED = 20  # hands on the sheet before the one saved


@pytest.fixture(autouse=True)
def english(client):
    client.cookies["django_language"] = "en"


@pytest.fixture
def api_client():
    from rest_framework.test import APIClient

    return APIClient()


def running_sheet() -> Scoresheet:
    """The sheet of a table of four in a round under way, nothing typed yet."""
    tournament = factories.tournament(players=4, organiser=factories.user())
    round_ = factories.seated_round(tournament)
    tournament_services.round_start(round=round_)
    return Scoresheet.objects.select_related("table__round__tournament").get(table__round=round_)


@pytest.fixture
def sheet() -> Scoresheet:
    return running_sheet()


@dataclass
class Trips:
    """The statements a block sent, and those among them sent together in one of psycopg's
    pipelines (one round trip each)."""

    statements: int = 0
    together: list[list[str]] = field(default_factory=list)
    alone: int = 0
    open: list[str] | None = None

    @property
    def count(self) -> int:
        return self.alone + len(self.together)


@pytest.fixture
def round_trips(monkeypatch):
    """``with round_trips() as trips``: what the block sends to the database, in round trips
    (``Trips``)."""
    trips = Trips()
    pipeline = psycopg.Connection.pipeline

    @contextlib.contextmanager
    def counted(self):
        outermost = trips.open is None
        if outermost:
            trips.open = []
        try:
            with pipeline(self) as inner:
                yield inner
        finally:
            if outermost:
                if trips.open:
                    trips.together.append(trips.open)
                trips.open = None

    def execute(run, sql, params, many, context):
        trips.statements += 1
        if trips.open is None:
            trips.alone += 1
        else:
            trips.open.append(sql.split()[0])
        return run(sql, params, many, context)

    @contextlib.contextmanager
    def counting():
        monkeypatch.setattr(psycopg.Connection, "pipeline", counted)
        with connection.execute_wrapper(execute):
            yield trips
        monkeypatch.setattr(psycopg.Connection, "pipeline", pipeline)

    return counting


def typed(sheet, count: int) -> Scoresheet:
    return services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match()[:count], version=sheet.version, by=keeper(sheet)
    )


def keeper(sheet) -> Actor:
    return factories.keeper(sheet)


def token(sheet, position: int) -> str:
    return sheet.table.seats.get(position=position).token


def link(sheet, position: int, action: str) -> str:
    return reverse(f"scoring:sheet-link-{action}", args=[token(sheet, position)])


def api_url(sheet, action: str = "") -> str:
    table = sheet.table
    name = "api:scoresheet" + (f"-{action}" if action else "")
    return reverse(name, args=[table.round.tournament.slug, table.round.number, table.number])


def row(sheet, number: int) -> dict:
    """Hand ``number`` of the sample match as the entry row sends it (raw points)."""
    from scoring.forms import initial_for

    fields = {"number": number, "version": sheet.version}
    for name, value in initial_for(full_match()[number - 1], mode="raw").items():
        if value not in (None, False, ""):
            fields[name] = "on" if value is True else value
    return fields


def hands_json(count: int) -> list[dict]:
    from scoring.selectors import hand_snapshot

    hands = []
    for line in full_match()[:count]:
        snapshot = hand_snapshot(line)
        snapshot["points"] = {str(seat): p for seat, p in enumerate(snapshot["points"], start=1)}
        hands.append(snapshot)
    return hands


# Each count is the request's alone: the tests find the seat's key and build the row before
# they count (until 29 November 2026 the key's query was counted with each: one more apiece).
#
# The hand's save (23 queries before issue 45, 24 answering JSON; 15 before its third part,
# 14 before the row was made under the lock, 12 before the lock said whether anything is
# ruled): the seat by its key with its sheet; under the lock the sheet, with whether anything
# is ruled on it (a decision, a deduction: then they are read too, ``RULED``), then its seats
# and hands, read once (what the adjudicators decide does not raise the sheet's version: read
# before the lock, it would be read again under it), from which the row is made and checked;
# the hand added written (the rows before it stay as they are), the sheet's new version and its
# change; the session's language; two savepoints. The answer is made from what the write read.
SAVE = 9
RULED = 2  # the decisions and the deductions, where the lock found any


def test_the_hands_save_on_the_page_reads_once_and_writes_once(
    client, sheet, django_assert_num_queries
):
    sheet = typed(sheet, TYPED)
    url, data = link(sheet, 4, "save"), row(sheet, TYPED + 1)
    with django_assert_num_queries(SAVE):
        response = client.post(url, data, **HX)
    assert response.status_code == 200
    assert sheet.hands.count() == TYPED + 1
    assert f'name="version" value="{sheet.version + 1}"' in response.content.decode()


# Round trips to the database (PostgreSQL): the lock is sent with the reads under it, and the
# hand's row with the sheet's new version and its change (``tournaments.prepared.run``, psycopg's
# pipeline mode), so the save's nine statements go in five: the seat by its key, the savepoint,
# the lock with the seats and hands, the three writes, the savepoint released. In production the
# savepoints are the transaction's BEGIN (sent with the lock) and COMMIT: four.
SAVE_TRIPS = 5


def typed_row_sent(client, sheet, round_trips, action: str) -> Trips:
    """The next hand's row sent to ``action`` (``save``, ``check``) through the keeper's link,
    on a sheet with ``TYPED`` hands: what it sent to the database."""
    sheet = typed(sheet, TYPED)
    url, data = link(sheet, 4, action), row(sheet, TYPED + 1)
    with round_trips() as trips:
        response = client.post(url, data, **HX)
    assert response.status_code == 200
    return trips


def test_the_save_sends_the_lock_with_its_reads_and_its_writes_together(client, sheet, round_trips):
    trips = typed_row_sent(client, sheet, round_trips, "save")
    assert trips.statements == SAVE
    assert trips.count == (SAVE_TRIPS if connection.vendor == "postgresql" else SAVE)
    assert [len(together) for together in trips.together] == (
        [3, 3] if connection.vendor == "postgresql" else []
    )


def deducted(sheet) -> None:
    """Four points deducted from seat 2 for unsporting conduct (TSR 9.6.2 b) by the panel."""
    from adjudication.models import Sanction
    from adjudication.services import sanction_impose

    panel = factories.user()
    tournament = sheet.table.round.tournament
    factories.role_grant(tournament=tournament, user=panel, role=TournamentRole.Role.PANEL)
    sanction_impose(
        entry=sheet.table.seats.get(position=2).entry,
        round=sheet.table.round,
        kind=Sanction.Kind.DEDUCTION,
        points=4,
        reasons="Insulted the table.",
        members=[panel],
        by=panel,
    )


def test_the_save_reads_what_is_ruled_only_where_the_lock_found_it(client, sheet):
    """Where the lock finds nothing ruled on the sheet, the decisions and deductions are not
    read; a deduction from a player of the table (TSR 9.6.2 b) is read with the save, and
    shown."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    sheet = typed(sheet, TYPED)

    def saved(number: int) -> tuple[int, str]:
        url, data = link(sheet, 4, "save"), row(sheet, number)
        with CaptureQueriesContext(connection) as queries:
            response = client.post(url, data, **HX)
        assert response.status_code == 200
        sheet.refresh_from_db()
        return len(queries), response.content.decode()

    unruled, page = saved(TYPED + 1)
    assert "Deducted for unsporting conduct" not in page
    deducted(sheet)
    ruled, page = saved(TYPED + 2)
    assert ruled == unruled + RULED
    assert "Deducted for unsporting conduct" in page


def test_the_hands_save_from_the_offline_queue_answers_json_as_cheaply(
    client, sheet, django_assert_num_queries
):
    sheet = typed(sheet, TYPED)
    url, data = link(sheet, 4, "save"), row(sheet, TYPED + 1)
    with django_assert_num_queries(SAVE):
        response = client.post(url, data, HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    assert response.json()["version"] == sheet.version + 1
    assert response.json()["hand"]["number"] == TYPED + 1


# Through the API (22 before, 16 before issue 45's third part, then 14, then 11): the seat by its
# key, with its sheet (read again until 29 November 2026), the table's size; under the lock the sheet with its scan and whether anything is
# ruled on it, the seats, the hands; the write (3: the hand added written, the rows before it
# kept); two savepoints. The answer is made from what the write read.
API_SAVE = 10


def test_the_hands_put_through_the_api_reads_once_and_writes_once(
    api_client, sheet, django_assert_num_queries
):
    sheet = typed(sheet, TYPED)
    body = {"version": sheet.version, "hands": hands_json(TYPED + 1)}
    url, key = api_url(sheet), token(sheet, 4)
    with django_assert_num_queries(API_SAVE):
        response = api_client.put(url, body, format="json", headers={"X-Seat-Key": key})
    assert response.status_code == 200, response.content
    assert len(response.json()["hands"]) == TYPED + 1


# The live check: the seat by its key with its sheet; the seats, the hands, the decisions and the
# deductions (sent together on PostgreSQL); nothing written.
CHECK = 5


def test_the_live_check_reads_the_sheet_once_and_writes_nothing(
    client, sheet, django_assert_num_queries
):
    sheet = typed(sheet, TYPED)
    url, data = link(sheet, 4, "check"), row(sheet, TYPED + 1)
    with django_assert_num_queries(CHECK):
        response = client.post(url, data, **HX)
    assert response.status_code == 200


def test_a_tables_page_built_anew_reads_its_table_sheet_hands_and_rulings_in_one_round_trip(
    client, sheet, round_trips
):
    """Every phone at a table asks for its page again once a hand is saved: the table with its
    sheet, its seats, the sheet's hands, decisions and deductions go together
    (``table_sheet_get``), where they took four round trips."""
    sheet = typed(sheet, 3)
    round_ = sheet.table.round
    live = reverse("scoring:table-live", args=[round_.tournament.slug, round_.number, 1])
    with round_trips() as trips:
        response = client.get(live, **HX)
    assert response.status_code == 200
    assert response.content.decode().count('<td class="num">3</td>') >= 1  # the third hand
    if connection.vendor == "postgresql":
        assert ["SELECT"] * 5 in trips.together
    else:
        assert trips.together == []


def test_the_live_check_reads_the_sheet_in_one_round_trip(client, sheet, round_trips):
    """The seats, the hands and the adjudication's two reads (``selectors.sheet_read``) are sent
    together: every live check, entry page and table page built anew asks them."""
    trips = typed_row_sent(client, sheet, round_trips, "check")
    assert trips.statements == CHECK
    if connection.vendor == "postgresql":
        assert trips.together == [["SELECT"] * 4]
        assert trips.count == CHECK - 3
    else:  # one by one
        assert trips.count == CHECK


# Handing in (31 and 27 before issue 45, 29 and 25 before its second part, 24 and 20 before its
# third, then 22 and 17, then 19 and 15): the sheet locked (and whether anything is ruled on it),
# its hands and seats (and only then its decisions and deductions: for the check, and kept for the
# answer); the new version and its change; its players' results written (provisional: deleted and
# inserted, made from the hands, seats, decisions and deductions the write read; the tournament
# known from the sheet's round); the standings wanted; two savepoints. The answer is made from what
# the write read (the sheet locked with its scan, which the API shows). The four-eyes record's rows
# are read under the lock too, in the same round trip, and the page's record, to show who may
# confirm, is made from them and the sheet; the API's answer shows no record and reads no rows.
# (The results' write took a savepoint of its own until 29 November 2026: two queries more; the
# page's record read the seats again until 30 November: one more; its rows after the write until
# 29 November: as many, in a round trip of their own.)
HAND_IN = 12
API_HAND_IN = 11  # 12 while the API read the seat's sheet again, and while it read the rows


def test_handing_in_on_the_page(client, sheet, django_assert_num_queries):
    sheet = typed(sheet, 24)
    url = link(sheet, 4, "submit")
    with django_assert_num_queries(HAND_IN):
        response = client.post(url, {"version": sheet.version}, **HX)
    assert response.status_code == 200
    sheet.refresh_from_db()
    assert sheet.status == Scoresheet.Status.SUBMITTED


# Round trips of handing in and confirming (PostgreSQL): the lock with the hands, the seats and
# the four-eyes record's rows (its players found in the query); the new version, its change, the
# results deleted and written and the standings wanted, together. Each: the seat, the savepoint,
# those two, the savepoint released (5; 6 until 29 November 2026, with the record's rows after).
HAND_IN_TRIPS = CONFIRM_TRIPS = 5
# (The record's rows: a union, whose first part PostgreSQL's SQL puts in parentheses.)
WRITES_TOGETHER = [*["SELECT"] * 3, "(SELECT"], ["UPDATE", "INSERT", "DELETE", "INSERT", "INSERT"]


@pytest.mark.parametrize("step", ["hand in", "confirm"])
def test_handing_in_and_confirming_send_their_writes_together(client, sheet, round_trips, step):
    sheet = typed(sheet, 24)
    if step == "hand in":
        url, statements, expected = link(sheet, 4, "submit"), HAND_IN, HAND_IN_TRIPS
    else:
        sheet = services.scoresheet_submit(
            scoresheet=sheet, version=sheet.version, by=keeper(sheet)
        )
        url, statements, expected = link(sheet, 1, "confirm"), CONFIRM, CONFIRM_TRIPS
    with round_trips() as trips:
        response = client.post(url, {"version": sheet.version}, **HX)
    assert response.status_code == 200
    assert trips.statements == statements
    on_postgres = connection.vendor == "postgresql"
    assert trips.count == (expected if on_postgres else statements)
    assert trips.together == (list(WRITES_TOGETHER) if on_postgres else [])


def test_handing_in_through_the_api(api_client, sheet, django_assert_num_queries):
    sheet = typed(sheet, 24)
    url, key = api_url(sheet, "submit"), token(sheet, 4)
    with django_assert_num_queries(API_HAND_IN):
        response = api_client.post(
            url, {"version": sheet.version}, format="json", headers={"X-Seat-Key": key}
        )
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "submitted"


# Confirming (27 and 29 before issue 45, 26 and 28 before its second part, 24 and 26 before its
# third, then 22 and 23, then 20 and 21, then 18 and 19): the sheet locked (and whether anything is
# ruled on it), its seats, read once for the four-eyes record (``policies.may_confirm_sheet``,
# asked once: who handed it in found among them; its rows in one query, sent with the lock) and the
# results, the hands
# (the decisions and deductions only where something is ruled); the write as in handing in; the
# answer reads the sheet, its hands and its scan no more (the sheet is locked with its scan).
CONFIRM = 12
API_CONFIRM = 12  # 13 while the API read the seat's sheet again


def handed_in(sheet) -> Scoresheet:
    sheet = typed(sheet, 24)
    return services.scoresheet_submit(scoresheet=sheet, version=sheet.version, by=keeper(sheet))


def test_confirming_on_the_page(client, sheet, django_assert_num_queries):
    sheet = handed_in(sheet)
    url = link(sheet, 1, "confirm")
    with django_assert_num_queries(CONFIRM):
        response = client.post(url, {"version": sheet.version}, **HX)
    assert response.status_code == 200
    sheet.refresh_from_db()
    assert sheet.status == Scoresheet.Status.CONFIRMED


def test_confirming_through_the_api(api_client, sheet, django_assert_num_queries):
    sheet = handed_in(sheet)
    url, key = api_url(sheet, "confirm"), token(sheet, 1)
    with django_assert_num_queries(API_CONFIRM):
        response = api_client.post(
            url, {"version": sheet.version}, format="json", headers={"X-Seat-Key": key}
        )
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "confirmed"


# The desk's blind second entry of a paper sheet -----------------------------------------------


@pytest.fixture
def paper():
    """A sheet typed and handed in at the desk by its organiser, in a tournament that checks
    paper sheets by double entry; a scorekeeper account, who types the second entry, has typed
    ``TYPED`` hands of it."""
    organiser = factories.user(username="orga")
    tournament = factories.tournament(players=4, organiser=organiser)
    tournament.sheet_keeping = SheetKeeping.BOTH
    tournament.double_entry = True
    tournament.save()
    second = factories.user(username="zweite")
    factories.role_grant(tournament=tournament, user=second, role=TournamentRole.Role.SCOREKEEPER)
    round_ = factories.seated_round(tournament)
    tournament_services.round_start(round=round_)
    sheet = Scoresheet.objects.select_related("table__round__tournament").get(table__round=round_)
    desk = Actor(user=organiser)
    sheet = services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match(), version=sheet.version, by=desk
    )
    sheet = services.scoresheet_submit(scoresheet=sheet, version=sheet.version, by=desk)
    services.second_entry_hands_replace(
        scoresheet=sheet, hands=full_match()[:TYPED], by=second, version=0
    )
    return sheet, second


# The second entry's save on the desk's page (32, then 23, 18, 16, 14 and 12 before): the session
# and account, the sheet with its tournament, the roles and the second entry (one query); under the
# lock the sheet (and whether anything is ruled on it), the second entry, its seats, the four-eyes
# record (its seats and second typist as read: one query), from which the row is made and checked
# (the decisions and deductions read only where something is ruled); the entry written; two
# savepoints. The first entry's hands are read only where a decision put a line on them. The page's
# answer asks the four-eyes record as the write read it.
SECOND = 10


# On PostgreSQL the sheet's lock is sent with the second entry's and the seats' reads: two round
# trips fewer.
SECOND_TRIPS = SECOND - 2


def test_the_second_entrys_save_on_the_desks_page(client, paper, round_trips):
    sheet, second = paper
    client.force_login(second)
    table = sheet.table
    url = reverse(
        "scoring:sheet-second-save",
        args=[table.round.tournament.slug, table.round.number, table.number],
    )
    data = {**row(sheet, TYPED + 1), "version": 1}
    with round_trips() as trips:
        response = client.post(url, data, **HX)
    assert response.status_code == 200
    assert len(sheet.second_entry.hands) == TYPED + 1
    assert trips.statements == SECOND
    on_postgres = connection.vendor == "postgresql"
    assert trips.count == (SECOND_TRIPS if on_postgres else SECOND)
    assert trips.together == ([["SELECT"] * 3] if on_postgres else [])


# Through the API the whole second entry is stored and compared at once (44 before: the
# results' write no longer reads the tournament of the table, issue 45; 43 before: its check
# reads the first entry's hands only where a decision put a line on them; 42 before the
# four-eyes record's reads were one query).
API_SECOND = 37  # 39 before the results' write took no savepoint of its own


def test_the_second_entry_through_the_api(api_client, paper, django_assert_num_queries):
    sheet, second = paper
    api_client.force_login(second)
    with django_assert_num_queries(API_SECOND):
        response = api_client.put(
            api_url(sheet, "second-entry"),
            {"version": 1, "hands": hands_json(24)},
            format="json",
        )
    assert response.status_code == 200, response.content


def test_a_correction_rewrites_the_rows_from_the_hand_corrected_on(sheet):
    """The rows before the hand corrected stay as they are; from it on they are written again,
    as a whole new set of rows would be."""
    from dataclasses import replace

    from scoring.models import Hand

    sheet = typed(sheet, 6)
    before = {hand.number: hand.pk for hand in sheet.hands.all()}
    lines = full_match()[:6]
    lines[2] = replace(lines[2], dealt_by_neighbour=True)
    sheet = services.scoresheet_hands_replace(
        scoresheet=sheet, hands=lines, version=sheet.version, by=keeper(sheet)
    )
    rows = list(sheet.hands.all())
    assert [hand.pk for hand in rows[:2]] == [before[1], before[2]]
    assert all(hand.pk not in before.values() for hand in rows[2:])
    fields = [f.attname for f in Hand._meta.concrete_fields if not f.primary_key]
    expected = [
        Hand.from_line(scoresheet=sheet, number=number, line=line)
        for number, line in enumerate(lines, start=1)
    ]
    assert [[getattr(h, f) for f in fields] for h in rows] == [
        [getattr(h, f) for f in fields] for h in expected
    ]


@pytest.mark.parametrize("step", ["", "?step=submit"])
def test_the_entry_page_reads_its_sheet_in_one_round_trip(client, sheet, round_trips, step):
    """A phone opening the scorekeeper's link (and the question before handing in): the seat
    by its key, then the table's seats, the hands and the adjudication sent together."""
    sheet = typed(sheet, 24)
    url = reverse("scoring:sheet-link", args=[token(sheet, 4)]) + step
    with round_trips() as trips:
        response = client.get(url, **HX)
    assert response.status_code == 200
    assert trips.statements == 5
    if connection.vendor == "postgresql":
        assert trips.count == 2
        assert [len(together) for together in trips.together] == [4]
    else:
        assert trips.count == 5
