"""The check-in at the door (issue 33, point 2): the desk's list ticks players off with one tap
(htmx, or a plain form), refreshes with a 304 while nothing changed, the desk checks a player
in from his personal page (its QR code scanned), and the organiser withdraws the no-shows in
one action before the first draw, seeing first who moves up from the waiting list."""

import pytest
from django.urls import reverse

from registration.models import OnlineRegistration, Registration
from registration.services.arrivals import entry_check_in
from tests import factories
from tournaments import services
from tournaments.models import Entry, Tournament, TournamentRole

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


@pytest.fixture
def organiser():
    return factories.user(username="leitung")


@pytest.fixture
def full(organiser):
    """Eight places taken (capacity 8), two players waiting; the players' names known."""
    tournament = factories.tournament(players=6, organiser=organiser)
    services.entry_create(
        tournament=tournament,
        player=factories.player(first_name="Jürgen", last_name="Müller", club="Kreuz Dame"),
    )
    services.entry_create(
        tournament=tournament, player=factories.player(first_name="Anna", last_name="Schmidt")
    )
    factories.registration_open(tournament, capacity=8)
    factories.waiting(tournament, "Erste", "Zweite", "Dritte")
    return tournament


@pytest.fixture
def desk(full):
    """A scorekeeper account of the tournament: the desk at the door."""
    user = factories.user(username="einlass")
    factories.role_grant(tournament=full, user=user, role=TournamentRole.Role.SCOREKEEPER)
    return user


def english(client):
    client.cookies["django_language"] = "en"
    return client


def url(tournament: Tournament, name: str = "registration:check-in", *args) -> str:
    return reverse(name, args=[tournament.slug, *args])


def test_the_desk_ticks_a_player_off_with_one_tap(client, full, desk):
    english(client).force_login(desk)
    page = client.get(url(full)).content.decode()
    assert "<strong>0</strong> of 8 here" in page
    assert "<strong>8</strong> missing" in page
    assert "3 on the waiting list" in page
    assert "Jürgen Müller" in page
    assert "Kreuz Dame" in page
    # htmx: the row and the counts come back, the page stays.
    answer = client.post(
        url(full, "registration:check-in-entry", 7), {"action": "in"}, headers=HTMX
    )
    assert answer.status_code == 200
    html = answer.content.decode()
    assert 'id="check-in-7"' in html
    assert "Arrived at" in html
    assert "Undo" in html
    assert 'id="check-in-counts" class="mb-3" hx-swap-oob="true"' in html
    assert "<strong>1</strong> of 8 here" in html
    entry = full.entries.get(start_number=7)
    assert entry.arrived_at is not None
    # Undo: missing again.
    answer = client.post(
        url(full, "registration:check-in-entry", 7), {"action": "undo"}, headers=HTMX
    )
    assert "<strong>0</strong> of 8 here" in answer.content.decode()
    entry.refresh_from_db()
    assert entry.arrived_at is None


def test_without_javascript_the_tick_goes_back_to_the_list_as_it_was(client, full, desk):
    english(client).force_login(desk)
    response = client.post(
        url(full, "registration:check-in-entry", 8),
        {"action": "in", "q": "schmidt", "show": "missing"},
    )
    assert response.status_code == 302
    assert response["Location"] == url(full) + "?q=schmidt&show=missing"
    page = client.get(response["Location"]).content.decode()
    assert "Anna Schmidt has arrived." in page
    # Only the missing are shown: Anna has arrived, so nobody matches the search any more.
    assert 'id="check-in-8"' not in page
    assert "No player matches" in page


@pytest.mark.parametrize("query", ["mueller", "MÜLLER", "Jurgen", "7"])
def test_the_search_finds_a_name_in_any_spelling_or_the_start_number(client, full, desk, query):
    english(client).force_login(desk)
    page = client.get(url(full), {"q": query}).content.decode()
    assert 'id="check-in-7"' in page
    assert 'id="check-in-8"' not in page


def test_missing_only_hides_who_has_arrived(client, full, desk):
    entry_check_in(entry=full.entries.get(start_number=1), by=desk)
    english(client).force_login(desk)
    page = client.get(url(full), {"show": "missing"}).content.decode()
    assert 'id="check-in-1"' not in page
    assert 'id="check-in-2"' in page
    page = client.get(url(full), {"show": "all"}).content.decode()
    assert 'id="check-in-1"' in page
    assert "Arrived at" in page


def test_withdrawn_players_are_counted_not_listed(client, full, desk):
    services.entry_withdraw(entry=full.entries.get(start_number=2))
    english(client).force_login(desk)
    page = client.get(url(full)).content.decode()
    assert 'id="check-in-2"' not in page
    assert "1 withdrawn player is not listed" in page
    assert f'href="{reverse("tournaments:entries", args=[full.slug])}"' in page


