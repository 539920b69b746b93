"""The public standings, the players' pages and the ranking lists: what a phone sees, what
the organiser hides, the ETags that make an unchanged page cheap, and query counts that do
not grow with the field."""

import csv
import datetime
import io
from unittest import mock

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.http import Http404
from django.urls import reverse

from rankings.models import RankingList
from rankings.services.admissions import ranking_admission_admit, ranking_admission_request
from rankings.services.lists import ranking_list_save
from scoring import services as scoring_services
from scoring.models import Scoresheet
from tests import factories
from tests.tournaments.helpers import play, settings_form
from tournaments import caching, selectors, services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english(client):
    client.cookies["django_language"] = "en"


def test_the_standings_rank_every_player_with_provisional_results_apart(client, kreuzpokal):
    tournament, _ = kreuzpokal
    response = client.get(reverse("tournaments:standings", args=[tournament.slug]))
    page = response.content.decode()
    assert response.status_code == 200
    assert page.count('href="/tournaments/kreuzpokal') >= 12
    assert "provisional: handed in, not yet confirmed" in page
    assert "Equal points are ranked by the sum of the table placings, the best single round" in page
    assert 'hx-trigger="every 20s"' in page


def test_the_search_on_the_standings_fits_a_phone_in_german(client, kreuzpokal):
    """The walk on a phone: the placeholder "Ihr Name oder Ihre Startnummer" was cut off in
    the field beside its button; the short one the players page uses fits."""
    tournament, _ = kreuzpokal
    client.cookies["django_language"] = "de"
    page = client.get(reverse("tournaments:standings", args=[tournament.slug])).content.decode()
    assert 'placeholder="Name oder Startnummer"' in page
    assert 'aria-label="Ihr Name oder Ihre Startnummer"' in page


def test_an_unchanged_table_is_a_304(client, kreuzpokal):
    tournament, _ = kreuzpokal
    url = reverse("tournaments:standings-table", args=[tournament.slug])
    first = client.get(url)
    assert first.status_code == 200
    assert first["Cache-Control"] == "no-cache"
    etag = first["ETag"]
    assert client.get(url, headers={"if-none-match": etag}).status_code == 304
    # The anonymous full page too.
    page = client.get(reverse("tournaments:standings", args=[tournament.slug]))
    again = client.get(
        reverse("tournaments:standings", args=[tournament.slug]),
        headers={"if-none-match": page["ETag"]},
    )
    assert again.status_code == 304


def test_a_confirm_changes_the_etag(client, kreuzpokal, django_capture_on_commit_callbacks):
    tournament, _organiser = kreuzpokal
    url = reverse("tournaments:standings-table", args=[tournament.slug])
    etag = client.get(url)["ETag"]
    sheet = Scoresheet.objects.get(status=Scoresheet.Status.SUBMITTED)
    with django_capture_on_commit_callbacks(execute=True):
        scoring_services.scoresheet_confirm(
            scoresheet=sheet, version=sheet.version, by=factories.checker(sheet)
        )
    response = client.get(url, headers={"if-none-match": etag})
    assert response.status_code == 200
    assert response["ETag"] != etag
    assert "provisional" not in response.content.decode()


def test_the_language_changes_the_etag(client, kreuzpokal):
    tournament, _ = kreuzpokal
    url = reverse("tournaments:standings-table", args=[tournament.slug])
    english = client.get(url)["ETag"]
    client.cookies["django_language"] = "de"
    german = client.get(url, headers={"if-none-match": english})
    assert german.status_code == 200
    assert german["ETag"] != english
    assert "Rang" in german.content.decode()


@pytest.mark.parametrize(("players", "rounds"), [(8, 1), (16, 2)])
def test_the_standings_cost_the_same_queries_for_any_field(
    client, django_assert_num_queries, django_capture_on_commit_callbacks, players, rounds
):
    with django_capture_on_commit_callbacks(execute=True):
        tournament = factories.tournament(players=players)
        play(tournament, rounds=rounds)
    page = reverse("tournaments:standings", args=[tournament.slug])
    table = reverse("tournaments:standings-table", args=[tournament.slug])
    # With an empty cache (in a process that did not rebuild them): the tournament and the
    # stored standings.
    cache.clear()
    caching.memory_clear()
    with django_assert_num_queries(2):
        assert client.get(table).status_code == 200
    # From then on everything comes from the cache: no query at all for a phone.
    with django_assert_num_queries(0):
        response = client.get(table)
    with django_assert_num_queries(0):
        assert client.get(table, headers={"if-none-match": response["ETag"]}).status_code == 304
    with django_assert_num_queries(0):
        assert client.get(page).status_code == 200


