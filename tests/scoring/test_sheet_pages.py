"""The scoresheet entry page: staff and the players' private links, live checks, saving rows,
conflicts, the workflow and the history (TSR 7.3, 8.4, 8.5)."""

import pytest
from django.urls import reverse

from doko.sample_sheets import full_match
from scoring.models import Scoresheet
from tests import factories
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
# session, user, the sheet with its tournament and the roles, seats with players, hands,
# decisions, deductions, and whether the account plays at the table (who may end its sheet
# early, TSR 8.2.1)
QUERIES = 8
# the seat by its key with its sheet, the seats with their players, the hands, the decisions,
# the deductions
LINK_QUERIES = 5


@pytest.fixture(autouse=True)
def english(client):
    client.cookies["django_language"] = "en"


@pytest.fixture
def organiser():
    return factories.user(first_name="Olga", last_name="Organ")


@pytest.fixture
def sheet(organiser) -> Scoresheet:
    tournament = factories.tournament(players=4, organiser=organiser)
    round_ = factories.seated_round(tournament)
    tournament_services.round_start(round=round_)
    return Scoresheet.objects.select_related("table__round__tournament").get(table__round=round_)


def seat(sheet, position):
    return sheet.table.seats.get(position=position)


def link(sheet, position, action=""):
    return reverse(
        "scoring:sheet-link" + (f"-{action}" if action else ""), args=[seat(sheet, position).token]
    )


def staff_url(sheet, action=""):
    table = sheet.table
    args = [table.round.tournament.slug, table.round.number, table.number]
    return reverse("scoring:sheet" + (f"-{action}" if action else ""), args=args)


def quick(number, value, plus, version, **extra):
    return {
        "mode": "quick",
        "number": number,
        "version": version,
        "contract": "normal",
        "game_value": value,
        "plus_seats": plus,
        **extra,
    }


def test_the_scorekeeper_link_opens_the_entry_row_without_an_account(client, sheet):
    response = client.get(link(sheet, 4))
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="hand-form"' in page
    assert "You keep the scoresheet" in page
    assert seat(sheet, 4).entry.player.name in page


def test_another_players_link_shows_the_sheet_but_no_entry_row(client, sheet):
    response = client.get(link(sheet, 2))
    assert response.status_code == 200
    assert 'id="hand-form"' not in response.content.decode()


def test_an_unknown_key_is_not_found(client, sheet):
    assert client.get(reverse("scoring:sheet-link", args=["x" * 32])).status_code == 404


def test_staff_pages_need_a_login_and_a_role(client, sheet):
    assert client.get(staff_url(sheet)).status_code == 302
    client.force_login(factories.user())
    assert client.get(staff_url(sheet)).status_code in (403, 404)


def test_quick_entry_saves_a_hand_and_the_grid_shows_it(client, sheet):
    response = client.post(link(sheet, 4, "save"), quick(1, 3, "13", 1), **HX)
    assert response.status_code == 200, response.content.decode()
    hand = sheet.hands.get()
    assert hand.points == {1: 3, 2: -3, 3: 3, 4: -3}
    assert hand.dealer == 1
    page = response.content.decode()
    assert 'id="hand-1"' in page
    assert 'name="number" value="2"' in page  # the next row is ready
    assert "seat 2 deals" in page


def test_the_live_check_explains_a_wrong_row_with_its_rule_and_saves_nothing(client, sheet):
    row = {
        "mode": "raw",
        "number": 1,
        "version": 1,
        "contract": "normal",
        "points_1": 3,
        "points_2": -3,
        "points_3": 3,
        "points_4": -2,
    }
    response = client.post(link(sheet, 4, "check"), row, **HX)
    assert response.status_code == 200
    page = response.content.decode()
    assert "add up to 1, not to zero" in page
    assert "TSR 7.3.3.1" in page
    row["points_4"] = -3
    page = client.post(link(sheet, 4, "check"), row, **HX).content.decode()
    assert "correct by the TSR" in page
    assert not sheet.hands.exists()


def test_the_calculator_shows_how_the_value_comes_about(client, sheet):
    row = {
        "mode": "calculator",
        "number": 1,
        "version": 1,
        "contract": "normal",
        "re_seats": "24",
        "re_card_points": 151,
        "re_tricks": 8,
        "re_announcement": "team",
    }
    page = client.post(link(sheet, 4, "check"), row, **HX).content.decode()
    assert "Game value 4" in page
    assert "TSR 7.2.2 (b)" in page
    client.post(link(sheet, 4, "save"), row, **HX)
    assert sheet.hands.get().points == {1: -4, 2: 4, 3: -4, 4: 4}


def test_a_refused_row_is_shown_again_with_its_error_and_nothing_is_saved(client, sheet):
    response = client.post(link(sheet, 4, "save"), quick(1, 3, "1", 1), **HX)
    assert response.status_code == 422
    assert "two seats" in response.content.decode()
    assert not sheet.hands.exists()


