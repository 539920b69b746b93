"""The player's personal page (``/p/<key>/``): one link for the whole tournament that shows the
player's seat now and next (published seating only), opens their seat's own sheet, lists their
results, lets them withdraw before the first draw; and the organiser's "Personal link" block,
which replaces a lost one (issue 33)."""

import pytest
from django.urls import reverse
from django.utils import timezone

from doko.sample_sheets import full_match
from registration.models import Registration
from scoring.models import Scoresheet
from tests import factories
from tournaments import services
from tournaments.models import Entry, Seat, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    return factories.user(username="leitung")


@pytest.fixture
def tournament(organiser):
    return factories.tournament(players=8, organiser=organiser, planned_rounds=2)


def first(tournament: Tournament) -> Entry:
    return factories.entries(tournament)[0]


def page(client, entry_or_key, *, english=True, **headers):
    key = entry_or_key if isinstance(entry_or_key, str) else entry_or_key.link_key
    if english:
        client.cookies["django_language"] = "en"
    return client.get(reverse("registration:personal-link", args=[key]), headers=headers)


def test_the_page_shows_the_seat_the_table_and_opens_the_seats_own_sheet(client, tournament):
    round_ = factories.seated_round(tournament)
    entry = first(tournament)
    seat = Seat.objects.get(round=round_, entry=entry)
    response = page(client, entry)
    html = response.content.decode()
    assert response.status_code == 200
    assert response["Cache-Control"] == "private, no-store"
    assert response["Referrer-Policy"] == "same-origin"
    assert f"Round 1 · Table {seat.table.number} · Seat {seat.position}" in html
    # The button opens the seat's own link: the page grants no more than the seat does.
    assert reverse("scoring:sheet-link", args=[seat.token]) in html
    assert "Open the scoresheet" in html
    for other in seat.table.seats.exclude(pk=seat.pk).select_related("entry"):
        assert other.entry.name in html
    assert "Seat 4 keeps the scoresheet." in html or "You keep the scoresheet." in html
    # A QR code of the page's own address, for the door.
    assert "<svg" in html
    assert "Show this at the door to check in" in html


def test_the_page_speaks_german(client, tournament):
    factories.seated_round(tournament)
    html = page(client, first(tournament), english=False).content.decode()
    assert "Spielliste öffnen" in html
    assert "Zeigen Sie dies am Eingang" in html


def test_an_unpublished_seating_is_not_shown(client, tournament):
    round_ = factories.seated_round(tournament, publish=False)
    entry = first(tournament)
    seat = Seat.objects.get(round=round_, entry=entry)
    html = page(client, entry).content.decode()
    assert "The seating of round 1 is not published yet." in html
    assert seat.token not in html
    assert "Open the scoresheet" not in html


def test_the_next_round_shows_once_published(client, tournament):
    round_ = services.round_start(round=factories.seated_round(tournament))
    for sheet in Scoresheet.objects.filter(table__round=round_):
        factories.sheet_confirmed(sheet, full_match())
    factories.round_end(round_)
    entry = first(tournament)
    second = factories.seated_round(tournament, publish=False)
    html = page(client, entry).content.decode()
    assert "Next" in html
    assert "The seating of round 2 is not published yet." in html
    next_seat = Seat.objects.get(round=second, entry=entry)
    assert next_seat.token not in html
    services.round_publish(round=second)
    html = page(client, entry).content.decode()
    assert f"Round 2 · Table {next_seat.table.number} · Seat {next_seat.position}" in html
    # Round 1 is finished, not closed: its sheet stays at hand; round 2's is not yet the
    # one to open.
    first_seat = Seat.objects.get(round=round_, entry=entry)
    assert reverse("scoring:sheet-link", args=[first_seat.token]) in html
    assert reverse("scoring:sheet-link", args=[next_seat.token]) not in html
    services.round_close(round=round_)
    services.standings_rebuild(tournament_id=tournament.pk)
    html = page(client, entry).content.decode()
    assert reverse("scoring:sheet-link", args=[next_seat.token]) in html
    assert reverse("scoring:sheet-link", args=[first_seat.token]) not in html
    # The confirmed round is among the results, with the rank: the standings are public.
    result = entry.results.get(round=round_)
    assert f"<td>1</td><td>{result.table.number}</td>" in html
    assert "Rank " in html


