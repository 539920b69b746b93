"""Concurrency on a real PostgreSQL (the `--postgres` pass): 40 tables hand in and confirm their
scoresheets at once through the API while two clients race to change one more sheet; and a
restarted database server, after which the next request is served.

The threads make real commits, so the tests are transactional. Each thread has its own database
connection (Django's are per thread) and closes it when its work is done.
"""

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection
from django.test import RequestFactory
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from doko.sample_sheets import full_match
from scoring.models import Scoresheet, ScoresheetChange, SecondEntry
from tests import factories
from tournaments import selectors
from tournaments import services as tournament_services
from tournaments.models import SeatResult, Tournament

pytestmark = pytest.mark.services

TABLES = 40
PLAYERS = 4 * TABLES
WAIT = 60  # seconds a thread waits for the others before the test fails instead of hanging
Action = ScoresheetChange.Action


def _url(sheet: Scoresheet, action: str = "") -> str:
    table = sheet.table
    name = "api:scoresheet" + (f"-{action}" if action else "")
    return reverse(name, args=[table.round.tournament.slug, table.round.number, table.number])


def _hand_json(line) -> dict:
    return {
        "contract": str(line.contract),
        "dealer": line.dealer,
        "soloist": line.soloist,
        "solo_type": str(line.solo_type) if line.solo_type else None,
        "game_value": line.game_value,
        "points": {str(seat): points for seat, points in line.points.items()},
    }


def _in_own_connection(work):
    """``work`` run in a worker thread, which closes its database connection afterwards."""

    def run(*args):
        try:
            return work(*args)
        finally:
            connection.close()

    return run


def _sheets(tournament: Tournament) -> list[Scoresheet]:
    return list(
        Scoresheet.objects.filter(table__round__tournament=tournament)
        .select_related("table__round__tournament")
        .order_by("table__number")
    )


@pytest.mark.django_db(transaction=True)
def test_forty_tables_confirm_at_once_and_a_stale_edit_gets_409():
    tournament = factories.tournament(players=PLAYERS)
    round_ = tournament_services.round_start(round=factories.seated_round(tournament))
    sheets = _sheets(tournament)
    assert len(sheets) == TABLES
    extra, editors = _extra_sheet_and_its_editors()
    match = full_match()
    edits = {"keeper": match[:3], "organiser": match[:5]}  # drafts: incomplete is fine

    race = _Race(sheets, match, extra, editors, edits)
    began = time.monotonic()
    kept, confirmed, edited = race.run()
    elapsed = time.monotonic() - began

    _every_table_is_confirmed_once(tournament, sheets, kept, confirmed, match)
    _every_result_is_stored_and_in_the_standings(tournament, round_)
    _one_edit_is_saved_and_the_other_gets_409(extra, edited, edits)
    print(f"{TABLES} tables and two editors in {elapsed:.1f} s")


def _extra_sheet_and_its_editors() -> tuple[Scoresheet, dict]:
    """One more sheet, of a tournament of its own, edited by two clients at once: the table's
    scorekeeper by their link and the organiser by their account (the headers of each)."""
    organiser = factories.user()
    other = factories.tournament(players=4, organiser=organiser)
    tournament_services.round_start(round=factories.seated_round(other))
    (extra,) = _sheets(other)
    editors = {
        "keeper": {"X-Seat-Key": factories.keeper(extra).seat.token},
        "organiser": {"Authorization": f"Token {Token.objects.create(user=organiser).key}"},
    }
    return extra, editors