def test_a_withdrawn_player_is_refused_in_place_with_the_reason(client, full, desk):
    entry = full.entries.get(start_number=3)
    english(client).force_login(desk)
    client.get(url(full))
    services.entry_withdraw(entry=entry)  # by an organiser, meanwhile
    answer = client.post(
        url(full, "registration:check-in-entry", 3), {"action": "in"}, headers=HTMX
    )
    assert answer.status_code == 422
    assert "takes a withdrawn player back on the players page" in answer.content.decode()
    entry.refresh_from_db()
    assert entry.arrived_at is None


def test_others_are_refused_with_who_checks_in(client, full):
    english(client)
    assert client.get(url(full)).status_code == 302  # to the login
    client.force_login(factories.adjudicator(full))
    for response in (
        client.get(url(full)),
        client.post(url(full, "registration:check-in-entry", 1), {"action": "in"}),
    ):
        assert response.status_code == 403
        assert "Only an organiser or the desk (a scorekeeper) checks players in." in (
            response.content.decode()
        )
    assert not full.entries.filter(arrived_at__isnull=False).exists()


def test_an_unknown_action_or_player_is_a_404(client, full, desk):
    client.force_login(desk)
    assert (
        client.post(url(full, "registration:check-in-entry", 1), {"action": "x"}).status_code == 404
    )
    assert (
        client.post(url(full, "registration:check-in-entry", 99), {"action": "in"}).status_code
        == 404
    )


def test_once_finished_the_list_says_why_nobody_checks_in(client, full, desk):
    Tournament.objects.filter(pk=full.pk).update(status=Tournament.Status.FINISHED)
    english(client).force_login(desk)
    page = client.get(url(full)).content.decode()
    assert "The tournament is finished; nobody checks in any more." in page
    assert 'value="in"' not in page


def test_the_refresh_is_a_304_while_nothing_changed(client, full, desk):
    client.force_login(desk)
    first = client.get(url(full), headers=HTMX)
    assert first.status_code == 200
    assert 'id="check-in-live"' in first.content.decode()
    assert "<html" not in first.content.decode()
    etag = first["ETag"]
    again = client.get(url(full), headers={**HTMX, "If-None-Match": etag})
    assert again.status_code == 304
    # Another desk phone ticks a player off: the list has changed.
    entry_check_in(entry=full.entries.get(start_number=1), by=desk)
    changed = client.get(url(full), headers={**HTMX, "If-None-Match": etag})
    assert changed.status_code == 200
    assert changed["ETag"] != etag


def test_the_list_reads_a_fixed_number_of_queries(
    client, full, desk, django_assert_max_num_queries
):
    client.force_login(desk)
    client.get(url(full))
    for _ in range(20):
        services.entry_create(tournament=full, player=factories.player())
    for entry in full.entries.all()[:10]:
        entry_check_in(entry=entry, by=desk)
    with django_assert_max_num_queries(12):
        assert client.get(url(full)).status_code == 200
    with django_assert_max_num_queries(10):
        assert client.get(url(full), headers=HTMX).status_code == 200


def test_the_page_speaks_german(client, full, desk):
    client.force_login(desk)
    entry_check_in(entry=full.entries.get(start_number=1), by=desk)
    page = client.get(url(full)).content.decode()
    assert "Check-in" in page
    assert "<strong>1</strong> von 8 da" in page
    assert "<strong>7</strong> fehlen" in page
    assert "Angekommen" in page
    assert "Nur fehlende" in page


# The no-shows ------------------------------------------------------------------------------


def test_the_organiser_sees_who_goes_and_who_moves_up_then_withdraws_them(
    client, full, organiser, django_capture_on_commit_callbacks
):
    entries = factories.entries(full)
    for entry in entries[:6]:
        entry_check_in(entry=entry, by=organiser)
    english(client).force_login(organiser)
    page = client.get(url(full)).content.decode()
    assert f'href="{url(full, "registration:no-shows")}"' in page
    confirm = client.get(url(full, "registration:no-shows")).content.decode()
    assert "These 2 players have not checked in" in confirm
    assert "Jürgen Müller" in confirm
    assert "Anna Schmidt" in confirm
    # Two places free: the first two of the waiting list, in order; not the third.
    moving = confirm.split('id="no-shows-moving-up"')[1]
    assert moving.index("Wartende Erste") < moving.index("Wartende Zweite")
    assert "Wartende Dritte" not in confirm
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url(full, "registration:no-shows"))
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "2 players who did not come are withdrawn." in page
    assert "Wartende Erste, Wartende Zweite" in page
    assert set(
        full.entries.filter(status=Entry.Status.WITHDRAWN).values_list("start_number", flat=True)
    ) == {7, 8}
    # They are expected at the door: active, and missing.
    assert "<strong>6</strong> of 8 here" in page
    assert "<strong>2</strong> missing" in page


