"""The club ranking of an individual tournament: set in the settings (page and API), shown
beside the standings on the page and read in the API; off by default."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests import factories
from tests.tournaments.helpers import play, settings_form
from tournaments import selectors, services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

CLUBS = ["SG Kreuz", "sg kreuz", "SG Kreuz", "Pik Dame Köln", "Pik Dame Köln", "Solo e.V.", "", ""]


@pytest.fixture
def cup(django_capture_on_commit_callbacks):
    """Eight players of three clubs (SG Kreuz written twice alike, once in small letters) and
    two of none, round 1 confirmed; the standings built."""
    organiser = factories.user()
    with django_capture_on_commit_callbacks(execute=True):
        tournament = factories.tournament(organiser=organiser, name="Vereinspokal")
        for number, club in enumerate(CLUBS, start=1):
            services.entry_create(
                tournament=tournament,
                player=factories.player(first_name="Spieler", last_name=f"Nr{number}", club=club),
            )
        play(tournament)
    return Tournament.objects.get(pk=tournament.pk), organiser


def _set(tournament, organiser, players, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_update(
            tournament=tournament, by=organiser, changes={"club_ranking_players": players}
        )
    return Tournament.objects.get(pk=tournament.pk)


def _expected(tournament, players: int) -> list[tuple[str, int]]:
    """Each club's best ``players`` players' points, from the standings as the page shows."""
    table = selectors.standings_read(tournament=tournament)
    clubs: dict[str, list[int]] = {}
    for row in table.rows:
        if row.entrant.club and row.rank is not None:
            clubs.setdefault(row.entrant.club.casefold(), []).append(row.points)
    return {club: sum(sorted(points, reverse=True)[:players]) for club, points in clubs.items()}


def test_the_standings_page_shows_no_club_ranking_while_it_is_off(client, cup):
    tournament, _ = cup
    client.cookies["django_language"] = "en"
    page = client.get(reverse("tournaments:standings", args=[tournament.slug])).content.decode()
    assert "Club ranking" not in page


def test_the_standings_page_shows_the_club_ranking_once_set(
    client, cup, django_capture_on_commit_callbacks
):
    tournament, organiser = cup
    client.cookies["django_language"] = "en"
    client.get(reverse("tournaments:standings", args=[tournament.slug]))  # cached without it
    tournament = _set(tournament, organiser, 2, django_capture_on_commit_callbacks)
    page = client.get(reverse("tournaments:standings", args=[tournament.slug])).content.decode()
    assert 'id="club-ranking"' in page
    assert "best 2 players, summed" in page
    section = page[page.index('id="club-ranking"') :]
    expected = _expected(tournament, 2)
    assert f"<b>{expected['sg kreuz']}</b>" in section or (
        f'<b class="neg">{expected["sg kreuz"]}</b>' in section
    )
    # One club, however its players wrote it (as its best player did).
    assert section.casefold().count("sg kreuz<br>") == 1
    assert "only 1 player" in section  # Solo e.V. follows unranked
    assert section.index("Pik Dame Köln") < section.index("Solo e.V.")


def test_the_api_reads_the_club_ranking(cup, django_capture_on_commit_callbacks):
    tournament, organiser = cup
    api = APIClient()
    url = f"/api/v1/tournaments/{tournament.slug}/club-ranking"
    off = api.get(url).json()
    assert off["players"] is None
    assert off["clubs"] == []
    tournament = _set(tournament, organiser, 2, django_capture_on_commit_callbacks)
    response = api.get(url)
    assert response.status_code == 200
    data = response.json()
    assert data["players"] == 2
    expected = _expected(tournament, 2)
    by_club = {line["club"].casefold(): line for line in data["clubs"]}
    assert set(by_club) == {"sg kreuz", "pik dame köln", "solo e.v."}
    for club in ("sg kreuz", "pik dame köln"):
        assert by_club[club]["points"] == expected[club]
        assert by_club[club]["rank"] in (1, 2)
        assert len(by_club[club]["players"]) == 2
    assert by_club["solo e.v."]["rank"] is None
    assert data["clubs"][-1]["club"] == "Solo e.V."
    assert by_club["sg kreuz"]["members"] == 3
    # Unchanged: a 304.
    assert api.get(url, headers={"if-none-match": response["ETag"]}).status_code == 304


def test_the_api_refuses_the_club_ranking_while_the_standings_are_hidden(
    cup, django_capture_on_commit_callbacks
):
    tournament, organiser = cup
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_update(
            tournament=tournament,
            by=organiser,
            changes={"standings_public": False, "club_ranking_players": 2},
        )
    response = APIClient().get(f"/api/v1/tournaments/{tournament.slug}/club-ranking")
    assert response.status_code == 403


def test_the_settings_page_sets_and_clears_the_club_ranking(client, cup):
    tournament, organiser = cup
    client.force_login(organiser)
    client.cookies["django_language"] = "en"
    url = reverse("tournaments:tournament-settings", args=[tournament.slug])
    assert "club_ranking_players" in client.get(url).content.decode()
    response = client.post(url, {**settings_form(tournament, club_ranking_players=4)})
    assert response.status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).club_ranking_players == 4
    response = client.post(url, {**settings_form(tournament, club_ranking_players="")})
    assert response.status_code == 302
    assert Tournament.objects.get(pk=tournament.pk).club_ranking_players is None


@pytest.mark.parametrize("value", [0, 21, "drei", "3\x00"])
def test_the_settings_page_refuses_a_bad_club_ranking_on_its_field(client, cup, value):
    tournament, organiser = cup
    client.force_login(organiser)
    client.cookies["django_language"] = "en"
    url = reverse("tournaments:tournament-settings", args=[tournament.slug])
    response = client.post(url, settings_form(tournament, club_ranking_players=value))
    assert response.status_code == 400  # the form again, with the error
    assert "club_ranking_players" in response.context["form"].errors
    assert Tournament.objects.get(pk=tournament.pk).club_ranking_players is None


@pytest.mark.parametrize("value", [0, 21, "drei", [3], 2.5])
def test_the_api_refuses_a_bad_club_ranking_on_its_field(cup, value):
    tournament, organiser = cup
    api = APIClient()
    api.force_authenticate(organiser)
    response = api.patch(
        f"/api/v1/tournaments/{tournament.slug}/",
        {"club_ranking_players": value},
        format="json",
    )
    assert response.status_code == 400
    assert "club_ranking_players" in response.json()
    assert Tournament.objects.get(pk=tournament.pk).club_ranking_players is None


def test_the_api_sets_the_club_ranking_and_shows_it(cup):
    tournament, organiser = cup
    api = APIClient()
    api.force_authenticate(organiser)
    url = f"/api/v1/tournaments/{tournament.slug}/"
    response = api.patch(url, {"club_ranking_players": 3}, format="json")
    assert response.status_code == 200, response.content
    assert api.get(url).json()["club_ranking_players"] == 3
    response = api.patch(url, {"club_ranking_players": None}, format="json")
    assert response.status_code == 200
    assert Tournament.objects.get(pk=tournament.pk).club_ranking_players is None


def test_the_standings_pdf_prints_the_club_ranking_once_set(
    cup, settings, tmp_path, django_capture_on_commit_callbacks
):
    from printing import services as printing_services
    from printing.models import Job
    from tests.printing.helpers import words_of

    settings.MEDIA_ROOT = tmp_path
    tournament, organiser = cup

    def printed() -> str:
        with django_capture_on_commit_callbacks(execute=True):
            job = printing_services.job_start(
                tournament=tournament, kind=Job.Kind.STANDINGS_PDF, by=organiser
            )
        job.refresh_from_db()
        with job.file.open("rb") as handle:
            return words_of(handle.read())

    assert "Club ranking" not in printed()
    tournament = _set(tournament, organiser, 2, django_capture_on_commit_callbacks)
    text = printed()
    assert "Club ranking The points of each club's best 2 players, summed" in text
    assert "Solo e.V. (not ranked: 1 of 2 players)" in text
    section = text.split("Club ranking", 1)[1]
    assert section.index("Pik Dame Köln") < section.index("Solo e.V.")
