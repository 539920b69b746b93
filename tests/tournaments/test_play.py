"""The door between a round and its sheets (tournaments/play.py): tournaments asks, the scoring
app answers; without an app that records the play, a round says so instead of guessing."""

import pytest
from django.core.exceptions import ImproperlyConfigured

from scoring.models import Scoresheet
from tests import factories
from tournaments import play, services

pytestmark = pytest.mark.django_db


@pytest.fixture
def nobody_records_the_play(monkeypatch):
    monkeypatch.setattr(play, "_recorded", None)


def test_without_an_app_that_records_the_play_a_draw_names_the_missing_app(
    nobody_records_the_play,
):
    tournament = factories.tournament(players=8)
    with pytest.raises(ImproperlyConfigured, match="'scoring' to INSTALLED_APPS"):
        services.round_seat(round=services.round_create(tournament=tournament), seed=1)


def test_each_drawn_table_gets_one_sheet_and_a_redraw_keeps_them():
    tournament = factories.tournament(players=12)
    round_ = services.round_seat(round=services.round_create(tournament=tournament), seed=1)
    first = set(Scoresheet.objects.filter(table__round=round_).values_list("pk", flat=True))
    services.round_seat(round=round_, seed=2)
    again = set(Scoresheet.objects.filter(table__round=round_).values_list("pk", flat=True))
    assert len(first) == 3
    assert again == first


def test_the_sheet_status_is_one_vocabulary_for_both_apps():
    assert Scoresheet.Status is play.SheetStatus
    assert set(play.HANDED_IN) == {play.SheetStatus.SUBMITTED, play.SheetStatus.CONFIRMED}
