"""The organiser's and adjudicator's pages for players and rounds, and the public finder."""

import datetime
from unittest import mock

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from printing.models import Job
from tests import factories
from tournaments import services
from tournaments.models import Entry, ExtraTime, Round, TournamentRole

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english(client):
    client.cookies["django_language"] = "en"


@pytest.fixture
def organiser():
    return factories.user(username="orga")


@pytest.fixture
def tournament(organiser):
    return factories.tournament(players=12, organiser=organiser, name="Pik-Pokal", planned_rounds=2)


def post(client, name, *args, data=None, **kwargs):
    return client.post(reverse(name, args=args, kwargs=kwargs or None), data or {})


def test_organiser_runs_a_round_from_its_page(
    client, organiser, tournament, django_capture_on_commit_callbacks
):
    client.force_login(organiser)
    response = post(client, "tournaments:round-add", tournament.slug)
    assert response.url == reverse("tournaments:round", args=[tournament.slug, 1])
    page = client.get(response.url).content.decode()
    assert "Draw the seating" in page

    post(client, "tournaments:round-action", tournament.slug, 1, "seat")
    page = client.get(reverse("tournaments:round", args=[tournament.slug, 1])).content.decode()
    assert "The seating is drawn" in page
    assert "Quality of the draw" in page
    assert "not published" in page

    post(client, "tournaments:round-action", tournament.slug, 1, "publish")
    post(client, "tournaments:round-action", tournament.slug, 1, "start")
    round_ = tournament.rounds.get(number=1)
    assert round_.status == Round.Status.RUNNING
    assert round_.published_at is not None

    # Committed, the grant raises the round's version, under which the clock keeps the tables.
    with django_capture_on_commit_callbacks(execute=True):
        response = post(
            client,
            "tournaments:round-extra-time",
            tournament.slug,
            1,
            data={"table": 2, "minutes": 7, "reason": "Beschwerde in Spiel 4"},
        )
    assert ExtraTime.objects.get().minutes == 7
    page = client.get(response.url).content.decode()
    assert "Table 2 has 7 more minutes." in page
    assert "Beschwerde in Spiel 4" in page  # staff see the reason
    assert "data-ends-at" in page

    post(client, "tournaments:round-action", tournament.slug, 1, "end")
    response = post(client, "tournaments:round-action", tournament.slug, 1, "close")
    page = client.get(response.url).content.decode()
    assert "3 scoresheets are not confirmed yet (tables 1, 2, 3)." in page
    assert "the desk does from the signed paper sheet" in page  # who can, and where
    assert tournament.rounds.get(number=1).status == Round.Status.FINISHED


def test_the_draw_offers_the_choices_when_the_players_do_not_fill_tables_of_four(client, organiser):
    """TSR 8.3.1: tables of four only, unless the tournament allows tables of five (TSR 10).
    With 9 players the round and tournament pages say so with the numbers, link the players
    page and offer the organiser to allow tables of five; then the draw seats everyone."""
    tournament = factories.tournament(players=9, organiser=organiser, planned_rounds=2)
    client.force_login(organiser)
    post(client, "tournaments:round-add", tournament.slug)
    expected = (
        "9 active players do not divide into tables of four (TSR 8.3.1): register 3 more or "
        "withdraw 1, or allow tables of five (TSR 10)."
    )
    for page in (
        client.get(reverse("tournaments:round", args=[tournament.slug, 1])).content.decode(),
        client.get(reverse("tournaments:tournament", args=[tournament.slug])).content.decode(),
    ):
        panel = page[page.index('id="seating-shortfall"') :]
        assert expected in panel
        assert reverse("tournaments:entries", args=[tournament.slug]) in panel
        assert "Allow tables of five (TSR 10)" in panel
    response = post(client, "tournaments:round-action", tournament.slug, 1, "seat")
    assert expected in client.get(response.url).content.decode()
    assert not tournament.rounds.get().tables.exists()
    response = post(client, "tournaments:tables-of-five", tournament.slug, data={"round": "1"})
    assert response.url == reverse("tournaments:round", args=[tournament.slug, 1])
    page = client.get(response.url).content.decode()
    assert "Tables of five are allowed from now on (TSR 10)" in page
    assert 'id="seating-shortfall"' not in page
    tournament.refresh_from_db()
    assert tournament.allow_tables_of_five
    post(client, "tournaments:round-action", tournament.slug, 1, "seat")
    round_ = tournament.rounds.get()
    assert sorted(table.seats.count() for table in round_.tables.all()) == [4, 5]


