"""The sanction's card on the adjudication's dashboard: its first line one flex item, so that
on a narrow phone the colon after the player's name never starts a line of its own (issue 47:
": Verwarnung, Runde 4")."""

import re
from types import SimpleNamespace

from django.template.loader import render_to_string
from django.utils import translation


def card(**sanction) -> str:
    fields = {
        "pk": 7,
        "entry": SimpleNamespace(name="Jürgen Groß", start_number=12),
        "get_kind_display": lambda: "Verwarnung",
        "points": 0,
        "round": SimpleNamespace(number=4),
        "status": "in_force",
        "get_status_display": lambda: "in Kraft",
        "reasons": "Hat die Karten gezeigt.",
    }
    fields.update(sanction)
    with translation.override("de"):
        return render_to_string(
            "adjudication/partials/sanction_item.html",
            {"tournament": SimpleNamespace(slug="stadtmeisterschaft"), "sanction": fields},
        )


def test_the_name_and_what_follows_its_colon_are_one_flex_item():
    html = card()
    line = re.search(r'<div class="d-flex[^"]*">\s*(.*?)\s*</div>', html, re.S).group(1)
    first = re.match(r"(?:\{#.*?#\}\s*)?<span>(.*?)</span>", line, re.S)
    assert first is not None, line
    assert re.sub(r"\s+", " ", first.group(1)) == (
        "<strong>Jürgen Groß (12)</strong>: Verwarnung, Runde 4"
    )


def test_a_deduction_shows_its_points_in_the_same_item():
    html = card(get_kind_display=lambda: "Punktabzug", points=3)
    assert "<strong>Jürgen Groß (12)</strong>: Punktabzug −3, Runde 4</span>" in html
