"""The limits on the seats' private links, the scoresheet's public writes (scoring/links.py):
per link for writes and live checks, per address for made-up keys only; 429 with Retry-After,
nothing saved, and the cache's outage never locks a scorekeeper out."""

import re
from unittest import mock

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from doko.sample_sheets import full_match
from scoring.models import Scoresheet
from scoring.views.table_parts import table_live
from tests import factories
from tournaments import caching
from tournaments import services as tournament_services

# Every window holds still during a test (tests/conftest.py).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("steady_clock")]

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def english(client):
    client.cookies["django_language"] = "en"


@pytest.fixture
def sheet() -> Scoresheet:
    tournament = factories.tournament(players=8)
    round_ = factories.seated_round(tournament)
    tournament_services.round_start(round=round_)
    return Scoresheet.objects.select_related("table__round__tournament").get(
        table__round=round_, table__number=1
    )


def token(sheet, position) -> str:
    return sheet.table.seats.get(position=position).token


def link(sheet, position, action=""):
    name = "scoring:sheet-link" + (f"-{action}" if action else "")
    return reverse(name, args=[token(sheet, position)])


def quick_hand(version: int) -> dict:
    return {
        "mode": "quick",
        "number": 1,
        "version": version,
        "contract": "normal",
        "game_value": 3,
        "plus_seats": "13",
    }


def api_url(sheet) -> str:
    table = sheet.table
    args = [table.round.tournament.slug, table.round.number, table.number]
    return reverse("api:scoresheet", args=args)


def api_hands(version: int) -> dict:
    first = full_match()[0]
    return {
        "version": version,
        "hands": [{"contract": "normal", "points": {str(s): p for s, p in first.points.items()}}],
    }


def test_the_live_check_through_a_link_is_limited_per_link(client, settings, sheet):
    settings.SEAT_LINK_RATE = "3/min"
    check = link(sheet, 4, "check")
    for _ in range(3):
        assert client.post(check, quick_hand(sheet.version), **HX).status_code == 200
    refused = client.post(check, quick_hand(sheet.version), **HX)
    assert refused.status_code == 429
    assert 0 < int(refused.headers["Retry-After"]) <= 60
    # htmx shows the message above the page (static/js/errors.js): plain text, translated.
    assert refused.headers["Content-Type"].startswith("text/plain")
    assert refused.content.decode() == (
        "Too many requests through this link. Please wait a minute and try again."
    )


def test_a_refused_save_saves_nothing_and_a_page_says_why(client, settings, sheet):
    settings.SEAT_LINK_RATE = "1/min"
    version = sheet.version
    assert client.post(link(sheet, 4, "check"), quick_hand(version), **HX).status_code == 200
    refused = client.post(link(sheet, 4, "save"), quick_hand(version))
    assert refused.status_code == 429
    page = refused.content.decode()
    assert "Too many requests through this link" in page
    assert f'href="{link(sheet, 4)}"' in page  # back to the sheet, not to the POST's address
    sheet.refresh_from_db()
    assert (sheet.version, sheet.hands.count()) == (version, 0)


def test_reading_through_a_link_is_not_counted_per_link(client, settings, sheet):
    settings.SEAT_LINK_RATE = "1/min"
    for _ in range(5):
        assert client.get(link(sheet, 4)).status_code == 200
    assert client.post(link(sheet, 4, "save"), quick_hand(sheet.version)).status_code == 302


def test_each_link_has_its_own_count(client, settings, sheet):
    settings.SEAT_LINK_RATE = "1/min"
    assert client.post(link(sheet, 4, "check"), quick_hand(sheet.version), **HX).status_code == 200
    assert client.post(link(sheet, 4, "check"), quick_hand(sheet.version), **HX).status_code == 429
    other = Scoresheet.objects.get(table__round=sheet.table.round, table__number=2)
    assert client.post(link(other, 4, "check"), quick_hand(sheet.version), **HX).status_code == 200


def test_staff_accounts_are_not_limited_per_link(client, settings, sheet):
    settings.SEAT_LINK_RATE = "1/min"
    organiser = factories.user()
    table = sheet.table
    table.round.tournament.roles.create(user=organiser, role="organiser")
    client.force_login(organiser)
    check = reverse("scoring:sheet-check", args=[table.round.tournament.slug, 1, table.number])
    for _ in range(3):
        assert client.post(check, quick_hand(sheet.version), **HX).status_code == 200