def test_a_stale_save_gets_409_shows_what_changed_and_keeps_the_typing(client, sheet):
    client.post(link(sheet, 4, "save"), quick(1, 3, "13", 1), **HX)
    response = client.post(link(sheet, 4, "save"), quick(1, 5, "24", 1), **HX)
    assert response.status_code == 409
    page = response.content.decode()
    assert "Someone else changed this scoresheet" in page
    assert "hands changed" in page
    assert 'value="5"' in page  # what was typed is still there
    assert sheet.hands.get().game_value == 3


def test_only_the_scorekeeper_link_may_save(client, sheet):
    response = client.post(link(sheet, 2, "save"), quick(1, 3, "13", 1), **HX)
    assert response.status_code == 403
    assert not sheet.hands.exists()


def test_a_hand_is_corrected_and_struck_out(client, sheet):
    for number, (value, plus) in enumerate([(3, "13"), (2, "24"), (1, "12")], start=1):
        client.post(link(sheet, 4, "save"), quick(number, value, plus, number), **HX)
    page = client.get(link(sheet, 4) + "?edit=2", **HX).content.decode()
    assert 'name="number" value="2"' in page
    client.post(link(sheet, 4, "save"), quick(2, 5, "24", 4), **HX)
    assert [hand.game_value for hand in sheet.hands.all()] == [3, 5, 1]
    client.post(link(sheet, 4, "delete"), {"number": 1, "version": 5}, **HX)
    hands = list(sheet.hands.all())
    assert [hand.game_value for hand in hands] == [5, 1]
    assert [hand.dealer for hand in hands] == [1, 2]  # dealt again from seat 1


def test_submit_by_the_keeper_and_confirm_by_another_player(client, sheet):
    from scoring import services

    services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match(), version=1, by=factories.keeper(sheet)
    )
    response = client.post(link(sheet, 4, "submit"), {"version": 2}, **HX)
    assert response.status_code == 200
    sheet.refresh_from_db()
    assert sheet.status == "submitted"
    keeper_page = client.get(link(sheet, 4)).content.decode()
    assert "Confirm: the scoresheet is correct" not in keeper_page
    assert client.post(link(sheet, 4, "confirm"), {"version": 3}, **HX).status_code == 422
    assert "Confirm: the scoresheet is correct" in client.get(link(sheet, 1)).content.decode()
    client.post(link(sheet, 1, "confirm"), {"version": 3}, **HX)
    sheet.refresh_from_db()
    assert sheet.status == "confirmed"


def test_a_scorekeeper_account_playing_as_the_keeper_does_not_confirm_on_the_page(client, sheet):
    from scoring import services
    from tournaments.models import TournamentRole

    sheet = services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match(), version=1, by=factories.keeper(sheet)
    )
    services.scoresheet_submit(scoresheet=sheet, version=2, by=factories.keeper(sheet))
    user = factories.user()
    factories.role_grant(
        tournament=sheet.table.round.tournament,
        user=user,
        role=TournamentRole.Role.SCOREKEEPER,
        entry=seat(sheet, 4).entry,
    )
    client.force_login(user)
    page = client.get(staff_url(sheet)).content.decode()
    assert "Confirm: the scoresheet is correct" not in page
    response = client.post(staff_url(sheet, "confirm"), {"version": 3}, **HX)
    assert response.status_code == 422
    assert "seat 4" in response.content.decode()
    sheet.refresh_from_db()
    assert sheet.status == "submitted"


def test_a_scorekeeper_account_opens_no_sheet_of_a_seating_not_published(client, sheet):
    from tournaments.models import TournamentRole

    tournament = sheet.table.round.tournament
    round_ = factories.seated_round(tournament, publish=False)
    later = Scoresheet.objects.get(table__round=round_)
    user = factories.user()
    factories.role_grant(tournament=tournament, user=user, role=TournamentRole.Role.SCOREKEEPER)
    client.force_login(user)
    name = seat(later, 1).entry.player.name
    for action in ("", "history"):
        response = client.get(staff_url(later, action))
        assert response.status_code == 403
        assert name not in response.content.decode()
    assert client.get(staff_url(sheet)).status_code == 200  # the round played, published
    tournament_services.round_publish(round=round_)
    assert client.get(staff_url(later)).status_code == 200


def test_the_organiser_reopens_with_a_reason_and_the_history_shows_everything(
    client, sheet, organiser
):
    factories.sheet_confirmed(sheet, full_match())
    client.force_login(organiser)
    page = client.get(staff_url(sheet)).content.decode()
    assert "Reopen" in page
    response = client.post(staff_url(sheet, "reopen"), {"version": 4, "reason": ""}, **HX)
    assert response.status_code == 422
    client.post(staff_url(sheet, "reopen"), {"version": 4, "reason": "Hand 3 falsch"}, **HX)
    sheet.refresh_from_db()
    assert sheet.status == "draft"
    history = client.get(staff_url(sheet, "history")).content.decode()
    for text in (
        "hands changed",
        "submitted",
        "confirmed",
        "reopened",
        "Hand 3 falsch",
        "Olga Organ",
    ):
        assert text in history


