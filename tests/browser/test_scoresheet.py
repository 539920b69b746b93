"""A whole scoresheet in a real browser, as a table does it (TSR 4.2, 7.3, 8.4).

The scorekeeper (seat 4, through the private link) enters the 24 hands of a match, its
compulsory solos included (TSR 8.5.1), with the keyboard alone, the quick way: the game value, Tab, the seats that
scored plus, Enter; for a solo also the contract and the solo type, picked in the drop-downs by
their first letter. When the hands remaining leave no other way, the page asks for the forced
solos and has them chosen already. One hand goes the long way, as four numbers that first do not
add up. The keeper hands the sheet in, and seat 1, in a browser of their own, confirms it.
"""

from dataclasses import dataclass

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from scoring.models import Scoresheet
from tests import factories
from tests.browser.test_organiser_day import log_in
from tournaments import services as tournament_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@dataclass(frozen=True)
class Hand:
    value: int
    plus: str  # the seats that scored plus, as typed
    contract: str = "normal"
    solo: str = ""  # the solo type; typing its first letter picks it
    soloist: int | None = None


NORMAL_GAMES = ["13", "24", "12", "34", "14", "23"]
VALUES = [1, 2, 3, 1, 4, 2, 1]
RAW_HAND = 2  # typed as four numbers (not counted in the keystrokes)
COMPULSORY_SOLO = 6  # seat 2's, after the fifth hand: seat 2 deals it, and then deals again


def match() -> list[Hand]:
    """The 24 hands of the match in the order played: 20 normal games, seat 2's compulsory solo
    and three forced solos (TSR 8.5.1: the compulsory solos are among the 24).

    Seats 1, 3 and 4 have played no compulsory solo when three hands remain, so these are forced
    solos (TSR 4.2.3), each by the first seat from the dealer's left that owes one: seat 1 deals
    hand 22, so seat 3 plays it; then seat 4, then seat 1.
    """
    hands = []
    for main in range(1, 21):
        hands.append(Hand(VALUES[main % len(VALUES)], NORMAL_GAMES[main % len(NORMAL_GAMES)]))
        if len(hands) == COMPULSORY_SOLO - 1:
            hands.append(Hand(3, "2", "compulsory_solo", "queens", soloist=2))  # won
    hands += [
        Hand(2, "3", "forced_solo", "hearts", soloist=3),  # won
        Hand(3, "123", "forced_solo", "jacks", soloist=4),  # lost: the three others score plus
        Hand(1, "1", "forced_solo", "aces", soloist=1),  # won
    ]
    return hands


# The first letter of a contract's name in the drop-down, where no other starts with it.
CONTRACT_KEYS = {"voluntary_solo": "v", "compulsory_solo": "c", "forced_solo": "f"}


class Keys:
    """The keyboard, counting what is typed: each character and each key pressed is one."""

    def __init__(self, page: Page):
        self.page = page
        self.count = 0

    def type(self, text: str) -> None:
        self.page.keyboard.type(text)
        self.count += len(text)

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)
        self.count += 1


def link(sheet: Scoresheet, position: int) -> str:
    """The private link of a seat (the scorekeeper's is printed on the sheet as a QR code)."""
    return reverse("scoring:sheet-link", args=[sheet.table.seats.get(position=position).token])


def enter_quick(page: Page, keys: Keys, number: int, hand: Hand) -> None:
    """Type hand ``number`` into the entry row with the keyboard alone and save it with Enter."""
    expect(page.locator("#entry-row")).to_contain_text(f"Hand {number}")
    expect(page.get_by_label("Value", exact=True)).to_be_focused()
    keys.type(str(hand.value))
    keys.press("Tab")
    keys.type(hand.plus)
    contract, solo_type = page.get_by_label("Contract"), page.get_by_label("Solo", exact=True)
    if hand.contract == "forced_solo":
        # The page says so, and has the contract and the soloist chosen already.
        expect(page.locator("#next-hand")).to_contain_text(
            f"Seat {hand.soloist} must play a forced solo (TSR 4.2.3, 8.6.1)."
        )
        expect(page.get_by_label("Soloist")).to_have_value(str(hand.soloist))
        keys.press("Tab")
    elif hand.contract != "normal":
        keys.press("Tab")
        keys.type(CONTRACT_KEYS[hand.contract])
    expect(contract).to_have_value(hand.contract)
    if hand.solo:
        keys.press("Tab")  # the solo type, shown for a solo only
        keys.type(hand.solo[0])
        expect(solo_type).to_be_focused()
        expect(solo_type).to_have_value(hand.solo)
    # The live check has seen the whole row, and the TSR is satisfied.
    expect(page.locator("#preview-ok")).to_be_visible()
    expect(page.locator("#preview-problems")).to_have_count(0)
    keys.press("Enter")
    expect(page.locator(f"#hand-{number}")).to_be_visible()


