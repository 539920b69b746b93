"""The hands' rows of the entry page and the grid's heading, lines to come, totals and badges,
put into words in Python (``scoring.views.sheet_rows``, issue 45): byte for byte what the page's
template wrote before, in German and in English, for every kind of line."""

import pytest
from django.template import engines
from django.utils import translation

from scoring.models import Hand
from scoring.rulings import NONE
from scoring.selectors.sheets import HandRow
from scoring.views.sheet_rows import (
    compulsory_badges,
    placeholder_rows,
    sheet_head,
    sheet_rows,
    table_rows,
    total_cells,
)
from tournaments.models import Entry, Seat

# The row as ``scoring/partials/sheet_body.html`` wrote it until the rows moved to Python.
TEMPLATE = (
    "{% load i18n tournament_tags scoring_tags %}{% for row in rows %}"
    + '\n    <tr id="hand-{{ row.hand.number }}" class="{% if row.hand.section == \'compulsory_solo\' %}table-info{% endif %}{% if row.hand.number in problem_hands %} table-danger{% elif row.hand.number in warning_hands %} table-warning{% endif %}">\n      {# On a phone the number is the only way to correct a hand (the buttons are hidden): the whole cell is its target. #}\n      <td class="num{% if may_edit %} position-relative{% endif %}">{% if may_edit %}<a class="stretched-link" href="{{ access.base }}?edit={{ row.hand.number }}" hx-get="{{ access.base }}?edit={{ row.hand.number }}" title="{% blocktranslate with number=row.hand.number %}Correct hand {{ number }}{% endblocktranslate %}">{{ row.hand.number }}</a>{% else %}{{ row.hand.number }}{% endif %}</td>\n      <td class="num">{{ row.hand.dealer }}{% if row.hand.dealt_by_neighbour %}<span class="text-body-secondary" title="{% translate \'his left neighbour dealt for him (TSR 3.3.2)\' %}">°</span>{% endif %}{% if row.hand.number in warning_hands %}<span class="text-warning-emphasis" title="{% translate \'dealt out of turn; it stands (TSR 9.7.3)\' %}">*</span>{% endif %}</td>\n      <td class="small text-nowrap">{% if row.hand.replay %}<span class="badge text-bg-warning" title="{{ row.hand.get_replay_display }}">{% translate "dealt again" %}</span> {% elif row.hand.not_played %}<span class="badge text-bg-warning" title="{% translate \'stopped by a major breach, dealt again (TSR 9.4.3)\' %}">{% translate "not played" %}</span> {% endif %}{% if row.hand.contract == "normal" %}<span class="text-body-secondary">–</span>{% else %}<abbr class="d-md-none" title="{{ row.hand.get_contract_display }}">{{ row.hand.contract|contract_short }}</abbr><span class="d-none d-md-inline">{{ row.hand.get_contract_display }}</span>{% if row.hand.soloist %} <span class="badge text-bg-secondary seat-badge" title="{% translate \'Soloist (seat)\' %}">{{ row.hand.soloist }}</span>{% endif %}{% if row.hand.solo_type %}<span class="d-none d-lg-inline text-body-secondary"> ({{ row.hand.get_solo_type_display }})</span>{% endif %}{% endif %}</td>\n      <td class="num">{{ row.hand.game_value }}</td>\n      <td class="small d-none d-sm-table-cell">{% for points in row.points %}{% if points > 0 %}{{ forloop.counter }}{% endif %}{% endfor %}</td>\n      {% for points, total in row.cells %}<td class="num"><span class="{% if points < 0 %}neg{% endif %}">{% if points is None %}–{% else %}{{ points }}{% endif %}</span><br><small class="text-body-secondary {% if total < 0 %}neg{% endif %}">{{ total }}</small></td>{% endfor %}\n      {% if may_edit %}<td class="text-nowrap d-none d-sm-table-cell">\n        <a class="btn btn-sm btn-outline-secondary py-0" href="{{ access.base }}?edit={{ row.hand.number }}" hx-get="{{ access.base }}?edit={{ row.hand.number }}" aria-label="{% blocktranslate with number=row.hand.number %}Correct hand {{ number }}{% endblocktranslate %}">✎</a>\n        <a class="btn btn-sm btn-outline-danger py-0" href="{{ access.base }}?strike={{ row.hand.number }}#hand-{{ row.hand.number }}" hx-get="{{ access.base }}?strike={{ row.hand.number }}" aria-label="{% blocktranslate with number=row.hand.number %}Strike out hand {{ number }}{% endblocktranslate %}" title="{% translate \'Strike out\' %}">✕</a>\n      </td>{% endif %}\n    </tr>\n    {% if row.penalty %}\n    <tr id="penalty-{{ row.hand.number }}" class="table-warning small">\n      <td></td><td colspan="3">{% translate "Penalty points" %} <span class="text-body-secondary">({{ state.adjudication|hand_initials:row.hand.number }})</span></td><td class="d-none d-sm-table-cell"></td>\n      {% for points in row.penalty %}<td class="num {% if points < 0 %}neg{% endif %}">{{ points|signed }}</td>{% endfor %}\n      {% if may_edit %}<td class="d-none d-sm-table-cell"></td>{% endif %}\n    </tr>\n    {% endif %}\n'
    + "    {% endfor %}"
)