@pytest.mark.parametrize("name", ["tournaments:standings", "tournaments:standings-table"])
def test_a_page_from_memory_is_the_page_rendered(client, kreuzpokal, name):
    tournament, _ = kreuzpokal
    url = reverse(name, args=[tournament.slug])
    rendered = client.get(url)
    with mock.patch("tournaments.views.standings.render_to_string") as render:
        kept = client.get(url)
        not_modified = client.get(url, headers={"if-none-match": rendered["ETag"]})
    render.assert_not_called()
    assert (kept.status_code, kept.content) == (200, rendered.content)
    assert dict(kept.headers) == dict(rendered.headers)
    assert not_modified.status_code == 304
    assert not_modified["ETag"] == rendered["ETag"]


def test_hiding_the_standings_takes_effect_at_once_despite_the_cache(
    client, kreuzpokal, django_capture_on_commit_callbacks
):
    tournament, organiser = kreuzpokal
    url = reverse("tournaments:standings-table", args=[tournament.slug])
    name = tournament.entries.select_related("player").first().player.name
    assert name in client.get(url).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_update(
            tournament=tournament, by=organiser, changes={"standings_public": False}
        )
    assert name not in client.get(url).content.decode()
    tournament.refresh_from_db()
    tournament.is_public = False
    with django_capture_on_commit_callbacks(execute=True):
        tournament.save()  # as the administration saves it
    assert client.get(url).status_code == 404


def test_a_renamed_tournament_shows_its_new_name_on_the_cached_standings(
    client, kreuzpokal, django_capture_on_commit_callbacks
):
    tournament, _organiser = kreuzpokal
    client.cookies.clear()  # a phone without cookies: the whole page is cached
    url = reverse("tournaments:standings", args=[tournament.slug])
    first = client.get(url)
    assert tournament.name in first.content.decode()
    tournament.name = "Kreuzpokal 2027"
    with django_capture_on_commit_callbacks(execute=True):
        tournament.save()  # as the administration saves it; no new standings
    second = client.get(url, headers={"if-none-match": first["ETag"]})
    assert second.status_code == 200
    assert "Kreuzpokal 2027" in second.content.decode()


def test_versioned_entries_are_kept_in_each_process_in_front_of_the_shared_cache():
    caching.versioned_put("standings-html:1:2:x", b"<table>")
    cache.clear()  # the shared cache lost it (or is down): this process has it
    assert caching.versioned_get("standings-html:1:2:x") == b"<table>"
    caching.versioned_put("standings-html:1:3:x", b"<tr>")
    caching.memory.clear()  # another process: it takes it from the shared cache, then keeps it
    assert caching.versioned_get("standings-html:1:3:x") == b"<tr>"
    cache.clear()
    assert caching.versioned_get("standings-html:1:3:x") == b"<tr>"


def test_each_process_keeps_a_tournaments_head_briefly_and_forgets_it_on_a_save(
    settings, django_capture_on_commit_callbacks
):
    tournament = factories.tournament(is_public=True, name="Kreuzpokal")
    key = f"tournament-head:{tournament.slug}"
    selectors.tournament_head(slug=tournament.slug, user=AnonymousUser())
    assert caching.memory.get(key).tournament.name == "Kreuzpokal"
    assert cache.get(key)[1]["name"] == "Kreuzpokal"  # under the tournament's generation
    tournament.name = "Karopokal"
    with django_capture_on_commit_callbacks(execute=True):
        tournament.save()
        assert caching.memory.get(key) is not None  # kept until the save commits
    # Then this process forgets it at once, in its memory and in the shared cache.
    assert caching.memory.get(key) is None
    assert cache.get(key) is None
    head = selectors.tournament_head(slug=tournament.slug, user=AnonymousUser())
    assert head.name == "Karopokal"

    settings.TOURNAMENT_HEAD_LOCAL_SECONDS = 0  # always ask the shared cache
    caching.memory.clear()
    selectors.tournament_head(slug=tournament.slug, user=AnonymousUser())
    assert caching.memory.get(key) is None


