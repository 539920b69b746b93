"""The entry page's state line, next hand, totals row and entry row, and the status badge, put
into words in Python (``scoring.views.sheet_parts``, issue 45): byte for byte what their
templates wrote before, in German and in English, in each of their cases."""

import re
from types import SimpleNamespace

import pytest
from django.contrib.auth.models import User
from django.template import engines
from django.test import RequestFactory
from django.utils import translation
from django.utils.safestring import mark_safe

from scoring.models import Scoresheet
from scoring.views.sheet_parts import entry_row, next_hand, state_line, totals_row
from scoring.views.sheet_rows import compulsory_badges, total_cells
from tournaments.templatetags.tournament_tags import status_badge

# The templates as they were until the parts moved to Python.
BADGE = (
    "{% load i18n %}<span class=\"badge {% if status == 'running' %}text-bg-success"
    "{% elif status == 'finished' or status == 'closed' %}text-bg-secondary"
    "{% elif status == 'seated' %}text-bg-info{% else %}text-bg-light border{% endif %}\">"
    "{{ label }}</span>"
)
STATE = (
    "{% load i18n tournament_tags %}\n"
    '<div class="d-flex flex-wrap align-items-center gap-2 mb-2 small" id="sheet-state"{% if oob %} hx-swap-oob="true"{% endif %}>\n'
    "  {% if access.blind %}\n"
    '  <span class="badge text-bg-info">{% translate "second entry" %}</span>\n'
    '  {% if access.entry %}<span class="text-body-secondary">{% blocktranslate with name=access.entry.by.get_full_name|default:access.entry.by.get_username %}typed by {{ name }}{% endblocktranslate %}</span>{% endif %}\n'
    "  {% else %}\n"
    "  {% status_badge sheet.status sheet.get_status_display %}\n"
    '  {% if sheet.confirmation %}<span class="badge text-bg-light border">{{ sheet.get_confirmation_display }}</span>{% endif %}\n'
    "  {% endif %}\n"
    '  <span class="text-body-secondary">{% blocktranslate %}version {{ version }}{% endblocktranslate %}</span>\n'
    '  {% if not state.withheld %}<span id="compulsory-played">{% translate "Compulsory solo played:" %}\n'
    "  {{ compulsory_badges }}</span>{% endif %}\n"
    "</div>\n"
)
NEXT = (
    "{% load i18n scoring_tags %}\n"
    '<p class="small mb-2" id="next-hand"{% if oob %} hx-swap-oob="true"{% endif %}{% if not time_over_noted %} data-offline-total="{{ state.hands_per_match }}" {% next_hand_texts %}{% endif %}>'
    "{% if time_over_noted %}{% blocktranslate with dealer=state.check.next.dealer count count=state.check.next.hands_remaining %}Next hand: seat {{ dealer }} deals; the playing time is over, {{ count }} forced solo is still owed.{% plural %}Next hand: seat {{ dealer }} deals; the playing time is over, {{ count }} forced solos are still owed.{% endblocktranslate %}"
    "{% else %}{% blocktranslate with dealer=state.check.next.dealer total=state.hands_per_match count count=state.check.next.hands_remaining %}Next hand: seat {{ dealer }} deals; {{ count }} of {{ total }} hands remains, compulsory solos included.{% plural %}Next hand: seat {{ dealer }} deals; {{ count }} of {{ total }} hands remain, compulsory solos included.{% endblocktranslate %}{% endif %}\n"
    '{% if state.check.next.must_be_forced_solo %}<strong class="text-danger">{% blocktranslate with seat=state.check.next.forced_soloist %}Seat {{ seat }} must play a forced solo (TSR 4.2.3, 8.6.1).{% endblocktranslate %}</strong>{% endif %}</p>\n'
)
TOTALS = (
    "{% load i18n %}\n"
    '<tr class="fw-semibold" id="sheet-totals"{% if oob %} hx-swap-oob="true"{% endif %}>\n'
    '      <th scope="row" colspan="4">{% translate "Total" %}</th><td class="d-none d-sm-table-cell"></td>\n'
    "      {{ total_cells }}\n"
    '      {% if may_edit %}<td class="d-none d-sm-table-cell"></td>{% endif %}\n'
    "    </tr>\n"
)
ENTRY = (
    "\n"
    '<tr class="entry-row table-warning" id="entry-row">\n'
    '  <td colspan="{{ state.table_size|add:6 }}">\n'
    '  <form id="hand-form" class="entry" data-mode="{{ mode }}" data-contract="{{ row_contract }}" data-offline-queue="{{ access.base }}" data-offline-next="{{ state.lines|length|add:1 }}" data-offline-last="{{ state.lines|length|add:state.check.next.hands_remaining }}" data-offline-dealer="{{ state.check.next.dealer }}" method="post" action="{{ access.base }}save/" hx-post="{{ access.base }}save/" autocomplete="off" novalidate>\n'
    "    {% csrf_token %}\n"
    '    <input type="hidden" name="version" value="{{ version }}">\n'
    '    <input type="hidden" name="number" value="{{ number }}">\n'
    "    \n"
    '    <input type="hidden" name="typist" value="{{ typist }}">\n'
    "    \n"
    '    <input type="hidden" name="plain" value="{% if plain %}1{% else %}0{% endif %}">\n'
    "    {{ fields }}\n"
    '    <div id="preview" class="mt-2 small" aria-live="polite" data-offline-clear\n'
    '         hx-post="{{ access.base }}check/" hx-trigger="input delay:150ms from:#hand-form, change from:#hand-form"\n'
    '         hx-target="this" hx-swap="innerHTML" hx-sync="this:queue last"></div>\n'
    "  </form>\n"
    "  </td>\n"
    "</tr>\n"
)
# The template's comments, gone from the entry row, left blank lines behind them.
BLANK_COMMENT_LINES = re.compile(r"\n    \n")


