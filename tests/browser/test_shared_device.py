"""One device, several people (issue 44, item 6): the desk's laptop, a phone handed round.

Every way a session ends on the device (a logout on the site or in the administration, another
account's login, the session running out) forgets the staff pages the service worker kept for a
reload while offline (static/js/sw.js). A hand typed while the connection was down belongs to
whoever typed it: once another account is logged in, the page sends none of them as his, but asks
hand by hand (save it as his own, or drop it), and shows what was typed meanwhile
(static/js/offline-queue.js). The HTTP side is tests/security/test_consent_and_devices.py.
"""

import pytest
from django.urls import reverse
from playwright.sync_api import Error, Page, expect

from scoring.models import Scoresheet, ScoresheetChange
from tests import factories
from tests.browser.test_offline_entry import enter, saved, stored

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-test-password"  # tests.factories.user's

# Whether a copy of the page at ``path`` is kept by the service worker, in any of its caches of
# pages (whatever their version), and whether it names ``text``.
KEPT = """async ([path, text]) => {
    for (const name of await caches.keys()) {
        if (!name.startsWith("doko-pages")) continue;
        const kept = await (await caches.open(name)).match(path, {ignoreVary: true});
        if (kept && (await kept.text()).includes(text)) return true;
    }
    return false;
}"""


def sheet_path(sheet: Scoresheet) -> str:
    table = sheet.table
    return reverse(
        "scoring:sheet", args=[table.round.tournament.slug, table.round.number, table.number]
    )


def kept(page: Page, path: str, text: str) -> bool:
    return page.evaluate(KEPT, [path, text])


def kept_soon(page: Page, path: str, text: str) -> None:
    for _ in range(100):
        if kept(page, path, text):
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"the service worker never kept {path}")


def log_in(page: Page, username: str) -> None:
    page.goto(reverse("login"))
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name="Log out")).to_be_visible()


def desk_account(sheet: Scoresheet, username: str):
    """An organiser of the sheet's tournament who may use the administration too."""
    account = factories.organiser(sheet.table.round.tournament)
    account.username, account.is_staff = username, True
    account.save()
    return account


def staff_sheet_kept(page: Page, sheet: Scoresheet) -> str:
    """Log in as the desk's first account and open the sheet, which the worker keeps."""
    log_in(page, "erste")
    page.goto(sheet_path(sheet))
    expect(page.locator("#entry-row")).to_contain_text("Hand 1")
    kept_soon(page, sheet_path(sheet), "erste")
    return sheet_path(sheet)


def log_out_on_the_site(page: Page) -> None:
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("link", name="Log in")).to_be_visible()


def log_out_in_the_administration(page: Page) -> None:
    page.goto("/admin/")
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("link", name="Log in")).to_be_visible()


def another_logs_in(page: Page) -> None:
    log_in(page, "zweite")


@pytest.mark.parametrize(
    "end", [log_out_on_the_site, log_out_in_the_administration, another_logs_in]
)
def test_every_end_of_a_session_forgets_the_kept_staff_pages(sheet, page, end):
    desk_account(sheet, "erste")
    desk_account(sheet, "zweite")
    path = staff_sheet_kept(page, sheet)
    end(page)
    page.goto("/")
    assert not kept(page, path, "erste")


def test_a_session_run_out_shows_no_kept_staff_page_offline(sheet, page, settings):
    desk_account(sheet, "erste")
    settings.SESSION_COOKIE_AGE = 4  # seconds: the session ends 4 s after the login
    path = staff_sheet_kept(page, sheet)
    page.wait_for_timeout(4500)
    page.context.set_offline(True)
    try:
        response = page.goto(path)
    except Error:
        response = None  # the browser's own page: no connection, and nothing kept to show
    assert response is None or not response.from_service_worker
    page.context.set_offline(False)
    page.goto("/")
    assert not kept(page, path, "erste")


def test_hands_typed_by_one_account_wait_for_the_next_to_decide(sheet, page, saves_cut):
    first = desk_account(sheet, "erste")
    second = desk_account(sheet, "zweite")
    path = staff_sheet_kept(page, sheet)
    enter(page, 1, 3, "13")
    expect(page.locator("#hand-1")).to_be_visible()

    # The hall's network drops the saves: two hands wait on the laptop, typed by the first.
    saves_cut.cut = True
    enter(page, 2, 1, "24")
    enter(page, 3, 2, "12")
    expect(page.locator("tr.offline-hand")).to_have_count(2)
    assert stored(page) == [2, 3]

    # The first logs out (the page asks first: the hands are not sent, they stay on the device).
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    log_out_on_the_site(page)

    # The second logs in on the same laptop and opens the sheet, the network back.
    saves_cut.cut = False
    log_in(page, "zweite")
    page.goto(path)
    page.wait_for_timeout(1000)
    assert saved(sheet) == [(1, {1: 3, 2: -3, 3: 3, 4: -3})]  # nothing sent as the second
    rows = page.locator("tr.offline-foreign")
    expect(rows).to_have_count(2)
    expect(rows.first).to_contain_text("Typed on this device by erste, not by zweite")
    expect(rows.first).to_contain_text("Value: 1")  # what was typed, to copy
    expect(page.locator("#offline-queue")).to_contain_text("Nothing is sent until you decide")
    assert stored(page) == [2, 3]
    assert len(asked) == 1
    assert "2 hands typed on this device are not sent yet" in asked[0]

    # He typed hand 2 himself: saved as his. Hand 3 he drops, asked once.
    rows.first.get_by_role("button", name="I typed it: save it as zweite").click()
    expect(page.locator("#hand-2")).to_be_visible()
    expect(rows).to_have_count(1)
    rows.first.get_by_role("button", name="Drop it").click()
    page.get_by_role("button", name="Yes, drop it").click()
    expect(page.locator("tr.offline-hand")).to_have_count(0)
    assert stored(page) == []
    assert saved(sheet) == [(1, {1: 3, 2: -3, 3: 3, 4: -3}), (2, {1: -1, 2: 1, 3: -1, 4: 1})]
    writers = list(
        ScoresheetChange.objects.filter(scoresheet=sheet)
        .order_by("version")
        .values_list("by", flat=True)
    )
    assert writers == [first.pk, second.pk]
