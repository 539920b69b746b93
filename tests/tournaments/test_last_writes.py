"""A transaction's last writes sent with its COMMIT (``prepared.atomic``, ``prepared.run_last``,
issue 45): one round trip where there were two, and a transaction that still holds whole: what
the body raises, or the writes or the COMMIT, undoes all of it; a statement after the writes
does not overtake them; inside another block the COMMIT stays the outer block's. Run outside
the test's own transaction, as a request runs, on SQLite and on PostgreSQL."""

import traceback

import pytest
from django.db import IntegrityError, connection, transaction
from django.urls import reverse

from doko.sample_sheets import full_match
from scoring import services
from scoring.models import Scoresheet, ScoresheetChange
from tests import factories
from tournaments import prepared
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def commits(monkeypatch):
    """The ``COMMIT``\\ s psycopg sends itself (``Connection.commit``), each in a round trip of
    its own: none on SQLite."""
    sent: list[bytes] = []
    if connection.vendor != "postgresql":
        return sent
    import psycopg

    original = psycopg.Connection._exec_command

    def counted(self, command, *args, **kwargs):
        # Not those of what follows in transactions of its own: the standings' rebuild, which
        # Celery's eager mode runs once a hand-in or confirmation commits, and the round's
        # closing once the answer has gone.
        if bytes(command).startswith(b"COMMIT") and not any(
            "/celery/" in frame.filename
            or (frame.filename.endswith("/after_response.py") and frame.name == "_run_all")
            for frame in traceback.extract_stack()
        ):
            sent.append(bytes(command))
        return original(self, command, *args, **kwargs)

    monkeypatch.setattr(psycopg.Connection, "_exec_command", counted)
    return sent


@pytest.fixture
def sheet() -> Scoresheet:
    tournament = factories.tournament(players=4, organiser=factories.user())
    round_ = tournament_services.round_start(round=factories.seated_round(tournament))
    return Scoresheet.objects.select_related("table__round__tournament").get(table__round=round_)


def change(sheet: Scoresheet, version: int = 99, **fields) -> ScoresheetChange:
    return ScoresheetChange(
        scoresheet=sheet, version=version, action="hands", before={}, after={}, **fields
    )


def changes(sheet: Scoresheet) -> list[int]:
    return list(
        ScoresheetChange.objects.filter(scoresheet=sheet, version__gte=90).values_list(
            "version", flat=True
        )
    )


def test_the_last_writes_go_with_the_commit_and_what_waits_for_it_runs(sheet, commits):
    ran = []

    @prepared.atomic
    def write() -> ScoresheetChange:
        made = change(sheet)
        prepared.run_last(prepared.inserting([made]))
        transaction.on_commit(lambda: ran.append(changes(sheet)))
        assert made.pk is None  # not sent yet
        return made

    commits.clear()
    made = write()
    assert made.pk is not None
    assert commits == []  # Django's commit found the transaction committed
    assert ran == [[99]]
    assert changes(sheet) == [99]
    assert not connection.execute_wrappers
    assert connection.get_autocommit()


def test_what_the_body_raises_after_them_undoes_them_unsent(sheet):
    ran = []

    @prepared.atomic
    def write() -> None:
        sheet.version += 1
        prepared.run(prepared.saving(sheet))
        prepared.run_last(prepared.inserting([change(sheet)]))
        transaction.on_commit(lambda: ran.append(1))
        raise RuntimeError("refused")

    version = Scoresheet.objects.get(pk=sheet.pk).version
    with pytest.raises(RuntimeError):
        write()
    assert changes(sheet) == []
    assert Scoresheet.objects.get(pk=sheet.pk).version == version
    assert ran == []
    assert not connection.execute_wrappers