def test_a_head_read_before_a_change_and_cached_after_it_is_never_served(
    django_capture_on_commit_callbacks,
):
    tournament = factories.tournament(is_public=True)
    key = f"tournament-head:{tournament.slug}"
    selectors.public_head(slug=tournament.slug)
    read_before = cache.get(key)  # what a slow reader read before the change
    tournament.is_public = False
    with django_capture_on_commit_callbacks(execute=True):
        tournament.save()
    cache.set(key, read_before)  # and caches only after the commit dropped the head
    caching.memory.clear()  # in another process
    with pytest.raises(Http404):
        selectors.public_head(slug=tournament.slug)


def test_the_memory_in_front_of_the_cache_forgets_the_least_recently_used(settings):
    settings.LOCAL_CACHE_BYTES = 250
    for name in "abc":
        caching.memory.put(name, name.encode() * 100, seconds=60)
        caching.memory.get("a")  # used: kept
    assert caching.memory.get("b") is None
    assert caching.memory.get("a") == b"a" * 100
    assert caching.memory.get("c") == b"c" * 100


def test_hidden_standings_are_hidden_everywhere_from_the_public(
    client, kreuzpokal, django_capture_on_commit_callbacks
):
    tournament, organiser = kreuzpokal
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_update(
            tournament=tournament, by=organiser, changes={"standings_public": False}
        )
    name = tournament.entries.select_related("player").first().player.name
    page = client.get(reverse("tournaments:standings", args=[tournament.slug])).content.decode()
    assert "hidden the standings" in page
    assert name not in page
    table = client.get(
        reverse("tournaments:standings-table", args=[tournament.slug])
    ).content.decode()
    assert name not in table
    assert (
        client.get(reverse("tournaments:standings-csv", args=[tournament.slug])).status_code == 403
    )
    player = client.get(reverse("tournaments:player", args=[tournament.slug, 1]))
    assert player.context["row"] is None
    assert "points are not shown" in player.content.decode()
    table_page = client.get(reverse("scoring:table", args=[tournament.slug, 1, 1]))
    assert "hand_rows" not in table_page.context
    # Staff still see them, marked as hidden.
    client.force_login(organiser)
    staff_page = client.get(
        reverse("tournaments:standings", args=[tournament.slug])
    ).content.decode()
    assert "Hidden from the public" in staff_page
    assert name in staff_page


def test_a_private_tournament_hides_its_standings(client, kreuzpokal):
    tournament, _ = kreuzpokal
    Tournament.objects.filter(pk=tournament.pk).update(is_public=False)
    for name in (
        "tournaments:standings",
        "tournaments:standings-table",
        "tournaments:standings-csv",
    ):
        assert client.get(reverse(name, args=[tournament.slug])).status_code == 404


def test_the_organiser_hides_the_standings_on_the_settings_page(client, kreuzpokal):
    tournament, organiser = kreuzpokal
    client.force_login(organiser)
    response = client.post(
        reverse("tournaments:tournament-settings", args=[tournament.slug]),
        settings_form(tournament, standings_public=False, tiebreaks="best_round,start_number"),
    )
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.is_public, tournament.standings_public) == (True, False)
    assert tournament.tiebreaks == "best_round,start_number"


def test_only_the_organiser_changes_the_publication(client, kreuzpokal):
    tournament, _ = kreuzpokal
    client.force_login(factories.user())
    response = client.post(
        reverse("tournaments:tournament-settings", args=[tournament.slug]),
        settings_form(tournament, standings_public=False),
    )
    assert response.status_code == 403
    tournament.refresh_from_db()
    assert tournament.standings_public


