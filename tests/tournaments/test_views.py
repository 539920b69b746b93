"""Pages: what a visitor, a player and an organiser see."""

import datetime

import pytest
from django.urls import reverse

from doko.rules.contracts import Contract
from printing import services as printing_services
from printing.models import Job
from scoring import selectors as scoring_selectors
from scoring import services as scoring_services
from scoring.models import Scoresheet
from tests import factories
from tests.sheets import full_match, solo
from tournaments import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def played():
    """A tournament of 12 players whose first round is complete and confirmed."""
    organiser = factories.user(username="orga")
    tournament = factories.tournament(players=12, organiser=organiser, name="Kreuzpokal")
    round_ = factories.seated_round(tournament)
    services.round_start(round=round_)
    for sheet in Scoresheet.objects.filter(table__round=round_):
        factories.sheet_confirmed(sheet, full_match())
    return tournament, round_, organiser


def test_home_lists_public_tournaments(client, played):
    tournament, _, _ = played
    hidden = factories.tournament(name="Geheimturnier", is_public=False)
    page = client.get(reverse("home")).content.decode()
    assert tournament.name in page
    assert hidden.name not in page


def test_home_lists_the_newest_tournament_first(client):
    factories.tournament(name="Frühjahrsturnier", starts_on=datetime.date(2026, 3, 1), players=5)
    factories.tournament(name="Herbstturnier", starts_on=datetime.date(2026, 10, 1), players=4)
    listed = list(client.get(reverse("home")).context["tournaments"])
    assert [t.name for t in listed] == ["Herbstturnier", "Frühjahrsturnier"]
    assert [t.entry_count for t in listed] == [4, 5]


def test_private_tournament_is_shown_to_its_staff_only(client):
    organiser = factories.user()
    hidden = factories.tournament(name="Geheimturnier", is_public=False, organiser=organiser)
    assert client.get(reverse("tournament", args=[hidden.slug])).status_code == 404
    client.force_login(organiser)
    assert client.get(reverse("tournament", args=[hidden.slug])).status_code == 200


def test_tournament_page_shows_rounds_and_progress(client, played):
    tournament, _, _ = played
    page = client.get(reverse("tournament", args=[tournament.slug])).content.decode()
    assert reverse("round", args=[tournament.slug, 1]) in page
    assert "3 / 3" in page  # three tables, three confirmed sheets


def test_round_page_shows_every_table_with_players_and_points(client, played):
    tournament, round_, _ = played
    response = client.get(reverse("round", args=[tournament.slug, 1]))
    page = response.content.decode()
    for seat in round_.seats.select_related("entry__player"):
        assert seat.entry.player.name in page
    assert len(response.context["tables"]) == 3
    totals = [seat.points for row in response.context["tables"] for seat in row.seats]
    assert sum(totals) == 0


def test_table_page_shows_the_sheet_with_running_totals_and_check(client, played):
    tournament, _, _ = played
    response = client.get(reverse("table", args=[tournament.slug, 1, 2]))
    assert response.status_code == 200
    rows = response.context["hand_rows"]
    assert len(rows) == 24  # 20 + 4 compulsory solos (TSR 8.5.1)
    assert rows[-1].totals == [sum(row.points[i] for row in rows) for i in range(4)]
    assert response.context["check"].complete
    assert response.context["problems"] == []


def test_unknown_round_and_table_are_404(client, played):
    tournament, _, _ = played
    assert client.get(reverse("round", args=[tournament.slug, 9])).status_code == 404
    assert client.get(reverse("table", args=[tournament.slug, 1, 9])).status_code == 404


def test_pages_are_german_by_default_and_english_on_request(client, played):
    tournament, _, _ = played
    german = client.get(reverse("tournament", args=[tournament.slug])).content.decode()
    assert "Runden" in german
    assert 'lang="de"' in german
    switched = client.get(reverse("language", args=["en"]), {"next": "/tournaments/"})
    assert switched.status_code == 302
    assert switched["Location"] == "/tournaments/"
    english = client.get(reverse("tournament", args=[tournament.slug])).content.decode()
    assert "Rounds" in english
    assert 'lang="en"' in english