def test_a_commit_that_fails_undoes_the_whole_transaction(sheet):
    """A foreign key is checked at the COMMIT (PostgreSQL's deferred constraints, as Django
    makes them): the ORM's error, raised from the block, nothing kept, the connection fit for
    the next transaction."""
    ran = []

    @prepared.atomic
    def write() -> None:
        sheet.version += 1
        prepared.run(prepared.saving(sheet))
        prepared.run_last(
            prepared.inserting([change(sheet, 98)]),
            prepared.inserting([change(sheet, 97, by_id=10**9)]),  # no such account
        )
        transaction.on_commit(lambda: ran.append(1))

    version = Scoresheet.objects.get(pk=sheet.pk).version
    with pytest.raises(IntegrityError):
        write()
    assert changes(sheet) == []
    assert Scoresheet.objects.get(pk=sheet.pk).version == version
    assert ran == []
    assert not connection.execute_wrappers
    with transaction.atomic():
        prepared.run(prepared.inserting([change(sheet, 96)]))
    assert changes(sheet) == [96]


def test_a_statement_after_them_sends_them_first(sheet, commits):
    @prepared.atomic
    def write() -> list[int]:
        prepared.run_last(prepared.inserting([change(sheet, 95)]))
        seen = changes(sheet)  # sends the pending insert first
        prepared.run_last(prepared.inserting([change(sheet, 94)]))
        return seen

    commits.clear()
    assert write() == [95]
    assert sorted(changes(sheet)) == [94, 95]
    assert commits == []
    assert not connection.execute_wrappers


def test_inside_another_block_they_are_sent_at_its_end_and_it_commits(sheet, commits):
    @prepared.atomic
    def write() -> None:
        prepared.run_last(prepared.inserting([change(sheet, 93)]))

    def failing() -> None:
        with transaction.atomic():
            write()
            seen.extend(changes(sheet))  # sent, not committed
            raise RuntimeError("the outer block fails")

    seen: list[int] = []
    commits.clear()
    with pytest.raises(RuntimeError):
        failing()
    assert seen == [93]
    assert changes(sheet) == []
    with transaction.atomic():
        write()
        with transaction.atomic():  # a savepoint inside: sent at once
            prepared.run_last(prepared.inserting([change(sheet, 92)]))
            assert sorted(changes(sheet)) == [92, 93]
    assert sorted(changes(sheet)) == [92, 93]
    assert len(commits) == (1 if connection.vendor == "postgresql" else 0)


def test_a_hand_saved_handed_in_and_confirmed_commits_with_its_writes(client, sheet, commits):
    """The day's three writes through a seat's link: each one's writes take its COMMIT along
    (no round trip of its own), and each is kept."""
    keeper = sheet.table.seats.get(position=4).token
    player = sheet.table.seats.get(position=1).token
    hands = full_match()
    sheet = services.scoresheet_hands_replace(
        scoresheet=sheet, hands=hands[:-1], version=sheet.version, by=factories.keeper(sheet)
    )
    from scoring.forms import initial_for

    fields = {"number": len(hands), "version": sheet.version}
    for name, value in initial_for(hands[-1], mode="raw").items():
        if value not in (None, False, ""):
            fields[name] = "on" if value is True else value
    hx = {"HTTP_HX_REQUEST": "true"}
    commits.clear()
    response = client.post(reverse("scoring:sheet-link-save", args=[keeper]), fields, **hx)
    assert response.status_code == 200
    sheet.refresh_from_db()
    assert sheet.hands.count() == len(hands)
    response = client.post(
        reverse("scoring:sheet-link-submit", args=[keeper]), {"version": sheet.version}, **hx
    )
    assert response.status_code == 200
    sheet.refresh_from_db()
    assert sheet.status == Scoresheet.Status.SUBMITTED
    response = client.post(
        reverse("scoring:sheet-link-confirm", args=[player]), {"version": sheet.version}, **hx
    )
    assert response.status_code == 200
    sheet.refresh_from_db()
    assert sheet.status == Scoresheet.Status.CONFIRMED
    assert sheet.table.results.count() == 4
    assert commits == []