def choose_mode(page: Page, name: str) -> None:
    """Click one of the ways of entering a hand: the buttons are the radios' labels."""
    page.locator("#entry-row").get_by_text(name, exact=True).click()
    expect(page.get_by_role("radio", name=name)).to_be_checked()


def enter_raw_with_a_checksum_error(page: Page, number: int) -> None:
    """Hand ``number`` as four numbers that add up to -2: the live check says so while they are
    typed (TSR 7.3.3.1); one number put right, the error is gone and the hand is saved."""
    expect(page.locator("#entry-row")).to_contain_text(f"Hand {number}")
    choose_mode(page, "Points")
    expect(page.get_by_label("Seat 1", exact=True)).to_be_focused()
    page.keyboard.type("2")
    for points in ("-2", "2", "-4"):
        page.keyboard.press("Tab")
        page.keyboard.type(points)
    problems = page.locator("#preview-problems")
    expect(problems).to_have_text(
        f"Hand {number}: the points add up to -2, not to zero. (TSR 7.3.3.1)"
    )
    expect(page.locator("#preview-ok")).to_have_count(0)
    page.get_by_label("Seat 4", exact=True).fill("-2")
    expect(problems).to_have_count(0)
    expect(page.locator("#preview-ok")).to_be_visible()
    page.keyboard.press("Enter")
    expect(page.locator(f"#hand-{number}")).to_be_visible()
    choose_mode(page, "Quick")  # the page keeps the way last used; back to the quick one


def test_a_scorekeeper_enters_a_whole_sheet_by_keyboard_and_another_player_confirms_it(
    sheet, page, new_page, record_property
):
    hands = match()
    assert len(hands) == 24
    page.goto(link(sheet, 4))
    expect(page.get_by_text("You keep the scoresheet")).to_be_visible()
    keys = Keys(page)
    typed = {}
    for number, hand in enumerate(hands, start=1):
        if number == RAW_HAND:
            enter_raw_with_a_checksum_error(page, number)
            continue
        before = keys.count
        enter_quick(page, keys, number, hand)
        typed[number] = keys.count - before

    expect(page.get_by_text("The match is complete.")).to_be_visible()
    expect(page.locator("#sheet-problems")).to_have_count(0)
    page.get_by_role("link", name="Hand in the scoresheet").click()
    step = page.locator("#sheet-step")  # asked once, beside the button, with the totals
    expect(step.get_by_text("Hand in the scoresheet?")).to_be_visible()
    expect(step.locator("tbody tr")).to_have_count(4)
    step.get_by_role("button", name="Yes, hand it in").click()
    expect(
        page.get_by_text("You handed this scoresheet in; another player of the table")
    ).to_be_visible()

    other = new_page()  # seat 1's phone: a browser of its own
    other.goto(link(sheet, 1))
    expect(other.get_by_text("You can follow the scoresheet here")).to_be_visible()
    expect(other.locator("tr[id^=hand-]")).to_have_count(len(hands))
    confirm = other.get_by_role("link", name="Confirm: the scoresheet is correct")
    confirm.click()
    other.locator("#sheet-step").get_by_role("button", name="Yes, it is correct").click()
    expect(other.locator("#sheet-step")).to_have_count(0)
    expect(confirm).to_have_count(0)

    sheet.refresh_from_db()
    assert sheet.status == Scoresheet.Status.CONFIRMED
    seat_ids = {seat.position: seat.pk for seat in sheet.table.seats.all()}
    assert (sheet.submitted_by_seat_id, sheet.confirmed_by_seat_id) == (seat_ids[4], seat_ids[1])
    saved = [(hand.contract, hand.soloist, hand.solo_type) for hand in sheet.hands.all()]
    assert saved == [(hand.contract, hand.soloist, hand.solo or "") for hand in hands]

    figures = {
        "keystrokes_sheet": keys.count,
        "keystrokes_normal_hand": typed[1],
        "keystrokes_compulsory_solo": typed[COMPULSORY_SOLO],
        "keystrokes_forced_solo_won": typed[len(hands) - 2],
        "keystrokes_forced_solo_lost": typed[len(hands) - 1],
    }
    for name, value in figures.items():
        record_property(name, value)
    print(
        f"\nKeystrokes: {keys.count} for the sheet ({len(typed)} hands typed the quick way), "
        f"{typed[1]} for a normal hand, {typed[COMPULSORY_SOLO]} for the compulsory solo, "
        f"{typed[len(hands) - 2]} and {typed[len(hands) - 1]} for a forced solo won and lost"
    )