def test_the_csv_has_a_line_per_player(client, kreuzpokal):
    tournament, _ = kreuzpokal
    response = client.get(reverse("tournaments:standings-csv", args=[tournament.slug]))
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";"))
    assert rows[0][:3] == ["Rank", "Start number", "Name"]
    assert len(rows) == 13
    provisional = [row for row in rows[1:] if row[rows[0].index("Provisional")]]
    assert len(provisional) == 4
    # A provisional round is not in its round column and not in the points.
    for row in provisional:
        assert row[rows[0].index("Round 1")] == ""
        assert row[rows[0].index("Points")] == "0"


def test_a_players_page_shows_each_round(client, kreuzpokal):
    tournament, _ = kreuzpokal
    entry = tournament.entries.select_related("player").get(start_number=1)
    response = client.get(reverse("tournaments:player", args=[tournament.slug, 1]))
    assert response.status_code == 200
    (item,) = response.context["rounds"]
    assert len(item.others) == 3
    page = response.content.decode()
    assert entry.player.name in page
    for other in item.others:
        assert other.entry.player.name in page
    assert "1 solo played, 1 won" in page


def test_a_players_page_costs_the_same_queries_for_more_rounds(
    client, django_assert_num_queries, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        tournament = factories.tournament(players=8)
        play(tournament, rounds=1)
    url = reverse("tournaments:player", args=[tournament.slug, 1])
    client.get(url)
    # The tournament, the entry, its seats, the others at its tables, its results.
    with django_assert_num_queries(5):
        client.get(url)
    with django_capture_on_commit_callbacks(execute=True):
        play(tournament, rounds=2)
    client.get(url)
    with django_assert_num_queries(5):
        client.get(url)


def test_an_unknown_player_is_a_404(client, kreuzpokal):
    tournament, _ = kreuzpokal
    assert client.get(reverse("tournaments:player", args=[tournament.slug, 99])).status_code == 404


def test_the_ranking_list_ranks_finished_tournaments(
    client, django_capture_on_commit_callbacks, django_assert_num_queries
):
    with django_capture_on_commit_callbacks(execute=True):
        tournament = factories.tournament(
            players=8, planned_rounds=2, ends_on=datetime.date.today()
        )
        tournament.starts_on = datetime.date.today()
        tournament.save()
        play(tournament, rounds=2)
        ranking = ranking_list_save(name="Clubliste", slug="club", months=6, min_rounds=2)
        admit(ranking, tournament)
    response = client.get(reverse("rankings:ranking", args=["club"]))
    assert response.status_code == 200
    assert len(response.context["ranked"]) == 8
    assert response.context["ranked"][0].rounds == 2
    player = response.context["ranked"][0].player
    # The list, its players, its maintainers, the tournaments admitted, the log.
    with django_assert_num_queries(5):
        client.get(reverse("rankings:ranking", args=["club"]))
    history = client.get(reverse("tournaments:player-history", args=[player.pk]))
    assert history.status_code == 200
    assert tournament.name in history.content.decode()
    assert "rank 1" in history.content.decode()


def admit(ranking, tournament) -> None:
    """The tournament's organiser asks the list, another of its maintainers admits it."""
    RankingList.objects.filter(pk=ranking.pk).update(
        tournament_min_players=4, tournament_min_rounds=1
    )
    maintainer = factories.user()
    ranking.maintainers.add(maintainer)
    organiser = tournament.roles.filter(role="organiser").first()
    admission = ranking_admission_request(
        ranking_list=ranking,
        tournament=tournament,
        by=organiser.user if organiser else factories.user(is_superuser=True),
    )
    ranking_admission_admit(admission=admission, by=maintainer)


def test_admitting_a_finished_tournament_rebuilds_the_ranking_lists(
    django_capture_on_commit_callbacks,
):
    ranking = ranking_list_save(name="Rangliste", slug="ranking")
    with django_capture_on_commit_callbacks(execute=True):
        tournament = factories.tournament(players=4, planned_rounds=1)
        Tournament.objects.filter(pk=tournament.pk).update(ends_on=datetime.date.today())
        play(tournament)
    ranking.refresh_from_db()
    assert ranking.data == []  # finished, but nobody admitted it
    with django_capture_on_commit_callbacks(execute=True):
        admit(ranking, tournament)
    ranking.refresh_from_db()
    assert ranking.version >= 1
    assert len(ranking.data) == 4
    assert all(rank is None for rank, *_ in ranking.data)  # 1 round of the 36 needed


def test_a_large_field_is_shown_in_pages(client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        tournament = factories.tournament(players=130)
    first = client.get(reverse("tournaments:standings", args=[tournament.slug]))
    assert first.content.decode().count('href="/tournaments/') >= 100
    assert "101–130" in first.content.decode()
    second = client.get(reverse("tournaments:standings-table", args=[tournament.slug]), {"page": 2})
    # The head, the heading of those who have not played yet (nobody has), and 30 players.
    assert second.content.decode().count("<tr") == 32
    assert (
        second["ETag"]
        != client.get(reverse("tournaments:standings-table", args=[tournament.slug]))["ETag"]
    )


def test_with_the_cache_server_down_the_standings_come_from_the_database(
    client, kreuzpokal, settings, django_assert_max_num_queries
):
    """A real Redis client against a port where nothing listens: every cache call fails, and
    the pages and the API answer from the stored standings all the same."""
    tournament, _ = kreuzpokal
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    }
    # (Changing CACHES makes Django open the cache anew with these settings.)
    with django_assert_max_num_queries(3):
        page = client.get(reverse("tournaments:standings-table", args=[tournament.slug]))
    assert page.status_code == 200
    name = tournament.entries.select_related("player").first().player.name
    assert name in page.content.decode()
    assert client.get(reverse("tournaments:standings", args=[tournament.slug])).status_code == 200
    assert client.get(reverse("api:standings", args=[tournament.slug])).status_code == 200


@pytest.mark.parametrize("tournaments", [1, 3])
def test_a_players_history_costs_the_same_queries_for_more_tournaments(
    client, django_assert_num_queries, django_capture_on_commit_callbacks, tournaments
):
    player = factories.player()
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(tournaments):
            tournament = factories.tournament(players=7)
            services.entry_create(tournament=tournament, player=player)
            play(tournament)
    url = reverse("tournaments:player-history", args=[player.pk])
    # The player, their entries, their results, the ranking lists.
    with django_assert_num_queries(4):
        response = client.get(url)
    assert len(response.context["history"]) == tournaments
    assert all(line.rounds == 1 for line in response.context["history"])


# Players who have not played yet (issue 32) --------------------------------------------------


def test_a_substitute_who_has_not_played_is_listed_apart_unranked(client, substitute):
    table = selectors.standings_read(tournament=substitute)
    assert min(row.points for row in table.rows) < 0  # he would have ranked above them
    page = client.get(reverse("tournaments:standings", args=[substitute.slug])).content.decode()
    heading = page.index("Has not played yet")
    assert page.index("Ersatz Spielerin") > heading
    for row in table.rows[:8]:  # every ranked player, the negative ones too, above him
        assert page.index(row.entrant.name) < heading
    line = page[page.index("Ersatz Spielerin") - 300 : page.index("Ersatz Spielerin")]
    assert "<td>–</td>" in line
    client.cookies["django_language"] = "de"
    german = client.get(
        reverse("tournaments:standings-table", args=[substitute.slug])
    ).content.decode()
    assert german.index("Noch nicht gespielt") < german.index("Ersatz Spielerin")


def test_a_substitutes_page_says_he_has_not_played_yet(client, substitute):
    page = client.get(reverse("tournaments:player", args=[substitute.slug, 9])).content.decode()
    assert "has not played yet" in page
    client.cookies["django_language"] = "de"
    page = client.get(reverse("tournaments:player", args=[substitute.slug, 9])).content.decode()
    assert "noch nicht gespielt" in page


def test_the_csv_lists_a_substitute_unranked_and_every_ddv_number(
    client, substitute, django_assert_num_queries
):
    cache.clear()
    caching.memory_clear()
    # The tournament, the stored standings, the DDV numbers: one query for all of them.
    with django_assert_num_queries(3):
        response = client.get(reverse("tournaments:standings-csv", args=[substitute.slug]))
    header, *rows = csv.reader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";")
    assert header[:6] == ["Rank", "Start number", "Name", "Club", "DDV number", "Status"]
    assert [row[0] for row in rows] == [str(rank) for rank in range(1, 9)] + [""]
    assert rows[-1][2] == "Ersatz Spielerin"
    assert rows[-1][4] == "4711"
    assert rows[-1][5] == "active, has not played yet"
    assert [row[4] for row in rows] == [""] * 8 + ["4711"]  # empty where unknown
    assert rows[0][5] == "active"
    client.cookies["django_language"] = "de"
    german = client.get(reverse("tournaments:standings-csv", args=[substitute.slug]))
    header, *rows = csv.reader(io.StringIO(german.content.decode("utf-8-sig")), delimiter=";")
    assert header[4] == "DDV-Nummer"
    assert rows[-1][5] == "aktiv, noch nicht gespielt"


