"""The blank entry row's fields, made once per process for a hand, table size, dealer, mode and
language (``scoring.views.page.blank_fields``), are what the page renders for them in its own
context; a row typed (bound, with its errors) is never taken from there."""

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from scoring.forms import MODES, HandForm
from scoring.views.page import blank_fields


def rendered(*, number, table_size, dealer, mode, focus_action, forced_soloist) -> str:
    """The fields as the entry row's include renders them, in a page's fuller context."""
    initial: dict[str, object] = {"mode": mode}
    if forced_soloist is not None:
        initial |= {"contract": "forced_solo", "soloist": forced_soloist}
    context = {
        "form": HandForm(initial=initial, table_size=table_size, dealer=dealer),
        "mode": mode,
        "modes": MODES,
        "focus_action": focus_action,
        "number": number,
        "editing": None,
        "access": {"base": "/s/key/"},
        "version": 7,
        "typist": "seat:1",
    }
    return render_to_string("scoring/partials/entry_fields.html", context)


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize(
    ("table_size", "dealer", "forced_soloist"), [(4, 1, None), (4, 3, 2), (5, 5, None), (5, 2, 4)]
)
@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("focus_action", [False, True])
def test_a_blank_rows_fields_are_the_pages(
    language, table_size, dealer, forced_soloist, mode, focus_action
):
    params = {
        "number": 21,
        "table_size": table_size,
        "dealer": dealer,
        "mode": mode,
        "focus_action": focus_action,
        "forced_soloist": forced_soloist,
    }
    with translation.override(language):
        made = blank_fields(**params)
        assert made == rendered(**params)
        assert blank_fields(**params) is made  # made once


def test_each_language_has_its_own():
    params = {
        "number": 3,
        "table_size": 4,
        "dealer": 3,
        "mode": "quick",
        "focus_action": False,
        "forced_soloist": None,
    }
    with translation.override("de"):
        german = blank_fields(**params)
    with translation.override("en"):
        english = blank_fields(**params)
    assert "Hand 3" in english
    assert german != english


def test_forms_share_their_fields_but_not_what_one_form_was_sent():
    """``HandForm``'s fields are made once per table size, dealer and language and shared: a
    row typed wrong and shown with its errors changes nothing another form shows."""
    with translation.override("de"):
        typed = HandForm({"mode": "quick", "game_value": "x"}, table_size=5, dealer=2)
        assert not typed.is_valid()
        context = {"form": typed, "modes": MODES}
        html = render_to_string("scoring/partials/entry_fields.html", context)
        assert "is-invalid" in html
        blank = HandForm(table_size=5, dealer=2)
        assert blank.fields["game_value"] is typed.fields["game_value"]
        assert blank.fields is not typed.fields
        assert not blank.errors
        assert blank["dealer"].value() == 2
        assert "aria-invalid" not in str(blank["game_value"])  # Django's own widget
        assert blank.fields["points_5"].label == "Position 5"
        assert [value for value, _label in blank.fields["dealer"].choices] == [1, 2, 3, 4, 5]
    with translation.override("en"):
        assert HandForm(table_size=5, dealer=2).fields["points_5"].label == "Seat 5"
    assert HandForm(table_size=4, dealer=3)["dealer"].value() == 3


def test_the_next_hands_words_for_the_offline_form_are_made_once_per_language():
    """``{% next_hand_texts %}``: the attributes the offline form fills in (one hand, and
    several), in the page's language, the same object on every answer."""
    from scoring.templatetags.scoring_tags import next_hand_texts

    with translation.override("en"):
        english = next_hand_texts()
        assert english.startswith('data-text-one="Next hand: seat {dealer} deals; {count} of')
        assert "hands remain, compulsory solos included." in english
        assert next_hand_texts() is english
    with translation.override("de"):
        german = next_hand_texts()
    assert german != english
    assert 'data-text-many="' in german
    assert "{dealer}" in german
