"""What the public standings keep in the cache is bounded by the standings, not by the requests:
offsets and limits of the API are answered in whole pages of a few sizes, and pages past the
end are 404s that cache nothing (docs/security.md)."""

import math
from unittest import mock

import pytest
from django.core.cache import cache
from django.template.loader import render_to_string
from django.urls import reverse
from rest_framework.test import APIClient

from tests import factories
from tournaments import services
from tournaments.api.standings import PAGE_SIZES
from tournaments.models import StandingsWanted
from tournaments.services import standings as standings_services
from tournaments.services.standings import standings_rebuild_task
from tournaments.standings_html import STANDINGS_PAGE_SIZE

pytestmark = pytest.mark.django_db
PLAYERS = 130


@pytest.fixture
def field():
    tournament = factories.tournament(players=PLAYERS)
    services.standings_rebuild(tournament_id=tournament.pk)  # once, not after every entry
    tournament.refresh_from_db()
    return tournament


@pytest.fixture
def small():
    tournament = factories.tournament(players=4)
    services.standings_rebuild(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    return tournament


def _keys() -> set[str]:
    """The keys in the test's cache (LocMemCache, as without REDIS_URL)."""
    return set(cache._cache)  # type: ignore[attr-defined]


def test_fifteen_hundred_offsets_limits_and_pages_cache_a_bounded_number_of_answers(client, field):
    api = APIClient()
    standings = reverse("api:standings", args=[field.slug])
    page, table = (
        reverse(name, args=[field.slug])
        for name in ("tournaments:standings", "tournaments:standings-table")
    )
    asked = [
        (api, standings, {"offset": offset, "limit": limit})
        for offset in range(150)
        for limit in (1, 9, 10, 11, 30, 50, 99, 200)
    ] + [(client, url, {"page": number}) for url in (page, table) for number in range(1, 151)]
    assert len(asked) == 1500

    statuses: dict[int, int] = {}
    for reader, url, query in asked:
        status = reader.get(url, query).status_code
        statuses[status] = statuses.get(status, 0) + 1

    # Past the end: an offset whose page starts after the 130th row, pages from the third.
    def page_start(offset, limit):
        size = min(size for size in PAGE_SIZES if size >= limit)
        return offset // size * size

    past = sum(
        page_start(query["offset"], query["limit"]) >= PLAYERS for _, _, query in asked[:1200]
    )
    assert past == 60  # offsets 130 to 149 in pages of 10
    assert statuses == {200: 1200 - past + 2 * 2, 404: past + 2 * 148}
    api_answers = sum(math.ceil(PLAYERS / size) for size in PAGE_SIZES)  # 13 + 6 + 3 + 2 + 1
    pages = math.ceil(PLAYERS / STANDINGS_PAGE_SIZE)  # each a table and a whole page
    keys = _keys()
    assert len([key for key in keys if "standings-json" in key]) == api_answers == 25
    assert len([key for key in keys if "standings-html" in key]) == pages == 2
    assert len([key for key in keys if "standings-page" in key]) == pages
    # Besides them: the stored standings, the tournament's own fields and their generation.
    assert len(keys) == api_answers + 2 * pages + 3


def test_a_limit_is_rounded_up_to_a_page_size_and_the_offset_down_to_its_page(small):
    answer = APIClient().get(reverse("api:standings", args=[small.slug]), {"offset": 3, "limit": 2})
    data = answer.json()
    assert (data["offset"], data["limit"], data["count"]) == (0, 10, 4)
    assert [row["start_number"] for row in data["rows"]] == [1, 2, 3, 4]
    assert answer["ETag"].endswith('-0-10"')


def test_an_offset_past_the_last_row_is_a_404_that_caches_nothing(small):
    api = APIClient()
    url = reverse("api:standings", args=[small.slug])
    assert api.get(url).status_code == 200
    before = _keys()
    answer = api.get(url, {"offset": 10, "limit": 10}, headers={"accept-language": "en"})
    assert answer.status_code == 404
    assert answer.json() == {"offset": "The standings have 4 rows; none from 10."}
    assert _keys() == before


def test_the_first_page_of_standings_without_rows_is_empty_not_a_404():
    tournament = factories.tournament()
    data = APIClient().get(reverse("api:standings", args=[tournament.slug])).json()
    assert (data["count"], data["offset"], data["rows"]) == (0, 0, [])


@pytest.mark.parametrize(
    ("query", "field_named"),
    [
        ({"limit": 201}, "limit"),
        ({"limit": 2000}, "limit"),
        ({"limit": 0}, "limit"),
        ({"limit": "zehn"}, "limit"),
        ({"offset": -1}, "offset"),
        ({"offset": "²"}, "offset"),
        ({"offset": "1" * 1001}, "offset"),
    ],
)
def test_an_offset_or_limit_that_is_no_number_of_rows_is_a_400_naming_it(small, query, field_named):
    api = APIClient()
    url = reverse("api:standings", args=[small.slug])
    assert api.get(url).status_code == 200
    before = _keys()
    answer = api.get(url, query)
    assert answer.status_code == 400
    assert list(answer.json()) == [field_named]
    assert _keys() == before


@pytest.mark.parametrize("name", ["tournaments:standings", "tournaments:standings-table"])
def test_a_page_past_the_last_is_a_404_that_caches_nothing(client, small, name):
    url = reverse(name, args=[small.slug])
    assert client.get(url, {"page": 1}).status_code == 200
    before = _keys()
    assert client.get(url, {"page": 2}).status_code == 404
    assert client.get(url, {"page": 999_999_999}).status_code == 404
    assert _keys() == before


@pytest.mark.parametrize("value", ["0", "-1", "abc", "²", "1.5", "", "1234567890"])
@pytest.mark.parametrize("name", ["tournaments:standings", "tournaments:standings-table"])
def test_a_page_that_is_no_page_number_is_a_400_naming_it(client, small, name, value):
    url = reverse(name, args=[small.slug])
    assert client.get(url).status_code == 200
    before = _keys()
    answer = client.get(url, {"page": value})
    assert answer.status_code == 400
    assert answer.content.decode().startswith(("“page”", "„page“"))  # English, German
    assert _keys() == before


def test_hidden_standings_are_one_page_whichever_is_asked_for(client, small):
    small.standings_public = False
    small.save(update_fields=["standings_public"])
    url = reverse("tournaments:standings-table", args=[small.slug])
    first = client.get(url)
    assert client.get(url, {"page": 3})["ETag"] == first["ETag"]
    assert client.get(url, {"page": 3}).content == first.content


# Made by the worker that rebuilt them ----------------------------------------------------------


def _tables_made(before: set[str]) -> set[str]:
    return {key for key in _keys() - before if "standings-html:" in key}


def test_a_workers_rebuild_makes_the_first_page_for_the_phones_in_the_sites_language(
    client, small, settings
):
    """A worker's rebuild (Celery not eager) makes the first page of the standings table for
    readers without a login, in the site's language, under the version their refresh asks
    for: the first phone after a change finds it made, where it made it while it waited
    (issue 45). A reader of another language makes his own, as before."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    before = _keys()
    standings_rebuild_task(small.pk)
    assert len(_tables_made(before)) == 1
    url = reverse("tournaments:standings-table", args=[small.slug])
    for language, made in [(settings.LANGUAGE_CODE, 0), ("en", 1)]:
        with mock.patch(
            "tournaments.standings_html.render_to_string", wraps=render_to_string
        ) as rendered:
            response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 200
        assert response.headers["Content-Language"] == language
        assert rendered.call_count == made  # 0: served as the worker made it


def test_no_page_is_made_of_standings_a_later_change_wants_rebuilt_again(small, settings):
    """A change that wanted new standings while the worker rebuilt them has its own rebuild
    follow, which makes the page: the version between is made for nobody (a round's last
    hand-ins and confirmations come within seconds of each other)."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    rebuild = standings_services.standings_rebuild

    def rebuilt_as_another_change_commits(*, tournament_id):
        done = rebuild(tournament_id=tournament_id)
        StandingsWanted.objects.create(tournament_id=tournament_id)
        return done

    before = _keys()
    with mock.patch.object(
        standings_services, "standings_rebuild", rebuilt_as_another_change_commits
    ):
        standings_rebuild_task(small.pk)
    assert not _tables_made(before)
    standings_rebuild_task(small.pk)  # the later change's own rebuild
    assert len(_tables_made(before)) == 1


def test_the_rebuild_makes_no_page_where_celery_runs_in_the_web_process(small):
    """Eager (no broker): the rebuild runs in the web process, and the first phone to ask
    makes the page, as before."""
    before = _keys()
    standings_rebuild_task(small.pk)
    assert not _tables_made(before)


def test_no_page_is_made_of_standings_hidden_or_of_a_tournament_not_public(small, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    small.standings_public = False
    small.save(update_fields=["standings_public"])
    before = _keys()
    standings_rebuild_task(small.pk)
    assert not _tables_made(before)
    small.standings_public, small.is_public = True, False
    small.save(update_fields=["standings_public", "is_public"])
    standings_rebuild_task(small.pk)
    assert not _tables_made(before)
