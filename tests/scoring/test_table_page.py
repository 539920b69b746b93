"""A table's page: its sheet with running totals and the check, as the sheet's own link reads
it (TSR 7.3, 8.5.3)."""

import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from doko.rules.contracts import Contract
from doko.sample_sheets import full_match, solo
from scoring import selectors as scoring_selectors
from scoring import services as scoring_services
from scoring.models import Scoresheet
from scoring.views.tables import table_live_prepare
from tests import factories
from tournaments import services

pytestmark = pytest.mark.django_db


def test_table_page_shows_the_sheet_with_running_totals_and_check(client, played):
    tournament, _, _ = played
    response = client.get(reverse("scoring:table", args=[tournament.slug, 1, 2]))
    assert response.status_code == 200
    rows = response.context["hand_rows"]
    assert len(rows) == 24  # 20 + 4 compulsory solos (TSR 8.5.1)
    assert rows[-1].totals == [sum(row.points[i] for row in rows) for i in range(4)]
    assert response.context["check"].complete
    assert response.context["problems"] == []


def test_the_table_page_checks_the_sheet_with_its_end_of_playing_time(client):
    # After the time only forced solos follow (TSR 8.5.3): the table page must read the sheet
    # as its link does, not as if the time still ran.
    organiser = factories.user()
    tournament = factories.tournament(players=4, organiser=organiser)
    round_ = factories.seated_round(tournament)
    services.round_start(round=round_)
    sheet = Scoresheet.objects.get(table__round=round_)
    keeper = factories.keeper(sheet)
    lines = [line for line in full_match() if line.contract == "normal"][:10]
    sheet = scoring_services.scoresheet_hands_replace(
        scoresheet=sheet, hands=lines, version=sheet.version, by=keeper
    )
    services.round_end(round=round_, by=organiser)  # notes the end after the 10 hands
    sheet.refresh_from_db()
    sheet = scoring_services.scoresheet_hands_replace(
        scoresheet=sheet, hands=lines, version=sheet.version, by=keeper, time_over_after_hand=10
    )
    check = scoring_selectors.sheet_state(sheet=sheet).check
    for _ in range(4):
        lines.append(solo_for(check.next))
        check = scoring_selectors.scoresheet_check(
            scoresheet=sheet, hands=lines, table_size=4, time_over_after_hand=10
        )
    sheet = scoring_services.scoresheet_hands_replace(
        scoresheet=sheet, hands=lines, version=sheet.version, by=keeper, time_over_after_hand=10
    )
    scoring_services.scoresheet_submit(scoresheet=sheet, version=sheet.version, by=keeper)
    response = client.get(reverse("scoring:table", args=[tournament.slug, 1, 1]))
    assert response.context["problems"] == []
    assert response.context["check"].complete
    assert "Die Spielrunde ist vollständig." in response.content.decode()


def solo_for(due):
    return solo(due.dealer, due.forced_soloist, 1, contract=Contract.FORCED_SOLO)


def test_the_table_page_refreshes_its_sheet_while_the_round_is_played(
    client, django_capture_on_commit_callbacks
):
    """Players following their table's sheet need not reload: the page asks for its sheet
    every 20 s, and is answered 304 while nothing changed (issue 36)."""
    tournament = factories.tournament(players=4)
    round_ = services.round_start(round=factories.seated_round(tournament))
    page = client.get(reverse("scoring:table", args=[tournament.slug, 1, 1])).content.decode()
    live = reverse("scoring:table-live", args=[tournament.slug, 1, 1])
    assert f'hx-get="{live}" hx-trigger="every 20s" hx-swap="outerHTML"' in page
    first = client.get(live, headers={"HX-Request": "true"})
    assert first.status_code == 200
    assert first["Cache-Control"] == "no-cache"
    assert "<html" not in first.content.decode()
    again = client.get(live, headers={"HX-Request": "true", "If-None-Match": first["ETag"]})
    assert again.status_code == 304
    sheet = Scoresheet.objects.get(table__round=round_)
    with django_capture_on_commit_callbacks(execute=True):
        scoring_services.scoresheet_hands_replace(
            scoresheet=sheet,
            hands=full_match()[:1],
            version=sheet.version,
            by=factories.keeper(sheet),
        )
    changed = client.get(live, headers={"HX-Request": "true", "If-None-Match": first["ETag"]})
    assert changed.status_code == 200
    html = changed.content.decode()
    assert "<tbody>" in html  # the hand, where there was none
    # The players' points and the sheet's state come along, out of band.
    assert re.search(r'<ol id="table-seats"[^>]* hx-swap-oob="true">', html)
    assert '<span id="table-status" hx-swap-oob="true">' in html


def test_the_table_page_of_a_round_not_started_does_not_refresh_itself(client):
    tournament = factories.tournament(players=4)
    factories.seated_round(tournament)
    page = client.get(reverse("scoring:table", args=[tournament.slug, 1, 1])).content.decode()
    assert 'id="table-sheet"' in page
    assert "hx-trigger" not in page[page.index('id="table-sheet"') :][:300]