def _rows() -> list[HandRow]:
    def hand(number, **fields) -> Hand:
        return Hand(
            number=number, dealer=number % 4 + 1, game_value=fields.pop("value", 2), **fields
        )

    return [
        HandRow(hand(1), points=[2, -2, 2, -2], totals=[2, -2, 2, -2]),
        HandRow(
            hand(2, contract="voluntary_solo", soloist=3, solo_type="queens", value=3),
            points=[-3, -3, 9, -3],
            totals=[-1, -5, 11, -5],
        ),
        HandRow(
            hand(3, contract="forced_solo", soloist=1, section="compulsory_solo"),
            points=[6, -2, -2, -2],
            totals=[5, -7, 9, -7],
            penalty=[0, -2, 0, 2],
        ),
        HandRow(hand(4, replay="consent", value=0), points=[0, 0, 0, 0], totals=[5, -7, 9, -7]),
        HandRow(
            hand(5, not_played=True, dealt_by_neighbour=True, value=0),
            points=[None, 0, 0, 0],
            totals=[5, -7, 9, -7],
        ),
        HandRow(hand(6, contract="wedding"), points=[None, 4, -4, 0], totals=[5, -3, 5, -7]),
    ]


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize("may_edit", [True, False])
def test_rows_as_the_template_wrote_them(language, may_edit):
    rows = _rows()
    context = {
        "may_edit": may_edit,
        "access": {"base": "/s/a&b/"},
        "problem_hands": {2},
        "warning_hands": {2, 5, None},
        "state": {"adjudication": NONE},
    }
    with translation.override(language):
        wanted = engines["django"].from_string(TEMPLATE).render({**context, "rows": rows})
        made = sheet_rows(
            rows,
            base="/s/a&b/",
            may_edit=may_edit,
            problem_hands={2},
            warning_hands={2, 5, None},
            adjudication=NONE,
            editing=None,
        )
    assert [row for row, _html in made] == rows
    assert "".join(html for _row, html in made) == wanted


def _made(rows, *, language="de", may_edit=True, problem_hands=frozenset(), base="/s/x/"):
    with translation.override(language):
        made = sheet_rows(
            rows,
            base=base,
            may_edit=may_edit,
            problem_hands=problem_hands,
            warning_hands=set(),
            adjudication=NONE,
            editing=None,
        )
    return [str(html) for _row, html in made]


def test_rows_kept_are_the_rows_made_afresh_and_what_changes_a_row_makes_it_again():
    """A row's HTML is kept by all it is made from: the same rows again come out as made
    afresh, and a row whose language, links, marks, totals or hand differ is made again."""
    from dataclasses import replace

    from scoring.views import sheet_rows as module

    first = _rows()[0]
    variants = {
        "as it is": lambda: _made(_rows()),
        "language": lambda: _made([first], language="en"),
        "links": lambda: _made([first], may_edit=False),
        "base": lambda: _made([first], base="/s/y/"),
        "mark": lambda: _made([first], problem_hands={1}),
        "totals": lambda: _made([replace(first, totals=[4, -4, 4, -4])]),
        "dealer": lambda: _made([replace(first, hand=Hand(number=1, dealer=3, game_value=2))]),
    }
    module._ROWS_MADE.clear()
    kept = {name: made() for name, made in variants.items()}
    assert {name: made() for name, made in variants.items()} == kept  # taken as kept
    mine = kept.pop("as it is")
    assert all(made != mine[:1] for made in kept.values())
    for name, made in variants.items():  # each as made afresh
        module._ROWS_MADE.clear()
        assert made() == (mine if name == "as it is" else kept[name]), name