def test_keys_typed_before_the_page_has_loaded_its_scripts_stay_in_their_fields(sheet, page):
    """On a slow machine the first keys come before the page's deferred scripts have run: the
    Value field has the focus already (autofocus), the scorekeeper types the value, Tab and the
    plus seats, and only then does the page finish loading. Its script must not take the focus
    back to Value, which would mix the plus seats into the value ("2", "24" → 224)."""
    held = []
    page.route("**/js/sheet.js*", lambda route: held.append(route))  # answered after the keys
    page.goto(link(sheet, 4), wait_until="commit")
    value = page.get_by_label("Value", exact=True)
    expect(value).to_be_focused()
    page.keyboard.type("2")
    page.keyboard.press("Tab")
    page.keyboard.type("24")
    expect(page.get_by_label("Plus seats")).to_be_focused()
    page.wait_for_function("() => true")  # the page still answers while the script is held
    assert held, "the sheet's script was not asked for before the keys"
    for route in held:
        route.continue_()
    page.wait_for_load_state("domcontentloaded")
    expect(value).to_have_value("2")
    expect(page.get_by_label("Plus seats")).to_have_value("24")
    expect(page.get_by_label("Plus seats")).to_be_focused()
    expect(page.locator("#preview-ok")).to_be_visible()


def test_a_new_hands_answer_leaves_the_page_as_reading_it_again_shows_it(sheet, page):
    """After the first hand a saved hand is answered with itself alone (its row, the next entry
    row, the state, what comes next, the totals: scoring/views/saved.py); put in place, the page
    reads as the whole sheet read again does."""
    page.goto(link(sheet, 4))
    keys = Keys(page)
    for number, hand in enumerate(match()[:4], start=1):
        enter_quick(page, keys, number, hand)
    body = page.locator("#sheet-body")
    expect(page.locator("#next-hand")).to_contain_text("20 of 24 hands remain")
    # What the live check says of the empty row is asked again when the page loads: left out.
    empty_row = "document.getElementById('preview').textContent = ''"
    page.evaluate(empty_row)
    shown = body.inner_text()
    placeholders = page.locator("tr[data-offline-placeholder]").count()
    versions = page.locator("#sheet-body input[name=version]").evaluate_all(
        "inputs => inputs.map(input => input.value)"
    )
    sheet.refresh_from_db()
    assert set(versions) == {str(sheet.version)}
    page.reload()
    expect(page.get_by_label("Value", exact=True)).to_be_focused()
    expect(page.locator("#preview")).not_to_be_empty()
    page.evaluate(empty_row)
    assert body.inner_text() == shown
    assert page.locator("tr[data-offline-placeholder]").count() == placeholders == 19


def test_after_new_hands_answered_alone_a_form_below_the_sheet_still_works(page):
    """The organiser types hands on the sheet's staff page, each answered alone, and then hands
    the sheet over to another seat by the form below it (TSR 3.1.1): its version is the one the
    last answer named (static/js/sheet.js), so it is taken, not refused as stale."""
    organiser = factories.user(username="olga", first_name="Olga", last_name="Organ")
    tournament = factories.tournament(players=4, organiser=organiser)
    round_ = factories.seated_round(tournament)
    tournament_services.round_start(round=round_)
    sheet = Scoresheet.objects.get(table__round=round_)
    log_in(page, "olga", "a-long-test-password")
    page.goto(reverse("scoring:sheet", args=[tournament.slug, 1, 1]))
    keys = Keys(page)
    for number, hand in enumerate(match()[:3], start=1):
        enter_quick(page, keys, number, hand)
    form = page.locator("#keeper-form")
    sheet.refresh_from_db()
    expect(form.locator("input[name=version]")).to_have_value(str(sheet.version))
    form.get_by_label("Scorekeeper").select_option("1")
    # The select shows seat 1 as soon as it is chosen: the database is read once the server
    # has answered the form.
    with page.expect_response(
        lambda answer: answer.url.endswith("/keeper/") and answer.request.method == "POST"
    ) as handed_over:
        form.get_by_role("button", name="Hand over").click()
    assert handed_over.value.status == 200
    expect(page.locator("#keeper-form select")).to_have_value("1")
    sheet.refresh_from_db()
    assert sheet.keeper_seat == 1
    assert sheet.hands.count() == 3
