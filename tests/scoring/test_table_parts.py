"""A table page's sheet, players and state, put into words in Python
(``scoring.views.table_parts``, issue 45): byte for byte what their templates wrote before
(kept in ``tests/scoring/before/``), in German and in English, in each of their cases, and on
the pages of real tables: played, adjudicated, read by a phone and by the organiser."""

from pathlib import Path
from types import SimpleNamespace

import pytest
from django.contrib.auth.models import AnonymousUser
from django.template import engines
from django.test import RequestFactory
from django.utils import translation
from django.utils.safestring import mark_safe

from scoring.models import Scoresheet
from scoring.views.table_parts import table_live, table_seats, table_sheet, table_status
from scoring.views.tables import _table_context
from tests import factories
from tests.printing.test_scoresheets import adjudicated_sheet
from tournaments.models import Round

BEFORE = Path(__file__).parent / "before"


def _before(name: str, context: dict, request=None) -> str:
    template = engines["django"].from_string((BEFORE / f"{name}.html").read_text())
    return template.render(context, request)


def _seat(position, *, name=("Zoë", "O'Brien & Söhne"), club="", points=None, number=7):
    first, last = name
    entry = SimpleNamespace(
        name=f"{first} {last}", last_name=last, club=club, start_number=number + position
    )
    return SimpleNamespace(position=position, entry=entry, points=points)


def _row(size=4, **seat):
    seats = [_seat(position, **seat) for position in range(1, size + 1)]
    return SimpleNamespace(seats=seats, table=SimpleNamespace(number=3))


def _check(*, complete=False, remaining=9, forced=None, played=None, totals=None):
    upcoming = SimpleNamespace(
        dealer=2,
        hands_remaining=remaining,
        must_be_forced_solo=forced is not None,
        forced_soloist=forced,
    )
    return SimpleNamespace(
        complete=complete,
        next=upcoming,
        compulsory_played=played if played is not None else {1: True, 2: False, 3: True, 4: False},
        totals=totals or {1: 30, 2: -30, 3: 0, 4: 0},
    )


def _context(**changes) -> dict:
    rows = [
        SimpleNamespace(totals=[3, -3, 0, 0]),
        SimpleNamespace(totals=[6, -2, -4, 0]),
    ]
    context = {
        "tournament": SimpleNamespace(slug="pokal"),
        "round": SimpleNamespace(number=2),
        "row": _row(),
        "sheet": Scoresheet(status="draft", time_over_after_hand=None),
        "sheet_link": False,
        "show_points": True,
        "poll_seconds": 20,
        "keeper": 4,
        "hand_rows": rows,
        "table_rows": [mark_safe("\n    <tr><td>1</td></tr>\n  "), mark_safe("<tr>2</tr>")],
        "adjudication": SimpleNamespace(deductions={}),
        "decisions": [],
        "may_complain": False,
        "is_staff": False,
        "check": _check(),
        "problems": [],
        "warnings": [],
        "hands_per_match": 24,
    }
    context.update(changes)
    return context


CASES = {
    "running": {},
    "confirmed, no refresh, link": {
        "poll_seconds": None,
        "sheet_link": True,
        "sheet": Scoresheet(status="confirmed"),
        "check": _check(complete=True, played={1: True, 2: True, 3: True, 4: True}),
    },
    "problems and warnings": {
        "problems": ["Checksum <b>not</b> zero", "Dealer & order"],
        "warnings": ["Out of turn"],
    },
    "deductions": {"adjudication": SimpleNamespace(deductions={3: -6, 1: 0})},
    "no check": {"check": None},
    "time over": {
        "sheet": Scoresheet(status="draft", time_over_after_hand=18),
        "check": _check(remaining=1, forced=3, played={1: False, 2: False, 3: False, 4: False}),
    },
    "forced solo, one left": {"check": _check(remaining=1, forced=4)},
    "no hands": {"hand_rows": [], "table_rows": [], "check": None},
    "withheld": {
        "withheld": "Blind <entry>",
        "hand_rows": [],
        "table_rows": [],
        "check": None,
    },
    "points hidden": {"show_points": False, "hand_rows": [], "check": None},
    "five seats": {"row": _row(5, club="DK Köln <e.V.>", points=-3), "keeper": 2},
    "no sheet": {"sheet": None, "keeper": None, "hand_rows": [], "check": None},
}


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize("case", CASES)
def test_the_sheet_as_its_template_wrote_it(language, case):
    context = _context(**CASES[case])
    request = RequestFactory().get("/")
    with translation.override(language):
        assert table_sheet(request, context) == _before("table_sheet", context, request)