def test_the_row_being_corrected_is_left_to_the_entry_row():
    made = sheet_rows(
        _rows(),
        base="/s/x/",
        may_edit=True,
        problem_hands=set(),
        warning_hands=set(),
        adjudication=NONE,
        editing=2,
    )
    assert [bool(html) for _row, html in made] == [True, False, True, True, True, True]


# The grid's parts as ``scoring/partials/sheet_body.html`` wrote them until they moved to Python.
HEAD = (
    "{% load i18n tournament_tags scoring_tags %}<tr>\n"
    '      <th scope="col" class="num">#</th>\n'
    '      <th scope="col" class="num" title="{% translate \'Dealer (seat)\' %}">{% translate "D" context "dealer, abbreviated" %}</th>\n'
    '      <th scope="col">{% translate "Game" %}</th>\n'
    '      <th scope="col" class="num"><span class="d-none d-sm-inline">{% translate "Value" %}</span><abbr class="d-sm-none" title="{% translate \'Value\' %}">{% translate "V" context "game value, abbreviated" %}</abbr></th>\n'
    '      <th scope="col" class="d-none d-sm-table-cell" title="{% translate \'Seats that scored plus (TSR 7.3.3.3)\' %}">+</th>\n'
    '      {% for seat in state.seats %}<th scope="col" class="num" title="{{ seat.entry.name }}">{{ seat.position }}<span class="d-none d-md-inline">&nbsp;{{ seat.entry.last_name|short_name }}</span></th>{% endfor %}\n'
    '      {% if may_edit %}<th scope="col" class="d-none d-sm-table-cell"><span class="visually-hidden">{% translate "Actions" %}</span></th>{% endif %}\n'
    "    </tr>"
)
PLACEHOLDERS = (
    "{% for number in remaining %}\n"
    '    <tr class="text-body-tertiary" data-offline-placeholder="{{ number }}"><td class="num">{{ number }}</td><td colspan="{{ state.table_size|add:5 }}"></td></tr>\n'
    "  {% endfor %}"
)
TOTALS = (
    "{% for seat, total in state.check.totals.items %}"
    '<td class="num {% if total < 0 %}neg{% endif %}">{{ total }}</td>{% endfor %}'
)
BADGES = (
    "{% load i18n scoring_tags %}"
    "{% for seat in state.check.compulsory_played|seats_where:True %}"
    '<span class="badge text-bg-success seat-badge" title="{% translate \'played\' %}">{{ seat }}</span> '
    '{% empty %}{% translate "none yet" %}{% endfor %}'
    "{% with owed=state.check.compulsory_played|seats_where:False %}{% if owed %}"
    ' &middot; {% translate "not yet played:" %}\n'
    '  {% for seat in owed %}<span class="badge text-bg-light border seat-badge" title="{% translate \'not yet played\' %}">{{ seat }}</span> {% endfor %}'
    "{% endif %}{% endwith %}"
)


def _render(template: str, context: dict) -> str:
    return engines["django"].from_string(template).render(context)


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize("may_edit", [True, False])
def test_the_heading_as_the_template_wrote_it(language, may_edit):
    entries = [
        Entry(first_name="Ä", last_name="O'Brien & Söhne-Müllerhausen"),
        Entry(first_name="Zoë", last_name="<b>Ng</b>"),
        Entry(first_name="", last_name="Łukasz"),
        Entry(first_name="Jo", last_name="Vogel"),
        Entry(first_name="Li", last_name="Tran"),
    ]
    seats = [Seat(position=number, entry=entry) for number, entry in enumerate(entries, start=1)]
    with translation.override(language):
        wanted = _render(HEAD, {"state": {"seats": seats}, "may_edit": may_edit})
        assert sheet_head(seats, may_edit=may_edit) == wanted


