"""Repairs on a phone: a hand struck out after asking once, and a refused "Hand in" answered
beside the button, on screen, not at the top of a long sheet; with JavaScript (htmx) and
without it."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from doko.sample_sheets import full_match
from scoring import services
from scoring.models import Scoresheet
from tests import factories

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 700}}


def keeper_link(sheet: Scoresheet) -> str:
    return reverse("scoring:sheet-link", args=[sheet.table.seats.get(position=4).token])


def entered(sheet: Scoresheet, count: int) -> Scoresheet:
    return services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match()[:count], version=1, by=factories.keeper(sheet)
    )


@pytest.mark.parametrize("javascript", [True, False], ids=["htmx", "no-js"])
def test_a_refused_hand_in_is_answered_on_screen_beside_the_button(sheet, new_page, javascript):
    entered(sheet, 20)  # a long sheet, not complete while the round runs
    page = new_page(java_script_enabled=javascript, **PHONE)
    page.goto(keeper_link(sheet))
    button = page.get_by_role("link", name="Hand in the scoresheet")
    button.scroll_into_view_if_needed()
    button.click()
    message = page.get_by_text("The scoresheet is not complete")
    expect(message).to_be_visible()
    expect(message).to_be_in_viewport()
    expect(page.locator("#sheet-step")).to_have_count(0)
    assert Scoresheet.objects.get(pk=sheet.pk).status == "draft"


@pytest.mark.parametrize("javascript", [True, False], ids=["htmx", "no-js"])
def test_the_scorekeeper_strikes_out_a_hand_after_asking_once(sheet, new_page, javascript):
    entered(sheet, 3)
    page = new_page(java_script_enabled=javascript)
    page.goto(keeper_link(sheet))
    page.get_by_role("link", name="Strike out hand 2").click()
    step = page.locator("#strike-step")
    expect(step).to_contain_text("Strike out hand 2?")
    expect(step).to_be_in_viewport()
    assert sheet.hands.count() == 3
    step.get_by_role("button", name="Strike out hand 2").click()
    expect(page.locator("#strike-step")).to_have_count(0)
    expect(page.locator("tr[id^=hand-]")).to_have_count(2)
    assert sheet.hands.count() == 2