@pytest.mark.parametrize("hands", [1, 24])
def test_the_page_needs_the_same_few_queries_however_many_hands(
    client, sheet, organiser, hands, django_assert_num_queries
):
    from scoring import services

    services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match()[:hands], version=1, by=factories.keeper(sheet)
    )
    client.force_login(organiser)
    with django_assert_num_queries(QUERIES):
        response = client.get(staff_url(sheet))
    assert response.status_code == 200
    assert response.content.decode().count('<tr id="hand-') == hands


def test_the_link_page_needs_as_few_queries(client, sheet, django_assert_num_queries):
    url = link(sheet, 4)
    with django_assert_num_queries(LINK_QUERIES):
        assert client.get(url).status_code == 200


def test_the_end_of_playing_time_is_noted_and_forced_solos_are_asked_for(client, sheet):
    from django.utils import timezone

    from scoring import services

    services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match()[:10], version=1, by=factories.keeper(sheet)
    )
    factories.round_end(sheet.table.round, at=timezone.now())
    page = client.get(link(sheet, 4)).content.decode()
    assert "Playing time ended after hand" in page
    response = client.post(link(sheet, 4, "time-over"), {"after": "10", "version": 2}, **HX)
    page = response.content.decode()
    assert "Seat 4 must play a forced solo" in page
    assert 'value="forced_solo" selected' in page


def test_before_the_announced_end_the_page_offers_no_time_over_and_refuses_it(client, sheet):
    """TSR 8.5.1: until the adjudicator announces the end, the sheet notes none."""
    page = client.get(link(sheet, 4)).content.decode()
    assert "Playing time ended after hand" not in page
    response = client.post(link(sheet, 4, "time-over"), {"after": "0", "version": 1}, **HX)
    assert response.status_code == 422
    assert "The playing time of table 1 has not ended" in response.content.decode()
    sheet.refresh_from_db()
    assert (sheet.version, sheet.time_over_after_hand) == (1, None)


def test_a_table_of_five_sees_when_its_playing_time_ends_after_the_round_ended(client):
    """TSR 10.1.5: the round ended; the table of five plays on until its 125 minutes are over,
    and its page says until when instead of offering to note the end."""
    import datetime

    from django.utils import timezone

    tournament = factories.tournament(players=5, allow_tables_of_five=True)
    round_ = tournament_services.round_start(round=factories.seated_round(tournament))
    sheet = Scoresheet.objects.get(table__round=round_)
    ended = factories.round_end(round_)
    ends = timezone.localtime(ended.started_at + datetime.timedelta(minutes=125))
    page = client.get(link(sheet, 5)).content.decode()
    assert f"The playing time of this table ends at {ends:%H:%M}" in page
    assert 'name="after"' not in page
    response = client.post(link(sheet, 5, "time-over"), {"after": "0", "version": 1}, **HX)
    assert response.status_code == 422
    assert f"ends at {ends:%H:%M} (TSR 8.5.1, 10.1.5)" in response.content.decode()
    # Once its 125 minutes are over, the form is there.
    round_.refresh_from_db()
    round_.started_at -= datetime.timedelta(minutes=130)
    round_.ended_at -= datetime.timedelta(minutes=130)
    round_.save()
    page = client.get(link(sheet, 5)).content.decode()
    assert 'name="after"' in page
    response = client.post(link(sheet, 5, "time-over"), {"after": "0", "version": 1}, **HX)
    assert response.status_code == 200
    sheet.refresh_from_db()
    assert sheet.time_over_after_hand == 0


def test_at_a_table_of_five_seat_5_keeps_the_sheet_and_the_dealer_sits_out(client):
    tournament = factories.tournament(players=5, allow_tables_of_five=True)
    round_ = factories.seated_round(tournament)
    tournament_services.round_start(round=round_)
    sheet = Scoresheet.objects.get(table__round=round_)
    assert client.post(link(sheet, 4, "save"), quick(1, 2, "24", 1), **HX).status_code == 403
    response = client.post(link(sheet, 5, "save"), quick(1, 2, "25", 1), **HX)
    assert response.status_code == 200, response.content.decode()
    assert sheet.hands.get().points == {1: 0, 2: 2, 3: -2, 4: -2, 5: 2}
    # Seat 2 deals the second hand and sits out: it cannot score plus (TSR 10.1.2).
    response = client.post(link(sheet, 5, "save"), quick(2, 1, "23", 2), **HX)
    assert response.status_code == 422
    assert "do not play this hand" in response.content.decode()