def test_hidden_standings_show_no_rank(client, tournament, organiser):
    round_ = services.round_start(round=factories.seated_round(tournament))
    for sheet in Scoresheet.objects.filter(table__round=round_):
        factories.sheet_confirmed(sheet, full_match())
    services.standings_rebuild(tournament_id=tournament.pk)
    services.tournament_update(
        tournament=tournament, by=organiser, changes={"standings_public": False}
    )
    html = page(client, first(tournament)).content.decode()
    assert "the organiser has hidden the standings" in html
    assert "Rank " not in html


def test_the_page_refreshes_itself_only_while_something_can_change(client, tournament):
    entry = first(tournament)
    assert "hx-trigger" not in page(client, entry).content.decode()
    factories.seated_round(tournament, publish=False)
    html = page(client, entry).content.decode()
    assert 'hx-trigger="every 30s"' in html
    partial = page(client, entry, HX_Request="true")
    assert partial.status_code == 200
    assert partial.content.decode().lstrip().startswith('<div id="personal-live"')
    assert partial["Cache-Control"] == "private, no-store"


def test_a_player_withdraws_before_the_first_draw_and_the_waiting_list_moves_up(
    client, tournament, django_capture_on_commit_callbacks
):
    factories.registration_open(tournament, capacity=8)
    waiting = Registration.objects.create(
        tournament=tournament,
        first_name="Wartende",
        last_name="Erste",
        email="erste@example.org",
        state=Registration.State.WAITING,
        waiting_position=1,
    )
    entry = first(tournament)
    html = page(client, entry).content.decode()
    assert "Withdraw from the tournament" in html
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("registration:personal-link-withdraw", args=[entry.link_key])
        )
    assert response.status_code == 302
    entry.refresh_from_db()
    waiting.refresh_from_db()
    assert entry.status == Entry.Status.WITHDRAWN
    assert waiting.state == Registration.State.ADMITTED
    html = client.get(response["Location"]).content.decode()
    assert "You have withdrawn from the tournament." in html
    assert "Withdrawn" in html or "withdrawn" in html


def test_only_a_player_still_expected_is_asked_to_show_the_code_at_the_door(client, tournament):
    expected, arrived, withdrawn = factories.entries(tournament)[:3]
    arrived.arrived_at = timezone.now()
    arrived.save(update_fields=["arrived_at"])
    services.entry_withdraw(entry=withdrawn)
    assert "Show this at the door to check in" in page(client, expected).content.decode()
    html = page(client, arrived).content.decode()
    assert "Show this at the door to check in" not in html
    assert "Your personal link" in html
    html = page(client, withdrawn).content.decode()
    assert "Show this at the door to check in" not in html
    assert 'id="qr-title"' not in html


def test_after_the_draw_the_page_says_to_tell_the_desk(client, tournament):
    factories.seated_round(tournament)
    entry = first(tournament)
    html = page(client, entry).content.decode()
    assert "Withdraw from the tournament</button>" not in html
    assert "tell the desk (the organiser)" in html
    # The post is refused with the reason, and nothing changes.
    response = client.post(reverse("registration:personal-link-withdraw", args=[entry.link_key]))
    assert response.status_code == 400
    assert "tell the desk" in response.content.decode()
    entry.refresh_from_db()
    assert entry.status == Entry.Status.ACTIVE


def test_a_waiting_player_sees_the_place_and_leaves_the_waiting_list(client, tournament):
    ahead = Registration.objects.create(
        tournament=tournament,
        first_name="Vorne",
        last_name="Dran",
        email="vorne@example.org",
        state=Registration.State.WAITING,
        waiting_position=1,
    )
    waiting = Registration.objects.create(
        tournament=tournament,
        first_name="Hinten",
        last_name="Dran",
        email="hinten@example.org",
        state=Registration.State.WAITING,
        waiting_position=2,
    )
    html = page(client, waiting.key).content.decode()
    assert "You are number 2 on the waiting list." in html
    assert "Leave the waiting list" in html
    response = client.post(reverse("registration:personal-link-withdraw", args=[waiting.key]))
    assert response.status_code == 302
    waiting.refresh_from_db()
    assert waiting.state == Registration.State.CANCELLED
    html = client.get(response["Location"]).content.decode()
    assert "You have left the waiting list of this tournament." in html
    assert page(client, ahead.key).status_code == 200