@pytest.mark.parametrize("size", [4, 5])
def test_the_lines_still_to_come_and_the_totals_as_the_template_wrote_them(size):
    state = {"table_size": size, "check": {"totals": {1: 12, 2: -3, 3: 0, 4: -9}}}
    for remaining in (range(13, 25), range(30, 31), ()):
        wanted = _render(PLACEHOLDERS, {"state": state, "remaining": remaining})
        assert placeholder_rows(remaining, table_size=size) == wanted
    assert total_cells(state["check"]["totals"]) == _render(TOTALS, {"state": state})


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize(
    "played",
    [
        {1: False, 2: False, 3: False, 4: False},
        {1: True, 2: False, 3: True, 4: False},
        {1: True, 2: True, 3: True, 4: True, 5: True},
    ],
)
def test_the_compulsory_solos_as_the_template_wrote_them(language, played):
    with translation.override(language):
        wanted = _render(BADGES, {"state": {"check": {"compulsory_played": played}}})
        assert compulsory_badges(played) == wanted


# A table's public page's rows as ``scoring/partials/table_sheet.html`` wrote them until they
# moved to Python (``table_rows``).
TABLE_TEMPLATE = (
    "{% load i18n tournament_tags scoring_tags %}"
    + '{% for hand_row in hand_rows %}\n    <tr>\n      <td class="num">{{ hand_row.hand.number }}</td>\n      <td class="num">{{ hand_row.hand.dealer }}</td>\n      <td class="small text-nowrap">\n        {% if hand_row.hand.not_played %}<span class="badge text-bg-warning" title="{% translate \'stopped by a major breach, dealt again (TSR 9.4.3)\' %}">{% translate "not played" %}</span>{% endif %}\n        {% if hand_row.hand.contract != "normal" %}{{ hand_row.hand.get_contract_display }}{% if hand_row.hand.soloist %} <span class="badge text-bg-secondary seat-badge" title="{% translate \'Soloist (seat)\' %}">{{ hand_row.hand.soloist }}</span>{% endif %}{% if hand_row.hand.solo_type %}<span class="d-none d-md-inline text-body-secondary"> ({{ hand_row.hand.get_solo_type_display }})</span>{% endif %}{% endif %}\n      </td>\n      <td class="num">{{ hand_row.hand.game_value }}</td>\n      {% for points in hand_row.points %}<td class="num {% if points < 0 %}neg{% endif %}">{% if points is None %}–{% else %}{{ points }}{% endif %}</td>{% endfor %}\n    </tr>\n    {% if hand_row.penalty %}\n    <tr class="table-warning small">\n      <td></td><td colspan="3">{% translate "Penalty points" %} <span class="text-body-secondary">({{ adjudication|hand_initials:hand_row.hand.number }})</span></td>\n      {% for points in hand_row.penalty %}<td class="num {% if points < 0 %}neg{% endif %}">{{ points|signed }}</td>{% endfor %}\n    </tr>\n    {% endif %}\n  {% endfor %}'
)


@pytest.mark.parametrize("language", ["de", "en"])
def test_a_tables_rows_as_the_template_wrote_them(language):
    from types import SimpleNamespace

    from django.contrib.auth.models import User

    from scoring.rulings import SheetAdjudication

    rows = _rows()
    # Hand 3's penalty points, initialled by someone whose name must be escaped.
    adjudicator = User(first_name="Özlem", last_name="<Kaya>")
    decision = SimpleNamespace(counts=True, hand_number=3, initialled_by=adjudicator)
    adjudication = SheetAdjudication(decisions=[decision])
    with translation.override(language):
        wanted = (
            engines["django"]
            .from_string(TABLE_TEMPLATE)
            .render({"hand_rows": rows, "adjudication": adjudication})
        )
        made = table_rows(rows, adjudication=adjudication)
    assert "".join(made) == wanted
    assert '<tr class="table-warning small">' in wanted  # hand 3's penalty points
    assert "&lt;" in wanted  # the initials escaped


def test_a_tables_rows_kept_are_made_again_when_what_they_show_changes():
    """Kept as the entry page's rows are: the same rows come out as made afresh, and a row
    whose language, points or penalty points differ is made again."""
    from dataclasses import replace

    from scoring.views import sheet_rows as module

    first, solo = _rows()[:2]

    def made(rows, language="de"):
        with translation.override(language):
            return [str(html) for html in table_rows(rows, adjudication=NONE)]

    module._ROWS_MADE.clear()
    mine = made(_rows())
    assert made(_rows()) == mine  # taken as kept
    assert made([solo], language="en")[0] != mine[1]
    assert made([replace(first, points=[4, -4, 4, -4])])[0] != mine[0]
    assert made([replace(first, penalty=[0, 2, 0, -2])])[0] != mine[0]
    module._ROWS_MADE.clear()
    assert made(_rows()) == mine  # as made afresh
