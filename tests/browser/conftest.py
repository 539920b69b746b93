"""A real headless Chromium for the tests marked ``browser``, driven by Playwright's sync API.

The browser is Debian's ``chromium`` (never one Playwright downloads): ``DOKO_CHROMIUM`` names
the binary, ``/usr/bin/chromium`` by default. Without it the tests are skipped with the reason
shown, except when ``CI=true`` or under ``make test``, where that is a failure (as for redis-server and PostgreSQL in
tests/plugins/servers.py). One browser serves the session; every page gets a context of its own
(cookies, storage), closed after the test.

The pages come from pytest-django's ``live_server`` (a thread of this process on the transactional
test database). Playwright's sync API keeps an asyncio event loop running in the test thread from
the browser's start on, which Django's ORM would take for async code and refuse
(SynchronousOnlyOperation), in these tests and in any test after them in the session: the ORM's
check is switched off for the session.
"""

import os
from collections.abc import Callable, Iterable, Iterator

import pytest

from tests.live import OneRequestAtATime  # noqa: F401  (re-exported for the browser tests)
from tests.plugins.servers import REQUIRED_BECAUSE, SERVERS_REQUIRED

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

DEFAULT_CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# Auto-waiting expectations and actions give up after this long (Playwright's default is 5 s and
# 30 s); a slow CI machine gets some slack, a broken page still fails fast.
TIMEOUT_MS = 10_000


def chromium_path() -> str | None:
    """The Chromium binary to use, or None if there is none."""
    path = os.environ.get("DOKO_CHROMIUM") or DEFAULT_CHROMIUM
    return path if os.path.isfile(path) and os.access(path, os.X_OK) else None


@pytest.fixture(scope="session")
def browser():
    """A headless Chromium for the session (Playwright ``Browser``)."""
    path = chromium_path()
    if path is None:
        reason = (
            f"Chromium not found at {os.environ.get('DOKO_CHROMIUM') or DEFAULT_CHROMIUM} "
            "(install it, e.g. apt-get install chromium, or set DOKO_CHROMIUM)"
        )
        if SERVERS_REQUIRED:
            pytest.fail(f"{reason}, {REQUIRED_BECAUSE}: the browser tests must run.")
        pytest.skip(reason)
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=TIMEOUT_MS)
    playwright = sync_playwright().start()
    try:
        browser = playwright.chromium.launch(
            executable_path=path, headless=True, args=CHROMIUM_ARGS
        )
    except Exception as error:
        playwright.stop()
        pytest.fail(f"Chromium ({path}) could not be started: {error}")
    yield browser
    browser.close()
    playwright.stop()


class SavesCut:
    """A WSGI application that, while ``cut`` is set, answers every save of a hand (a path
    ending in ``/save/``) 503 as a proxy would while the hall's network is down, without the
    application seeing it. The offline tests cut the saves here, on the server, because
    Chromium lets a request slip through around a page loaded while it emulates being offline."""

    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app
        self.cut = False

    def __call__(self, environ, start_response) -> Iterable[bytes]:
        if self.cut and environ.get("PATH_INFO", "").endswith("/save/"):
            start_response("503 Service Unavailable", [("Content-Type", "text/plain")])
            return [b"network down"]
        return self.app(environ, start_response)


@pytest.fixture
def saves_cut(one_request_at_a_time) -> Iterator[SavesCut]:
    """Cut the hands' saves on the live server during the test (``SavesCut``; set ``cut``),
    in front of the session's one request at a time."""
    server = one_request_at_a_time.thread.httpd
    app = server.get_app()
    cut = SavesCut(app)
    server.set_app(cut)
    yield cut
    server.set_app(app)


@pytest.fixture
def new_page(browser, one_request_at_a_time) -> Iterator[Callable[..., object]]:
    """Make a page in a fresh browser context (its own cookies: another person at the table),
    in English, with the live server as its base URL (``page.goto("/s/…/")``). Every context
    is closed after the test, before the test database is emptied. Keyword arguments go to
    ``Browser.new_context``."""
    contexts = []

    def make(**options):
        options = {"locale": "en-US", "base_url": one_request_at_a_time.url, **options}
        context = browser.new_context(**options)
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def page(new_page):
    """A page in a browser context of its own (see ``new_page``)."""
    return new_page()
