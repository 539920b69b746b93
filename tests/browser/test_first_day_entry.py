"""A club's first day at the tables, on phones (issue 32, points 1 to 4): the players who
confirm see the hands numbered as the scorekeeper does; the calculator shows nothing red before
anything is typed and needs no trick count unless a team took no card points; a wedding after a
solo is saved as a wedding; and once the last line is written no row is left for a hand 25, but
a sentence says what comes next and who does it (TSR 4.4, 7.2, 7.3.2, 8.5.1)."""

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from doko.sample_sheets import full_match
from scoring import services
from scoring.models import Scoresheet
from tests import factories
from tournaments import services as tournament_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def link(sheet: Scoresheet, position: int) -> str:
    return reverse("scoring:sheet-link", args=[sheet.table.seats.get(position=position).token])


def phone(new_page, **options) -> Page:
    return new_page(**PHONE, **options)


def typed(sheet: Scoresheet, hands) -> Scoresheet:
    sheet.refresh_from_db()
    return services.scoresheet_hands_replace(
        scoresheet=sheet, hands=hands, version=sheet.version, by=factories.keeper(sheet)
    )


def first_column(page: Page) -> list[str]:
    """The numbers down the sheet's first column, the entry row's "Hand N" as N."""
    return page.evaluate(
        """() => Array.from(document.querySelectorAll("#sheet-body table.sheet-grid tbody tr"))
            .map((row) => row.id === "entry-row"
                ? row.querySelector("[data-offline-number]").textContent.replace(/\\D/g, "")
                : row.cells[0].textContent.trim())"""
    )


def test_a_player_who_confirms_sees_the_hands_numbered_as_the_scorekeeper_does(sheet, new_page):
    keeper, player = phone(new_page), phone(new_page)
    keeper.goto(link(sheet, 4))
    player.goto(link(sheet, 1))
    expect(player.get_by_text("You can follow the scoresheet here")).to_be_visible()
    assert first_column(player) == [str(number) for number in range(1, 25)]
    assert first_column(keeper) == [str(number) for number in range(1, 25)]

    keeper.get_by_label("Value", exact=True).fill("2")
    keeper.get_by_label("Plus seats").fill("13")
    keeper.get_by_role("button", name="Save").click()
    expect(keeper.locator("#hand-1")).to_be_visible()
    expect(keeper.locator("#entry-row")).to_contain_text("Hand 2")
    player.reload()
    expect(player.locator("#hand-1")).to_be_visible()
    assert first_column(player) == [str(number) for number in range(1, 25)]
    assert first_column(keeper) == [str(number) for number in range(1, 25)]


def choose_mode(page: Page, name: str) -> None:
    page.locator("#entry-row").get_by_text(name, exact=True).click()
    expect(page.get_by_role("radio", name=name)).to_be_checked()


def test_the_calculator_shows_nothing_red_before_typing_and_saves_without_tricks(sheet, new_page):
    page = phone(new_page)
    page.goto(link(sheet, 4))
    choose_mode(page, "Calculator")
    preview = page.locator("#preview")
    expect(preview).to_contain_text("Still to fill in: Re seats, Re card points")
    expect(preview.locator(".text-danger")).to_have_count(0)
    expect(page.locator("#entry-row .is-invalid")).to_have_count(0)
    expect(page.get_by_label("Re tricks")).to_have_attribute("placeholder", "if schwarz")

    page.get_by_label("Re seats").fill("13")
    page.get_by_label("Re card points").fill("130")
    page.get_by_label("Re announced").select_option("team")
    expect(preview).to_contain_text("Game value 3")
    expect(page.locator("#preview-ok")).to_be_visible()
    expect(preview.locator(".text-danger")).to_have_count(0)
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#hand-1")).to_be_visible()
    hand = sheet.hands.get()
    assert hand.points == {1: 3, 2: -3, 3: 3, 4: -3}

    # Contra without a card point: now the tricks count, and the page asks for them.
    page.get_by_label("Re seats").fill("24")
    page.get_by_label("Re card points").fill("240")
    expect(preview).to_contain_text("Re tricks: Contra took no card points: give Re's tricks too")
    expect(preview.locator(".text-danger")).to_have_count(0)
    page.get_by_label("Re tricks").fill("12")
    expect(preview).to_contain_text("Game value 5")


def test_a_wedding_after_a_solo_starts_clean_and_is_saved_as_a_wedding(sheet, new_page):
    page = phone(new_page)
    page.goto(link(sheet, 4))
    contract, soloist = page.get_by_label("Contract"), page.get_by_label("Soloist")
    solo_type = page.get_by_label("Solo", exact=True)
    # Hand 1: seat 2's compulsory solo, the soloist picked by hand as well.
    page.get_by_label("Value", exact=True).fill("2")
    page.get_by_label("Plus seats").fill("2")
    contract.select_option("compulsory_solo")
    solo_type.select_option("queens")
    soloist.select_option("2")
    expect(page.locator("#preview-ok")).to_be_visible()
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#hand-1")).to_be_visible()

    # The next row starts clean.
    expect(page.locator("#entry-row")).to_contain_text("Hand 2")
    expect(contract).to_have_value("normal")
    expect(soloist).to_have_value("")
    expect(solo_type).to_have_value("")

    # A solo begun by mistake, then put right as the wedding it was: the soloist picked for
    # the solo is not sent, and the wedding is saved.
    contract.select_option("voluntary_solo")
    soloist.select_option("2")
    contract.select_option("wedding")
    expect(soloist).to_be_hidden()
    expect(soloist).to_be_disabled()
    expect(solo_type).to_be_hidden()
    page.get_by_label("Value", exact=True).fill("1")
    page.get_by_label("Plus seats").fill("13")
    expect(page.locator("#preview-ok")).to_be_visible()
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#hand-2")).to_be_visible()
    hand = sheet.hands.get(number=2)
    assert (hand.contract, hand.soloist, hand.solo_type) == ("wedding", None, "")
    assert hand.points == {1: 1, 2: -1, 3: 1, 4: -1}
    expect(contract).to_have_value("normal")
    expect(soloist).to_have_value("")


