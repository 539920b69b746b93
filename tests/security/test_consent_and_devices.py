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

import pytest
from django.urls import reverse

from tests import factories

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a-long-test-password"  # tests.factories.user's


def sheet_address(sheet, name: str = "sheet") -> str:
    table = sheet.table
    return reverse(name, args=[table.round.tournament.slug, table.round.number, table.number])


def seat_address(sheet, position: int, name: str = "sheet-link") -> str:
    return reverse(name, args=[sheet.table.seats.get(position=position).token])


# Private pages are kept by no cache ----------------------------------------------------------


def test_a_seats_link_is_never_stored(visitor, sheet):
    phone = visitor(cookies=False)
    response = phone.get(seat_address(sheet, 4))
    assert response.status_code == 200
    assert "no-store" in response.headers["Cache-Control"]
    history = phone.get(seat_address(sheet, 4, "sheet-link-history"))
    assert "no-store" in history.headers["Cache-Control"]


def test_the_staffs_sheet_desk_and_staff_pages_are_never_stored(visitor, sheet):
    tournament = sheet.table.round.tournament
    organiser = factories.organiser(tournament)
    desk = visitor()
    desk.log_in(organiser.username, PASSWORD)
    for address in (
        sheet_address(sheet),
        reverse("desk", args=[tournament.slug, 1]),
        reverse("desk-list", args=[tournament.slug, 1]),
        reverse("staff", args=[tournament.slug]),
        reverse("tournament", args=[tournament.slug]),
    ):
        response = desk.get(address)
        assert response.status_code == 200, address
        assert response.headers["Cache-Control"] == "private, no-store", address


def test_the_api_through_a_seats_key_is_never_stored(visitor, sheet):
    table = sheet.table
    address = reverse(
        "api-scoresheet", args=[table.round.tournament.slug, table.round.number, table.number]
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
    assert "no-store" not in phone.get(reverse("table", args=args)).headers.get("Cache-Control", "")
    live = reverse("table-live", args=args)
    first = phone.get(live, headers={"HX-Request": "true"})
    assert first.status_code == 200
    assert first.headers["Cache-Control"] == "no-cache"
    again = phone.get(live, headers={"HX-Request": "true", "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
