"""Every seat's private link of a table through the API (GET …/tables/{t}/links): for the
tournament's organisers and adjudicators, who hand a lost link out again; refused to everyone
else, a seat's own key included."""

import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scoring.policies import may_read_seat_links
from tests import factories
from tournaments import services as tournament_services
from tournaments.models import Seat, TournamentRole

pytestmark = pytest.mark.django_db
Role = TournamentRole.Role


@pytest.fixture
def organiser():
    return factories.user(username="olga")


@pytest.fixture
def tournament(organiser):
    """Nine players, round 1 running: table 1 of four, table 2 of five (TSR 10)."""
    tournament = factories.tournament(players=9, organiser=organiser, allow_tables_of_five=True)
    tournament_services.round_start(round=factories.seated_round(tournament))
    return tournament


@pytest.fixture
def api():
    client = APIClient()
    client.credentials(HTTP_ACCEPT_LANGUAGE="en")
    return client


def url(tournament, table=1, number=1) -> str:
    return reverse("api:table-links", args=[tournament.slug, number, table])


def token(user) -> dict:
    return {"Authorization": f"Token {Token.objects.create(user=user).key}"}


def seats_of(tournament, table=1):
    return list(
        Seat.objects.filter(round__tournament=tournament, table__number=table)
        .select_related("entry__player")
        .order_by("position")
    )


def expected(seats, site="http://testserver") -> list[dict]:
    return [
        {
            "position": seat.position,
            "start_number": seat.entry.start_number,
            "name": seat.entry.player.name,
            "link": site + reverse("scoring:sheet-link", args=[seat.token]),
        }
        for seat in seats
    ]


def test_the_organiser_reads_every_seats_link_of_a_table(api, tournament, organiser):
    response = api.get(url(tournament), headers=token(organiser))
    assert response.status_code == 200
    data = response.json()
    assert (data["tournament"], data["round"], data["table"]) == (tournament.slug, 1, 1)
    assert data["seats"] == expected(seats_of(tournament))


def test_an_adjudicator_reads_them_too_with_his_session(api, tournament):
    adjudicator = factories.adjudicator(tournament)
    api.force_login(adjudicator)
    response = api.get(url(tournament, table=2))
    assert response.status_code == 200
    seats = response.json()["seats"]
    assert [seat["position"] for seat in seats] == [1, 2, 3, 4, 5]  # a table of five
    assert seats == expected(seats_of(tournament, table=2))


def test_a_link_opens_its_seats_sheet(api, client, tournament, organiser):
    seats = api.get(url(tournament), headers=token(organiser)).json()["seats"]
    keeper = next(seat for seat in seats if seat["position"] == 4)
    page = client.get(keeper["link"].removeprefix("http://testserver"))
    assert page.status_code == 200
    assert keeper["name"] in page.content.decode()


def test_the_links_carry_the_site_url_when_it_is_set(api, tournament, organiser, settings):
    settings.SITE_URL = "http://192.168.1.20:8000/"
    response = api.get(url(tournament), headers=token(organiser))
    assert response.json()["seats"] == expected(
        seats_of(tournament), site="http://192.168.1.20:8000"
    )


@pytest.mark.parametrize("role", [Role.DEPUTY, Role.PANEL, Role.SCOREKEEPER])
def test_other_staff_are_refused(api, tournament, role):
    user = factories.user()
    factories.role_grant(tournament=tournament, user=user, role=role)
    response = api.get(url(tournament), headers=token(user))
    assert response.status_code == 403
    assert "organiser or an adjudicator" in response.json()["detail"]
    assert "/s/" not in response.content.decode()


def test_a_stranger_and_another_tournaments_organiser_are_refused(api, tournament):
    other = factories.user()
    factories.tournament(players=4, organiser=other)
    for user in [factories.user(), other]:
        assert api.get(url(tournament), headers=token(user)).status_code == 403


def test_a_visitor_is_asked_to_log_in(api, tournament):
    response = api.get(url(tournament))
    assert response.status_code == 401
    assert "/s/" not in response.content.decode()


@pytest.mark.parametrize("position", [1, 4])
def test_a_seats_key_is_refused_even_at_its_own_table(api, tournament, position):
    seat = seats_of(tournament)[position - 1]
    response = api.get(url(tournament), headers={"X-Seat-Key": seat.token})
    assert response.status_code == 403
    assert "/s/" not in response.content.decode()
    # An unknown key too.
    assert api.get(url(tournament), headers={"X-Seat-Key": "x" * 32}).status_code == 403


def test_a_seats_key_beside_an_organisers_session_is_still_refused(api, tournament, organiser):
    """The key names who is asking: a request that carries one acts as that seat."""
    api.force_login(organiser)
    seat = seats_of(tournament)[0]
    assert api.get(url(tournament), headers={"X-Seat-Key": seat.token}).status_code == 403


@pytest.mark.parametrize(
    ("table", "number"),
    [(9, 1), (1, 7), (0, 1)],
)
def test_a_table_or_round_that_does_not_exist_is_not_found(
    api, tournament, organiser, table, number
):
    response = api.get(url(tournament, table=table, number=number), headers=token(organiser))
    assert response.status_code == 404


def test_the_links_are_read_in_few_queries(api, tournament, organiser, django_assert_num_queries):
    headers = token(organiser)
    with django_assert_num_queries(8):  # one of them: whether he plays at this table
        assert api.get(url(tournament, table=2), headers=headers).status_code == 200


def test_the_policy_names_the_organiser_and_the_adjudicator():
    assert may_read_seat_links(roles={Role.ORGANISER}) is None
    assert may_read_seat_links(roles={Role.ADJUDICATOR, Role.PANEL}) is None
    for roles in [set(), {Role.DEPUTY}, {Role.PANEL}, {Role.SCOREKEEPER}]:
        refusal = may_read_seat_links(roles=roles)
        assert refusal is not None
        assert refusal.field is None  # not his to do: a 403


@pytest.mark.parametrize(
    ("site_url", "host", "warned"),
    [
        ("", "127.0.0.1:8000", True),
        ("http://[::1]:8000/", "192.168.1.20:8000", True),
        ("http://192.168.1.20:8000/", "127.0.0.1:8000", False),
        ("", "192.168.1.20:8000", False),
    ],
)
def test_the_answer_warns_when_the_phones_cannot_open_the_links(
    api, tournament, organiser, settings, site_url, host, warned
):
    settings.ALLOWED_HOSTS = ["testserver", "127.0.0.1", "192.168.1.20"]
    settings.SITE_URL = site_url
    data = api.get(url(tournament), headers={**token(organiser), "host": host}).json()
    if warned:
        address = site_url or f"http://{host}/"
        assert data["warning"].startswith(f"Links and QR codes point to {address}")
        assert "SITE_URL" in data["warning"]
    else:
        assert data["warning"] is None


def test_the_warning_is_in_the_schema(api):
    schema = api.get(reverse("api-schema"), {"format": "json"}).json()
    links = schema["components"]["schemas"]["TableLinks"]
    assert "warning" in links["required"]
    assert links["properties"]["warning"]["nullable"] is True
    assert "loopback" in links["properties"]["warning"]["description"]