def test_only_the_organiser_sees_the_choices_and_allows_tables_of_five(client, tournament):
    adjudicator = factories.user()
    factories.role_grant(tournament=tournament, user=adjudicator, role="adjudicator")
    services.entry_create(tournament=tournament, player=factories.player())  # 13 players
    services.round_create(tournament=tournament)
    client.force_login(adjudicator)
    page = client.get(reverse("tournaments:round", args=[tournament.slug, 1])).content.decode()
    assert 'id="seating-shortfall"' not in page
    assert post(client, "tournaments:tables-of-five", tournament.slug).status_code == 403
    tournament.refresh_from_db()
    assert not tournament.allow_tables_of_five


def test_extra_time_form_errors_name_the_field(client, organiser, tournament):
    round_ = factories.seated_round(tournament)
    services.round_start(round=round_)
    client.force_login(organiser)
    response = post(
        client,
        "tournaments:round-extra-time",
        tournament.slug,
        1,
        data={"table": 9, "minutes": 5, "reason": "x"},
    )
    page = client.get(response.url).content.decode()
    assert "Round 1 has no such table." in page
    post(
        client,
        "tournaments:round-extra-time",
        tournament.slug,
        1,
        data={"table": 1, "minutes": 0, "reason": ""},
    )
    assert not ExtraTime.objects.exists()


def test_adjudicator_runs_the_clock_but_does_not_draw(client, tournament):
    adjudicator = factories.user()
    factories.role_grant(
        tournament=tournament, user=adjudicator, role=TournamentRole.Role.ADJUDICATOR
    )
    factories.seated_round(tournament)
    client.force_login(adjudicator)
    assert post(client, "tournaments:round-action", tournament.slug, 1, "seat").status_code == 403
    assert post(client, "printing:round-print", tournament.slug, 1, "tables").status_code == 403
    post(client, "tournaments:round-action", tournament.slug, 1, "start")
    assert tournament.rounds.get().status == Round.Status.RUNNING
    post(
        client,
        "tournaments:round-extra-time",
        tournament.slug,
        1,
        data={"table": 1, "minutes": 3, "reason": "Beschwerde"},
    )
    assert ExtraTime.objects.get().granted_by == adjudicator


def test_a_panel_member_sees_no_end_button_and_cannot_end_the_round(client, tournament):
    """TSR 8.5.1: only the adjudicator (or the organiser) announces the end of the round."""
    member, adjudicator = factories.user(), factories.user()
    factories.role_grant(tournament=tournament, user=member, role="panel")
    factories.role_grant(tournament=tournament, user=adjudicator, role="adjudicator")
    services.round_start(round=factories.seated_round(tournament))
    client.force_login(member)
    page = client.get(reverse("tournaments:round", args=[tournament.slug, 1])).content.decode()
    assert "End the playing time" not in page
    assert post(client, "tournaments:round-action", tournament.slug, 1, "end").status_code == 403
    assert tournament.rounds.get().status == Round.Status.RUNNING
    client.force_login(adjudicator)
    page = client.get(reverse("tournaments:round", args=[tournament.slug, 1])).content.decode()
    assert "End the playing time" in page
    post(client, "tournaments:round-action", tournament.slug, 1, "end")
    assert tournament.rounds.get().status == Round.Status.FINISHED


@pytest.mark.parametrize("name", ["tournaments:round-action", "printing:round-print"])
def test_strangers_cannot_run_rounds(client, tournament, name):
    factories.seated_round(tournament)
    arg = "start" if name == "tournaments:round-action" else "cards"
    assert post(client, name, tournament.slug, 1, arg).status_code == 302  # to the login
    client.force_login(factories.user())
    assert post(client, name, tournament.slug, 1, arg).status_code == 403
    assert tournament.rounds.get().status == Round.Status.SEATED


def test_unpublished_seating_is_for_staff_only(client, organiser, tournament):
    factories.seated_round(tournament, publish=False)
    page = client.get(reverse("tournaments:round", args=[tournament.slug, 1])).content.decode()
    assert "has not been published yet" in page
    assert client.get(reverse("scoring:table", args=[tournament.slug, 1, 1])).status_code == 404
    api = client.get(reverse("api:round", args=[tournament.slug, 1])).json()
    assert api["tables"] == []
    client.force_login(organiser)
    assert client.get(reverse("scoring:table", args=[tournament.slug, 1, 1])).status_code == 200
    assert len(client.get(reverse("api:round", args=[tournament.slug, 1])).json()["tables"]) == 3


