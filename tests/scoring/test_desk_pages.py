"""The desk's page of a round (scoring/views/desk.py): every table's sheet at a glance, the jump
to a table's sheet, the filter, the refresh with its 304, who may read it, and its cache."""

import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from adjudication.models import Decision
from doko.sample_sheets import full_match
from scoring import services
from scoring.models import Scoresheet
from tests import factories
from tournaments import caching
from tournaments import services as tournament_services
from tournaments.models import Round

pytestmark = pytest.mark.django_db


def desk_url(world, name="scoring:desk"):
    return reverse(name, args=[world.tournament.slug, world.round.number])


def client_of(user, language="en"):
    client = Client(headers={"accept-language": language})
    client.force_login(user)
    return client


def rows(html: str) -> list[tuple[str, str]]:
    """The list's rows: the table number and the row's state."""
    return re.findall(r'<tr class="desk-([a-z_]+)">\s*<th scope="row"><a [^>]*>(\d+)</a>', html)


def test_the_page_lists_every_table_by_what_needs_the_desk_next(desk_world):
    response = client_of(desk_world.organiser).get(desk_url(desk_world))
    assert response.status_code == 200
    html = response.content.decode()
    assert [number for _state, number in rows(html)] == ["7", "5", "3", "6", "2", "1", "4", "8"]
    for said in (
        "differences to settle</span> hand 7<",
        "complaint open",
        "handed in",
        "second entry: 5 of 24 typed by Zora Zweit",
        "5 of 24 typed",
        "no hand yet",
        "by double entry",
        "by the table",
    ):
        assert said in html, said


def test_the_summary_counts_each_state_and_filters_the_list(desk_world):
    client = client_of(desk_world.organiser)
    html = client.get(desk_url(desk_world)).content.decode()
    summary = re.search(r'<p class="desk-summary[^"]*">(.*?)</p>', html).group(1)
    assert re.sub(r"<[^>]+>", "", summary) == (
        "1 to settle · 1 complaint open · 1 handed in · 1 waiting for the second entry · "
        "1 being typed · 1 with no hand yet · 2 of 8 confirmed"
    )
    assert '?state=typing">1 being typed' in summary
    filtered = client.get(desk_url(desk_world), {"state": "confirmed"}).content.decode()
    assert rows(filtered) == [("confirmed", "4"), ("confirmed", "8")]
    assert "every table</a>" in filtered


def test_an_unknown_state_is_refused_naming_the_field(desk_world):
    response = client_of(desk_world.organiser).get(desk_url(desk_world), {"state": "done"})
    assert response.status_code == 400
    assert "“state” must be one of settle, complaint" in response.content.decode()


def test_each_row_opens_its_tables_sheet(desk_world):
    html = client_of(desk_world.organiser).get(desk_url(desk_world)).content.decode()
    sheet = reverse("scoring:sheet", args=[desk_world.tournament.slug, 1, 3])
    assert f'<th scope="row"><a href="{sheet}">3</a></th>' in html


def test_a_table_number_and_enter_open_its_sheet(desk_world):
    response = client_of(desk_world.organiser).get(desk_url(desk_world), {"table": " 6 "})
    assert response.status_code == 302
    assert response["Location"] == reverse("scoring:sheet", args=[desk_world.tournament.slug, 1, 6])


def test_an_unknown_table_is_said_beside_the_field(desk_world):
    response = client_of(desk_world.organiser).get(desk_url(desk_world), {"table": "99"})
    assert response.status_code == 404
    html = response.content.decode()
    assert 'class="form-control is-invalid" value="99"' in html
    assert (
        '<div id="desk-table-error" class="invalid-feedback">Round 1 has no table 99.</div>' in html
    )
    assert len(rows(html)) == 8  # and the list as ever


def test_what_is_no_table_number_is_said_beside_the_field(desk_world):
    response = client_of(desk_world.organiser).get(desk_url(desk_world), {"table": "sieben"})
    assert response.status_code == 400
    assert "Type the number of a table, e.g. 7." in response.content.decode()


def test_the_field_is_focused_and_slash_comes_back_to_it(desk_world):
    html = client_of(desk_world.organiser).get(desk_url(desk_world)).content.decode()
    assert re.search(r'<input id="desk-table" name="table"[^>]* autofocus', html)
    assert 'src="/static/js/desk.js"' in html