def test_unknown_keys_are_404_and_limited_per_address(client, tournament, settings):
    settings.PERSONAL_LINK_RATE_UNKNOWN = "2/min"
    entry = first(tournament)
    assert page(client, "made-up-key").status_code == 404
    assert page(client, "another-made-up-key").status_code == 404
    limited = page(client, "a-third-made-up-key")
    assert limited.status_code == 429
    assert int(limited["Retry-After"]) >= 1
    # A valid key is never counted nor refused.
    assert page(client, entry).status_code == 200


def test_the_organiser_sees_the_link_and_replaces_it(client, tournament, organiser):
    entry = first(tournament)
    old = entry.link_key
    client.force_login(organiser)
    client.cookies["django_language"] = "en"
    edit = reverse("tournaments:entry-edit", args=[tournament.slug, entry.start_number])
    html = client.get(edit).content.decode()
    assert "Personal link" in html
    assert f"/p/{old}/" in html
    assert "the old link stops working at once" in html
    response = client.post(
        reverse("registration:personal-link-replace", args=[tournament.slug, entry.start_number])
    )
    assert response.status_code == 302
    assert response["Location"] == edit
    entry.refresh_from_db()
    assert entry.link_key != old
    assert page(client, old).status_code == 404
    assert page(client, entry).status_code == 200
    assert f"/p/{entry.link_key}/" in client.get(edit).content.decode()


def test_an_adjudicator_replaces_a_link_and_a_panel_member_is_refused(client, tournament):
    entry = first(tournament)
    old = entry.link_key
    adjudicator = factories.adjudicator(tournament)
    panel = factories.user()
    factories.role_grant(tournament=tournament, user=panel, role="panel")
    address = reverse(
        "registration:personal-link-replace", args=[tournament.slug, entry.start_number]
    )
    client.force_login(panel)
    client.cookies["django_language"] = "en"
    refused = client.post(address)
    assert refused.status_code == 403
    entry.refresh_from_db()
    assert entry.link_key == old
    client.force_login(adjudicator)
    response = client.post(address)
    assert response.status_code == 302
    assert response["Location"] == reverse(
        "tournaments:player", args=[tournament.slug, entry.start_number]
    )
    entry.refresh_from_db()
    assert entry.link_key != old


def test_the_page_reads_in_a_fixed_number_of_queries(
    client, tournament, django_assert_max_num_queries
):
    round_ = services.round_start(round=factories.seated_round(tournament))
    for sheet in Scoresheet.objects.filter(table__round=round_):
        factories.sheet_confirmed(sheet, full_match())
    factories.round_end(round_)
    services.round_close(round=round_)
    services.round_start(round=factories.seated_round(tournament))
    entry = first(tournament)
    assert "Playing time left" in page(client, entry).content.decode()
    # The entry, the rounds, the seats, the table, its keeper, its clock, the results, the
    # standings: however many players and rounds.
    with django_assert_max_num_queries(10):
        assert page(client, entry).status_code == 200


def test_a_springer_sees_both_tables_and_opens_both_sheets(client):
    """TSR 10: the Springer plays at two tables at once; his page shows both, each with its
    own sheet link, and so does the API."""
    tournament = factories.tournament(
        players=7, allow_tables_of_six_and_seven=True, springer=True, planned_rounds=1
    )
    round_ = factories.seated_round(tournament)
    second = Seat.objects.select_related("entry", "table").get(round=round_, second=True)
    first_seat = Seat.objects.select_related("table").get(
        round=round_, entry=second.entry, second=False
    )
    html = page(client, second.entry).content.decode()
    assert f"Round 1 · Table {first_seat.table.number} · Seat 1" in html
    assert f"Springer: also Table {second.table.number} · Seat 1" in html
    assert reverse("scoring:sheet-link", args=[first_seat.token]) in html
    assert reverse("scoring:sheet-link", args=[second.token]) in html
    data = client.get(reverse("api:personal"), headers={"X-Player-Key": second.entry.link_key})
    current = data.json()["current"]
    assert current["table"] == first_seat.table.number
    assert current["second_seat"]["table"] == second.table.number
    assert current["second_seat"]["sheet"]["seat_key"] == second.token
    other = Seat.objects.filter(round=round_, second=False).exclude(entry=second.entry).first()
    data = client.get(reverse("api:personal"), headers={"X-Player-Key": other.entry.link_key})
    assert data.json()["current"]["second_seat"] is None