def test_the_language_link_goes_back_only_to_this_site(client):
    response = client.get(reverse("language", args=["en"]), {"next": "https://example.org/"})
    assert response["Location"] == "/"
    assert response.cookies["django_language"].value == "en"
    assert client.get(reverse("language", args=["fr"])).status_code == 404


def test_public_pages_set_no_csrf_cookie(client, played):
    tournament, _, _ = played
    response = client.get(reverse("standings", args=[tournament.slug]))
    assert "csrftoken" not in response.cookies


@pytest.mark.parametrize("players", [8, 40])
def test_list_pages_run_a_fixed_number_of_queries(client, django_assert_num_queries, players):
    tournament = factories.tournament(players=players)
    round_ = factories.seated_round(tournament)
    services.round_start(round=round_)
    for sheet in Scoresheet.objects.filter(table__round=round_):
        scoring_services.scoresheet_hands_replace(
            scoresheet=sheet, hands=full_match(), version=1, by=factories.keeper(sheet)
        )
    for table in round_.tables.all()[:3]:
        services.table_extra_time_grant(
            table=table, minutes=5, reason="Beschwerde", by=factories.user()
        )
    with django_assert_num_queries(1):
        client.get(reverse("home"))
    with django_assert_num_queries(3):
        client.get(reverse("tournament", args=[tournament.slug]))
    with django_assert_num_queries(2):
        client.get(reverse("entries", args=[tournament.slug]))
    with django_assert_num_queries(6):
        client.get(reverse("round", args=[tournament.slug, 1]))
    with django_assert_num_queries(7):  # with the table's decisions and deductions
        client.get(reverse("table", args=[tournament.slug, 1, 1]))
    with django_assert_num_queries(4):
        client.get(reverse("find", args=[tournament.slug]), {"q": "Nachname"})
    with django_assert_num_queries(5):
        client.get(reverse("screen", args=[tournament.slug]))


def test_organiser_prints_the_list_of_players(client, played, django_capture_on_commit_callbacks):
    tournament, _, organiser = played
    client.force_login(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("entries-print", args=[tournament.slug]))
    job = Job.objects.get()
    assert response.url == reverse("job", args=[job.pk])
    # Without Redis the job ran in-process as soon as the request's transaction committed.
    assert job.status == Job.Status.DONE
    assert job.progress == 100
    status = client.get(reverse("job", args=[job.pk]), headers={"HX-Request": "true"})
    assert reverse("job-download", args=[job.pk]) in status.content.decode()
    download = client.get(reverse("job-download", args=[job.pk]))
    pdf = b"".join(download.streaming_content)
    assert pdf.startswith(b"%PDF")
    assert download["Content-Disposition"].startswith("attachment")


def test_job_page_polls_while_the_job_runs(client, played):
    tournament, _, organiser = played
    job = Job.objects.create(tournament=tournament, kind=Job.Kind.ENTRY_LIST_PDF, language="de")
    client.force_login(organiser)
    page = client.get(reverse("job", args=[job.pk])).content.decode()
    assert 'hx-trigger="every 1s"' in page
    assert client.get(reverse("job-download", args=[job.pk])).status_code == 404


def test_printing_needs_the_organiser_role(client, played):
    tournament, _, _ = played
    url = reverse("entries-print", args=[tournament.slug])
    assert client.post(url).status_code == 302  # to the login page
    client.force_login(factories.user())
    assert client.post(url).status_code == 403
    assert not Job.objects.exists()


def test_someone_elses_job_is_not_found(client, played):
    tournament, _, organiser = played
    job = printing_services.job_start(
        tournament=tournament, kind=Job.Kind.ENTRY_LIST_PDF, by=organiser
    )
    client.force_login(factories.user())
    assert client.get(reverse("job", args=[job.pk])).status_code == 404
    assert client.get(reverse("job-download", args=[job.pk])).status_code == 404


def test_health_check_answers(client):
    assert client.get("/healthz/").json() == {"status": "ok"}


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
    services.round_end(round=round_, by=organiser)
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
    response = client.get(reverse("table", args=[tournament.slug, 1, 1]))
    assert response.context["problems"] == []
    assert response.context["check"].complete
    assert "Die Spielrunde ist vollständig." in response.content.decode()


def solo_for(due):
    return solo(due.dealer, due.forced_soloist, 1, contract=Contract.FORCED_SOLO)