def test_a_phones_refresh_of_an_unchanged_table_reads_no_table(
    client, django_assert_max_num_queries, django_capture_on_commit_callbacks
):
    """Two phones a player ask every 20 s (issue 36): while nothing at the table changed, the
    answer is a 304 from the table's versions in the cache (the round's row read, the
    tournament being the cached public head; not the table, its sheet or its decisions), and a phone without the page gets the answer
    built for the first; a new name at the table is a new answer."""
    tournament = factories.tournament(players=8)
    services.round_start(round=factories.seated_round(tournament))
    live = reverse("scoring:table-live", args=[tournament.slug, 1, 1])
    first = client.get(live, headers={"HX-Request": "true"})
    assert first["ETag"].startswith('W/"table-')
    with django_assert_max_num_queries(1):
        again = client.get(live, headers={"HX-Request": "true", "If-None-Match": first["ETag"]})
    assert again.status_code == 304
    assert again["ETag"] == first["ETag"]
    # Another phone, with nothing cached yet, gets the answer the first one's request built.
    with django_assert_max_num_queries(1):
        another = client.get(live, headers={"HX-Request": "true"})
    assert another.status_code == 200
    assert another.content == first.content
    assert another["ETag"] == first["ETag"]
    # A hand at table 2 leaves table 1's page as it was.
    other = Scoresheet.objects.get(table__round__tournament=tournament, table__number=2)
    with django_capture_on_commit_callbacks(execute=True):
        scoring_services.scoresheet_hands_replace(
            scoresheet=other,
            hands=full_match()[:1],
            version=other.version,
            by=factories.keeper(other),
        )
    same = client.get(live, headers={"HX-Request": "true", "If-None-Match": first["ETag"]})
    assert same.status_code == 304
    entry = Scoresheet.objects.get(table__round__tournament=tournament, table__number=1)
    entry = entry.table.seats.get(position=1).entry
    with django_capture_on_commit_callbacks(execute=True):
        services.entry_update(
            entry=entry,
            first_name="Jürgen",
            last_name="Öztürk",
            start_number=entry.start_number,
            by=factories.organiser(tournament),
        )
    renamed = client.get(live, headers={"HX-Request": "true", "If-None-Match": first["ETag"]})
    assert renamed.status_code == 200
    assert "Öztürk" in renamed.content.decode()


def test_a_logged_in_readers_table_refresh_is_tagged_by_its_content(client):
    """The organiser's page holds the seats' private links: his refresh is not answered from
    the versions the phones' is (their ETag names no user), and no browser keeps it
    (config/privacy.py), so it is sent whole every time."""
    tournament = factories.tournament(players=4)
    services.round_start(round=factories.seated_round(tournament))
    client.force_login(factories.organiser(tournament))
    live = reverse("scoring:table-live", args=[tournament.slug, 1, 1])
    phones = Client().get(live, headers={"HX-Request": "true"})["ETag"]
    first = client.get(live, headers={"HX-Request": "true"})
    assert first.status_code == 200
    assert first["Cache-Control"] == "private, no-store"
    assert not first.get("ETag", "").startswith('W/"table-')
    again = client.get(live, headers={"HX-Request": "true", "If-None-Match": phones})
    assert again.status_code == 200


@pytest.mark.parametrize("number", ["0", "2", "9" * 18, "9" * 19, "99999999999999999999"])
@pytest.mark.parametrize("part", ["rounds", "tables"])
def test_a_round_or_table_that_is_not_there_is_a_404_however_large_its_number(client, part, number):
    """A number no column holds finds nothing, as any other that is not there; beyond 18 digits
    it is no route (``tournaments.converters``: SQLite binds no integer past 64 bits)."""
    tournament = factories.tournament(players=4)
    services.round_start(round=factories.seated_round(tournament))
    for name in ("scoring:table", "scoring:table-live"):
        url = reverse(name, args=[tournament.slug, 1, 1])
        url = url.replace(f"/{part}/1/", f"/{part}/{number}/")
        assert client.get(url, headers={"HX-Request": "true"}).status_code == 404


@pytest.mark.parametrize("hidden", [None, "tournament", "seating"])
def test_a_refresh_is_made_only_of_a_table_its_phones_see(hidden):
    """``table_live_prepare`` after a write makes the refresh of readers without a login, and
    leaves alone what they cannot ask for: a tournament that is not public, a seating not yet
    published."""
    tournament = factories.tournament(players=4, is_public=hidden != "tournament")
    factories.seated_round(tournament, publish=hidden != "seating")
    before = set(cache._cache)  # type: ignore[attr-defined]
    table_live_prepare(slug=tournament.slug, number=1, table=1, language="de")
    made = [key for key in set(cache._cache) - before if "table-live:" in key]  # type: ignore[attr-defined]
    assert len(made) == (hidden is None)
