"""Repairs on the scoresheet page: a hand struck out after asking once, handing in and
confirming after the totals were shown, a handed-in sheet sent back with a reason; and every
answer shown beside the button that asked (TSR 3.3, 7.3.2, 8.5.2)."""

import re

import pytest
from django.urls import reverse

from doko.sample_sheets import full_match, normal
from scoring import selectors, services
from scoring.models import Scoresheet
from tests import factories
from tournaments import services as tournament_services
from tournaments.models import TournamentRole

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
Role = TournamentRole.Role


@pytest.fixture(autouse=True)
def english(client):
    client.cookies["django_language"] = "en"


@pytest.fixture
def organiser():
    return factories.user(first_name="Olga", last_name="Organ")


@pytest.fixture
def sheet(organiser) -> Scoresheet:
    tournament = factories.tournament(players=4, organiser=organiser)
    round_ = tournament_services.round_start(round=factories.seated_round(tournament))
    return Scoresheet.objects.select_related("table__round__tournament").get(table__round=round_)


def link(sheet, position, action=""):
    token = sheet.table.seats.get(position=position).token
    return reverse("scoring:sheet-link" + (f"-{action}" if action else ""), args=[token])


def staff_url(sheet, action=""):
    table = sheet.table
    args = [table.round.tournament.slug, table.round.number, table.number]
    return reverse("scoring:sheet" + (f"-{action}" if action else ""), args=args)


def entered(sheet, hands) -> Scoresheet:
    return services.scoresheet_hands_replace(
        scoresheet=sheet, hands=hands, version=sheet.version, by=factories.keeper(sheet)
    )


def handed_in(sheet) -> Scoresheet:
    sheet = entered(sheet, full_match())
    return services.scoresheet_submit(
        scoresheet=sheet, version=sheet.version, by=factories.keeper(sheet)
    )


def after_actions(page: str, text: str) -> bool:
    """Whether ``text`` is shown beside the workflow's buttons, below the hands."""
    return page.index('id="sheet-actions"') < page.index(text)


def test_the_scorekeeper_sees_a_strike_button_for_every_hand_and_the_others_none(client, sheet):
    entered(sheet, full_match()[:3])
    page = client.get(link(sheet, 4)).content.decode()
    for number in (1, 2, 3):
        assert f"?strike={number}#hand-{number}" in page
        assert f"Strike out hand {number}" in page
    assert "?strike=" not in client.get(link(sheet, 2)).content.decode()
    panel = factories.user()
    factories.role_grant(tournament=sheet.table.round.tournament, user=panel, role=Role.PANEL)
    client.force_login(panel)
    assert "?strike=" not in client.get(staff_url(sheet)).content.decode()


def test_a_hand_is_struck_out_after_asking_once(client, sheet):
    entered(sheet, full_match()[:3])
    response = client.get(link(sheet, 4) + "?strike=2", **HX)
    page = response.content.decode()
    assert response.status_code == 200
    assert "Strike out hand 2?" in page
    step = re.search(r'<tr id="strike-step".*?</tr>', page, re.S).group()
    assert 'action="' + link(sheet, 4, "delete") + '#hand-2"' in step
    assert 'name="number" value="2"' in step
    assert sheet.hands.count() == 3  # asking changes nothing
    response = client.post(link(sheet, 4, "delete"), {"number": 2, "version": 2}, **HX)
    assert response.status_code == 200
    assert sheet.hands.count() == 2
    assert 'id="strike-step"' not in response.content.decode()


def test_the_edit_row_offers_to_strike_its_hand_on_small_screens(client, sheet):
    entered(sheet, full_match()[:3])
    page = client.get(link(sheet, 4) + "?edit=3", **HX).content.decode()
    row = re.search(r'<tr class="entry-row.*?</tr>', page, re.S).group()
    assert "?strike=3#hand-3" in row


