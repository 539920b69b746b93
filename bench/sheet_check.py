"""The live check of one scoresheet row (issue 5): what the server spends on each keystroke's
request, at the median, against an empty view through the same middleware, in turn with it
(6 pairs of 50 calls each).

On a table of the run's synthetic tournament (bench.tournament: 2,000 players, 10 rounds, in the
run's database, PostgreSQL by default): the last table of round 10, made for the time of the
measurement a draft with its first 20 hands in a running round, as the scorekeeper has it while
typing hand 21; the change is rolled back afterwards.
"""

from django.db import transaction
from django.test import Client, override_settings
from django.test.utils import setup_test_environment, teardown_test_environment

from bench.figures import Figure, alternate, median_ms
from bench.tournament import ROUNDS, shared

CALLS = 300  # of each, in all
PAIRS = 6
HANDS = 20  # entered so far


def _median_ms(function, calls: int = CALLS // PAIRS):
    """A measurement: the median of ``calls`` calls of ``function`` (ms), once warmed up."""
    return median_ms(function, calls=calls, warm_up=20)


def figures() -> list[Figure]:
    large = shared()
    setup_test_environment()
    try:
        # The client's requests run in this thread, on this connection: they see the draft.
        # One client sends hundreds of checks a minute from one seat's link, past the link's
        # rate limit (SEAT_LINK_RATE, 120 a minute): lifted, or the 429s would be measured.
        with (
            override_settings(ROOT_URLCONF="bench.urls", SEAT_LINK_RATE="1000000000/s"),
            transaction.atomic(),
        ):
            measured = _measure(large.round_tables(ROUNDS)[-1])
            transaction.set_rollback(True)
        return measured
    finally:
        teardown_test_environment()


def _measure(table) -> list[Figure]:
    from django.urls import reverse

    from scoring import selectors
    from scoring.models import Scoresheet
    from tournaments.models import Round, Seat

    Round.objects.filter(pk=table.round_id).update(status=Round.Status.RUNNING)
    sheet = Scoresheet.objects.get(table=table)
    sheet.hands.filter(number__gt=HANDS).delete()
    Scoresheet.objects.filter(pk=sheet.pk).update(
        status=Scoresheet.Status.DRAFT,
        submitted_at=None,
        submitted_by_seat=None,
        confirmed_at=None,
        confirmed_by_seat=None,
    )
    sheet = Scoresheet.objects.select_related("table__round__tournament").get(pk=sheet.pk)
    state = selectors.sheet_state(sheet=sheet)
    assert len(state.lines) == HANDS
    keeper = Seat.objects.get(table=table, position=state.keeper)
    client = Client(HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en")
    check = reverse("scoring:sheet-link-check", args=[keeper.token])
    row = {
        "mode": "quick",
        "number": HANDS + 1,
        "version": sheet.version,
        "contract": "normal",
        "game_value": 3,
        "plus_seats": "13",
    }
    answer = client.post(check, row)
    assert answer.status_code == 200, answer.status_code
    assert "correct by the TSR" in answer.content.decode(), answer.content.decode()[:2000]
    calculator = {
        **row,
        "mode": "calculator",
        "re_seats": "13",
        "re_card_points": 151,
        "re_tricks": 8,
        "re_announcement": "team",
    }
    assert "Game value" in client.post(check, calculator).content.decode()

    def ok(response) -> None:
        assert response.status_code == 200, response.status_code

    sheet_page = reverse("scoring:sheet-link", args=[keeper.token])
    quick, calculated, page = alternate(
        _median_ms(lambda: ok(client.post("/bench/empty/", row))),
        [
            _median_ms(lambda: ok(client.post(check, row))),
            _median_ms(lambda: ok(client.post(check, calculator))),
            _median_ms(lambda: ok(client.get(sheet_page)), 100 // PAIRS),
        ],
        pairs=PAIRS,
    )
    empty = "empty view (median)"
    return [
        Figure.paired(
            f"live check of a row, quick, table {table.number} of round {ROUNDS} (median)",
            quick,
            empty,
            "ms",
        ),
        Figure.paired("live check of a row, calculator (median)", calculated, empty, "ms"),
        Figure.paired(f"whole sheet page, {HANDS} hands (median)", page, empty, "ms"),
    ]