@pytest.mark.parametrize(
    ("kind", "title"),
    [("tables", "Seating"), ("names", "Seating"), ("cards", "Table 1"), ("scoresheets", "Table 1")],
)
def test_round_printouts_come_from_a_job(
    client, organiser, tournament, django_capture_on_commit_callbacks, kind, title
):
    factories.seated_round(tournament)
    client.force_login(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        response = post(client, "printing:round-print", tournament.slug, 1, kind)
    job = Job.objects.get()
    assert response.url == reverse("printing:job", args=[job.pk])
    assert job.round.number == 1
    assert job.status == Job.Status.DONE
    assert job.file.name.endswith(".pdf")
    download = client.get(reverse("printing:job-download", args=[job.pk]))
    assert b"".join(download.streaming_content).startswith(b"%PDF")
    page = client.get(reverse("tournaments:round", args=[tournament.slug, 1])).content.decode()
    assert job.get_kind_display() in page


def test_organiser_registers_corrects_and_withdraws_players(client, organiser, tournament):
    client.force_login(organiser)
    response = post(
        client,
        "tournaments:entries",
        tournament.slug,
        data={"first_name": "Jörg", "last_name": "Weiß", "club": "Doko Köln", "ddv_number": ""},
    )
    assert response.status_code == 302
    entry = tournament.entries.get(player__last_name="Weiß")
    assert entry.start_number == 13
    page = client.get(reverse("tournaments:entries", args=[tournament.slug])).content.decode()
    assert "Jörg Weiß is registered with start number 13." in page

    taken = post(
        client,
        "tournaments:entries",
        tournament.slug,
        data={"first_name": "Anna", "last_name": "Bauer", "start_number": 13},
    )
    assert taken.status_code == 400
    assert "This start number is already taken." in taken.content.decode()

    bad = post(
        client,
        "tournaments:entries",
        tournament.slug,
        data={"first_name": "", "last_name": "X", "ddv_number": "12a"},
    )
    assert bad.status_code == 400
    assert "A DDV membership number has digits only." in bad.content.decode()

    edit = reverse("tournaments:entry-edit", args=[tournament.slug, 13])
    assert client.get(edit).status_code == 200
    client.post(edit, {"first_name": "Jörg", "last_name": "Weiss", "club": "", "start_number": 20})
    entry.refresh_from_db()
    assert (entry.player.last_name, entry.start_number) == ("Weiss", 20)

    post(client, "tournaments:entry-status", tournament.slug, 20, data={"action": "withdraw"})
    entry.refresh_from_db()
    assert entry.status == Entry.Status.WITHDRAWN
    post(client, "tournaments:entry-status", tournament.slug, 20, data={"action": "reinstate"})
    entry.refresh_from_db()
    assert entry.status == Entry.Status.ACTIVE


@pytest.mark.parametrize("number", ["1", "٣"])
def test_a_start_number_taken_is_shown_at_its_field(client, organiser, tournament, number):
    """ "٣" is 3 to Python: taken too. Both pages, registration and correction, say it at the
    start number."""
    client.force_login(organiser)
    data = {"first_name": "Anna", "last_name": "Bauer", "start_number": number}
    taken = post(client, "tournaments:entries", tournament.slug, data=data)
    assert taken.status_code == 400
    assert taken.context["form"].errors == {"start_number": ["This start number is already taken."]}
    edit = reverse("tournaments:entry-edit", args=[tournament.slug, 5])
    corrected = client.post(edit, data)
    assert corrected.status_code == 400
    assert corrected.context["form"].errors["start_number"] == [
        "This start number is already taken."
    ]


@pytest.mark.parametrize("number", [str(10**30), "-" + str(10**30), "²"])
def test_a_start_number_that_is_none_is_refused_at_its_field(client, organiser, tournament, number):
    client.force_login(organiser)
    data = {"first_name": "Anna", "last_name": "Bauer", "start_number": number}
    for response in (
        post(client, "tournaments:entries", tournament.slug, data=data),
        client.post(reverse("tournaments:entry-edit", args=[tournament.slug, 5]), data),
    ):
        assert response.status_code == 400
        assert list(response.context["form"].errors) == ["start_number"]
    assert not tournament.entries.filter(player__last_name="Bauer").exists()


def test_withdrawal_after_publishing_reports_the_moves(client, organiser):
    tournament = factories.tournament(players=17, organiser=organiser, allow_tables_of_five=True)
    round_ = factories.seated_round(tournament)
    fifth = round_.seats.get(position=5).entry
    first = round_.seats.filter(position=1).exclude(table=round_.seats.get(position=5).table)[0]
    client.force_login(organiser)
    response = post(
        client,
        "tournaments:entry-status",
        tournament.slug,
        first.entry.start_number,
        data={"action": "withdraw"},
    )
    page = client.get(response.url).content.decode()
    assert "The published seating of round 1 changed for 1 player;" in page
    assert round_.seats.get(entry=fifth).moved_at is not None


def test_substitute_page(client, organiser, tournament):
    round_ = factories.seated_round(tournament)
    client.force_login(organiser)
    url = reverse("tournaments:entry-replace", args=[tournament.slug, 1])
    assert client.get(url).status_code == 200
    response = client.post(url, {"first_name": "Ersatz", "last_name": "Mann"})
    assert response.status_code == 302
    substitute = tournament.entries.get(player__last_name="Mann")
    assert round_.seats.filter(entry=substitute).exists()


def test_players_find_their_table_without_logging_in(client, tournament):
    factories.seated_round(tournament)
    entry = tournament.entries.get(start_number=5)
    page = client.get(
        reverse("tournaments:find", args=[tournament.slug]), {"q": "5"}
    ).content.decode()
    assert entry.player.name in page
    assert "found-table" in page
    partial = client.get(
        reverse("tournaments:find", args=[tournament.slug]),
        {"q": entry.player.last_name},
        headers={"HX-Request": "true"},
    ).content.decode()
    assert "<html" not in partial
    assert entry.player.name in partial
    nobody = client.get(reverse("tournaments:find", args=[tournament.slug]), {"q": "Niemand"})
    assert "Nobody found" in nobody.content.decode()


def test_find_my_table_names_the_seat_the_sheet_was_handed_over_to(client, organiser, tournament):
    """TSR 3.1.1: by agreement at the table seat 2 keeps the sheet; the finder says so."""
    from scoring import services as scoring_services
    from scoring.models import Scoresheet

    round_ = services.round_start(round=factories.seated_round(tournament))
    sheet = Scoresheet.objects.get(table__round=round_, table__number=1)
    seats = {seat.position: seat.entry for seat in sheet.table.seats.all()}

    def role_of(entry) -> str:
        page = client.get(
            reverse("tournaments:find", args=[tournament.slug]), {"q": entry.start_number}
        )
        return page.content.decode()

    assert "keeps the sheet" in role_of(seats[4])
    scoring_services.scoresheet_keeper_move(
        scoresheet=sheet, seat=2, version=1, by=scoring_services.Actor(user=organiser)
    )
    assert "keeps the sheet" in role_of(seats[2])
    assert "keeps the sheet" not in role_of(seats[4])


def test_venue_screen_shows_clock_names_and_a_qr_code(client, tournament):
    round_ = factories.seated_round(tournament)
    services.round_start(round=round_)
    page = client.get(reverse("tournaments:screen", args=[tournament.slug])).content.decode()
    assert "screen-clock" in page
    assert "<svg" in page
    first = round_.seats.select_related("entry__player").first().entry.player
    assert f"{first.last_name}, {first.first_name}" in page
    partial = client.get(
        reverse("tournaments:screen", args=[tournament.slug]), headers={"HX-Request": "true"}
    )
    assert "<html" not in partial.content.decode()


def test_venue_screen_before_any_draw(client, tournament):
    page = client.get(reverse("tournaments:screen", args=[tournament.slug])).content.decode()
    assert "No round has been drawn yet." in page


def test_round_clock_partial(client, tournament):
    round_ = factories.seated_round(tournament)
    services.round_start(round=round_)
    page = client.get(
        reverse("tournaments:round-clock", args=[tournament.slug, 1])
    ).content.decode()
    assert 'hx-trigger="every 30s"' in page
    assert "data-ends-at" in page


def test_round_clock_answers_304_while_its_end_stands(client, tournament):
    """The phones refresh the clock every 30 s; the seconds left they count down themselves
    (static/js/clock.js), so a clock whose end stands is not sent again, seconds later."""
    services.round_start(round=factories.seated_round(tournament))
    url = reverse("tournaments:round-clock", args=[tournament.slug, 1])
    first = client.get(url, headers={"HX-Request": "true"})
    assert first.status_code == 200
    assert first["Cache-Control"] == "no-cache"
    later = timezone.now() + datetime.timedelta(seconds=7)
    with mock.patch("django.utils.timezone.now", return_value=later):
        again = client.get(url, headers={"HX-Request": "true", "If-None-Match": first["ETag"]})
    assert again.status_code == 304
    assert again["ETag"] == first["ETag"]
    assert again.content == b""


def test_a_phones_clock_refresh_reads_only_the_round(client, tournament, django_assert_num_queries):
    """Every phone at the venue refreshes the clock every 30 s (issue 45): without a login it
    costs the round's row, the tournament being the cached public head and the tables' sizes
    and extra time kept under the round's version; so does a phone that has no clock yet."""
    services.round_start(round=factories.seated_round(tournament))
    url = reverse("tournaments:round-clock", args=[tournament.slug, 1])
    first = client.get(url, headers={"HX-Request": "true"})
    assert first.status_code == 200
    with django_assert_num_queries(1):
        again = client.get(url, headers={"HX-Request": "true", "If-None-Match": first["ETag"]})
    assert again.status_code == 304
    phone = Client()
    phone.cookies["django_language"] = "en"
    with django_assert_num_queries(1):
        another = phone.get(url, headers={"HX-Request": "true"})
    assert another.status_code == 200
    assert another["ETag"] == first["ETag"]


def test_round_clock_is_sent_again_when_its_end_changes(
    client, tournament, django_capture_on_commit_callbacks
):
    round_ = services.round_start(round=factories.seated_round(tournament))
    url = reverse("tournaments:round-clock", args=[tournament.slug, 1])
    etag = client.get(url)["ETag"]
    adjudicator = factories.adjudicator(tournament)
    table = round_.tables.get(number=2)
    with django_capture_on_commit_callbacks(execute=True):
        services.table_extra_time_grant(table=table, minutes=5, reason="Beschwerde", by=adjudicator)
    extra = client.get(url, headers={"If-None-Match": etag})
    assert extra.status_code == 200
    assert "Table 2: +5 min" in extra.content.decode()
    factories.round_end(round_)
    over = client.get(url, headers={"If-None-Match": extra["ETag"]})
    assert over.status_code == 200
    assert "Playing time is over" in over.content.decode()
    assert over["ETag"] not in {etag, extra["ETag"]}


def test_after_the_end_the_clock_counts_down_for_the_tables_of_five(client):
    """TSR 10.1.5: the round is ended at 110 minutes; the tables of five play on until their
    125 minutes are over, 15 minutes later (not 25): the round page, the venue screen and the
    API's clock show it."""
    tournament = factories.tournament(players=9, allow_tables_of_five=True)
    start = timezone.now() - datetime.timedelta(minutes=110)
    round_ = services.round_start(round=factories.seated_round(tournament), at=start)
    factories.round_end(round_)
    ends = start + datetime.timedelta(minutes=125)
    clock = client.get(
        reverse("tournaments:round-clock", args=[tournament.slug, 1])
    ).content.decode()
    five = clock[clock.index('id="clock-five"') :]
    assert f'data-ends-at="{timezone.localtime(ends).isoformat()}"' in five
    assert "15:00" in five or "14:5" in five
    screen = client.get(reverse("tournaments:screen", args=[tournament.slug])).content.decode()
    assert 'id="screen-clock-five"' in screen
    data = client.get(reverse("api:round-clock", args=[tournament.slug, 1])).json()
    assert data["status"] == "finished"
    assert data["seconds_left"] == 0
    assert 14 * 60 < data["seconds_left_five"] <= 15 * 60
    assert data["ends_at_five"] == timezone.localtime(ends).isoformat()


def test_pages_in_german(client, tournament):
    round_ = factories.seated_round(tournament)
    services.round_start(round=round_)
    client.cookies["django_language"] = "de"
    page = client.get(
        reverse("tournaments:find", args=[tournament.slug]), {"q": "1"}
    ).content.decode()
    assert "Tisch" in page
    screen = client.get(reverse("tournaments:screen", args=[tournament.slug])).content.decode()
    assert "Runde 1" in screen


def test_staff_open_each_tables_scoresheet_from_the_round_page(client, organiser, tournament):
    round_ = factories.seated_round(tournament)
    sheet_url = reverse("scoring:sheet", args=[tournament.slug, 1, 2])
    client.force_login(organiser)
    assert (
        sheet_url
        not in client.get(reverse("tournaments:round", args=[tournament.slug, 1])).content.decode()
    )
    services.round_start(round=round_)
    page = client.get(reverse("tournaments:round", args=[tournament.slug, 1])).content.decode()
    assert sheet_url in page
    table_page = client.get(reverse("scoring:table", args=[tournament.slug, 1, 2])).content.decode()
    assert sheet_url in table_page
    client.logout()
    assert (
        sheet_url
        not in client.get(reverse("tournaments:round", args=[tournament.slug, 1])).content.decode()
    )
    table_page = client.get(reverse("scoring:table", args=[tournament.slug, 1, 2])).content.decode()
    assert sheet_url not in table_page


def test_only_the_organiser_and_the_adjudicator_see_the_seats_private_links(
    client, organiser, tournament
):
    """As the links API (scoring.policies.may_read_seat_links): they hand a lost link out."""
    round_ = factories.seated_round(tournament)
    tokens = list(round_.tables.get(number=1).seats.order_by("position").values_list("token"))
    url = reverse("scoring:table", args=[tournament.slug, 1, 1])
    for who in [organiser, factories.adjudicator(tournament)]:
        client.force_login(who)
        page = client.get(url).content.decode()
        assert "Private links to the scoresheet" in page
        for (token,) in tokens:
            assert reverse("scoring:sheet-link", args=[token]) in page
        assert page.count("<svg") >= len(tokens)  # a QR code each
    deputy = factories.user()
    factories.role_grant(tournament=tournament, user=deputy, role=TournamentRole.Role.DEPUTY)
    for who in [deputy, None]:
        client.logout()
        if who:
            client.force_login(who)
        page = client.get(url).content.decode()
        assert "Private links" not in page
        assert not any(token in page for (token,) in tokens)


# Links the phones in the hall cannot open (tournaments/site.py) -------------------------------

UNREACHABLE = "make run HOST=0.0.0.0"


@pytest.fixture
def hosts(settings):
    """Requests may come in on this machine's address or on the hall's network."""
    settings.ALLOWED_HOSTS = ["testserver", "127.0.0.1", "192.168.1.20"]


@pytest.mark.parametrize(
    ("site_url", "host", "warned"),
    [
        ("", "127.0.0.1:8000", True),
        ("http://127.0.0.1:8000/", "192.168.1.20:8000", True),
        ("http://192.168.1.20:8000/", "127.0.0.1:8000", False),
        ("", "192.168.1.20:8000", False),
    ],
)
def test_the_seats_private_links_warn_when_the_phones_cannot_open_them(
    client, organiser, tournament, settings, hosts, site_url, host, warned
):
    settings.SITE_URL = site_url
    factories.seated_round(tournament)
    client.force_login(organiser)
    page = client.get(
        reverse("scoring:table", args=[tournament.slug, 1, 1]), headers={"host": host}
    )
    text = page.content.decode()
    assert "Private links to the scoresheet" in text
    assert (UNREACHABLE in text) is warned
    if warned:
        assert f"Links and QR codes point to {site_url or f'http://{host}/'}" in text


@pytest.mark.parametrize(
    ("site_url", "host", "warned"),
    [
        ("", "127.0.0.1:8000", True),
        ("http://localhost:8000/", "192.168.1.20:8000", True),
        ("http://192.168.1.20:8000/", "127.0.0.1:8000", False),
        ("", "192.168.1.20:8000", False),
    ],
)
def test_the_venue_screen_tells_the_organiser_that_phones_cannot_open_its_code(
    client, organiser, tournament, settings, hosts, site_url, host, warned
):
    settings.SITE_URL = site_url
    services.round_start(round=factories.seated_round(tournament))
    url = reverse("tournaments:screen", args=[tournament.slug])
    client.force_login(organiser)
    for headers in [{"host": host}, {"host": host, "HX-Request": "true"}]:  # and its refresh
        assert (UNREACHABLE in client.get(url, headers=headers).content.decode()) is warned


def test_the_hall_never_sees_the_venue_screens_note(client, tournament, settings, hosts):
    """The projector shows the page to everyone: only the organisers see the note."""
    settings.SITE_URL = ""
    services.round_start(round=factories.seated_round(tournament))
    url = reverse("tournaments:screen", args=[tournament.slug])
    local = {"host": "127.0.0.1:8000"}
    assert UNREACHABLE not in client.get(url, headers=local).content.decode()
    client.force_login(factories.adjudicator(tournament))
    assert UNREACHABLE not in client.get(url, headers=local).content.decode()
