"""The standings table's rows, put into words in Python (``standings_html.standings_rows_html``,
issue 45): byte for byte what the template's loop wrote before (kept in
``tests/tournaments/before/``), in German and in English, in each of its cases, and on the
standings of played tournaments: a player who has not played yet among them, one withdrawn."""

import datetime
from pathlib import Path

import pytest
from django.template import engines
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from doko import standings
from doko.standings import Entrant, RoundResult, Row, Status
from tournaments import selectors
from tournaments.standings_html import standings_rows_html

BEFORE = Path(__file__).parent / "before" / "standings_table.html"
PLAYER_URL = "/tournaments/pokal/players/"


def _result(round_, points, *, placing=2, confirmed=True) -> RoundResult:
    return RoundResult(
        entry_id=1, round=round_, table=3, position=1, points=points, placing=placing,
        confirmed=confirmed,
    )  # fmt: skip


def _row(number, *, rank=1, name="Zoë O'Brien & <Söhne>", status=Status.ACTIVE, **fields):
    values = {
        "points": 30,
        "provisional": None,
        "placings": 3,
        "best_round": 24,
        "rounds_played": 2,
        "solos_played": 2,
        "solos_won": 1,
        "results": (_result(1, 24, placing=1), _result(2, 6)),
        **fields,
    }
    return Row(rank=rank, entrant=Entrant(number, number, name, "TuS", status), **values)


ROWS = {
    "ranked": [_row(1), _row(2, rank=2, points=-12, best_round=-2, name="Ada")],
    "negative and provisional": [
        _row(
            1,
            points=-7,
            provisional=-15,
            results=(_result(1, -7, placing=4), _result(2, -15, confirmed=False)),
        ),
        _row(2, provisional=12, results=(_result(1, 30), _result(2, 12, confirmed=False))),
        _row(3, provisional=0, results=(_result(1, 30), _result(2, 0, confirmed=False))),
    ],
    "a round missing": [_row(1, results=(None, _result(2, 30))), _row(2, results=(None, None))],
    "withdrawn and disqualified": [
        _row(1, status=Status.WITHDRAWN),
        _row(2, rank=None, status=Status.DISQUALIFIED),
    ],
    "not played yet": [
        _row(1),
        *[
            _row(
                number,
                rank=None,
                points=0,
                placings=0,
                best_round=None,
                rounds_played=0,
                solos_played=0,
                solos_won=0,
                results=(None, None),
                status=status,
            )
            for number, status in (
                (2, Status.ACTIVE),
                (3, Status.WITHDRAWN),
                (4, Status.DISQUALIFIED),
                (5, Status.ACTIVE),
            )
        ],
    ],
    "only not played": [
        _row(1, rank=None, rounds_played=0, best_round=None, results=(None, None)),
    ],
    "none": [],
}


def _context(rows: list[Row]) -> dict:
    table = standings.Standings(
        rounds=(1, 2),
        tiebreaks=(standings.Tiebreak.PLACINGS,),
        rows=tuple(rows),
        provisional_rounds=(2,),
        built_at=datetime.datetime(2026, 11, 28, 14, 5, tzinfo=datetime.UTC),
    )
    return {
        "tournament": None,
        "table": table,
        "rows": rows,
        "page": 1,
        "pages": [(1, 1, len(rows))],
        "statistics": None,
        "club_ranking": None,
        "marks": [],
        "tiebreaks": ["the sum of the table placings"],
        "player_url": PLAYER_URL,
        "built_at": table.built_at,
    }


def _both(context: dict) -> tuple[str, str]:
    before = engines["django"].from_string(BEFORE.read_text()).render(context)
    rows_html = standings_rows_html(
        tuple(context["rows"]),
        rounds=len(context["table"].rounds),
        player_url=context["player_url"],
    )
    now = render_to_string(
        "tournaments/partials/standings_table.html", {**context, "rows_html": rows_html}
    )
    return before, now


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize("case", list(ROWS))
def test_the_rows_as_the_template_wrote_them(language, case):
    with translation.override(language):
        before, now = _both(_context(ROWS[case]))
    assert now == before


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize("fixture", ["kreuzpokal", "substitute"])
def test_the_rows_of_played_tournaments_as_the_template_wrote_them(language, fixture, request):
    """Real standings: provisional results (``kreuzpokal``), a substitute who has not played
    yet and players below 0 (``substitute``)."""
    found = request.getfixturevalue(fixture)
    tournament = found[0] if isinstance(found, tuple) else found
    table = selectors.standings_read(tournament=tournament)
    assert table is not None
    assert table.rows
    context = {
        **_context(list(table.rows)),
        "table": table,
        "player_url": reverse("tournaments:player", args=[tournament.slug, 0])[:-2],
    }
    with translation.override(language):
        before, now = _both(context)
    assert now == before
    assert before.count("<tr") > len(table.rows)  # the rows are there to compare
