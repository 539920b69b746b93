"""A rebuild of the standings lost on the way (its worker died after the confirm committed, or
its message was lost) is queued again by the one recovery of lost work
(``printing.services.work_recover``, ``manage.py recover``, beat every minute), and the
standings become current; a rebuild done, or being done now, is not queued again."""

import datetime
import threading

import pytest
from django.core.management import call_command
from django.db import connection, transaction
from django.utils import timezone

from doko.sample_sheets import full_match
from printing import services as printing_services
from scoring.models import Scoresheet
from tests import factories
from tournaments import selectors, services
from tournaments.models import StandingsWanted, Tournament

GRACE = datetime.timedelta(seconds=30)


def _lost(monkeypatch) -> list:
    """Sending a task loses it, as a worker that dies with it does: what was sent."""
    sent: list = []
    monkeypatch.setattr("tournaments.workers.send_or_run", lambda task, *args: sent.append(args))
    return sent


def _confirmed_table(tournament: Tournament) -> None:
    round_ = factories.seated_round(tournament)
    services.round_start(round=round_)
    sheet = Scoresheet.objects.get(table__round=round_, table__number=1)
    factories.sheet_confirmed(sheet, full_match())


def _later(wanted_ago: datetime.timedelta) -> None:
    StandingsWanted.objects.update(wanted_at=timezone.now() - wanted_ago)


@pytest.mark.django_db
def test_a_lost_rebuild_is_queued_again_and_the_standings_become_current(
    monkeypatch, django_capture_on_commit_callbacks
):
    tournament = factories.tournament(players=4)
    sent = _lost(monkeypatch)
    with django_capture_on_commit_callbacks(execute=True):
        _confirmed_table(tournament)
    assert sent  # the rebuild was asked for, and lost
    before = Tournament.objects.get(pk=tournament.pk).standings_version
    assert StandingsWanted.objects.filter(tournament=tournament).exists()

    # Within the grace the rebuild may just be waiting in the queue: left alone.
    with django_capture_on_commit_callbacks(execute=True):
        assert printing_services.work_recover() == ([], [])
    monkeypatch.undo()  # the worker is back
    _later(GRACE + datetime.timedelta(seconds=1))
    with django_capture_on_commit_callbacks(execute=True):
        call_command("recover")
    tournament.refresh_from_db()
    assert tournament.standings_version > before
    table = selectors.standings_read(tournament=tournament)
    assert sum(row.rounds_played for row in table.rows) == 4  # the confirmed table counts
    assert not StandingsWanted.objects.filter(tournament=tournament).exists()
    with django_capture_on_commit_callbacks(execute=True):
        assert printing_services.work_recover() == ([], [])


@pytest.mark.django_db
def test_a_rebuild_queued_again_waits_a_grace_before_the_next(
    monkeypatch, django_capture_on_commit_callbacks
):
    tournament = factories.tournament(players=4)
    sent = _lost(monkeypatch)
    with django_capture_on_commit_callbacks(execute=True):
        _confirmed_table(tournament)
    _later(GRACE * 2)
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert printing_services.work_recover()[1] == [tournament.pk]
    assert sent == [(tournament.pk,)]  # lost again
    with django_capture_on_commit_callbacks(execute=True):
        assert printing_services.work_recover()[1] == []  # a minute later, not yet again
    assert sent == [(tournament.pk,)]


@pytest.mark.django_db
def test_a_change_rolled_back_wants_no_rebuild(monkeypatch):
    tournament = factories.tournament(players=4)
    _lost(monkeypatch)
    before = StandingsWanted.objects.count()

    def change_that_fails() -> None:
        with transaction.atomic():
            services.standings_schedule(tournament_id=tournament.pk)
            raise RuntimeError

    with pytest.raises(RuntimeError):
        change_that_fails()
    assert StandingsWanted.objects.count() == before


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_tournament_being_rebuilt_now_is_not_queued_twice(monkeypatch):
    """PostgreSQL: the rebuild holds the tournament's row; the recovery skips it."""
    tournament = factories.tournament(players=4)
    sent = _lost(monkeypatch)
    _confirmed_table(tournament)
    _later(GRACE * 2)
    sent.clear()
    rebuilding, recovered = threading.Event(), threading.Event()

    def rebuild() -> None:
        try:
            with transaction.atomic():
                Tournament.objects.select_for_update(no_key=True).get(pk=tournament.pk)
                rebuilding.set()  # as standings_rebuild holds it while it computes
                recovered.wait(30)
        finally:
            connection.close()

    worker = threading.Thread(target=rebuild)
    worker.start()
    try:
        assert rebuilding.wait(30)
        assert printing_services.work_recover() == ([], [])
        assert sent == []
    finally:
        recovered.set()
        worker.join(30)
    assert printing_services.work_recover()[1] == [tournament.pk]  # done, no rebuild came