def made_up(n: int) -> str:
    return reverse("scoring:sheet-link", args=[f"{n:x}".rjust(32, "x")])


def test_made_up_keys_get_429_after_their_limit_per_address(client, settings, sheet):
    settings.SEAT_LINK_RATE_UNKNOWN = "3/min"
    for n in range(3):
        assert client.get(made_up(n)).status_code == 404
    refused = client.get(made_up(3))
    assert refused.status_code == 429
    assert 0 < int(refused.headers["Retry-After"]) <= 60
    assert "Too many requests through this link" in refused.content.decode()
    # Another address is counted on its own.
    assert client.get(made_up(4), REMOTE_ADDR="10.0.0.2").status_code == 404


def test_made_up_keys_from_one_address_do_not_block_a_valid_key_from_it(client, settings, sheet):
    """One device in the hall trying keys does not stop the real links behind the same Wi-Fi."""
    settings.SEAT_LINK_RATE_UNKNOWN = "2/min"
    for n in range(5):
        assert client.get(made_up(n)).status_code in {404, 429}
    assert client.get(made_up(9)).status_code == 429
    assert client.get(link(sheet, 4)).status_code == 200
    assert client.post(link(sheet, 4, "check"), quick_hand(sheet.version), **HX).status_code == 200
    assert client.post(link(sheet, 4, "save"), quick_hand(sheet.version)).status_code == 302


def test_real_links_from_one_address_are_not_counted_together(client, settings, sheet):
    """A valid key is limited by its own rate only: a venue's many tables behind one address
    never use up each other's allowance, nor the one for made-up keys."""
    settings.SEAT_LINK_RATE = "2/min"
    settings.SEAT_LINK_RATE_UNKNOWN = "1/min"
    sheets = Scoresheet.objects.filter(table__round=sheet.table.round)
    for each in sheets:
        for position in (1, 2, 3, 4):
            assert client.get(link(each, position)).status_code == 200
        for _ in range(2):
            assert (
                client.post(link(each, 4, "check"), quick_hand(each.version), **HX).status_code
                == 200
            )
    assert client.get(made_up(1)).status_code == 404


def test_the_api_limits_writes_by_a_seat_key_and_saves_nothing(settings, sheet):
    settings.SEAT_LINK_RATE = "1/min"
    api = APIClient()
    headers = {"X-Seat-Key": token(sheet, 4), "Accept-Language": "en"}
    version = sheet.version
    saved = api.put(api_url(sheet), api_hands(version), format="json", headers=headers)
    assert saved.status_code == 200
    refused = api.put(api_url(sheet), api_hands(version + 1), format="json", headers=headers)
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) > 0
    assert refused.json()["detail"].startswith(
        "Too many requests through this link. Please wait a minute and try again."
    )
    assert api.get(api_url(sheet), headers=headers).status_code == 200  # reading goes on
    sheet.refresh_from_db()
    assert sheet.version == version + 1


def test_the_api_limits_made_up_seat_keys_per_address_and_not_valid_ones(settings, sheet):
    settings.SEAT_LINK_RATE_UNKNOWN = "2/min"
    api = APIClient()
    for n in range(2):
        made_up_key = {"X-Seat-Key": f"not-a-key-{n}"}
        assert api.get(api_url(sheet), headers=made_up_key).status_code == 403
    refused = api.get(api_url(sheet), headers={"X-Seat-Key": "not-a-key-3"})
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) > 0
    valid = {"X-Seat-Key": token(sheet, 4)}
    for _ in range(3):
        assert api.get(api_url(sheet), headers=valid).status_code == 200
    put = api.put(api_url(sheet), api_hands(sheet.version), format="json", headers=valid)
    assert put.status_code == 200


