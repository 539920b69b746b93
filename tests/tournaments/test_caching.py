"""A round's version in the cache (tournaments/caching.py), under which the desk's list of its
sheets is cached: raised once a change commits, by every service that changes what the desk
shows, and never back to a number an earlier answer was cached under."""

import pytest
from django.core.cache import cache
from django.db import transaction

from adjudication.services import complaint_record
from doko.sample_sheets import full_match
from scoring import services
from tests import factories
from tournaments import caching
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


def test_the_version_is_raised_once_the_change_commits(sheet, django_capture_on_commit_callbacks):
    round_id = sheet.table.round_id
    before = caching.round_version(round_id)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.scoresheet_hands_replace(
            scoresheet=sheet,
            hands=full_match()[:1],
            version=sheet.version,
            by=factories.keeper(sheet),
        )
    assert caching.round_version(round_id) == before  # not before it commits
    for callback in callbacks:
        callback()
    assert caching.round_version(round_id) == before + 1


def test_a_change_rolled_back_raises_nothing(sheet, django_capture_on_commit_callbacks):
    before = caching.round_version(sheet.table.round_id)
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        services.scoresheet_hands_replace(
            scoresheet=sheet,
            hands=full_match()[:1],
            version=sheet.version,
            by=factories.keeper(sheet),
        )
        transaction.set_rollback(True)
    assert caching.round_version(sheet.table.round_id) == before


def test_a_forgotten_version_starts_again_elsewhere():
    first = caching.round_version(7)
    caching.round_version_raise([7])
    cache.delete("round-version:7")  # evicted, or the cache restarted
    caching.memory_clear()  # asked by another web process
    assert caching.round_version(7) not in {first, first + 1, None}


def test_a_process_remembers_the_version_a_moment_and_forgets_it_when_it_raises_it():
    first = caching.round_version(9)
    cache.set("round-version:9", first + 5)  # raised by another process
    assert caching.round_version(9) == first  # DESK_READER_SECONDS later it reads the new one
    caching.round_version_raise([9])
    assert caching.round_version(9) == first + 6


def test_raising_a_forgotten_version_starts_it_afresh():
    caching.round_changed(8)
    assert caching.round_version(8) is not None


def test_without_the_cache_there_is_no_version(monkeypatch):
    def down(*args, **kwargs):
        raise ConnectionError("cache down")

    monkeypatch.setattr(cache, "get", down)
    assert caching.round_version(9) is None
    monkeypatch.setattr(cache, "incr", down)
    caching.round_changed(9)  # logged, nothing raised


def raised(round_id, change, capture) -> bool:
    before = caching.round_version(round_id)
    with capture(execute=True):
        change()
    return caching.round_version(round_id) != before


def test_a_complaint_raises_its_rounds_version(sheet, django_capture_on_commit_callbacks):
    adjudicator = factories.adjudicator(sheet.table.round.tournament)

    def complain():
        complaint_record(
            scoresheet=sheet, hand_number=1, offender=2, description="Revoke", by=adjudicator
        )

    assert raised(sheet.table.round_id, complain, django_capture_on_commit_callbacks)


def test_extra_time_raises_its_rounds_version(sheet, django_capture_on_commit_callbacks):
    adjudicator = factories.adjudicator(sheet.table.round.tournament)

    def grant():
        tournament_services.table_extra_time_grant(
            table=sheet.table, minutes=5, reason="Toilet break", by=adjudicator
        )

    assert raised(sheet.table.round_id, grant, django_capture_on_commit_callbacks)


def test_a_corrected_name_raises_the_version_of_the_rounds_it_is_seated_in(
    sheet, django_capture_on_commit_callbacks
):
    entry = sheet.table.seats.get(position=1).entry

    def correct():
        tournament_services.entry_update(
            entry=entry,
            first_name="Neu",
            last_name="Name",
            start_number=entry.start_number,
            by=factories.organiser(entry.tournament),
        )

    assert raised(sheet.table.round_id, correct, django_capture_on_commit_callbacks)


def test_a_second_entry_raises_its_rounds_version(sheet, django_capture_on_commit_callbacks):
    from scoring.models import Scoresheet
    from scoring.services import Actor
    from tournaments.models import TournamentRole

    tournament = sheet.table.round.tournament
    tournament.double_entry = True
    tournament.save()
    first, second = factories.user(), factories.user()
    for user in (first, second):
        factories.role_grant(tournament=tournament, user=user, role=TournamentRole.Role.ORGANISER)
    sheet = Scoresheet.objects.select_related("table__round__tournament").get(pk=sheet.pk)
    sheet = services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match(), version=sheet.version, by=Actor(user=first)
    )
    services.scoresheet_submit(scoresheet=sheet, version=sheet.version, by=Actor(user=first))

    def type_again():
        services.second_entry_hands_replace(
            scoresheet=sheet, hands=full_match()[:2], by=second, version=0
        )

    assert raised(sheet.table.round_id, type_again, django_capture_on_commit_callbacks)


def test_a_seating_drawn_again_raises_its_rounds_version(django_capture_on_commit_callbacks):
    tournament = factories.tournament(players=8, seating_method="random")
    round_ = factories.seated_round(tournament, publish=False)

    def draw_again():
        tournament_services.round_seat(round=round_, seed=2)

    assert raised(round_.pk, draw_again, django_capture_on_commit_callbacks)


def test_a_sheets_change_raises_its_table_page_and_the_desk_not_the_other_tables(
    sheet, django_capture_on_commit_callbacks
):
    """A hand raises the round's version (the desk) and its table page's, not the round's
    other table pages' (issue 36: their phones' refreshes stay 304)."""
    round_id, number = sheet.table.round_id, sheet.table.number
    before = caching.round_version(round_id), caching.table_version(round_id, number)
    other = caching.table_version(round_id, number + 1)
    with django_capture_on_commit_callbacks(execute=True):
        services.scoresheet_hands_replace(
            scoresheet=sheet,
            hands=full_match()[:1],
            version=sheet.version,
            by=factories.keeper(sheet),
        )
    assert caching.round_version(round_id) != before[0]
    assert caching.table_version(round_id, number) != before[1]
    assert caching.table_version(round_id, number + 1) == other


def test_a_change_of_the_round_raises_every_table_page(django_capture_on_commit_callbacks):
    pages = [caching.table_version(5, number) for number in (1, 2)]
    with django_capture_on_commit_callbacks(execute=True):
        caching.round_changed(5)
    assert all(caching.table_version(5, n) != page for n, page in zip((1, 2), pages, strict=True))


def test_a_complaint_raises_its_table_page(sheet, django_capture_on_commit_callbacks):
    adjudicator = factories.adjudicator(sheet.table.round.tournament)
    before = caching.table_version(sheet.table.round_id, sheet.table.number)
    with django_capture_on_commit_callbacks(execute=True):
        complaint_record(
            scoresheet=sheet, hand_number=1, offender=2, description="Revoke", by=adjudicator
        )
    assert caching.table_version(sheet.table.round_id, sheet.table.number) != before


def test_without_the_cache_a_table_page_has_no_version(monkeypatch):
    def down(*args, **kwargs):
        raise ConnectionError("cache down")

    monkeypatch.setattr(cache, "get", down)
    assert caching.table_version(9, 1) is None