def test_a_strike_the_tsr_refuses_is_said_beside_the_hand_before_and_after_asking(client):
    tournament = factories.tournament(players=5, allow_tables_of_five=True)
    round_ = tournament_services.round_start(round=factories.seated_round(tournament))
    sheet = Scoresheet.objects.get(table__round=round_)
    sheet = entered(sheet, [normal(1, (2, 4), 1, size=5), normal(2, (1, 3), 2, size=5)])
    page = client.get(link(sheet, 5) + "?strike=1", **HX).content.decode()
    assert "Strike out hand 1?" not in page
    feedback = re.search(r'<tr id="hand-1-feedback">.*?</tr>', page, re.S).group()
    assert "(TSR 10.1" in feedback  # the sitting-out dealer, checked again
    response = client.post(link(sheet, 5, "delete"), {"number": 1, "version": 2}, **HX)
    assert response.status_code == 422
    page = response.content.decode()
    assert "(TSR 10.1" in re.search(r'<tr id="hand-1-feedback">.*?</tr>', page, re.S).group()
    assert sheet.hands.count() == 2


def test_asking_to_strike_a_hand_that_is_not_there_is_not_found(client, sheet):
    entered(sheet, full_match()[:1])
    assert client.get(link(sheet, 4) + "?strike=2").status_code == 404
    assert client.get(link(sheet, 4) + "?strike=x").status_code == 404
    assert client.get(link(sheet, 4) + "?step=close").status_code == 404


def test_handing_in_shows_every_seats_total_and_asks_once(client, sheet):
    entered(sheet, full_match())
    page = client.get(link(sheet, 4)).content.decode()
    assert "?step=submit#sheet-actions" in page
    response = client.get(link(sheet, 4) + "?step=submit", **HX)
    page = response.content.decode()
    assert "Hand in the scoresheet?" in page
    step = re.search(r'<section[^>]*id="sheet-step".*?</section>', page, re.S)
    totals = selectors.sheet_state(sheet=sheet).check.totals
    for seat in sheet.table.seats.select_related("entry__player"):
        assert seat.entry.player.name in step.group()
        assert f">{totals[seat.position]}</td>" in step.group()
    assert 'action="' + link(sheet, 4, "submit") + '#sheet-actions"' in step.group()
    assert Scoresheet.objects.get(pk=sheet.pk).status == "draft"  # asking changes nothing
    response = client.post(link(sheet, 4, "submit"), {"version": 2}, **HX)
    assert response.status_code == 200
    assert Scoresheet.objects.get(pk=sheet.pk).status == "submitted"


def test_without_javascript_the_step_is_a_page_of_its_own_and_the_answer_a_redirect(client, sheet):
    entered(sheet, full_match())
    response = client.get(link(sheet, 4) + "?step=submit")
    page = response.content.decode()
    assert "<html" in page
    assert "Hand in the scoresheet?" in page
    response = client.post(link(sheet, 4, "submit"), {"version": 2})
    assert response.status_code == 302
    assert response.url == link(sheet, 4)


def test_an_incomplete_sheet_says_why_beside_the_button_instead_of_asking(client, sheet):
    entered(sheet, full_match()[:5])
    page = client.get(link(sheet, 4) + "?step=submit", **HX).content.decode()
    assert "Hand in the scoresheet?" not in page
    assert after_actions(page, "The scoresheet is not complete")
    response = client.post(link(sheet, 4, "submit"), {"version": 2}, **HX)
    assert response.status_code == 422
    assert after_actions(response.content.decode(), "The scoresheet is not complete")
    # Without JavaScript the form's address takes the page there too.
    assert 'action="' + link(sheet, 4, "time-over") + '#sheet-actions"' not in page  # time runs
    assert Scoresheet.objects.get(pk=sheet.pk).status == "draft"