def test_the_list_refreshes_itself_and_answers_304_while_nothing_changed(desk_world):
    client = client_of(desk_world.organiser)
    page = client.get(desk_url(desk_world), {"state": "typing"}).content.decode()
    polled = desk_url(desk_world, "scoring:desk-list") + "?state=typing"
    assert f'hx-get="{polled}" hx-trigger="every 10s"' in page
    first = client.get(polled)
    assert first.status_code == 200
    assert first["Cache-Control"] == "private, no-store"  # config/privacy.py
    again = client.get(polled, headers={"if-none-match": first["ETag"]})
    assert again.status_code == 304
    assert (
        client.get(desk_url(desk_world, "scoring:desk-list")).status_code == 200
    )  # another filter


def test_a_change_answers_the_list_anew(desk_world, django_capture_on_commit_callbacks):
    client = client_of(desk_world.organiser)
    polled = desk_url(desk_world, "scoring:desk-list")
    etag = client.get(polled)["ETag"]
    sheet = desk_world.sheets[1]
    with django_capture_on_commit_callbacks(execute=True):
        services.scoresheet_hands_replace(
            scoresheet=sheet,
            hands=full_match()[:1],
            version=sheet.version,
            by=factories.keeper(sheet),
        )
    answer = client.get(polled, headers={"if-none-match": etag})
    assert answer.status_code == 200
    assert answer["ETag"] != etag
    assert "1 of 24 typed" in answer.content.decode()


def test_a_save_through_a_seat_link_shows_at_the_desk_at_once(
    desk_world, django_capture_on_commit_callbacks
):
    """The list is cached under the round's version, which the save raises once it commits:
    the next request shows it, nothing stale."""
    client = client_of(desk_world.organiser)
    assert ">5 of 24 typed<" in client.get(desk_url(desk_world)).content.decode()
    sheet = desk_world.sheets[2]
    keeper = sheet.table.seats.get(position=4)
    row = {
        "version": sheet.version,
        "number": 6,
        "mode": "quick",
        "contract": "normal",
        "game_value": 1,
        "plus_seats": "13",
    }
    with django_capture_on_commit_callbacks(execute=True):
        saved = Client().post(reverse("scoring:sheet-link-save", args=[keeper.token]), row)
    assert saved.status_code == 302
    html = client.get(desk_url(desk_world)).content.decode()
    assert ">6 of 24 typed<" in html
    assert ">5 of 24 typed<" not in html


def test_a_forgotten_version_starts_afresh_and_shows_the_round_as_it_is(desk_world):
    client = client_of(desk_world.organiser)
    client.get(desk_url(desk_world))
    Decision.objects.filter(scoresheet=desk_world.sheets[5]).delete()  # by no service
    cache.delete(f"round-version:{desk_world.round.pk}")
    caching.memory_clear()
    html = client.get(desk_url(desk_world)).content.decode()
    assert ("typing", "5") in rows(html)


def test_without_the_cache_the_page_is_read_from_the_database(desk_world, monkeypatch):
    monkeypatch.setattr(caching, "round_version", lambda round_id: None)
    response = client_of(desk_world.organiser).get(desk_url(desk_world, "scoring:desk-list"))
    assert response.status_code == 200
    assert len(rows(response.content.decode())) == 8


# Who ------------------------------------------------------------------------------------------


def test_a_visitor_is_asked_to_log_in(desk_world):
    response = Client().get(desk_url(desk_world))
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_an_account_without_a_role_is_told_who_reads_the_desk(desk_world):
    response = client_of(factories.user()).get(desk_url(desk_world, "scoring:desk-list"))
    assert response.status_code == 403
    assert "Only the tournament&#x27;s staff see the desk" in response.content.decode()


def test_a_scorekeeper_account_reads_the_desk(desk_world):
    assert client_of(desk_world.second).get(desk_url(desk_world)).status_code == 200


def test_a_scorekeeper_account_waits_until_the_seating_is_published():
    tournament = factories.tournament(players=4)
    round_ = factories.seated_round(tournament, publish=False)
    keeper = factories.user()
    factories.role_grant(tournament=tournament, user=keeper, role="scorekeeper")
    response = client_of(keeper).get(reverse("scoring:desk", args=[tournament.slug, round_.number]))
    assert response.status_code == 403
    assert "has not been published yet" in response.content.decode()


def test_a_private_tournaments_desk_is_not_found_by_others(desk_world):
    desk_world.tournament.is_public = False
    desk_world.tournament.save()
    assert client_of(factories.user()).get(desk_url(desk_world)).status_code == 404


