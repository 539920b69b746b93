"""The administration opens every model's list and form; it deletes no scoresheet nor what holds
one, and moves no workflow's status."""

import pytest
from django.urls import reverse

from scoring.models import Scoresheet
from tests import factories
from tournaments import services

pytestmark = pytest.mark.django_db

MODELS = [
    "tournaments_player",
    "tournaments_tournament",
    "tournaments_entry",
    "tournaments_round",
    "tournaments_table",
    "tournaments_tournamentrole",
    "rankings_rankinglist",
    "scoring_scoresheet",
    # The users (with the action that removes a second factor) and django-otp's own lists.
    "auth_user",
    "otp_totp_totpdevice",
    "otp_static_staticdevice",
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


# What the administration must not do: delete the play's record, move a workflow -----------------


def test_a_round_with_scoresheets_is_not_deleted_nor_its_sheets(admin_client):
    tournament = factories.tournament(players=4)
    round_ = factories.seated_round(tournament)
    sheet = Scoresheet.objects.get()
    for url in (
        reverse("admin:tournaments_round_delete", args=[round_.pk]),
        reverse("admin:scoring_scoresheet_delete", args=[sheet.pk]),
    ):
        assert admin_client.get(url).status_code == 403
        assert admin_client.post(url, {"post": "yes"}).status_code == 403
    bulk = {"action": "delete_selected", "_selected_action": [round_.pk], "post": "yes"}
    assert admin_client.post(reverse("admin:tournaments_round_changelist"), bulk).status_code == 403
    assert Scoresheet.objects.filter(pk=sheet.pk).exists()
    assert tournament.rounds.filter(pk=round_.pk).exists()


def test_nor_the_tournament_or_table_that_holds_them(admin_client):
    tournament = factories.tournament(players=4)
    round_ = factories.seated_round(tournament)
    url = reverse("admin:tournaments_tournament_delete", args=[tournament.pk])
    assert "scoresheet" in admin_client.get(url).content.decode()  # named as what stops it
    assert admin_client.post(url, {"post": "yes"}).status_code == 403
    table = round_.tables.get()
    url = reverse("admin:tournaments_table_delete", args=[table.pk])
    assert admin_client.post(url, {"post": "yes"}).status_code == 403
    page = admin_client.get(reverse("admin:tournaments_round_change", args=[round_.pk]))
    assert "tables-0-DELETE" not in page.content.decode()
    assert Scoresheet.objects.count() == 1


def test_a_round_without_scoresheets_is_deleted(admin_client):
    tournament = factories.tournament(players=4)
    round_ = services.round_create(tournament=tournament)
    url = reverse("admin:tournaments_round_delete", args=[round_.pk])
    assert admin_client.post(url, {"post": "yes"}).status_code == 302
    assert not tournament.rounds.exists()


@pytest.mark.parametrize(
    ("model", "fields"),
    [
        ("tournaments_tournament", ["status"]),
        ("tournaments_entry", ["status"]),
        ("tournaments_round", ["status", "published_at", "started_at", "ended_at"]),
        ("scoring_scoresheet", ["status", "submitted_by", "confirmed_by", "sent_back_reason"]),
    ],
)
def test_status_fields_are_read_only(admin_client, model, fields):
    tournament = factories.tournament(players=4)
    round_ = factories.seated_round(tournament)
    objects = {
        "tournaments_tournament": tournament,
        "tournaments_entry": tournament.entries.first(),
        "tournaments_round": round_,
        "scoring_scoresheet": Scoresheet.objects.get(),
    }
    page = admin_client.get(reverse(f"admin:{model}_change", args=[objects[model].pk]))
    assert page.status_code == 200
    for field in fields:
        assert f'name="{field}"' not in page.content.decode(), field


def test_a_status_posted_to_the_admin_is_ignored(admin_client):
    tournament = factories.tournament(players=4)
    round_ = factories.seated_round(tournament)
    url = reverse("admin:tournaments_round_change", args=[round_.pk])
    data = {
        "tournament": tournament.pk,
        "number": 1,
        "status": "closed",
        "tables-TOTAL_FORMS": 0,
        "tables-INITIAL_FORMS": 0,
    }
    assert admin_client.post(url, data).status_code == 302  # saved, but for the status
    round_.refresh_from_db()
    assert round_.status == "seated"


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
            "sheet_keeping": "both",
            "roles-TOTAL_FORMS": 0,
            "roles-INITIAL_FORMS": 0,
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    tournament = Tournament.objects.get(slug="adminpokal")
    assert list(tournament.roles.values_list("user", "role")) == [(admin_user.pk, "organiser")]