def test_at_a_table_of_five_the_points_entry_does_not_ask_for_the_dealers_points(client):
    """The dealer sits out and scores nothing (TSR 10.1.1): typed as points, his field is
    not asked for, shown as sitting out, and the hand saves without it."""
    tournament = factories.tournament(players=5, allow_tables_of_five=True)
    round_ = factories.seated_round(tournament)
    tournament_services.round_start(round=round_)
    sheet = Scoresheet.objects.get(table__round=round_)
    page = client.get(link(sheet, 5)).content.decode()
    assert 'name="points_1" value="" placeholder="sits out" disabled' in page
    assert 'name="points_2" value="" inputmode' in page
    row = {"mode": "raw", "number": 1, "version": 1, "contract": "normal"}
    row |= {"points_2": 2, "points_3": -2, "points_4": -2, "points_5": 2}
    page = client.post(link(sheet, 5, "check"), row, **HX).content.decode()
    assert "Fill in this field" not in page
    response = client.post(link(sheet, 5, "save"), row, **HX)
    assert response.status_code == 200, response.content.decode()
    assert sheet.hands.get().points == {1: 0, 2: 2, 3: -2, 4: -2, 5: 2}
    # Seat 2 deals the second hand: now seat 1 plays and seat 2's points are not asked for.
    page = response.content.decode()
    assert 'name="points_2" value="" placeholder="sits out" disabled' in page
    row = {"mode": "raw", "number": 2, "version": 2, "contract": "normal"}
    row |= {"points_1": 1, "points_3": -1, "points_4": 1, "points_5": -1}
    response = client.post(link(sheet, 5, "save"), row, **HX)
    assert response.status_code == 200, response.content.decode()
    assert sheet.hands.last().points == {1: 1, 2: 0, 3: -1, 4: 1, 5: -1}
    # The history, too, marks the seat that sat out as the sheet does, not as a 0.
    history = client.get(link(sheet, 5, "history")).content.decode()
    assert "– / 2 / -2 / -2 / 2" in history
    assert "1 / – / -1 / 1 / -1" in history


def test_the_calculators_breakdown_names_the_parties_in_german(client, sheet):
    client.cookies["django_language"] = "de"
    row = {"mode": "calculator", "number": 1, "version": 1, "contract": "normal"}
    row |= {"re_seats": "12", "re_card_points": 95, "contra_announcement": "team"}
    page = client.post(link(sheet, 4, "check"), row, **HX).content.decode()
    assert "<li>Kontra +1: Gewonnen" in page
    assert "Contra +" not in page


def test_on_a_phone_the_solo_drop_down_is_wide_enough_for_its_names(client, sheet):
    """390 px wide, a quarter row cut "Damensolo" to "Dame"; half a row holds it. The bonus
    fields line up although "Kontra: Doppelkopf" wraps over two lines."""
    page = client.get(link(sheet, 4)).content.decode()
    assert '<div class="col-6 col-sm-2 solo-only solo-type">' in page
    assert '<div class="row g-2 mt-1 align-items-end">' in page


def test_the_sheet_says_in_words_whose_compulsory_solo_is_still_owed(client, sheet):
    """On a phone there is no tooltip: the badges alone left "Compulsory solo played: 1 2 3 4"
    before anyone had played one."""
    client.cookies["django_language"] = "de"
    page = client.get(link(sheet, 4)).content.decode()
    played = page.split('id="compulsory-played">')[1].split("</span>\n</div>")[0]
    assert "Pflichtsolo gespielt:\n  noch keiner &middot; noch nicht gespielt:" in played
    solo = quick(1, 3, "2", 1, contract="compulsory_solo", solo_type="queens", soloist="")
    response = client.post(link(sheet, 4, "save"), solo, **HX)
    assert response.status_code == 200, response.content.decode()
    page = client.get(link(sheet, 4)).content.decode()
    played = page.split('id="compulsory-played">')[1].split("</span>\n</div>")[0]
    assert played.count("text-bg-success") == 1
    assert played.count("text-bg-light") == 3


def test_a_player_on_his_seats_link_finds_the_way_to_the_tournament(client, sheet):
    """Once he has confirmed, the sheet 'counts in the standings': the page leads there."""
    tournament = sheet.table.round.tournament
    tournament.is_public = True
    tournament.save(update_fields=["is_public"])
    page = client.get(link(sheet, 1)).content.decode()
    url = reverse("tournaments:tournament", args=[tournament.slug])
    assert f'<a href="{url}" id="tournament-link">' in page
    tournament.is_public = False
    tournament.save(update_fields=["is_public"])
    assert 'id="tournament-link"' not in client.get(link(sheet, 1)).content.decode()


