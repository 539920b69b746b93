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
