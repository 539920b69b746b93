"""Who rules at a table, through the API: extra time by whoever may rule there, never at his
own table (TSR 8.5.1, 8.2.1); and no appeal while there is no arbitration panel to decide it
(TSR 8.2.1)."""

import pytest

from adjudication.models import Appeal
from tests import factories
from tests.adjudication.api.helpers import decided, send, url
from tournaments.models import ExtraTime, TournamentRole

pytestmark = pytest.mark.django_db

Role = TournamentRole.Role


def extra_time(api, tournament, table, user, minutes=4):
    return send(
        api,
        "post",
        url("api:table-extra-time", tournament, 1, table),
        user,
        {"minutes": minutes, "reason": "Reklamation in Spiel 7"},
    )


def plays_at(sheet, user, role, position=2):
    """``user`` holds ``role`` and plays at seat ``position`` of the sheet's table."""
    entry = sheet.table.seats.get(position=position).entry
    factories.role_grant(tournament=sheet.table.round.tournament, user=user, role=role, entry=entry)


def test_a_deputy_gives_a_table_extra_time(api, tournament, sheet, staff):
    response = extra_time(api, tournament, 1, staff["deputy"])

    assert response.status_code == 201, response.json()
    assert ExtraTime.objects.get(table=sheet.table).granted_by == staff["deputy"]


def test_an_adjudicator_may_not_give_his_own_table_extra_time(api, tournament, sheet, staff):
    plays_at(sheet, staff["adjudicator"], Role.ADJUDICATOR)

    response = extra_time(api, tournament, 1, staff["adjudicator"])

    assert response.status_code == 403
    detail = response.json()["detail"]
    assert "seat 2 of table 1" in detail
    assert "TSR 8.2.1, 8.5.1" in detail
    assert not ExtraTime.objects.exists()
    # Another table is his to give.
    assert extra_time(api, tournament, 2, staff["adjudicator"]).status_code == 201


def test_the_organiser_may_not_give_his_own_table_extra_time(api, tournament, sheet, staff):
    plays_at(sheet, staff["organiser"], Role.ORGANISER, position=3)

    response = extra_time(api, tournament, 1, staff["organiser"])

    assert response.status_code == 403
    assert "TSR 8.2.1, 8.5.1" in response.json()["detail"]


def test_a_panel_member_gives_no_extra_time(api, tournament, sheet, staff):
    response = extra_time(api, tournament, 1, staff["panel"][0])

    assert response.status_code == 403
    assert "TSR 8.5.1" in response.json()["detail"]


def test_an_appeal_is_refused_while_there_is_no_panel(api, tournament, sheet, staff):
    decision = decided(sheet, staff)
    TournamentRole.objects.filter(tournament=tournament, role=Role.PANEL).delete()

    response = send(
        api,
        "post",
        url("api:decision-appeal", tournament, decision.pk),
        staff["adjudicator"],
        {"appellant": 2},
    )

    assert response.status_code == 400
    message = response.json()["panel"][0]
    assert "organiser appoints" in message
    assert "staff page" in message
    assert "TSR 8.2.1" in message
    assert not Appeal.objects.filter(decision=decision).exists()