def test_on_a_phone_the_whole_number_cell_opens_a_hand_to_correct(client, sheet):
    """The ✎ button is hidden on a phone; the hand's number alone was a 10 × 19 px target."""
    response = client.post(link(sheet, 4, "save"), quick(1, 3, "13", 1), **HX)
    assert response.status_code == 200, response.content.decode()
    page = client.get(link(sheet, 4)).content.decode()
    row = page.split('<tr id="hand-1"')[1].split("</tr>")[0]
    assert '<td class="num position-relative"><a class="stretched-link" href=' in row
    # A reader who may not correct gets the plain number.
    row = client.get(link(sheet, 1)).content.decode().split('<tr id="hand-1"')[1]
    assert "stretched-link" not in row.split("</tr>")[0]


def test_a_refused_hand_in_keeps_the_phone_at_its_reason(client, sheet):
    """Handing in a sheet not yet complete is refused beside the button; the entry row's
    autofocus scrolled a phone up to the row, the reason out of view."""
    client.post(link(sheet, 4, "save"), quick(1, 3, "13", 1), **HX)
    page = client.get(link(sheet, 4) + "?step=submit", **HX).content.decode()
    assert "The scoresheet is not complete" in page
    row = page.split('id="entry-row"')[1].split("</tr>")[0]
    assert "autofocus" not in row
    # Without an action asked, the row keeps the keyboard.
    page = client.get(link(sheet, 4), **HX).content.decode()
    assert "autofocus" in page.split('id="entry-row"')[1].split("</tr>")[0]


def test_a_step_done_is_answered_beside_the_buttons_that_asked_it(client, sheet):
    """On a phone the page stays at the buttons, which are gone once the sheet is handed in
    or sent back: what comes next is said there, not only at the top."""
    from scoring import services

    services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match(), version=1, by=factories.keeper(sheet)
    )
    page = client.post(link(sheet, 4, "submit"), {"version": 2}, **HX).content.decode()
    actions = page.split('id="sheet-actions"')[1]
    assert 'id="step-done">Handed in; another player of the table' in actions
    answer = client.post(link(sheet, 1, "return"), {"version": 3, "reason": "Hand 3"}, **HX)
    actions = answer.content.decode().split('id="sheet-actions"')[1]
    assert 'id="step-done">The scorekeeper, seat 4' in actions
    # A page only looked at says nothing of a step.
    assert 'id="step-done"' not in client.get(link(sheet, 1)).content.decode()


def test_a_solo_is_entered_quick_and_the_plus_seats_name_the_soloist(client, sheet):
    """The soloist drop-down may stay empty: one plus seat is the soloist who won, three plus
    seats are the opponents of the soloist who lost (TSR 7.2.4, 7.3.3.3)."""
    won = quick(1, 3, "1", 1, contract="compulsory_solo", solo_type="queens", soloist="")
    response = client.post(link(sheet, 4, "save"), won, **HX)
    assert response.status_code == 200, response.content.decode()
    lost = quick(2, 2, "234", 2, contract="voluntary_solo", solo_type="jacks", soloist="")
    response = client.post(link(sheet, 4, "save"), lost, **HX)
    assert response.status_code == 200, response.content.decode()
    assert [(hand.soloist, hand.points) for hand in sheet.hands.all()] == [
        (1, {1: 9, 2: -3, 3: -3, 4: -3}),
        (1, {1: -6, 2: 2, 3: 2, 4: 2}),
    ]
    raw = {"mode": "raw", "number": 3, "version": 3, "contract": "voluntary_solo", "soloist": ""}
    raw |= {"solo_type": "aces", "points_1": 3, "points_2": -1, "points_3": -1, "points_4": -1}
    page = client.post(link(sheet, 4, "check"), raw, **HX).content.decode()
    assert "Name the soloist (TSR 7.3.3.3)." in page


def test_a_hand_dealt_by_the_wrong_player_is_recorded_with_a_warning(client, sheet):
    # TSR 9.7.3: nobody complained in time, so the hand stands as dealt by seat 3, and the
    # deal goes on from him.
    client.post(link(sheet, 4, "save"), quick(1, 3, "13", 1), **HX)
    response = client.post(link(sheet, 4, "save"), quick(2, 2, "12", 2, dealer=3), **HX)
    assert response.status_code == 200, response.content.decode()
    assert [hand.dealer for hand in sheet.hands.all()] == [1, 3]
    page = response.content.decode()
    assert 'id="sheet-warnings"' in page
    assert "Hand 2 was dealt by seat 3, not by seat 2. Nobody complained in time" in page
    assert "Next hand: seat 4 deals" in page


