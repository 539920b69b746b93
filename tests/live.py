"""Tests through HTTP against a running server: pytest-django's ``live_server`` (a thread of
this process serving the transactional test database), reached as a browser or an API client
reaches the site, with nothing of the test client's shortcuts (no forced login, no CSRF
exemption, no request built by hand).

``Visitor`` is one such client: its own cookies (one device), or none at all (``cookies=False``:
a script that keeps nothing); it logs in through the login page, posts forms with the CSRF token
the page gave it, and calls the API with JSON as a program does. The findings of the security
review (tests/security/) replay each attack with it; the browser tests (tests/browser/) share
the server through ``one_request_at_a_time``.
"""

import http.cookiejar
import re
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any
from urllib.parse import urljoin

import requests


class OneRequestAtATime:
    """A WSGI application that lets the live server answer one request at a time, the work it
    does after the response (``tournaments.after_response``, run at the response's close)
    included.

    On the in-memory SQLite test database every thread of the live server uses the same
    connection (Django shares it, or the threads would see different databases), so two requests
    at once would interleave their transactions on it: a request's ``atomic`` becomes a savepoint
    of the standings rebuild another request runs after its answer, and the ``on_commit`` that
    queues a print job may never run. In production every thread has a connection of its own.
    The lock is taken per request, not per connection, so an idle keep-alive connection of the
    browser holds nothing up."""

    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app
        self.lock = threading.Lock()

    def __call__(self, environ, start_response) -> Iterable[bytes]:
        self.lock.acquire()
        try:
            response = self.app(environ, start_response)
        except BaseException:
            self.lock.release()
            raise
        return _ReleasedAtClose(response, self.lock)


class _ReleasedAtClose:
    """A response that releases ``lock`` once the server has closed it (sent or not)."""

    def __init__(self, response: Iterable[bytes], lock: threading.Lock) -> None:
        self.response = response
        self.lock = lock

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.response)

    def close(self) -> None:
        try:
            close = getattr(self.response, "close", None)
            if close is not None:
                close()
        finally:
            self.lock.release()


class _LocalhostIsSecure(http.cookiejar.DefaultCookiePolicy):
    """Send the site's ``Secure`` cookies (``SECURE_COOKIES`` is on in the tests, as in
    production) to the live server on http://localhost, as a browser does: it counts loopback
    as a secure context."""

    def return_ok_secure(self, cookie, request) -> bool:
        return True

    def set_ok(self, cookie, request) -> bool:
        # Set over http too, for the same reason.
        cookie.secure = False
        return super().set_ok(cookie, request)


CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
DEFAULT_TIMEOUT = 30


class Visitor:
    """One client of the running site at ``base_url``: a browser on one device (cookies kept),
    or a script that keeps none (``cookies=False``). Requests never follow redirects unless
    asked, so that a test sees what the server answered. ``language``: the Accept-Language
    sent (English by default, as the tests read English)."""

    def __init__(self, base_url: str, *, cookies: bool = True, language: str = "en") -> None:
        self.base_url = base_url.rstrip("/") + "/"
        self.session = requests.Session()
        self.session.headers["Accept-Language"] = language
        self.keeps_cookies = cookies
        if cookies:
            self.session.cookies.set_policy(_LocalhostIsSecure())
        else:
            self.session.cookies.set_policy(http.cookiejar.DefaultCookiePolicy(allowed_domains=[]))
        # The API's token, once ``api_log_in`` got one: sent with every API call.
        self.token: str | None = None

    def url(self, path: str) -> str:
        return urljoin(self.base_url, path.lstrip("/"))

    def request(self, method: str, path: str, **options: Any) -> requests.Response:
        options.setdefault("allow_redirects", False)
        options.setdefault("timeout", DEFAULT_TIMEOUT)
        if self.token and path.lstrip("/").startswith("api/"):
            options.setdefault("headers", {}).setdefault("Authorization", f"Token {self.token}")
        return self.session.request(method, self.url(path), **options)

    def get(self, path: str, **options: Any) -> requests.Response:
        return self.request("GET", path, **options)

    def csrf_token(self, path: str = "/accounts/login/") -> str:
        """The CSRF token of the form at ``path`` (the login page's by default), as a browser
        reads it from the page it got."""
        response = self.get(path)
        found = CSRF_FIELD.search(response.text)
        assert found, f"no CSRF token in the page at {path} ({response.status_code})"
        return found.group(1)

    def post_form(
        self, path: str, data: dict[str, Any] | None = None, *, form: str | None = None, **options
    ) -> requests.Response:
        """Post ``data`` to ``path`` as the page's form does, with the CSRF token of the page at
        ``form`` (``path`` itself by default; the login page's for a form without a page of its
        own)."""
        token = self.csrf_token(form or path)
        return self.request(
            "POST",
            path,
            data={"csrfmiddlewaretoken": token, **(data or {})},
            headers={"Referer": self.url(form or path), **options.pop("headers", {})},
            **options,
        )

    def log_in(self, username: str, password: str) -> requests.Response:
        """Log in through the login page; asserts that it worked (a redirect away from it)."""
        response = self.post_form("/accounts/login/", {"username": username, "password": password})
        assert response.status_code == 302, (
            f"login of {username!r} answered {response.status_code}: {response.text[:500]}"
        )
        return response

    def api_log_in(self, username: str, password: str) -> str:
        """Get the account's API token (``POST /api/v1/auth/token``), sent from then on."""
        response = self.request(
            "POST", "/api/v1/auth/token", json={"username": username, "password": password}
        )
        assert response.status_code == 200, response.text
        self.token = response.json()["token"]
        return self.token

    def api(self, method: str, path: str, payload: Any = None, **options: Any) -> requests.Response:
        """Call the API at ``path`` (under /api/v1/ unless absolute) with a JSON body. With a
        session (after ``log_in``) and no token, the CSRF token goes along as a browser's
        script sends it."""
        if not path.startswith("/"):
            path = f"/api/v1/{path}"
        headers = options.pop("headers", {})
        unsafe = method.upper() not in {"GET", "HEAD", "OPTIONS"}
        if self.token is None and unsafe and (csrf := self.session.cookies.get("csrftoken")):
            headers.setdefault("X-CSRFToken", csrf)
            headers.setdefault("Referer", self.url("/"))
        if payload is not None:
            options["json"] = payload
        return self.request(method, path, headers=headers, **options)
