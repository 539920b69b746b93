"""The pages where an organiser creates a tournament (afresh or from an earlier one) and changes
its settings, and the home page with each tournament's current round."""

import datetime

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse

from doko.sample_sheets import full_match
from scoring.models import Scoresheet
from tests import factories
from tests.tournaments.helpers import play, settings_form
from tournaments import policies, services
from tournaments.models import Tournament, TournamentRole

pytestmark = pytest.mark.django_db

NEW = {
    "name": "Münster-Pokal",
    "starts_on": "2026-12-05",
    "ends_on": "",
    "venue": "Münster",
    "planned_rounds": "4",
    "seating_method": "ddv",
    "hands_per_match": "24",
    "match_minutes": "100",
    "hands_per_match_five": "30",
    "match_minutes_five": "125",
    "tiebreaks": "start_number",
    "sheet_keeping": "both",
    "is_public": "on",
    "standings_public": "on",
    "counts_for_ranking": "on",
}


def creator():
    user = factories.user()
    user.groups.add(Group.objects.get(name=policies.ORGANISERS_GROUP))
    return user


# A new tournament ------------------------------------------------------------------------------


def test_home_offers_a_new_tournament_to_whoever_may_create_one(client):
    new = reverse("tournaments:tournament-new")
    assert new not in client.get(reverse("tournaments:home")).content.decode()
    client.force_login(factories.user())
    assert new not in client.get(reverse("tournaments:home")).content.decode()
    client.force_login(creator())
    page = client.get(reverse("tournaments:home")).content.decode()
    assert new in page
    assert reverse("tournaments:tournament-new-from") in page


def test_a_tournament_created_on_the_page_is_organised_by_its_creator(client):
    user = creator()
    client.force_login(user)
    response = client.post(reverse("tournaments:tournament-new"), NEW)
    tournament = Tournament.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("tournaments:tournament", args=["muenster-pokal-2026"])
    assert tournament.slug == "muenster-pokal-2026"
    assert tournament.ends_on == datetime.date(2026, 12, 5)  # empty: the first day
    assert (tournament.planned_rounds, tournament.seating_method) == (4, "ddv")
    assert not tournament.allow_tables_of_five
    assert tournament.roles.get().user == user
    page = client.get(response["Location"]).content.decode()
    assert reverse("tournaments:tournament-settings", args=[tournament.slug]) in page


def test_the_new_tournament_page_takes_a_short_name_of_ones_own(client):
    client.force_login(creator())
    client.post(reverse("tournaments:tournament-new"), {**NEW, "slug": "muenster"})
    assert Tournament.objects.get().slug == "muenster"


def test_bad_input_on_the_new_tournament_page_is_shown_at_its_field(client):
    client.force_login(creator())
    client.cookies["django_language"] = "en"
    response = client.post(
        reverse("tournaments:tournament-new"),
        {**NEW, "ends_on": "2026-12-01", "hands_per_match": "6"},
    )
    assert response.status_code == 400
    assert "TSR 3.3.1" in response.context["form"].errors["hands_per_match"][0]
    assert not Tournament.objects.exists()
    response = client.post(reverse("tournaments:tournament-new"), {**NEW, "ends_on": "2026-12-01"})
    assert response.status_code == 400
    assert response.context["form"].errors["ends_on"] == [
        "The last day cannot be before the first day."
    ]


def test_a_user_without_the_permission_is_refused_the_new_tournament_with_the_reason(client):
    assert client.get(reverse("tournaments:tournament-new"))["Location"].startswith(
        reverse("login")
    )
    client.force_login(factories.user())
    client.cookies["django_language"] = "en"
    for name in ("tournaments:tournament-new", "tournaments:tournament-new-from"):
        response = client.get(reverse(name))
        assert response.status_code == 403
        assert "Organisers" in response.content.decode()
    assert client.post(reverse("tournaments:tournament-new"), NEW).status_code == 403
    assert not Tournament.objects.exists()


# From an earlier tournament --------------------------------------------------------------------


def test_the_earlier_tournaments_offered_are_those_the_user_organises(client):
    user = creator()
    mine = factories.tournament(name="Mein Pokal", organiser=user)
    factories.tournament(name="Fremder Pokal", organiser=factories.user())
    client.force_login(user)
    page = client.get(reverse("tournaments:tournament-new-from")).content.decode()
    assert f"{reverse('tournaments:tournament-new')}?from={mine.slug}" in page
    assert "Fremder Pokal" not in page