# Statistics with ties (issue 32) ---------------------------------------------------------------


def _standings_with_solos(tournament, winners: int):
    """The tournament's standings after a round in which the first ``winners`` players each
    won one solo; players 1 and 2 scored 60, the others 10."""
    from doko import standings

    entrants = selectors.standings_entrants(tournament=tournament)
    results = [
        standings.RoundResult(
            entry_id=e.entry_id,
            round=1,
            table=1,
            position=1,
            points=60 if e.start_number in (1, 2) else 10,
            solos_played=int(e.start_number <= winners),
            solos_won=int(e.start_number <= winners),
        )
        for e in entrants
    ]
    return standings.standings(entrants=entrants, results=results)


@pytest.mark.parametrize(("language", "many"), [("en", "1 – 14 players"), ("de", "1 – 14 Spieler")])
def test_statistics_count_the_players_who_share_a_mark(client, language, many):
    tournament = factories.tournament(players=16)
    Tournament.objects.filter(pk=tournament.pk).update(standings_version=1)
    table = _standings_with_solos(tournament, winners=14)
    client.cookies["django_language"] = language
    with mock.patch.object(selectors, "standings_read", return_value=table):
        page = client.get(
            reverse("tournaments:standings-table", args=[tournament.slug])
        ).content.decode()
    assert many in page
    names = [row.entrant.name for row in table.rows]
    # The highest round is shared by two: both named, with the round.
    first, second = (r.entrant.name for r in table.rows if r.entrant.start_number in (1, 2))
    word = "round" if language == "en" else "Runde"
    assert f"60 – {first} ({word} 1), {second} ({word} 1)" in page
    assert not any(f"1 – {name}" in page for name in names)