def test_a_neighbour_dealing_for_the_dealer_is_recorded_for_the_dealer(client, sheet):
    # TSR 3.3.2: seat 2 was away; seat 3 dealt for him. The hand is seat 2's deal, no
    # warning, and seat 3 deals the next hand as always.
    client.post(link(sheet, 4, "save"), quick(1, 3, "13", 1), **HX)
    hand = quick(2, 2, "12", 2) | {"dealt_by_neighbour": "on"}
    response = client.post(link(sheet, 4, "save"), hand, **HX)
    assert response.status_code == 200, response.content.decode()
    assert [(h.dealer, h.dealt_by_neighbour) for h in sheet.hands.all()] == [
        (1, False),
        (2, True),
    ]
    page = response.content.decode()
    assert 'id="sheet-warnings"' not in page
    assert "Next hand: seat 3 deals" in page
    assert "his left neighbour dealt for him (TSR 3.3.2)" in page


def test_the_live_check_warns_of_a_dealer_out_of_turn(client, sheet):
    page = client.post(link(sheet, 4, "check"), quick(1, 3, "24", 1, dealer=2), **HX)
    page = page.content.decode()
    assert "correct by the TSR" in page
    assert "Hand 1 was dealt by seat 2, not by seat 1" in page


def test_striking_a_hand_keeps_the_hands_dealt_out_of_turn(client, sheet):
    rows = [quick(1, 3, "13", 1), quick(2, 2, "12", 2, dealer=3), quick(3, 1, "12", 3)]
    for row in rows:
        assert client.post(link(sheet, 4, "save"), row, **HX).status_code == 200
    assert [hand.dealer for hand in sheet.hands.all()] == [1, 3, 4]
    client.post(link(sheet, 4, "delete"), {"number": 1, "version": 4}, **HX)
    assert [hand.dealer for hand in sheet.hands.all()] == [3, 4]


def test_a_row_beyond_the_round_is_refused_and_says_so(client, sheet):
    from scoring import services

    services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match(), version=1, by=factories.keeper(sheet)
    )
    page = client.get(link(sheet, 4)).content.decode()
    assert "The match is complete." in page
    response = client.post(link(sheet, 4, "save"), quick(25, 1, "12", 2), **HX)
    assert response.status_code == 422
    assert "the round has 24 hands, compulsory solos included" in response.content.decode()
    assert sheet.hands.count() == 24


# Handing the sheet over (TSR 3.1.1, 8.4.1) --------------------------------------------------


def test_the_organiser_hands_the_sheet_over_and_the_links_follow(client, sheet, organiser):
    """By agreement at the table seat 2 keeps the sheet: its link now has the entry row, the
    former scorekeeper's link only follows; the table page and the history say so."""
    client.force_login(organiser)
    page = client.get(staff_url(sheet)).content.decode()
    assert "Scorekeeper: seat 4 – hand over to seat" in page
    response = client.post(staff_url(sheet, "keeper"), {"version": 1, "seat": "2"}, **HX)
    assert response.status_code == 200
    assert "Scorekeeper: seat 2 – hand over to seat" in response.content.decode()
    sheet.refresh_from_db()
    assert (sheet.keeper_seat, sheet.version) == (2, 2)
    table = client.get(
        reverse("scoring:table", args=[sheet.table.round.tournament.slug, 1, 1])
    ).content.decode()
    seats_list = table[table.index("list-group-numbered") :]
    listed = seats_list[: seats_list.index("</ol>")]
    keeps = listed[: listed.index("keeps the sheet")]
    assert seat(sheet, 2).entry.player.name in keeps[keeps.rindex("<li") :]
    history = client.get(staff_url(sheet, "history")).content.decode()
    assert "scorekeeper changed" in history
    assert "Scorekeeper (seat): 4 → 2" in history
    client.logout()
    client.cookies["django_language"] = "en"
    page = client.get(link(sheet, 2)).content.decode()
    assert "You keep the scoresheet" in page
    assert 'id="hand-form"' in page
    page = client.get(link(sheet, 4)).content.decode()
    assert "You can follow the scoresheet" in page
    assert 'id="hand-form"' not in page
    assert "hand over to seat" not in page
    assert client.post(link(sheet, 4, "save"), quick(1, 1, "13", 2), **HX).status_code == 403
    assert client.post(link(sheet, 2, "save"), quick(1, 1, "13", 2), **HX).status_code == 200


@pytest.mark.parametrize("seat_value", ["²", "", "5", "-1", "9" * 5000])
def test_a_wrong_seat_is_refused_with_a_message_and_nothing_changes(
    client, sheet, organiser, seat_value
):
    client.force_login(organiser)
    response = client.post(staff_url(sheet, "keeper"), {"version": 1, "seat": seat_value}, **HX)
    assert response.status_code == 422
    assert "TSR 3.1.1" in response.content.decode()
    sheet.refresh_from_db()
    assert (sheet.keeper_seat, sheet.version) == (None, 1)


def test_a_panel_member_neither_sees_nor_may_hand_the_sheet_over(client, sheet):
    member = factories.user()
    factories.role_grant(tournament=sheet.table.round.tournament, user=member, role="panel")
    client.force_login(member)
    assert "hand over to seat" not in client.get(staff_url(sheet)).content.decode()
    response = client.post(staff_url(sheet, "keeper"), {"version": 1, "seat": "2"}, **HX)
    assert response.status_code == 403
    sheet.refresh_from_db()
    assert sheet.keeper_seat is None