def _decision(pk, *, staff_sees=True, penalty=None):
    return SimpleNamespace(
        pk=pk,
        hand_number=5,
        offender=2,
        offence=SimpleNamespace(label=""),
        description="Revoke <late> " * 10,
        get_status_display=lambda: "initialled",
        severity="minor",
        get_severity_display=lambda: "minor breach",
        penalty=penalty or {1: 1, 2: -3, 3: 1, 4: 1},
        deviates=False,
        rule="TSR 9.3",
    )


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize(
    "changes",
    [
        {"decisions": [_decision(8)], "is_staff": True},
        {"decisions": [_decision(8), _decision(9)], "may_complain": True},
        {"decisions": [], "may_complain": True},
    ],
)
def test_the_decisions_as_the_template_wrote_them(language, changes):
    context = _context(**changes)
    request = RequestFactory().get("/")
    with translation.override(language):
        assert table_sheet(request, context) == _before("table_sheet", context, request)


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize("oob", [False, True])
@pytest.mark.parametrize("show_points", [False, True])
@pytest.mark.parametrize("keeper", [None, 1, 4])
@pytest.mark.parametrize("seat", [{}, {"points": -12, "club": "TuS"}, {"points": 0}])
def test_the_players_as_their_template_wrote_them(language, oob, show_points, keeper, seat):
    context = _context(row=_row(**seat), show_points=show_points, keeper=keeper)
    if keeper is None:
        del context["keeper"]
    with translation.override(language):
        assert table_seats(context, oob=oob) == _before("table_seats", {**context, "oob": oob})


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize("oob", [False, True])
@pytest.mark.parametrize("status", [None, "draft", "submitted", "confirmed"])
def test_the_state_as_its_template_wrote_it(language, oob, status):
    sheet = Scoresheet(status=status) if status else None
    with translation.override(language):
        assert table_status(sheet, oob=oob) == _before("table_status", {"sheet": sheet, "oob": oob})


def _live_before(context: dict, request) -> str:
    parts = {
        "before_sheet": mark_safe(_before("table_sheet", context, request)),
        "before_seats": mark_safe(_before("table_seats", {**context, "oob": True})),
        "before_status": mark_safe(_before("table_status", {**context, "oob": True})),
    }
    return _before("table_live", parts)


def _pages(tournament, round_: Round, table: int, readers) -> list[tuple[str, str]]:
    """The refresh of table ``table`` for each reader, as made now and as the templates made
    it."""
    made = []
    for user in readers:
        request = RequestFactory().get("/")
        request.user = user
        request.COOKIES = {}
        context = _table_context(request, round_, table)
        made.append((table_live(request, context), _live_before(context, request)))
    return made


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["de", "en"])
def test_an_adjudicated_tables_page_as_its_templates_wrote_it(language):
    organiser = factories.user(username="orga")
    sheet, _minor, _stopped = adjudicated_sheet(organiser)
    round_ = Round.objects.select_related("tournament").get(pk=sheet.table.round_id)
    with translation.override(language):
        pages = _pages(round_.tournament, round_, 1, [AnonymousUser(), organiser])
    for made, before in pages:
        assert made == before
    assert "9.6.2 b" in pages[1][0]  # the deduction's row
    assert 'class="list-group-item small"' in pages[1][0]  # a decision listed


@pytest.mark.django_db
def test_a_played_tables_page_as_its_templates_wrote_it(played):
    tournament, round_, organiser = played
    round_ = Round.objects.select_related("tournament").get(pk=round_.pk)
    with translation.override("de"):
        pages = _pages(tournament, round_, 2, [AnonymousUser(), organiser])
    for made, before in pages:
        assert made == before
    assert "Die Spielrunde ist vollständig." in pages[0][0]


def test_the_next_hand_says_the_template_s_words():
    # The msgids are the template's (German first): a changed word would fall back to English.
    context = _context(check=_check(remaining=3))
    with translation.override("de"):
        html = table_sheet(RequestFactory().get("/"), context)
    assert "Nächstes Spiel: Position 2 gibt; noch 3 von 24 Spielen" in html
