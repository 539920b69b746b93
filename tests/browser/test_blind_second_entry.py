"""Blind double entry in a real browser (issue 44): the second member of the desk goes from the
desk's page to a blank second entry, types the signed paper sheet by keyboard, compares it,
and nothing of the first entry's points reaches him, on any page or answer he received."""

import json

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from doko.rules.contracts import Contract, SoloType
from doko.rules.deal import TABLE_OF_FOUR
from doko.rules.entry import points_from_plus_seats
from doko.rules.sheet import HandLine, with_dealers
from scoring import services
from scoring.models import Scoresheet, SheetRead
from scoring.services import Actor
from tests import factories
from tests.browser.test_organiser_day import log_in
from tests.browser.test_scoresheet import Keys, enter_quick, match
from tournaments import services as tournament_services
from tournaments.models import SheetKeeping, TournamentRole

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The hand the first typist got wrong: its value typed 4 where the paper says 1.
MISTYPED = 7


def lines_of(hands) -> list[HandLine]:
    """The browser's hands (``match``) as the rules core reads them, dealt as the TSR deals."""
    lines = []
    for hand in hands:
        contract = Contract(hand.contract)
        entered = points_from_plus_seats(
            table_size=TABLE_OF_FOUR,
            dealer=1,
            contract=contract,
            game_value=hand.value,
            plus_seats={int(seat) for seat in hand.plus},
            soloist=hand.soloist,
        )
        lines.append(
            HandLine(
                contract=contract,
                dealer=1,
                points=entered.points,
                soloist=entered.soloist,
                solo_type=SoloType(hand.solo) if hand.solo else None,
                game_value=hand.value,
            )
        )
    return with_dealers(lines, table_size=TABLE_OF_FOUR, hands_per_match=24)


@pytest.fixture
def handed_in():
    """A paper tournament checked by double entry: Olga typed table 1's sheet at the desk and
    handed it in, one hand mistyped; Zoë is the second member of the desk."""
    organiser = factories.user(username="olga", first_name="Olga", last_name="Organ")
    tournament = factories.tournament(
        players=4, organiser=organiser, sheet_keeping=SheetKeeping.PAPER, double_entry=True
    )
    zoe = factories.user(username="zoe", first_name="Zoë", last_name="Zweig")
    factories.role_grant(tournament=tournament, user=zoe, role=TournamentRole.Role.SCOREKEEPER)
    round_ = factories.seated_round(tournament)
    tournament_services.round_start(round=round_)
    sheet = Scoresheet.objects.get(table__round=round_)
    paper = match()
    first = [*paper]
    first[MISTYPED - 1] = type(paper[0])(4, paper[MISTYPED - 1].plus)
    lines = lines_of(first)
    sheet = services.scoresheet_hands_replace(
        scoresheet=sheet, hands=lines, version=sheet.version, by=Actor(user=organiser)
    )
    sheet = services.scoresheet_submit(
        scoresheet=sheet, version=sheet.version, by=Actor(user=organiser)
    )
    return sheet, lines, paper


def test_the_second_member_of_the_desk_types_blind_and_never_receives_the_first_entry(
    handed_in, page
):
    sheet, first_lines, paper = handed_in
    received: list[tuple[str, str, str]] = []

    def keep(response):
        try:
            body = response.text()
        except Exception:  # a redirect or an aborted request has no body
            return
        received.append((response.url, response.headers.get("content-type", ""), body))

    page.on("response", keep)
    log_in(page, "zoe", "a-long-test-password")
    slug = sheet.table.round.tournament.slug
    page.goto(reverse("scoring:desk", args=[slug, 1]))
    page.locator("#desk-table").fill("1")
    page.keyboard.press("Enter")
    # Straight to a blank second entry: no hand of the first on the way.
    expect(page).to_have_url(
        f"{reverse('scoring:sheet-second', args=[slug, 1, 1])}", ignore_case=True
    )
    expect(page.locator("tr[id^=hand-]")).to_have_count(0)
    keys = Keys(page)
    for number, hand in enumerate(paper, start=1):
        enter_quick(page, keys, number, hand)
    page.get_by_role("button", name="Compare with the first entry").click()
    expect(page.locator("#differing-hands")).to_have_text(str(MISTYPED))
    expect(page.locator("input[name=hand-7]")).to_have_count(0)

    assert not SheetRead.objects.exists()
    assert sheet.table.scoresheet.status == Scoresheet.Status.SUBMITTED
    # Nothing he received holds the first entry's mistyped hand: its points as the first
    # typist's rows show them, nor any hand of the sheet in an answer of the API.
    wrong = first_lines[MISTYPED - 1].points
    for url, kind, body in received:
        if "json" in kind:
            data = json.loads(body or "null")
            for found in _walk(data):
                assert not (isinstance(found, dict) and "first" in found and "hand" in found), url
        row = _row(body, MISTYPED)
        if row is not None:
            assert not all(
                f">{points:+d}<" in row or f">{points}<" in row for points in wrong.values()
            ), url


def _walk(data):
    yield data
    if isinstance(data, dict):
        for value in data.values():
            yield from _walk(value)
    elif isinstance(data, list):
        for value in data:
            yield from _walk(value)


def _row(html: str, number: int) -> str | None:
    """The table row of hand ``number`` in a page, if it has one."""
    start = html.find(f'id="hand-{number}"')
    if start < 0:
        return None
    end = html.find("</tr>", start)
    return html[start:end]