class _Race:
    """The scorekeepers of every table and both editors of the extra sheet send their first
    write together; the two players of a table who confirm it send theirs together too, as soon
    as it is handed in. Each in a thread and a database connection of its own."""

    def __init__(self, sheets: list[Scoresheet], match, extra: Scoresheet, editors, edits):
        self.sheets, self.extra, self.editors, self.edits = sheets, extra, editors, edits
        self.hands = [_hand_json(line) for line in match]
        # Per table: the keys of its seats (the scorekeeper is seat 4) and when it was handed in.
        self.keys = {
            sheet.pk: {seat.position: seat.token for seat in sheet.table.seats.all()}
            for sheet in sheets
        }
        self.submitted = {sheet.pk: threading.Event() for sheet in sheets}
        self.submitted_version: dict[int, int] = {}
        self.start = threading.Barrier(TABLES + len(editors))
        self.confirm_together = {sheet.pk: threading.Barrier(2) for sheet in sheets}

    def run(self) -> tuple[dict, dict, dict]:
        """Every thread's answers: the scorekeepers' (read, put, submit) by sheet, the
        confirmations' by (sheet, seat), the editors' (version read, response) by name."""
        own = _in_own_connection
        with ThreadPoolExecutor(max_workers=TABLES + len(self.editors)) as pool:
            # The editors and scorekeepers first: each takes a thread of its own at once.
            edited = {name: pool.submit(own(self.edit), name) for name in self.editors}
            kept = {sheet.pk: pool.submit(own(self.keep), sheet) for sheet in self.sheets}
            # Two players of each table confirm it (seats 1 and 2), as soon as it is handed in.
            confirmed = {
                (sheet.pk, position): pool.submit(own(self.confirm), sheet, position)
                for sheet in self.sheets
                for position in (1, 2)
            }
            return (
                {pk: future.result() for pk, future in kept.items()},
                {key: future.result() for key, future in confirmed.items()},
                {name: future.result() for name, future in edited.items()},
            )

    def keep(self, sheet: Scoresheet) -> list[int]:
        """The scorekeeper reads the sheet, enters the match and hands it in."""
        api = APIClient()
        headers = {"X-Seat-Key": self.keys[sheet.pk][4], "Accept-Language": "en"}
        try:
            read = api.get(_url(sheet), headers=headers)
            version = read.json()["version"]
        except BaseException:
            self.start.abort()  # the others fail at once instead of waiting for this thread
            raise
        try:
            self.start.wait(WAIT)
            put = api.put(
                _url(sheet),
                {"version": version, "hands": self.hands},
                format="json",
                headers=headers,
            )
            submit = api.post(
                _url(sheet, "submit"),
                {"version": put.json()["version"]},
                format="json",
                headers=headers,
            )
            if submit.status_code == 200:
                self.submitted_version[sheet.pk] = submit.json()["version"]
        finally:
            self.submitted[sheet.pk].set()
        return [read.status_code, put.status_code, submit.status_code]

    def confirm(self, sheet: Scoresheet, position: int) -> int | None:
        """The player of ``position`` confirms the sheet once it is handed in."""
        if not self.submitted[sheet.pk].wait(WAIT) or sheet.pk not in self.submitted_version:
            self.confirm_together[sheet.pk].abort()
            return None  # not handed in: the scorekeeper's answers say why
        version = self.submitted_version[sheet.pk]
        self.confirm_together[sheet.pk].wait(WAIT)
        response = APIClient().post(
            _url(sheet, "confirm"),
            {"version": version},
            format="json",
            headers={"X-Seat-Key": self.keys[sheet.pk][position], "Accept-Language": "en"},
        )
        return response.status_code

    def edit(self, name: str):
        """The editor ``name`` reads the extra sheet and writes their hands on that version."""
        api = APIClient()
        headers = {**self.editors[name], "Accept-Language": "en"}
        try:
            version = api.get(_url(self.extra), headers=headers).json()["version"]
        except BaseException:
            self.start.abort()
            raise
        self.start.wait(WAIT)
        response = api.put(
            _url(self.extra),
            {"version": version, "hands": [_hand_json(line) for line in self.edits[name]]},
            format="json",
            headers=headers,
        )
        return version, response


def _every_table_is_confirmed_once(tournament, sheets, kept, confirmed, match) -> None:
    """Every scorekeeper read, entered and handed in the sheet; of the two players who confirmed
    a table at once, one did and the other was told the sheet had changed. Every table is
    confirmed exactly once, each change with its own version."""
    assert kept == {sheet.pk: [200, 200, 200] for sheet in sheets}
    for sheet in sheets:
        assert sorted([confirmed[sheet.pk, 1], confirmed[sheet.pk, 2]]) == [200, 409]

    changes = {}
    for change in ScoresheetChange.objects.filter(scoresheet__in=sheets).order_by("version"):
        changes.setdefault(change.scoresheet_id, []).append((change.version, change.action))
    for sheet in _sheets(tournament):
        assert changes[sheet.pk] == [(2, Action.HANDS), (3, Action.SUBMIT), (4, Action.CONFIRM)]
        assert sheet.status == Scoresheet.Status.CONFIRMED
        assert sheet.version == 4
        assert sheet.confirmed_by_seat.position in (1, 2)
        assert sheet.hands.count() == len(match) >= 24


def _every_result_is_stored_and_in_the_standings(tournament, round_) -> None:
    """Nothing is lost: every player's result is stored, and at every table they sum to zero;
    the standings rebuilt after the last commit list every player with their points."""
    results = SeatResult.objects.filter(round=round_)
    assert results.count() == PLAYERS
    assert results.filter(confirmed=True).count() == PLAYERS
    assert sorted(results.values_list("entry_id", flat=True)) == sorted(
        tournament.entries.values_list("pk", flat=True)
    )
    assert sum(result.points for result in results) == 0
    assert all(result.points != 0 for result in results)

    tournament_services.standings_rebuild(tournament_id=tournament.pk)
    table = selectors.standings_read(tournament=Tournament.objects.get(pk=tournament.pk))
    assert len(table.rows) == PLAYERS
    assert {row.entrant.entry_id: row.points for row in table.rows} == {
        result.entry_id: result.points for result in results
    }
    assert table.provisional_rounds == ()


