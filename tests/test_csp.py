"""The Content-Security-Policy (config/settings.py, CONTENT_SECURITY_POLICY): on every response,
and every page of the permission matrix (tests/permissions.py), read by each role that may read
it, carries nothing the policy refuses: no inline script or handler, no ``javascript:`` URL, no
inline style."""

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from tests.permissions import MATRIX, PUBLIC, Case, R, T, page_reads, pair_ids, request

HEADER = "Content-Security-Policy"


def directives(header: str) -> dict[str, list[str]]:
    """The policy's directives: name → sources."""
    parts = [part.split() for part in header.split(";") if part.strip()]
    return {name: sources for name, *sources in parts}


class Inline(HTMLParser):
    """What a page carries inline that the policy refuses: handler attributes (``onclick=``),
    script bodies, ``javascript:`` URLs, style attributes and ``<style>`` elements."""

    URL_ATTRIBUTES = {"href", "src", "action", "formaction", "data", "xlink:href"}
    # Scripts a browser does not run (data for scripts), which no policy refuses.
    DATA_TYPES = {"application/json", "application/ld+json"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._script: str | None = None  # the opening tag of an inline script being read

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}=…>")
            if name == "style":
                self.found.append(f"<{tag} style={value!r}>")
            if (
                name in self.URL_ATTRIBUTES
                and value
                and re.sub(r"[\s\x00-\x1f]", "", value).lower().startswith("javascript:")
            ):
                self.found.append(f"<{tag} {name}={value!r}>")
        values = dict(attrs)
        if tag == "style":
            self.found.append("<style>")
        if tag == "script" and (values.get("type") or "").lower() not in self.DATA_TYPES:
            self._script = f"<script {values}>"

    def handle_data(self, data):
        if self._script is not None and data.strip():
            self.found.append(f"{self._script} with a body")

    def handle_endtag(self, tag):
        if tag == "script":
            self._script = None


def inline(html: str) -> list[str]:
    parser = Inline()
    parser.feed(html)
    parser.close()
    return parser.found


def check_policy(response) -> None:
    """The response carries the policy, and the policy allows no inline script or eval."""
    assert HEADER in response, f"no {HEADER} on {response.status_code} {response}"
    policy = directives(response[HEADER])
    for name in ("script-src", "style-src", "default-src"):
        assert policy[name] == ["'self'"], (name, policy[name])
    assert policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["base-uri"] == ["'self'"]
    assert policy["form-action"] == ["'self'"]
    assert policy["img-src"] == ["'self'", "data:"]  # Bootstrap's icons
    assert not any("unsafe" in source for sources in policy.values() for source in sources)


def check_file_policy(response) -> None:
    """A stored file shown in the browser (a signed sheet's photo or scan) carries a policy of
    its own (scoring/scans.py): nothing runs or loads but the file; the PDF viewer's plugin and
    styles are allowed."""
    policy = directives(response[HEADER])
    assert policy["default-src"] == ["'none'"]
    assert "script-src" not in policy
    assert policy["object-src"] == ["'self'"]
    assert policy["frame-ancestors"] == ["'self'"]
    assert response["X-Content-Type-Options"] == "nosniff"


FILES = ("image/", "application/pdf")


# The matrix's pages, and a few states of them it does not reach: the round's questions, the
# staff page's search, the entry list's search.
EXTRA = [
    (Case("tournaments:round", "get", R, PUBLIC, query="?ask=end"), "adjudicator"),
    (Case("tournaments:round", "get", R, PUBLIC, query="?ask=end"), "organiser"),
    (Case("adjudication:staff", "get", T, PUBLIC, query="?q=matrix"), "organiser"),
    (Case("tournaments:entries", "get", T, PUBLIC, query="?q=1"), "organiser"),
]
PAGES = page_reads(MATRIX) + EXTRA


def test_the_matrix_has_pages_to_check():
    names = {case.name for case, role in PAGES}
    assert {
        "tournaments:round",
        "scoring:sheet",
        "scoring:sheet-link",
        "tournaments:standings",
        "adjudication:staff",
        "printing:job",
        "api-docs",
    } <= names


@pytest.mark.django_db
@pytest.mark.parametrize(("case", "role"), PAGES, ids=pair_ids(PAGES))
def test_every_page_has_the_policy_and_nothing_it_refuses(case, role, ctx):
    response = request(case, role, ctx)
    assert response.status_code == 200, response
    if response.get("Content-Type", "").startswith(FILES) and response.get(
        "Content-Disposition", ""
    ).startswith("inline"):  # a stored file, shown in the browser
        check_file_policy(response)
        return
    check_policy(response)
    if response.get("Content-Type", "").startswith("text/html"):
        assert inline(response.content.decode()) == []


@pytest.mark.django_db
@pytest.mark.parametrize(
    "address",
    [
        "/no-such-page/",  # 404
        "/accounts/login/?next=/",
        "/api/v1/tournaments/",  # JSON
        "/api/schema/",
        "/api/docs/?script=",  # the docs' own script
        "/healthz/",
        "/admin/",  # a redirect to the admin's login
    ],
)
def test_every_response_has_the_policy(client, address):
    check_policy(client.get(address))


def test_the_check_finds_what_the_policy_refuses():
    """The checks above look for the right things."""
    page = """<a href="JavaScript:go()">x</a><button onclick="return confirm('x')">y</button>
        <script>alert(1)</script><script src="/static/js/sheet.js"></script>
        <script type="application/json">{"a": 1}</script><div style="width: 5%">z</div>
        <style>p {}</style><form action=" javascript:x"></form>"""
    assert len(inline(page)) == 6
    assert inline('<script src="/static/js/a.js" defer></script><p data-confirm="Sure?">') == []


@pytest.mark.django_db
def test_withdrawing_a_player_asks_through_a_data_attribute(ctx):
    """Withdrawing a player asks through static/js/confirm.js (data-confirm), not onclick."""
    client = Client()
    client.cookies["django_language"] = "en"
    client.force_login(ctx.users["organiser"])
    html = client.get(reverse("tournaments:entries", args=[ctx.slug])).content.decode()
    assert 'data-confirm="Withdraw this player from the rest of the tournament?"' in html
    assert "js/confirm.js" in html


def test_no_template_has_a_style_attribute():
    """A style attribute is refused under the policy (style-src without 'unsafe-inline'),
    page or fragment, whether or not the matrix above renders it: classes in app.css instead
    (issue 47: the season plan's form)."""
    root = Path(__file__).resolve().parent.parent / "templates"
    found = [
        str(path.relative_to(root))
        for path in sorted(root.rglob("*.html"))
        if re.search(r"\sstyle=[\"']", path.read_text())
    ]
    assert found == []