@pytest.mark.parametrize("after", ["-1", "²", "99999999999", "9" * 5000])
def test_a_wrong_end_of_playing_time_is_refused_with_a_message(client, sheet, after):
    factories.round_end(sheet.table.round)
    response = client.post(link(sheet, 4, "time-over"), {"after": after, "version": 1}, **HX)
    assert response.status_code == 422
    sheet.refresh_from_db()
    assert (sheet.version, sheet.time_over_after_hand) == (1, None)


def test_a_table_with_extra_time_sees_when_its_playing_time_ends(client, sheet):
    """TSR 8.5.1: a table's extra time extends its playing time beyond the announced end."""
    import datetime

    from django.utils import timezone

    tournament_services.table_extra_time_grant(
        table=sheet.table,
        minutes=7,
        reason="Beschwerde",
        by=factories.adjudicator(sheet.table.round.tournament),
    )
    ended = factories.round_end(sheet.table.round)
    ends = timezone.localtime(ended.ended_at + datetime.timedelta(minutes=7))
    page = client.get(link(sheet, 4)).content.decode()
    assert f"ends at {ends:%H:%M}, with its extra time (TSR 8.5.1)" in page
    assert 'name="after"' not in page


def test_a_seat_typed_as_a_superscript_is_refused_on_its_field(client, sheet):
    response = client.post(link(sheet, 4, "save"), quick(1, 3, "1²", 1), **HX)
    assert response.status_code == 422
    assert "Type seat numbers only, such as 13." in response.content.decode()
    assert not sheet.hands.exists()


@pytest.mark.parametrize("mode", ["٣", "\x00", "x" * 5000])
def test_an_unknown_entry_mode_is_refused_and_not_kept_in_the_cookie(client, sheet, mode):
    """The mode the row is entered in goes into a cookie; a mode that is none (a character a
    header cannot carry broke the answer) is refused on its field and the cookie keeps quick
    entry."""
    client.cookies["django_language"] = "en"
    response = client.post(link(sheet, 4, "save"), quick(1, 3, "13", 1, mode=mode), **HX)
    assert response.status_code == 422
    assert "How to enter the hand: Select a valid choice." in response.content.decode()
    assert response.cookies["sheet_mode"].value == "quick"
    assert not sheet.hands.exists()


# Rows that waited in the browser while the connection was down (static/js/offline-queue.js)
# come back through save/ asking for JSON.

JSON = {"HTTP_ACCEPT": "application/json"}


def test_a_row_sent_for_json_is_saved_and_answered_with_the_new_version_and_the_hand(client, sheet):
    response = client.post(link(sheet, 4, "save"), quick(1, 3, "13", 1), **JSON)
    assert response.status_code == 200
    answer = response.json()
    assert answer["version"] == 2
    assert answer["number"] == 1
    assert answer["hand"]["points"] == {"1": 3, "2": -3, "3": 3, "4": -3}
    assert answer["hand"]["dealer"] == 1
    assert sheet.hands.get().points == {1: 3, 2: -3, 3: 3, 4: -3}


def test_an_empty_dealer_is_the_tsr_s_and_a_named_one_stands(client, sheet):
    client.post(link(sheet, 4, "save"), quick(1, 3, "13", 1, dealer=""), **JSON)
    response = client.post(link(sheet, 4, "save"), quick(2, 1, "13", 2, dealer="4"), **JSON)
    assert response.status_code == 200
    assert [hand.dealer for hand in sheet.hands.all()] == [1, 4]  # TSR 9.7.3


def test_a_stale_row_for_json_gets_409_with_the_current_sheet_and_what_changed(client, sheet):
    client.post(link(sheet, 4, "save"), quick(1, 3, "13", 1), **HX)  # another device's
    response = client.post(link(sheet, 4, "save"), quick(1, 5, "24", 1), **JSON)
    assert response.status_code == 409
    answer = response.json()
    assert "changed by someone else" in answer["detail"]
    assert answer["version"] == answer["current"]["version"] == 2
    assert [hand["game_value"] for hand in answer["current"]["hands"]] == [3]
    assert [change["hands_changed"] for change in answer["changes"]] == [[1]]
    assert answer["hand"] == {"number": 1, "stored": False, "saved_in": None}
    assert sheet.hands.get().game_value == 3  # nothing overwritten


def test_the_version_is_checked_before_the_row(client, sheet):
    """A row typed on top of an older sheet is a clash, whatever the sheet says of it now."""
    client.post(link(sheet, 4, "save"), quick(1, 3, "13", 1), **HX)
    response = client.post(link(sheet, 4, "save"), quick(7, 3, "1", 1), **JSON)
    assert response.status_code == 409
    assert response.json()["hand"]["number"] is None