def test_a_round_page_links_the_desk_for_the_staff_only(desk_world):
    url = reverse("tournaments:round", args=[desk_world.tournament.slug, 1])
    link = f'href="{desk_url(desk_world)}"'
    assert link in client_of(desk_world.organiser).get(url).content.decode()
    assert link not in Client().get(url).content.decode()
    assert link not in client_of(factories.user()).get(url).content.decode()


def test_a_sheet_page_leads_back_to_the_desk(desk_world):
    url = reverse("scoring:sheet", args=[desk_world.tournament.slug, 1, 2])
    html = client_of(desk_world.organiser).get(url).content.decode()
    assert f'<a href="{desk_url(desk_world)}">Desk</a>' in html


def test_a_round_not_drawn_says_it_has_no_tables():
    organiser = factories.user()
    tournament = factories.tournament(players=4, organiser=organiser)
    round_ = tournament_services.round_create(tournament=tournament)
    response = client_of(organiser).get(
        reverse("scoring:desk", args=[tournament.slug, round_.number])
    )
    assert "The round has no tables yet" in response.content.decode()


def test_the_desk_speaks_german(desk_world):
    html = client_of(desk_world.organiser, "de").get(desk_url(desk_world)).content.decode()
    for said in ("Tischnummer", "Abweichungen abzugleichen", "2 von 8 bestätigt"):
        assert said in html, said


# Queries --------------------------------------------------------------------------------------


def _running_round(tables: int):
    organiser = factories.user()
    tournament = factories.tournament(
        players=4 * tables, organiser=organiser, seating_method="random"
    )
    round_ = factories.seated_round(tournament)
    tournament_services.round_start(round=round_)
    sheet = Scoresheet.objects.filter(table__round=round_).first()
    services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match()[:3], version=sheet.version, by=factories.keeper(sheet)
    )
    return organiser, Round.objects.get(pk=round_.pk)


@pytest.mark.parametrize("tables", [4, 40])
def test_the_page_takes_as_many_queries_at_4_tables_as_at_40(tables, django_assert_num_queries):
    organiser, round_ = _running_round(tables)
    client = client_of(organiser)
    url = reverse("scoring:desk", args=[round_.tournament.slug, round_.number])
    # The session, its user, the round with the reader's roles; then the list's two.
    with django_assert_num_queries(5):
        assert client.get(url).status_code == 200
    # The same session a moment later: its reader, the round's version and the page are
    # remembered in this process (DESK_READER_SECONDS), and nothing is read again.
    with django_assert_num_queries(0):
        assert client.get(url).status_code == 200
        assert client.get(url.replace("/desk/", "/desk/list/")).status_code == 200


def test_a_reader_is_looked_up_again_once_the_moment_has_passed(
    settings, django_assert_num_queries
):
    settings.DESK_READER_SECONDS = 0
    organiser, round_ = _running_round(4)
    client = client_of(organiser)
    url = reverse("scoring:desk-list", args=[round_.tournament.slug, round_.number])
    assert client.get(url).status_code == 200
    # The session, its user, the round with the reader's roles: the list itself is cached.
    with django_assert_num_queries(3):
        assert client.get(url).status_code == 200


def test_a_logout_ends_the_remembered_reader_at_once(desk_world):
    client = client_of(desk_world.organiser)
    url = desk_url(desk_world, "scoring:desk-list")
    assert client.get(url).status_code == 200
    session = client.cookies["sessionid"].value
    client.post(reverse("logout"))
    client.cookies["sessionid"] = session  # the old cookie, as a copy of it would send it
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_a_role_taken_away_is_refused_once_the_moment_has_passed(desk_world, settings):
    client = client_of(desk_world.second)
    url = desk_url(desk_world, "scoring:desk-list")
    assert client.get(url).status_code == 200
    desk_world.tournament.roles.filter(user=desk_world.second).delete()
    caching.memory_clear()  # DESK_READER_SECONDS later, in every process
    assert client.get(url).status_code == 403


def test_a_browser_that_takes_gzip_gets_the_list_compressed_and_a_304_after(desk_world):
    import gzip

    client = client_of(desk_world.organiser)
    url = desk_url(desk_world, "scoring:desk-list")
    plain = client.get(url)
    packed = client.get(url, headers={"accept-encoding": "gzip, deflate, br"})
    assert packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"]
    assert gzip.decompress(packed.content) == plain.content
    assert len(packed.content) < len(plain.content) / 3
    assert packed["ETag"] != plain["ETag"]
    again = client.get(url, headers={"accept-encoding": "gzip", "if-none-match": packed["ETag"]})
    assert again.status_code == 304
