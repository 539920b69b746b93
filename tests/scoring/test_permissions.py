"""Who may do what on the table's page, the scoresheets (the staff's pages, the players'
links, the API) and the rules API: their lines of the permission matrix (tests/permissions.py)
for every role, CSRF, and what a seat's private key opens."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.permissions import (
    LINK,
    SCORING,
    TB,
    T,
    csrf_refusal_test,
    csrf_token_test,
    fingerprint,
    form_pages_test,
    hand_json,
    matrix_test,
)

test_matrix = matrix_test(SCORING)


# CSRF -------------------------------------------------------------------------------------------

test_every_post_form_carries_the_csrf_token = csrf_token_test(SCORING)


test_the_form_pages_have_post_forms = form_pages_test(
    [
        ("scoring:sheet", TB, "organiser"),
        ("scoring:sheet-link", LINK, "keeper"),
    ]
)


test_a_post_without_the_csrf_token_is_403 = csrf_refusal_test(SCORING)


# Private links -------------------------------------------------------------------------------------
# Also: tests/scoring/test_services.py::test_a_link_opens_only_its_own_table,
# tests/scoring/test_sheet_api.py::test_a_key_of_another_table_is_refused and
# ::test_an_unknown_key_is_refused, tests/scoring/test_sheet_pages.py::test_an_unknown_key_is_not_found,
# tests/tournaments/test_round_pages.py::test_only_the_organiser_sees_the_seats_private_links,
# tests/tournaments/test_permissions.py::test_a_seat_key_is_192_random_bits.


@pytest.mark.django_db
def test_a_seat_key_opens_its_own_tables_sheet_only(ctx):
    from tournaments.models import Seat

    other = Seat.objects.get(
        table__round__tournament__slug=ctx.slug, table__number=2, position=4
    ).token
    client = Client()
    page = client.get(
        reverse("scoring:sheet-link", args=[other]), headers={"Accept-Language": "en"}
    )
    assert page.status_code == 200
    assert page.context["table"].number == 2
    # In the API, the key of table 2 opens neither table 1's sheet nor anything but sheets.
    headers = {"X-Seat-Key": other, "Accept-Language": "en"}
    sheet_1 = reverse("api:scoresheet", kwargs=TB(ctx))
    assert client.get(sheet_1, headers=headers).status_code == 403
    before = fingerprint()
    put = client.put(sheet_1, hand_json(ctx), content_type="application/json", headers=headers)
    assert put.status_code == 403
    assert fingerprint() == before
    decisions = reverse("api:decisions", kwargs=T(ctx))
    assert client.get(decisions, headers=headers).status_code == 403
    # A key that is one character off opens nothing.
    wrong = other[:-1] + ("A" if other[-1] != "A" else "B")
    assert client.get(reverse("scoring:sheet-link", args=[wrong])).status_code == 404
    assert client.get(sheet_1, headers={"X-Seat-Key": wrong}).status_code in {401, 403}
