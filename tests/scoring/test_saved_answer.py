"""A new hand saved on the entry page through htmx, where the sheet only grew by it, is answered
with itself: its row, the next hand's entry row and, out of band, the sheet's state, what comes
next, the totals and the placeholder it filled (scoring/views/saved.py, issue 45). Everywhere
else the sheet is answered whole."""

import datetime
import re

import pytest

from tests.scoring.test_write_queries import (
    HX,
    SAVE,
    TYPED,
    deducted,
    link,
    row,
    running_sheet,
    typed,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english(client):
    client.cookies["django_language"] = "en"


@pytest.fixture
def sheet():
    return running_sheet()


def saved(client, sheet, number: int, **fields):
    data = {**row(sheet, number), "plain": "1", **fields}
    return client.post(link(sheet, 4, "save"), data, **HX)


def whole(response) -> bool:
    return 'id="sheet-body"' in response.content.decode() and "HX-Retarget" not in response


def part(html: str, pattern: str) -> str:
    found = re.search(pattern, html, re.DOTALL)
    assert found, pattern
    return re.sub(r'\s*hx-swap-oob="true"', "", found.group(0))


def test_a_new_hand_on_a_plain_sheet_is_answered_with_itself_alone(
    client, sheet, django_assert_num_queries
):
    sheet = typed(sheet, TYPED)
    url, data = link(sheet, 4, "save"), {**row(sheet, TYPED + 1), "plain": "1"}
    with django_assert_num_queries(SAVE):  # as many as the whole sheet's answer asks
        response = client.post(url, data, **HX)
    assert response.status_code == 200
    assert response["HX-Retarget"] == "#entry-row"
    assert response["HX-Reswap"] == "outerHTML"
    assert response["X-Sheet-Version"] == str(sheet.version + 1)
    html = response.content.decode()
    assert f'id="hand-{TYPED + 1}"' in html
    assert f'id="hand-{TYPED}"' not in html  # the rows before it are on the page already
    assert 'name="number" value="22"' in html
    assert f'name="version" value="{sheet.version + 1}"' in html
    assert "delete:#sheet-body tr[data-offline-placeholder='22']" in html
    assert len(response.content) < 20_000  # the whole sheet: over 40,000 bytes


def test_the_parts_answered_are_those_of_the_sheet_read_again(client, sheet):
    """Put in place, the answer's parts are what the page shows when it is read afresh."""
    sheet = typed(sheet, TYPED)
    answer = saved(client, sheet, TYPED + 1).content.decode()
    page = client.get(link(sheet, 4, "save").removesuffix("save/")).content.decode()
    for pattern in (
        rf'<tr id="hand-{TYPED + 1}".*?</tr>',
        r'<tr class="entry-row.*?</tr>',
        r'<tr class="fw-semibold" id="sheet-totals".*?</tr>',
        r'<p class="small mb-2" id="next-hand".*?</p>',
        r'<div class="d-flex[^"]*" id="sheet-state".*?</div>',
    ):
        mine, theirs = part(answer, pattern), part(page, pattern)
        # The page's own form carries its CSRF token, masked anew on every answer.
        token = r'name="csrfmiddlewaretoken" value="[^"]+"'
        assert re.sub(token, "", mine) == re.sub(token, "", theirs), pattern
    assert 'data-offline-placeholder="22"' not in page


@pytest.mark.parametrize(
    "case",
    ["no plain field", "not plain", "a correction", "the first hand", "the last hand"],
)
def test_the_sheet_is_answered_whole_where_more_may_have_changed(client, sheet, case):
    count = {"the first hand": 0, "the last hand": 23}.get(case, TYPED)
    sheet = typed(sheet, count)
    number = TYPED if case == "a correction" else count + 1
    data = {**row(sheet, number)}
    if case != "no plain field":
        data["plain"] = "0" if case == "not plain" else "1"
    response = client.post(link(sheet, 4, "save"), data, **HX)
    assert response.status_code == 200
    assert whole(response)


def test_a_sheet_with_something_ruled_is_answered_whole(client, sheet):
    """The adjudicators' decisions do not raise the sheet's version: a deduction imposed while
    the page was open is shown with the next hand saved (TSR 9.6.2 b)."""
    sheet = typed(sheet, TYPED)
    deducted(sheet)
    response = saved(client, sheet, TYPED + 1)
    assert whole(response)
    assert "Deducted for unsporting conduct" in response.content.decode()
    # The page says so itself from now on.
    assert 'name="plain" value="0"' in response.content.decode()


def test_once_the_end_of_the_round_is_announced_the_sheet_is_answered_whole(client, sheet):
    """The playing time's line and its form may come or go (TSR 8.5.1)."""
    sheet = typed(sheet, TYPED)
    round_ = sheet.table.round
    round_.ended_at = round_.started_at + datetime.timedelta(seconds=1)
    round_.save(update_fields=["ended_at"])
    assert whole(saved(client, sheet, TYPED + 1))


def test_a_page_with_a_step_asked_says_it_is_not_plain(client, sheet):
    sheet = typed(sheet, TYPED)
    base = link(sheet, 4, "save").removesuffix("save/")
    assert 'name="plain" value="1"' in client.get(base).content.decode()
    asked = client.get(base + "?step=submit", **HX).content.decode()
    assert 'name="plain" value="0"' in asked