def test_a_new_tournament_from_an_earlier_one_starts_with_its_settings(client):
    user = creator()
    source = factories.tournament(
        name="Pokal 2026",
        players=5,
        organiser=user,
        venue="Celle",
        planned_rounds=6,
        seating_method="standings",
        allow_tables_of_five=True,
    )
    client.force_login(user)
    client.cookies["django_language"] = "en"
    response = client.get(reverse("tournaments:tournament-new"), {"from": source.slug})
    form = response.context["form"]
    assert form["venue"].value() == "Celle"
    assert form["planned_rounds"].value() == 6
    assert form["seating_method"].value() == "standings"
    assert form["allow_tables_of_five"].value() is True
    assert not form["name"].value()
    assert not form["starts_on"].value()
    # Each player to tick, the active ones ticked (issue 32).
    assert form["entries"].value() == [1, 2, 3, 4, 5]
    assert response.content.decode().count('name="entries"') == 5


@pytest.mark.parametrize("players", [False, True])
def test_a_tournament_copied_on_the_page_has_its_players_only_if_asked(client, players):
    user = creator()
    source = factories.tournament(name="Pokal 2026", players=5, organiser=user, venue="Celle")
    client.force_login(user)
    data = {
        **settings_form(source, name="Pokal 2027", starts_on=datetime.date(2027, 3, 1)),
        "source": source.slug,
    }
    data.pop("ends_on")
    if players:
        data["entries"] = ["1", "2", "3", "4", "5"]
    response = client.post(reverse("tournaments:tournament-new"), data)
    assert response.status_code == 302
    copy = Tournament.objects.get(name="Pokal 2027")
    assert copy.venue == "Celle"
    assert copy.roles.get().user == user
    expected = list(source.entries.values_list("start_number", "player")) if players else []
    assert list(copy.entries.values_list("start_number", "player")) == expected


def test_a_tournament_organised_by_someone_else_cannot_be_copied(client):
    source = factories.tournament(players=4, organiser=factories.user())
    client.force_login(creator())
    assert (
        client.get(reverse("tournaments:tournament-new"), {"from": source.slug}).status_code == 404
    )
    data = {**NEW, "source": source.slug, "entries": ["1"]}
    assert client.post(reverse("tournaments:tournament-new"), data).status_code == 404
    assert Tournament.objects.count() == 1


@pytest.mark.parametrize("slug", ["a\x00b", "²", "x" * 5000])
def test_an_earlier_tournament_named_by_no_short_name_is_404(client, slug):
    """No tournament has it (and PostgreSQL refuses a NUL in a query: it was a 500 there)."""
    client.force_login(creator())
    assert client.get(reverse("tournaments:tournament-new"), {"from": slug}).status_code == 404
    assert (
        client.post(reverse("tournaments:tournament-new"), {**NEW, "source": slug}).status_code
        == 404
    )
    assert not Tournament.objects.exists()


# Settings --------------------------------------------------------------------------------------


def test_the_settings_page_shows_locked_settings_with_their_reason(client):
    organiser = factories.user()
    tournament = factories.tournament(players=4, organiser=organiser)
    services.round_start(round=factories.seated_round(tournament))
    client.force_login(organiser)
    client.cookies["django_language"] = "en"
    response = client.get(reverse("tournaments:tournament-settings", args=[tournament.slug]))
    assert response.status_code == 200
    form = response.context["form"]
    assert form.fields["seating_method"].disabled
    assert form.fields["match_minutes"].disabled
    assert not form.fields["venue"].disabled
    page = response.content.decode()
    assert "Round 1 is drawn; the seating draw stays the one it was drawn by." in page
    # The short name for links stays: the seating went out with it.
    assert "The seating of a round is published" in page
    assert form.fields["slug"].disabled


def test_the_organiser_saves_the_settings_and_a_locked_one_stays(client):
    organiser = factories.user()
    tournament = factories.tournament(players=4, organiser=organiser)
    factories.seated_round(tournament)
    client.force_login(organiser)
    response = client.post(
        reverse("tournaments:tournament-settings", args=[tournament.slug]),
        settings_form(
            tournament, venue="Celle", seating_method="standings", standings_public=False
        ),
    )
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.venue, tournament.standings_public) == ("Celle", False)
    assert tournament.seating_method == "random"


def test_bad_settings_are_shown_at_their_field(client):
    organiser = factories.user()
    tournament = factories.tournament(players=8, organiser=organiser, planned_rounds=3)
    play(tournament, rounds=2)
    client.force_login(organiser)
    client.cookies["django_language"] = "en"
    response = client.post(
        reverse("tournaments:tournament-settings", args=[tournament.slug]),
        settings_form(tournament, planned_rounds=1),
    )
    assert response.status_code == 400
    assert response.context["form"].errors["planned_rounds"] == [
        "Round 2 exists already: plan at least 2 rounds."
    ]


