"""The administration opens every model's list and form."""

import pytest
from django.urls import reverse

from scoring.models import Scoresheet
from tests import factories

pytestmark = pytest.mark.django_db

MODELS = [
    "tournaments_player",
    "tournaments_tournament",
    "tournaments_entry",
    "tournaments_round",
    "tournaments_table",
    "tournaments_tournamentrole",
    "tournaments_rankinglist",
    "scoring_scoresheet",
]


@pytest.mark.parametrize("model", MODELS)
def test_admin_lists_and_forms_open(admin_client, model):
    tournament = factories.tournament(players=4)
    factories.seated_round(tournament)
    assert admin_client.get(reverse(f"admin:{model}_changelist")).status_code == 200
    assert admin_client.get(reverse(f"admin:{model}_changelist"), {"q": "x"}).status_code == 200
    if model != "scoring_scoresheet":
        assert admin_client.get(reverse(f"admin:{model}_add")).status_code == 200


def test_scoresheet_form_shows_its_hands(admin_client):
    tournament = factories.tournament(players=4)
    factories.seated_round(tournament)
    sheet = Scoresheet.objects.get()
    response = admin_client.get(reverse("admin:scoring_scoresheet_change", args=[sheet.pk]))
    assert response.status_code == 200


def test_admin_login_page_answers(client):
    assert client.get(reverse("admin:index")).status_code == 302
    assert client.get(reverse("admin:login")).status_code == 200


def test_a_tournament_added_in_the_administration_is_organised_by_whoever_added_it(
    admin_client, admin_user
):
    from tournaments.models import Tournament

    response = admin_client.post(
        reverse("admin:tournaments_tournament_add"),
        {
            "name": "Adminpokal",
            "slug": "adminpokal",
            "starts_on": "2026-12-05",
            "ends_on": "2026-12-05",
            "status": "planned",
            "planned_rounds": 3,
            "seating_method": "random",
            "hands_per_match": 24,
            "match_minutes": 100,
            "hands_per_match_five": 30,
            "match_minutes_five": 125,
            "is_public": "on",
            "standings_public": "on",
            "tiebreaks": "start_number",
            "roles-TOTAL_FORMS": 0,
            "roles-INITIAL_FORMS": 0,
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    tournament = Tournament.objects.get(slug="adminpokal")
    assert list(tournament.roles.values_list("user", "role")) == [(admin_user.pk, "organiser")]