def test_after_the_last_line_no_row_is_left_and_the_page_says_what_comes_next(sheet, new_page):
    hands = full_match()
    typed(sheet, hands[:23])
    keeper = phone(new_page)
    keeper.goto(link(sheet, 4))
    expect(keeper.locator("#entry-row")).to_contain_text("Hand 24")
    last = hands[23]
    choose_mode(keeper, "Points")
    for seat, points in last.points.items():
        keeper.get_by_label(f"Seat {seat}", exact=True).fill(str(points))
    expect(keeper.locator("#preview-ok")).to_be_visible()
    keeper.get_by_role("button", name="Save").click()
    expect(keeper.locator("#hand-24")).to_be_visible()
    expect(keeper.locator("#entry-row")).to_have_count(0)
    expect(keeper.get_by_text("Hand 25")).to_have_count(0)
    expect(keeper.locator("#match-complete")).to_contain_text(
        "The match is complete. Check the totals and hand the scoresheet in below"
    )
    expect(keeper.get_by_role("link", name="Hand in the scoresheet")).to_be_visible()
    assert first_column(keeper) == [str(number) for number in range(1, 25)]

    player = phone(new_page, locale="de-DE")
    player.goto(link(sheet, 1))
    expect(player.locator("#match-complete")).to_contain_text(
        "Die Spielrunde ist vollständig. Der Listenführer, Position 4"
    )
    expect(player.locator("#entry-row")).to_have_count(0)


def test_the_german_calculator_asks_for_what_is_missing_in_german(sheet, new_page):
    page = phone(new_page, locale="de-DE")
    page.goto(link(sheet, 4))
    choose_mode(page, "Rechner")
    preview = page.locator("#preview")
    expect(preview).to_contain_text("Noch auszufüllen: Re-Positionen, Augen Re")
    expect(preview.locator(".text-danger")).to_have_count(0)
    page.get_by_role("button", name="Speichern").click()
    expect(page.locator("#entry-row")).to_contain_text(
        "Bitte ausfüllen: Die Eingabe „Rechner“ braucht dieses Feld."
    )
    assert not sheet.hands.exists()


def test_the_last_line_typed_offline_leaves_no_row_for_hand_25(sheet, new_page, saves_cut):
    hands = full_match()
    typed(sheet, hands[:23])
    keeper = phone(new_page)
    keeper.goto(link(sheet, 4))
    expect(keeper.locator("#entry-row")).to_contain_text("Hand 24")
    keeper.context.set_offline(True)
    saves_cut.cut = True
    choose_mode(keeper, "Points")
    for seat, points in hands[23].points.items():
        keeper.get_by_label(f"Seat {seat}", exact=True).fill(str(points))
    keeper.get_by_role("button", name="Save").click()
    expect(keeper.locator("tr.offline-hand")).to_have_count(1)
    expect(keeper.locator("#entry-row")).to_be_hidden()
    assert sheet.hands.count() == 23

    saves_cut.cut = False
    keeper.context.set_offline(False)
    expect(keeper.locator("#hand-24")).to_be_visible()
    expect(keeper.locator("#entry-row")).to_have_count(0)
    expect(keeper.locator("#match-complete")).to_contain_text("The match is complete.")
    assert sheet.hands.count() == 24


def test_at_a_table_of_five_the_points_entry_leaves_out_the_dealer_who_sits_out(new_page):
    """The dealer sits out and scores nothing (TSR 10.1.1): his field says so and takes no
    points, and it moves along when the scorekeeper names another dealer."""
    tournament = factories.tournament(players=5, allow_tables_of_five=True)
    round_ = factories.seated_round(tournament)
    tournament_services.round_start(round=round_)
    sheet = Scoresheet.objects.get(table__round=round_)
    keeper = phone(new_page)
    keeper.goto(link(sheet, 5))
    choose_mode(keeper, "Points")
    expect(keeper.get_by_label("Seat 1", exact=True)).to_be_disabled()
    expect(keeper.get_by_label("Seat 1", exact=True)).to_have_attribute("placeholder", "sits out")
    keeper.get_by_label("dealt by seat").select_option("2")
    expect(keeper.get_by_label("Seat 2", exact=True)).to_be_disabled()
    expect(keeper.get_by_label("Seat 1", exact=True)).to_be_enabled()
    keeper.get_by_label("dealt by seat").select_option("1")
    for seat, points in {2: 2, 3: -2, 4: -2, 5: 2}.items():
        keeper.get_by_label(f"Seat {seat}", exact=True).fill(str(points))
    expect(keeper.locator("#preview")).to_contain_text("correct by the TSR")
    keeper.get_by_role("button", name="Save").click()
    expect(keeper.locator("#hand-1")).to_be_visible()
    assert sheet.hands.get().points == {1: 0, 2: 2, 3: -2, 4: -2, 5: 2}
    expect(keeper.get_by_label("Seat 2", exact=True)).to_be_disabled()