def test_a_cache_outage_never_locks_a_scorekeeper_out(client, settings, sheet, monkeypatch):
    settings.SEAT_LINK_RATE = "1/min"

    def broken(*args, **kwargs):
        raise ConnectionError("Redis is down")

    monkeypatch.setattr(cache, "add", broken)
    monkeypatch.setattr(cache, "incr", broken)
    for _ in range(3):
        assert (
            client.post(link(sheet, 4, "check"), quick_hand(sheet.version), **HX).status_code == 200
        )
    assert client.post(link(sheet, 4, "save"), quick_hand(sheet.version)).status_code == 302


@pytest.mark.services
def test_on_redis_a_links_writes_are_counted_by_its_key_and_made_up_keys_per_address(
    client, settings, sheet, redis_cache
):
    """On the Redis a deployment has, a write's count is sent before its key is looked up
    (``limits.windows.rate_count_begin``): it is counted under a digest of the key, never the
    key itself, and limited as in memory; made-up keys still count per address."""
    settings.SEAT_LINK_RATE, settings.SEAT_LINK_RATE_UNKNOWN = "2/min", "2/min"
    check = link(sheet, 4, "check")
    assert [client.post(check, quick_hand(sheet.version), **HX).status_code for _ in range(3)] == [
        200,
        200,
        429,
    ]
    keys = [key.decode() for key in redis_cache._cache.get_client().scan_iter("tests:*")]
    assert len([key for key in keys if ":rate:seat-link:" in key]) == 1
    assert not [key for key in keys if token(sheet, 4) in key]
    assert client.get(link(sheet, 4)).status_code == 200  # reads are not counted
    made_up_save = reverse("scoring:sheet-link-save", args=["y" * 32])
    assert [client.post(made_up_save, quick_hand(1)).status_code for _ in range(3)] == [
        404,
        404,
        429,
    ]
    other = Scoresheet.objects.get(table__round=sheet.table.round, table__number=2)
    assert client.post(link(other, 4, "check"), quick_hand(other.version), **HX).status_code == 200


def test_a_save_makes_the_phones_refresh_of_its_table_once_answered(
    client, sheet, django_capture_on_commit_callbacks
):
    """Once a hand's save through the link has answered, its table's refresh for readers
    without a login is made and kept, in the writer's language (``table_live_prepare``): the
    first phone to ask after the save is answered what would have been made for it, without
    its being made while it waits (issue 45). The live check, which writes nothing, makes
    none."""
    table = sheet.table
    live = reverse("scoring:table-live", args=[table.round.tournament.slug, 1, table.number])
    phone = Client(headers={"HX-Request": "true", "Accept-Language": "en"})
    with mock.patch("scoring.views.table_parts.table_live", wraps=table_live) as made:
        with django_capture_on_commit_callbacks(execute=True):
            checked = client.post(link(sheet, 4, "check"), quick_hand(sheet.version), **HX)
        assert (checked.status_code, made.call_count) == (200, 0)
        with django_capture_on_commit_callbacks(execute=True):
            saved = client.post(link(sheet, 4, "save"), quick_hand(sheet.version), **HX)
        assert (saved.status_code, made.call_count) == (200, 1)
        kept = phone.get(live)
        assert (kept.status_code, made.call_count) == (200, 1)
    caching.memory_clear()
    cache.clear()
    assert phone.get(live).content == kept.content  # as a phone makes it for itself
    assert re.findall(r'<tr>\s*<td class="num">(\d+)</td>', kept.content.decode()) == ["1"]


@pytest.mark.django_db(transaction=True)
def test_a_committed_save_makes_the_refresh_after_its_answer_as_the_site_serves_it(client, caplog):
    """The same on the way production takes: the save commits in the request, and the
    refresh is made at the answer's close (the test client closes it as a server does), with
    nothing failing after the answer."""
    tournament = factories.tournament(players=4)
    tournament_services.round_start(round=factories.seated_round(tournament))
    sheet = Scoresheet.objects.get(table__round__tournament=tournament)
    before = set(cache._cache)  # type: ignore[attr-defined]
    with caplog.at_level("ERROR", logger="tournaments.after_response"):
        saved = client.post(link(sheet, 4, "save"), quick_hand(sheet.version), **HX)
    assert saved.status_code == 200
    assert not [record for record in caplog.records if record.name == "tournaments.after_response"]
    made = [key for key in set(cache._cache) - before if "table-live:" in key]  # type: ignore[attr-defined]
    assert len(made) == 1
