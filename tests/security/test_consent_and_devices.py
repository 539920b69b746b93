"""Consent and shared devices (issue 44, item 6), replayed through HTTP against the running site.

- A role offered by user name waits for the person's acceptance, and the organiser's answer is
  the same whether the name has an account.
- A hand typed on a shared device belongs to whoever typed it: a save that names another typist
  than the one logged in is refused, and nothing is stored.
- Someone's own pages (a seat's link, a staff page, the desk) carry ``Cache-Control: no-store``;
  the players' public table page stays cacheable, with its 304.

The browser's side of the shared device (the kept pages forgotten at every end of a session, the
waiting hands asked about) is tests/browser/test_shared_device.py.
"""

import re

import pytest
from django.contrib.sessions.models import Session
from django.urls import reverse

from tests import factories

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a-long-test-password"  # tests.factories.user's


def sheet_address(sheet, name: str = "scoring:sheet") -> str:
    table = sheet.table
    return reverse(name, args=[table.round.tournament.slug, table.round.number, table.number])


def seat_address(sheet, position: int, name: str = "scoring:sheet-link") -> str:
    return reverse(name, args=[sheet.table.seats.get(position=position).token])


# Private pages are kept by no cache ----------------------------------------------------------


def test_a_seats_link_is_never_stored(visitor, sheet):
    phone = visitor(cookies=False)
    response = phone.get(seat_address(sheet, 4))
    assert response.status_code == 200
    assert "no-store" in response.headers["Cache-Control"]
    history = phone.get(seat_address(sheet, 4, "scoring:sheet-link-history"))
    assert "no-store" in history.headers["Cache-Control"]


def test_the_staffs_sheet_desk_and_staff_pages_are_never_stored(visitor, sheet):
    tournament = sheet.table.round.tournament
    organiser = factories.organiser(tournament)
    desk = visitor()
    desk.log_in(organiser.username, PASSWORD)
    for address in (
        sheet_address(sheet),
        reverse("scoring:desk", args=[tournament.slug, 1]),
        reverse("scoring:desk-list", args=[tournament.slug, 1]),
        reverse("adjudication:staff", args=[tournament.slug]),
        reverse("tournaments:tournament", args=[tournament.slug]),
    ):
        response = desk.get(address)
        assert response.status_code == 200, address
        assert response.headers["Cache-Control"] == "private, no-store", address


def test_the_api_through_a_seats_key_is_never_stored(visitor, sheet):
    table = sheet.table
    address = reverse(
        "api:scoresheet", args=[table.round.tournament.slug, table.round.number, table.number]
    )
    script = visitor(cookies=False)
    key = sheet.table.seats.get(position=4).token
    response = script.api("GET", address, headers={"X-Seat-Key": key})
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "private, no-store"


