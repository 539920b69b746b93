"""The live check of one scoresheet row (issue 5): what the server spends on each keystroke's
request, at the median, against an empty view through the same middleware, in the same run.

Runs in a throwaway test database with one table of a running round and 20 hands entered.
"""

import statistics
import time

from django.test import Client, override_settings
from django.test.utils import setup_test_environment, teardown_test_environment

from bench.figures import Figure

CALLS = 300


def _median_ms(function, calls: int = CALLS) -> float:
    for _ in range(20):
        function()  # warm up: templates compiled, connections open
    times = []
    for _ in range(calls):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def figures() -> list[Figure]:
    from django.db import connection

    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        with override_settings(ROOT_URLCONF="bench.urls"):
            return _measure()
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
        teardown_test_environment()


def _measure() -> list[Figure]:
    from django.urls import reverse

    from scoring import services
    from scoring.models import Scoresheet
    from tests import factories
    from tests.sheets import full_match
    from tournaments import services as tournament_services

    tournament = factories.tournament(players=4)
    round_ = factories.seated_round(tournament)
    tournament_services.round_start(round=round_)
    sheet = Scoresheet.objects.get(table__round=round_)
    hands = full_match()[:20]
    sheet = services.scoresheet_hands_replace(
        scoresheet=sheet, hands=hands, version=1, by=factories.keeper(sheet)
    )
    keeper = factories.keeper(sheet).seat
    client = Client(HTTP_HX_REQUEST="true")
    check = reverse("sheet-link-check", args=[keeper.token])
    row = {
        "mode": "quick",
        "number": len(hands) + 1,
        "version": sheet.version,
        "contract": "normal",
        "game_value": 3,
        "plus_seats": "13",
    }
    assert "correct by the TSR" in client.post(check, row).content.decode()
    calculator = {
        **row,
        "mode": "calculator",
        "re_seats": "13",
        "re_card_points": 151,
        "re_tricks": 8,
        "re_announcement": "team",
    }
    assert "Game value" in client.post(check, calculator).content.decode()

    empty = _median_ms(lambda: client.post("/bench/empty/", row))
    return [
        Figure(
            "live check of a row, quick (median)",
            _median_ms(lambda: client.post(check, row)),
            "empty view (median)",
            empty,
            "ms",
        ),
        Figure(
            "live check of a row, calculator (median)",
            _median_ms(lambda: client.post(check, calculator)),
            "empty view (median)",
            empty,
            "ms",
        ),
        Figure(
            "whole sheet page, 20 hands (median)",
            _median_ms(lambda: client.get(reverse("sheet-link", args=[keeper.token])), 100),
            "empty view (median)",
            empty,
            "ms",
        ),
    ]