def test_the_preview_matches_what_the_service_does_under_a_larger_capacity(client, full, organiser):
    OnlineRegistration.objects.filter(tournament=full).update(capacity=10)
    for entry in factories.entries(full)[:5]:
        entry_check_in(entry=entry, by=organiser)
    english(client).force_login(organiser)
    confirm = client.get(url(full, "registration:no-shows")).content.decode()
    # 10 places, 5 here: 5 free, but only 3 waiting.
    for name in ("Wartende Erste", "Wartende Zweite", "Wartende Dritte"):
        assert name in confirm
    client.post(url(full, "registration:no-shows"))
    assert not full.registrations.filter(state=Registration.State.WAITING).exists()


def test_nobody_checked_in_yet_is_said_before_anything_is_withdrawn(client, full, organiser):
    english(client).force_login(organiser)
    confirm = client.get(url(full, "registration:no-shows")).content.decode()
    assert "Nobody has checked in yet" in confirm
    assert '<form method="post" action="' + url(full, "registration:no-shows") not in confirm
    response = client.post(url(full, "registration:no-shows"), follow=True)
    assert "Nobody has checked in yet" in response.content.decode()
    assert not full.entries.filter(status=Entry.Status.WITHDRAWN).exists()


def test_after_a_draw_the_button_gives_way_to_the_reason(client, full, organiser):
    entry_check_in(entry=full.entries.get(start_number=1), by=organiser)
    factories.seated_round(full)
    english(client).force_login(organiser)
    page = client.get(url(full)).content.decode()
    assert f'href="{url(full, "registration:no-shows")}"' not in page
    assert "A round is drawn already: withdraw a missing player one by one" in page
    response = client.post(url(full, "registration:no-shows"), follow=True)
    assert "A round is drawn already" in response.content.decode()
    assert not full.entries.filter(status=Entry.Status.WITHDRAWN).exists()


def test_the_desk_does_not_withdraw_the_no_shows(client, full, desk):
    entry_check_in(entry=full.entries.get(start_number=1), by=desk)
    english(client).force_login(desk)
    page = client.get(url(full)).content.decode()
    assert "Only an organiser withdraws the players who did not come." in page
    assert client.get(url(full, "registration:no-shows")).status_code == 403
    assert client.post(url(full, "registration:no-shows")).status_code == 403
    assert not full.entries.filter(status=Entry.Status.WITHDRAWN).exists()


# The QR code at the door: the personal page -------------------------------------------------


def test_the_desk_checks_in_from_the_scanned_personal_page(client, full, desk):
    entry = full.entries.get(start_number=7)
    personal = reverse("registration:personal-link", args=[entry.link_key])
    # The player himself (nobody logged in) sees no button.
    assert "check-in-button" not in english(client).get(personal).content.decode()
    client.force_login(desk)
    page = client.get(personal).content.decode()
    assert "Check in Jürgen Müller" in page
    response = client.post(reverse("registration:personal-check-in", args=[entry.link_key]))
    assert response.status_code == 302
    assert response["Location"] == personal
    entry.refresh_from_db()
    assert entry.arrived_at is not None
    page = client.get(personal).content.decode()
    assert "Checked in at" in page
    assert "Undo" in page
    client.post(reverse("registration:personal-check-in-undo", args=[entry.link_key]))
    entry.refresh_from_db()
    assert entry.arrived_at is None


def test_the_personal_page_button_speaks_german(client, full, desk):
    entry = full.entries.get(start_number=7)
    client.force_login(desk)
    page = client.get(reverse("registration:personal-link", args=[entry.link_key])).content.decode()
    assert "Jürgen Müller einchecken" in page


def test_others_do_not_check_in_from_a_personal_page(client, full):
    entry = full.entries.get(start_number=7)
    english(client)
    response = client.post(reverse("registration:personal-check-in", args=[entry.link_key]))
    assert response.status_code == 302
    assert "login" in response["Location"]
    client.force_login(factories.adjudicator(full))
    assert "check-in-button" not in (
        client.get(reverse("registration:personal-link", args=[entry.link_key])).content.decode()
    )
    response = client.post(reverse("registration:personal-check-in", args=[entry.link_key]))
    assert response.status_code == 403
    assert "Only an organiser or the desk" in response.content.decode()
    assert (
        client.post(reverse("registration:personal-check-in", args=["no-such-key"])).status_code
        == 404
    )
    entry.refresh_from_db()
    assert entry.arrived_at is None


# The players page and the tournament page ---------------------------------------------------


def test_the_desk_sees_who_arrived_on_the_players_and_tournament_pages(client, full, desk):
    entry_check_in(entry=full.entries.get(start_number=1), by=desk)
    english(client)
    for name in ("tournaments:entries", "tournaments:tournament"):
        assert "check-in-summary" not in client.get(url(full, name)).content.decode()
    assert "arrived" not in client.get(url(full, "tournaments:entries")).content.decode()
    client.force_login(desk)
    for name in ("tournaments:entries", "tournaments:tournament"):
        page = client.get(url(full, name)).content.decode()
        assert "1 of 8 here" in page
        assert f'href="{url(full)}"' in page
    assert ">arrived</span>" in client.get(url(full, "tournaments:entries")).content.decode()