def test_statistics_name_up_to_three_who_share_a_mark(client):
    tournament = factories.tournament(players=8)
    Tournament.objects.filter(pk=tournament.pk).update(standings_version=1)
    table = _standings_with_solos(tournament, winners=3)
    with mock.patch.object(selectors, "standings_read", return_value=table):
        page = client.get(
            reverse("tournaments:standings-table", args=[tournament.slug])
        ).content.decode()
    winners = ", ".join(row.entrant.name for row in table.rows if row.entrant.start_number <= 3)
    assert f"1 – {winners}" in page


@pytest.mark.parametrize(
    ("language", "says"),
    [
        ("en", "Only an organiser starts printouts"),
        ("de", "Nur die Turnierleitung"),
    ],
)
def test_staff_without_the_pdf_button_are_told_who_prints_it(client, kreuzpokal, language, says):
    """No dead end (issue 32, point 15): an adjudicator sees why there is no PDF button."""
    tournament, organiser = kreuzpokal
    url = reverse("tournaments:standings", args=[tournament.slug])
    client.force_login(factories.adjudicator(tournament))
    client.cookies["django_language"] = language
    page = client.get(url).content.decode()
    assert reverse("printing:standings-print", args=[tournament.slug]) not in page
    assert says in page
    client.force_login(organiser)
    page = client.get(url).content.decode()
    assert reverse("printing:standings-print", args=[tournament.slug]) in page
    assert "standings-pdf-refused" not in page
    client.logout()
    assert "standings-pdf-refused" not in client.get(url).content.decode()  # the public