def test_confirming_shows_the_totals_to_another_player_and_the_refusal_to_the_submitter(
    client, sheet
):
    sheet = handed_in(sheet)
    page = client.get(link(sheet, 1) + "?step=confirm", **HX).content.decode()
    assert "Confirm that the scoresheet is correct?" in page
    assert "Yes, it is correct" in page
    page = client.get(link(sheet, 4) + "?step=confirm", **HX).content.decode()
    assert "Confirm that the scoresheet is correct?" not in page
    assert after_actions(page, "You handed this scoresheet in")
    response = client.post(link(sheet, 4, "confirm"), {"version": sheet.version}, **HX)
    assert response.status_code == 422
    assert after_actions(response.content.decode(), "You handed this scoresheet in")
    client.post(link(sheet, 1, "confirm"), {"version": sheet.version}, **HX)
    assert Scoresheet.objects.get(pk=sheet.pk).status == "confirmed"


def test_a_stale_action_is_shown_beside_the_buttons(client, sheet):
    entered(sheet, full_match())
    response = client.post(link(sheet, 4, "submit"), {"version": 1}, **HX)
    assert response.status_code == 409
    assert after_actions(response.content.decode(), "Someone else changed this scoresheet")


def test_another_player_sends_the_sheet_back_and_the_keeper_reads_why(client, sheet):
    sheet = handed_in(sheet)
    page = client.get(link(sheet, 2)).content.decode()
    form = re.search(r'<form[^>]*id="return-form".*?</form>', page, re.S).group()
    assert 'action="' + link(sheet, 2, "return") + '#sheet-actions"' in form
    assert 'maxlength="500"' in form
    response = client.post(
        link(sheet, 2, "return"), {"version": sheet.version, "reason": "Hand 7: Re won"}, **HX
    )
    assert response.status_code == 200
    sheet.refresh_from_db()
    assert sheet.status == "draft"
    name = sheet.table.seats.get(position=2).entry.player.name
    page = client.get(link(sheet, 4)).content.decode()
    notice = re.search(r'<div[^>]*id="sent-back".*?</div>', page, re.S).group()
    assert f"Sent back to the scorekeeper by {name} (seat 2):" in notice
    assert "Hand 7: Re won" in notice
    assert "hand it in again" in notice
    history = client.get(link(sheet, 4, "history")).content.decode()
    assert "sent back to the scorekeeper" in history
    assert "Hand 7: Re won" in history


def test_sending_back_without_a_reason_is_refused_beside_the_form(client, sheet):
    sheet = handed_in(sheet)
    response = client.post(
        link(sheet, 2, "return"), {"version": sheet.version, "reason": " "}, **HX
    )
    assert response.status_code == 422
    assert after_actions(response.content.decode(), "Say what is wrong")
    assert Scoresheet.objects.get(pk=sheet.pk).status == "submitted"


def test_the_send_back_form_is_only_for_a_handed_in_sheet_and_those_allowed(
    client, sheet, organiser
):
    entered(sheet, full_match())
    assert 'id="return-form"' not in client.get(link(sheet, 2)).content.decode()
    sheet = services.scoresheet_submit(scoresheet=sheet, version=2, by=factories.keeper(sheet))
    assert 'id="return-form"' in client.get(link(sheet, 4)).content.decode()  # his own too
    client.force_login(organiser)
    assert 'id="return-form"' in client.get(staff_url(sheet)).content.decode()
    panel = factories.user()
    factories.role_grant(tournament=sheet.table.round.tournament, user=panel, role=Role.PANEL)
    client.force_login(panel)
    assert 'id="return-form"' not in client.get(staff_url(sheet)).content.decode()
    services.scoresheet_confirm(scoresheet=sheet, version=3, by=factories.checker(sheet))
    client.force_login(organiser)
    assert 'id="return-form"' not in client.get(staff_url(sheet)).content.decode()


def test_the_sheet_page_has_no_inline_script_handlers(client, sheet):
    sheet = handed_in(sheet)
    for url in (link(sheet, 1), link(sheet, 1) + "?step=confirm", link(sheet, 4)):
        page = client.get(url).content.decode()
        assert not re.search(r"\son[a-z]+=", page), url