def _render(template: str, context: dict) -> str:
    return engines["django"].from_string(template).render(context)


def _state(*, withheld=None, remaining=19, forced_soloist=None, played=None, totals=None):
    upcoming = SimpleNamespace(
        dealer=2,
        hands_remaining=remaining,
        must_be_forced_solo=forced_soloist is not None,
        forced_soloist=forced_soloist,
    )
    check = SimpleNamespace(
        next=upcoming,
        compulsory_played=played or {1: True, 2: False, 3: False, 4: True},
        totals=totals or {1: 12, 2: -3, 3: 0, 4: -9},
    )
    return SimpleNamespace(
        withheld=withheld, check=check, hands_per_match=24, table_size=4, lines=[None] * 5
    )


def _access(*, blind=False, typed_by=None, status="draft", confirmation="", version=7):
    sheet = Scoresheet(status=status, confirmation=confirmation, version=version)
    entry = SimpleNamespace(by=typed_by) if typed_by is not None else None
    return SimpleNamespace(blind=blind, entry=entry, sheet=sheet, base="/s/a&b/", version=version)


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize("status", ["draft", "running", "finished", "closed", "seated", "x"])
def test_the_status_badge_as_the_template_wrote_it(language, status):
    with translation.override(language):
        for label in ("Entwurf", "<b>&</b>", mark_safe("<i>ok</i>")):
            wanted = _render(BADGE, {"status": status, "label": label})
            assert status_badge(status, label) == wanted


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize("oob", [False, True])
@pytest.mark.parametrize(
    "access",
    [
        _access(),
        _access(status="confirmed", confirmation="signed_sheet"),
        _access(status="submitted"),
        _access(blind=True, version=0),
        _access(blind=True, typed_by=User(username="desk<2>", first_name="", last_name="")),
        _access(blind=True, typed_by=User(username="x", first_name="Zoë", last_name="O'Brien")),
    ],
)
@pytest.mark.parametrize("withheld", [None, object()])
def test_the_state_line_as_the_template_wrote_it(language, oob, access, withheld):
    state = _state(withheld=withheld)
    with translation.override(language):
        context = {
            "access": access,
            "sheet": access.sheet,
            "state": state,
            "version": access.version,
            "oob": oob,
            "compulsory_badges": compulsory_badges(state.check.compulsory_played),
        }
        wanted = _render(STATE, context)
        # The template's blank lines around the tags that wrote nothing, gone in Python.
        assert _squeezed(state_line(access, state, oob=oob)) == _squeezed(wanted)


def _squeezed(html: str) -> str:
    return re.sub(r"\n\s*\n", "\n", re.sub(r"[ \t]+\n", "\n", html))


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize("oob", [False, True])
@pytest.mark.parametrize("time_over_noted", [False, True])
@pytest.mark.parametrize(
    ("remaining", "forced_soloist"), [(19, None), (1, None), (2, 3), (1, 4), (0, None)]
)
def test_what_comes_next_as_the_template_wrote_it(
    language, oob, time_over_noted, remaining, forced_soloist
):
    state = _state(remaining=remaining, forced_soloist=forced_soloist)
    with translation.override(language):
        context = {"state": state, "oob": oob, "time_over_noted": time_over_noted}
        wanted = _render(NEXT, context)
        assert next_hand(state, time_over_noted=time_over_noted, oob=oob) == wanted


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize("oob", [False, True])
@pytest.mark.parametrize("may_edit", [False, True])
def test_the_totals_row_as_the_template_wrote_it(language, oob, may_edit):
    state = _state(totals={1: 0, 2: -60, 3: 30, 4: 30, 5: 0})
    with translation.override(language):
        context = {"oob": oob, "may_edit": may_edit}
        context["total_cells"] = total_cells(state.check.totals)
        wanted = _render(TOTALS, context)
        assert totals_row(state, may_edit=may_edit, oob=oob) == wanted


CSRF = re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"')


@pytest.mark.parametrize("plain", [False, True])
@pytest.mark.parametrize("contract", ["normal", "forced_solo"])
def test_the_entry_row_as_the_template_wrote_it(plain, contract):
    request = RequestFactory().get("/")
    access, state = _access(), _state(remaining=3)
    fields = mark_safe('<div class="row">fields & <b>more</b></div>')
    made = entry_row(
        request,
        access,
        state,
        fields=fields,
        number=6,
        mode="quick",
        contract=contract,
        typist="seat:12",
        plain=plain,
    )
    context = {
        "access": access,
        "state": state,
        "version": access.version,
        "number": 6,
        "mode": "quick",
        "row_contract": contract,
        "typist": "seat:12",
        "plain": plain,
        "fields": fields,
        "csrf_token": "token",
    }
    wanted = BLANK_COMMENT_LINES.sub("\n", _render(ENTRY, context))
    assert CSRF.sub("CSRF", made) == CSRF.sub("CSRF", wanted)
    assert len(CSRF.findall(made)) == 1