def _one_edit_is_saved_and_the_other_gets_409(extra, edited, edits) -> None:
    """The extra sheet: both clients read version v and wrote on it; one write was saved, the
    other got 409 with the sheet as it is now, and its change was not saved."""
    (v_keeper, keeper), (v_organiser, organiser_answer) = edited["keeper"], edited["organiser"]
    assert v_keeper == v_organiser == 1
    by_status = {keeper.status_code: "keeper", organiser_answer.status_code: "organiser"}
    assert sorted(by_status) == [200, 409], (keeper.content, organiser_answer.content)
    winner, loser = by_status[200], by_status[409]
    lost = edited[loser][1].json()
    assert lost["current"]["version"] == 2
    assert len(lost["current"]["hands"]) == len(edits[winner])
    assert [change["version"] for change in lost["changes"]] == [2]
    extra.refresh_from_db()
    assert extra.version == 2
    assert extra.hands.count() == len(edits[winner]) != len(edits[loser])
    assert list(ScoresheetChange.objects.filter(scoresheet=extra).values_list("action")) == [
        (Action.HANDS,)
    ]


# Keep this test last: it restarts the database server under the whole session.


def _wsgi_get(path: str) -> tuple[int, bytes]:
    """A request served as gunicorn serves it: Django's WSGI application, called in this thread,
    with the signals at the start and end of a request that the test client leaves out for the
    database (``close_old_connections``: where ``CONN_MAX_AGE`` and the health checks act)."""
    from django.core.handlers.wsgi import WSGIHandler

    environ = RequestFactory().get(path, headers={"Accept": "application/json"}).environ
    status = []
    response = WSGIHandler()(environ, lambda line, headers, exc_info=None: status.append(line))
    try:
        body = b"".join(response)
    finally:
        response.close()
    return int(status[0].split()[0]), body


def _backend_pid() -> int | None:
    return connection.connection.info.backend_pid if connection.connection else None


@pytest.mark.django_db(transaction=True)
def test_the_next_request_after_a_database_restart_is_served(request):
    from tests.plugins.servers import cluster_key

    cluster = request.config.stash[cluster_key]
    factories.tournament(name="Neustart-Pokal")
    # The settings for PostgreSQL keep a connection between requests and check it first.
    database = connection.settings_dict
    assert database["CONN_HEALTH_CHECKS"] is True
    assert database["CONN_MAX_AGE"] > 0, "connections are not kept: nothing to test"
    connection.close()

    status, body = _wsgi_get("/api/v1/tournaments/")
    assert status == 200, body
    assert b"Neustart-Pokal" in body
    kept = _backend_pid()
    assert kept is not None  # kept for the next request
    status, body = _wsgi_get("/api/v1/tournaments/")
    assert (status, _backend_pid()) == (200, kept)

    cluster.restart()

    status, body = _wsgi_get("/api/v1/tournaments/")
    assert status == 200, body
    assert b"Neustart-Pokal" in body
    assert _backend_pid() not in (None, kept)  # the dead connection was replaced


@pytest.mark.django_db(transaction=True)
def test_two_saves_of_a_second_entry_at_once_are_one_after_the_other(sheet):
    """Two saves of the desk's second entry (double entry) naming the same version at once, the
    first of them beginning the entry, are one after the other: one is stored, the other finds
    the entry changed (``StaleEntryError``), never a second row nor a lost write.

    The entry is read in a query of its own once the sheet is locked
    (``scoring.services.second_entry._entry_locked``). Read in the lock's own query (joined),
    the save that waited for the lock would see the entry as it was when that query began, none
    yet, and insert a second one: PostgreSQL reads a row locked with FOR UPDATE again once it is
    free, but not the rows joined to it."""
    from scoring import services
    from scoring.services import Actor
    from scoring.services.second_entry import StaleEntryError
    from tournaments.models import TournamentRole

    tournament = sheet.table.round.tournament
    tournament.sheet_keeping, tournament.double_entry = "paper", True
    tournament.save()
    first, second = factories.user(), factories.user()
    factories.role_grant(tournament=tournament, user=first, role=TournamentRole.Role.ORGANISER)
    factories.role_grant(tournament=tournament, user=second, role=TournamentRole.Role.SCOREKEEPER)
    sheet = services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match(), version=sheet.version, by=Actor(user=first)
    )
    services.scoresheet_submit(scoresheet=sheet, version=sheet.version, by=Actor(user=first))
    match = full_match()

    @_in_own_connection
    def save(start: threading.Barrier, version: int, hands: int) -> str:
        fresh = Scoresheet.objects.select_related("table__round__tournament").get(pk=sheet.pk)
        start.wait()
        try:
            services.second_entry_hands_replace(
                scoresheet=fresh, hands=match[:hands], by=second, version=version
            )
        except StaleEntryError:
            return "stale"
        return "saved"

    for version, typed in ((0, 1), (1, 2)):  # beginning the entry, then going on with it
        start = threading.Barrier(2, timeout=WAIT)
        with ThreadPoolExecutor(max_workers=2) as pool:
            answers = sorted(pool.map(save, (start, start), (version, version), (typed, typed + 1)))
        assert answers == ["saved", "stale"]
        entry = SecondEntry.objects.get(scoresheet=sheet)
        assert entry.version == version + 1
    assert len(entry.hands) in (2, 3)