@pytest.mark.parametrize("role", ["adjudicator", "panel", "scorekeeper", None])
def test_only_the_organiser_opens_the_settings(client, role):
    tournament = factories.tournament(players=4, organiser=factories.user())
    user = factories.user()
    if role:
        factories.role_grant(tournament=tournament, user=user, role=role)
    client.force_login(user)
    assert (
        client.get(reverse("tournaments:tournament-settings", args=[tournament.slug])).status_code
        == 403
    )


def test_tables_of_five_allowed_in_the_settings_report_whom_they_moved(client):
    organiser = factories.user()
    tournament = factories.tournament(
        players=16, organiser=organiser, planned_rounds=2, seating_method="ddv"
    )
    services.round_seat(round=services.round_create(tournament=tournament), seed=1)
    services.round_start(round=tournament.rounds.get(number=1))
    services.tournament_seating_publish(tournament=tournament)
    services.entry_disqualify(entry=tournament.entries.first())
    client.force_login(organiser)
    client.cookies["django_language"] = "en"
    response = client.post(
        reverse("tournaments:tournament-settings", args=[tournament.slug]),
        settings_form(tournament, allow_tables_of_five=True),
        follow=True,
    )
    assert "The published seating of round 2 changed" in response.content.decode()
    second = tournament.rounds.get(number=2)
    assert sorted(table.seats.count() for table in second.tables.all()) == [5, 5, 5]
    # Now that a table of five is seated, they stay allowed.
    response = client.get(reverse("tournaments:tournament-settings", args=[tournament.slug]))
    assert response.context["form"].fields["allow_tables_of_five"].disabled


# The home page ---------------------------------------------------------------------------------


def _at(tournament, status):
    """The tournament's round 1 (of 3) taken to ``status``."""
    if status == "planned":
        services.round_create(tournament=tournament)
        return
    round_ = factories.seated_round(tournament)
    if status == "seated":
        return
    services.round_start(round=round_)
    if status == "running":
        return
    for sheet in Scoresheet.objects.filter(table__round=round_):
        factories.sheet_confirmed(sheet, full_match())
    factories.round_end(round_)
    if status == "closed":
        services.round_close(round=round_)


@pytest.mark.parametrize(
    ("status", "shown"),
    [
        ("planned", "3 rounds planned"),
        ("seated", "round 1 of 3 drawn"),
        ("running", "round 1 of 3 running"),
        ("finished", "round 1 of 3: playing time over"),
        ("closed", "round 1 of 3 closed"),
    ],
)
def test_home_shows_each_tournaments_current_round(client, status, shown):
    _at(factories.tournament(players=4), status)
    client.cookies["django_language"] = "en"
    assert shown in client.get(reverse("tournaments:home")).content.decode()


def _ddv_round_1_closed():
    """Eight players, four rounds drawn in advance (DDV), round 1 played and closed."""
    tournament = factories.tournament(players=8, planned_rounds=4, seating_method="ddv")
    services.round_seat(round=services.round_create(tournament=tournament), seed=1)
    round_ = services.round_start(round=tournament.rounds.get(number=1))
    for sheet in Scoresheet.objects.filter(table__round=round_):
        factories.sheet_confirmed(sheet, full_match())
    services.round_close(round=factories.round_end(round_))
    return tournament


def test_home_shows_the_round_running_not_the_last_one_drawn(client):
    """The DDV draw seats every round in advance: while round 2 runs, the home page says so
    (not "round 4 of 4")."""
    tournament = _ddv_round_1_closed()
    services.round_start(round=tournament.rounds.get(number=2))
    client.cookies["django_language"] = "en"
    page = client.get(reverse("tournaments:home")).content.decode()
    assert "round 2 of 4 running" in page


def test_between_rounds_home_shows_the_last_round_played(client):
    _ddv_round_1_closed()
    client.cookies["django_language"] = "en"
    assert "round 1 of 4 closed" in client.get(reverse("tournaments:home")).content.decode()


@pytest.mark.parametrize("tournaments", [1, 4])
def test_home_reads_every_tournament_and_its_current_round_in_one_query(
    client, django_assert_num_queries, tournaments
):
    for number, status in zip(
        range(tournaments), ["running", "closed", "seated", "planned"], strict=False
    ):
        _at(factories.tournament(players=4, name=f"Pokal {number}"), status)
    with django_assert_num_queries(1):
        response = client.get(reverse("tournaments:home"))
    assert len(response.context["tournaments"]) == tournaments
    # Signed in: the session, the user, his permissions (user's and groups'), the list with
    # his archived tournaments.
    client.force_login(creator())
    with django_assert_num_queries(5):
        client.get(reverse("tournaments:home"))


def test_the_organiser_group_creates_tournaments_and_a_role_does_not():
    user = factories.user()
    tournament = factories.tournament(organiser=user)
    assert policies.may_create_tournament(user=user) is not None
    assert TournamentRole.objects.filter(tournament=tournament, user=user).exists()