def test_a_row_saved_before_whose_answer_was_lost_is_recognised(client, sheet):
    client.post(link(sheet, 4, "save"), quick(1, 3, "13", 1), **JSON)
    response = client.post(link(sheet, 4, "save"), quick(1, 3, "13", 1), **JSON)
    assert response.status_code == 409
    assert response.json()["hand"] == {"number": 1, "stored": True, "saved_in": 2}
    # The next row builds on the version the first one made.
    assert client.post(link(sheet, 4, "save"), quick(2, 1, "24", 2), **JSON).status_code == 200
    assert sheet.hands.count() == 2


def test_the_same_hand_typed_elsewhere_later_is_stored_but_builds_on_nothing(client, sheet):
    """The sheet holds the hand, but not as the first change after the row's version: the
    rows after it clash, as they must."""
    client.post(link(sheet, 4, "save"), quick(1, 5, "24", 1), **HX)
    client.post(link(sheet, 4, "save"), quick(1, 3, "13", 2), **HX)
    response = client.post(link(sheet, 4, "save"), quick(1, 3, "13", 1), **JSON)
    assert response.json()["hand"] == {"number": 1, "stored": True, "saved_in": None}


def test_a_refused_row_for_json_gets_422_with_its_messages_by_field(client, sheet):
    response = client.post(link(sheet, 4, "save"), quick(1, 3, "1", 1), **JSON)
    assert response.status_code == 422
    answer = response.json()
    assert list(answer["errors"]) == ["plus_seats"]
    assert answer["messages"][0].startswith("Plus seats: In a normal game the two winners")
    assert not sheet.hands.exists()


def test_a_row_the_tsr_check_refuses_gets_422_with_the_check_s_message(client, sheet):
    from scoring import services

    services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match(), version=1, by=factories.keeper(sheet)
    )
    response = client.post(link(sheet, 4, "save"), quick(25, 1, "12", 2), **JSON)
    assert response.status_code == 422
    answer = response.json()
    assert list(answer["errors"]) == ["hands"]
    assert "the round has 24 hands, compulsory solos included" in answer["messages"][0]
    assert sheet.hands.count() == 24


def test_a_link_that_may_not_enter_gets_403_as_json(client, sheet):
    response = client.post(link(sheet, 2, "save"), quick(1, 3, "13", 1), **JSON)
    assert response.status_code == 403
    assert response.json()["messages"]
    assert not sheet.hands.exists()


def test_a_browser_s_form_and_htmx_still_get_the_page(client, sheet):
    accept = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
    response = client.post(link(sheet, 4, "save"), quick(1, 3, "13", 1), HTTP_ACCEPT=accept)
    assert response.status_code == 302
    response = client.post(link(sheet, 4, "save"), quick(2, 1, "24", 2), **HX, HTTP_ACCEPT="*/*")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")


def test_the_entry_page_carries_the_offline_queue_for_its_own_address(client, sheet):
    page = client.get(link(sheet, 4)).content.decode()
    key = link(sheet, 4)
    assert f'data-offline-panel="{key}"' in page
    assert f'data-offline-queue="{key}"' in page
    assert 'type="module" src="/static/js/offline-queue.js"' in page
    assert 'type="module" src="/static/js/sw-register.js"' in page
    assert 'data-text-not-sent="not sent yet"' in page


def test_the_service_worker_is_served_from_the_root_and_always_checked_again(client, db):
    response = client.get(reverse("scoring:service-worker"))
    assert reverse("scoring:service-worker") == "/sw.js"  # its scope: the whole site
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Cache-Control"] == "no-cache"
    assert b'addEventListener("fetch"' in response.content


@pytest.mark.parametrize(
    ("position", "step", "queries"),
    [
        # as the link page: the hand-in's check reads what the page then shows
        (4, "submit", LINK_QUERIES),
        # and the four-eyes record, which says who may confirm (TSR 7.3.4)
        (1, "confirm", LINK_QUERIES + 1),
    ],
)
def test_a_step_reads_the_sheet_once_for_its_check_and_its_page(
    client, sheet, position, step, queries, django_assert_num_queries
):
    from scoring import services

    keeper = factories.keeper(sheet)
    sheet = services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match(), version=1, by=keeper
    )
    if step == "confirm":
        sheet = services.scoresheet_submit(scoresheet=sheet, version=sheet.version, by=keeper)
    url = link(sheet, position) + f"?step={step}"
    with django_assert_num_queries(queries):
        response = client.get(url, **HX)
    assert response.status_code == 200
    page = response.content.decode()
    assert page.count('<tr id="hand-') == 24
    asked = "Hand in the scoresheet?" if step == "submit" else "Confirm that the scoresheet"
    assert asked in page
    assert "Check the totals." in page