def test_the_players_public_table_page_stays_cacheable(visitor, sheet):
    table = sheet.table
    args = [table.round.tournament.slug, table.round.number, table.number]
    phone = visitor(cookies=False)
    assert "no-store" not in phone.get(reverse("scoring:table", args=args)).headers.get(
        "Cache-Control", ""
    )
    live = reverse("scoring:table-live", args=args)
    first = phone.get(live, headers={"HX-Request": "true"})
    assert first.status_code == 200
    assert first.headers["Cache-Control"] == "no-cache"
    again = phone.get(live, headers={"HX-Request": "true", "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304


# A role named by user name waits for its person ----------------------------------------------


def organiser_of(tournament):
    return factories.organiser(tournament)


ALERT = re.compile(r'<div class="alert alert-(\w+)" role="alert">([^<]*)</div>')


def offered(desk, tournament, username: str) -> tuple[int, str, list]:
    """Offer the panel to ``username`` on the staff page: the status, where it led, and what
    the page then says and lists, the name written as NAME."""
    address = reverse("adjudication:staff", args=[tournament.slug])
    response = desk.post_form(address, {"username": username, "role": "panel"})
    page = desk.get(address).text.replace(username, "NAME")
    listed = re.findall(r'<span class="me-auto"><strong>([^<]*)</strong>', page)
    return response.status_code, response.headers.get("Location", ""), [ALERT.findall(page), listed]


def test_a_role_offered_by_user_name_is_the_persons_once_accepted(visitor, sheet):
    tournament = sheet.table.round.tournament
    named = factories.user(username="jmueller")
    desk = visitor()
    desk.log_in(organiser_of(tournament).username, PASSWORD)
    status, _where, _page = offered(desk, tournament, "jmueller")
    assert status == 302
    assert not named.tournament_roles.filter(tournament=tournament).exists()

    person = visitor()
    person.log_in("jmueller", PASSWORD)
    page = person.get(reverse("roles")).text
    offer = re.search(r'action="(/accounts/roles/offers/\d+/)"', page).group(1)
    accepted = person.post_form(offer, {"answer": "accept"}, form=reverse("roles"))
    assert accepted.status_code == 302
    assert named.tournament_roles.filter(tournament=tournament, role="panel").exists()


def test_the_staff_page_answers_the_same_whether_the_name_has_an_account(visitor, sheet):
    tournament = sheet.table.round.tournament
    factories.user(username="jmueller")
    desk = visitor()
    desk.log_in(organiser_of(tournament).username, PASSWORD)
    real = offered(desk, tournament, "jmueller")
    made_up = offered(desk, tournament, "jmuellr")
    assert real[0] == made_up[0] == 302
    assert real[1] == made_up[1]
    assert real[2][0] == made_up[2][0]  # the same message
    assert made_up[2][1].count("NAME") == 1  # both listed alike, as the organiser wrote them


def test_the_api_answers_the_same_whether_the_name_has_an_account(visitor, sheet):
    tournament = sheet.table.round.tournament
    factories.user(username="jmueller")
    script = visitor(cookies=False)
    script.api_log_in(organiser_of(tournament).username, PASSWORD)
    answers = []
    for username in ("jmueller", "jmuellr"):
        response = script.api(
            "POST", f"tournaments/{tournament.slug}/roles", {"username": username, "role": "panel"}
        )
        body = response.json()
        answers.append((response.status_code, sorted(body), body.get("role")))
    assert answers[0] == answers[1]
    assert answers[0][0] == 202
    assert not tournament.roles.filter(user__username="jmueller").exists()


def test_a_competitions_organisers_answer_the_same_whether_the_name_has_an_account(visitor, db):
    from tests.teams.factories import league
    from tests.teams.factories import organiser_of as competition_organiser

    competition = league(teams=0)
    colleague = factories.user(username="kollegin", email="kollegin@example.org")
    organiser = competition_organiser(competition)
    desk = visitor()
    desk.log_in(organiser.username, PASSWORD)
    settings_page = reverse("teams:competition-settings", args=[competition.slug])
    address = reverse("teams:competition-organisers", args=[competition.slug])
    said = []
    for named in ("kollegin@example.org", "niemand@example.org"):
        response = desk.post_form(address, {"user": named}, form=settings_page)
        assert response.status_code == 302
        said.append(ALERT.findall(desk.get(settings_page).text.replace(named, "NAME")))
    assert said[0] == said[1]
    assert not competition.organisers.filter(pk=colleague.pk).exists()


# A hand belongs to whoever typed it ------------------------------------------------------------


TYPIST = re.compile(r'name="typist" value="([^"]+)"')
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def hand_row(page: str, typist: str, number: int = 1) -> dict:
    """Hand ``number`` as the entry row of ``page`` posts it, typed the quick way, with the
    page's typist (``typist`` where the page names none) and CSRF token."""
    named = TYPIST.search(page)
    return {
        "csrfmiddlewaretoken": CSRF.search(page).group(1),
        "typist": named.group(1) if named else typist,
        "version": re.search(r'name="version" value="(\d+)"', page).group(1),
        "number": str(number),
        "mode": "quick",
        "contract": "normal",
        "game_value": "1",
        "plus_seats": "13",
    }


def two_desks_on_one_device(visitor, sheet):
    """The desk's laptop: account A opens the sheet (and may type offline), logs out, and
    account B logs in on the same browser. Returns the device, A's row and B's page."""
    tournament = sheet.table.round.tournament
    first, second = factories.organiser(tournament), factories.organiser(tournament)
    device = visitor()
    device.log_in(first.username, PASSWORD)
    address = sheet_address(sheet)
    typed = hand_row(device.get(address).text, f"user:{first.pk}")
    assert device.post_form("/accounts/logout/", form=address).status_code == 302
    device.log_in(second.username, PASSWORD)
    return device, typed, device.get(address).text


def test_a_queued_hand_is_not_saved_under_the_next_login(visitor, sheet):
    device, typed, page = two_desks_on_one_device(visitor, sheet)
    # The queue of the kept page sends what A typed, with B's session (and B's CSRF token).
    sent = {**typed, "csrfmiddlewaretoken": CSRF.search(page).group(1)}
    answer = device.request(
        "POST",
        sheet_address(sheet, "scoring:sheet-save"),
        data=sent,
        headers={"Accept": "application/json", "Referer": device.url(sheet_address(sheet))},
    )
    assert answer.status_code == 403
    assert answer.json()["code"] == "typist"
    assert answer.json()["typist"]["key"] == TYPIST.search(page).group(1)
    assert "nothing was saved" in answer.json()["detail"]
    sheet.refresh_from_db()
    assert not sheet.hands.exists()

    # B says he typed it: sent as B's, it is saved, and the history names B.
    mine = {**sent, "typist": TYPIST.search(page).group(1)}
    saved = device.request(
        "POST",
        sheet_address(sheet, "scoring:sheet-save"),
        data=mine,
        headers={"Accept": "application/json", "Referer": device.url(sheet_address(sheet))},
    )
    assert saved.status_code == 200
    assert sheet.hands.count() == 1


def test_the_plain_form_keeps_a_hand_typed_by_another_login_and_says_why(visitor, sheet):
    device, typed, page = two_desks_on_one_device(visitor, sheet)
    sent = {**typed, "csrfmiddlewaretoken": CSRF.search(page).group(1)}
    answer = device.request(
        "POST",
        sheet_address(sheet, "scoring:sheet-save"),
        data=sent,
        headers={"HX-Request": "true", "Referer": device.url(sheet_address(sheet))},
    )
    assert answer.status_code == 409
    assert "nothing was saved, since nothing is saved under another person" in answer.text
    assert re.search(r'name="game_value"[^>]*value="1"', answer.text)  # the row as typed
    assert TYPIST.search(answer.text).group(1) == TYPIST.search(page).group(1)  # now B's
    assert not sheet.hands.exists()


def test_a_staff_page_says_until_when_a_copy_of_it_may_be_shown(visitor, sheet):
    tournament = sheet.table.round.tournament
    device = visitor()
    device.log_in(factories.organiser(tournament).username, PASSWORD)
    until = int(device.get(sheet_address(sheet)).headers["X-Kept-Until"])
    session = Session.objects.get(session_key=device.session.cookies["sessionid"])
    assert until == int(session.expire_date.timestamp() * 1000)
    phone = visitor(cookies=False)
    assert "X-Kept-Until" not in phone.get(seat_address(sheet, 4)).headers
