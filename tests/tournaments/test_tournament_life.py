"""A tournament's life beyond its day (issue 32): its short name for links changed until links
went out with it, the tournament deleted while none of its results counts, else archived (off
the home page, still at its address and in the ranking lists), and a new tournament from an
earlier one with the players and staff its organiser chooses."""

import datetime

import pytest
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.base import ContentFile
from django.urls import reverse

from adjudication import services as adjudication_services
from adjudication.models import RoleOffer
from printing.models import Job
from rankings.selectors import tournaments_ranked
from rankings.services.lists import ranking_schedule
from tests import factories
from tests.rankings.test_lists import (  # noqa: F401  (``ranking``: a fixture)
    admitted,
    finished,
    players_of,
    ranked_players,
    ranking,
)
from tests.tournaments.helpers import play, settings_form
from tournaments import policies, selectors, services
from tournaments.models import Entry, Player, Tournament, TournamentRole

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 11, 21)


def creator():
    user = factories.user()
    user.groups.add(Group.objects.get(name=policies.ORGANISERS_GROUP))
    return user


def printout(tournament: Tournament) -> Job:
    job = Job(tournament=tournament, kind=Job.Kind.ENTRY_LIST_PDF, language="de", status="done")
    job.file.save("liste.pdf", ContentFile(b"%PDF-1.4\n"), save=True)
    return job


def in_(client, language: str):
    client.cookies["django_language"] = language
    return client


# The short name for links ----------------------------------------------------------------------


def test_the_organiser_changes_the_short_name_on_the_settings_page(client):
    organiser = factories.user()
    tournament = factories.tournament(organiser=organiser, name="Herbstturnier Münster 2026")
    assert tournament.slug == "herbstturnier-muenster-2026"
    client.force_login(organiser)
    url = reverse("tournaments:tournament-settings", args=[tournament.slug])
    page = in_(client, "en").get(url).content.decode()
    assert "Links to the tournament that were printed or shared already stop working" in page
    response = client.post(url, {**settings_form(tournament), "slug": "herbst-2026"})
    assert response.status_code == 302
    assert response["Location"] == reverse("tournaments:tournament", args=["herbst-2026"])
    assert Tournament.objects.get().slug == "herbst-2026"
    assert client.get(reverse("tournaments:tournament", args=["herbst-2026"])).status_code == 200
    # The old link leads there.
    assert client.get(reverse("tournaments:tournament", args=[tournament.slug])).status_code == 302


def test_a_link_with_the_old_short_name_leads_to_the_tournament(client):
    organiser = factories.user()
    tournament = factories.tournament(organiser=organiser, slug="herbst")
    services.tournament_update(tournament=tournament, by=organiser, changes={"slug": "herbst-26"})
    response = client.get(reverse("tournaments:tournament", args=["herbst"]))
    assert response.status_code == 302
    assert response["Location"] == reverse("tournaments:tournament", args=["herbst-26"])
    # Renamed again: both old links lead to it; back to a former name, that one is its own.
    tournament.refresh_from_db()
    services.tournament_update(tournament=tournament, by=organiser, changes={"slug": "herbst"})
    assert client.get(reverse("tournaments:tournament", args=["herbst"])).status_code == 200
    response = client.get(reverse("tournaments:tournament", args=["herbst-26"]))
    assert response["Location"] == reverse("tournaments:tournament", args=["herbst"])
    # Another tournament that takes an old short name is found there; a private one is not.
    other = factories.tournament(slug="herbst-26", name="Anderes Turnier")
    assert (
        client.get(reverse("tournaments:tournament", args=["herbst-26"])).context["tournament"]
        == other
    )
    services.tournament_update(tournament=tournament, by=organiser, changes={"is_public": False})
    tournament.refresh_from_db()
    services.tournament_update(tournament=tournament, by=organiser, changes={"slug": "geheim"})
    assert client.get(reverse("tournaments:tournament", args=["herbst"])).status_code == 404
    client.force_login(organiser)
    assert client.get(reverse("tournaments:tournament", args=["herbst"])).status_code == 302


@pytest.mark.parametrize(
    ("language", "slug", "message"),
    [
        ("en", "Herbst 2026", "Enter a valid “slug”"),
        ("de", "herbst-2026", "Kurzname für Links existiert bereits"),
        ("en", "new", "This short name is taken by the pages themselves."),
        ("de", "x" * 81, "höchstens 80 Zeichen"),
    ],
)
def test_a_short_name_that_is_no_link_or_taken_is_refused_on_its_field(
    client, language, slug, message
):
    organiser = factories.user()
    factories.tournament(slug="herbst-2026")
    tournament = factories.tournament(organiser=organiser, slug="herbst")
    client.force_login(organiser)
    response = in_(client, language).post(
        reverse("tournaments:tournament-settings", args=[tournament.slug]),
        {**settings_form(tournament, venue="Celle"), "slug": slug},
    )
    assert response.status_code == 400
    assert message in " ".join(response.context["form"].errors["slug"])
    tournament.refresh_from_db()
    assert (tournament.slug, tournament.venue) == ("herbst", "")  # nothing saved


@pytest.mark.parametrize(
    ("language", "reason"),
    [
        ("en", "Printouts of the tournament carry links with this short name"),
        ("de", "Ausdrucke des Turniers tragen Links mit diesem Kurznamen"),
    ],
)
def test_once_printed_the_short_name_is_fixed_and_the_page_says_why(client, language, reason):
    organiser = factories.user()
    tournament = factories.tournament(organiser=organiser, slug="herbst")
    printout(tournament)
    client.force_login(organiser)
    url = reverse("tournaments:tournament-settings", args=[tournament.slug])
    response = in_(client, language).get(url)
    assert response.context["form"].fields["slug"].disabled
    assert reason in response.content.decode()
    # A short name posted all the same changes nothing: the field is locked.
    response = client.post(url, {**settings_form(tournament), "slug": "anders"})
    assert response.status_code == 302
    assert Tournament.objects.get().slug == "herbst"
    with pytest.raises(ValidationError) as error:
        services.tournament_update(tournament=tournament, by=organiser, changes={"slug": "anders"})
    assert list(error.value.message_dict) == ["slug"]


def test_once_a_round_is_published_the_short_name_is_fixed():
    organiser = factories.user()
    tournament = factories.tournament(players=4, organiser=organiser, slug="herbst")
    factories.seated_round(tournament, publish=False)
    # Drawn, not yet published: the links have not gone out.
    assert selectors.slug_use(tournament=tournament) == selectors.SlugUse(False, False)
    services.round_publish(round=tournament.rounds.get())
    assert selectors.slug_use(tournament=tournament) == selectors.SlugUse(False, True)
    with pytest.raises(ValidationError) as error:
        services.tournament_update(tournament=tournament, by=organiser, changes={"slug": "anders"})
    assert "published" in error.value.message_dict["slug"][0]


def test_only_its_organiser_changes_the_short_name():
    tournament = factories.tournament(organiser=factories.user(), slug="herbst")
    other = creator()
    factories.tournament(organiser=other)
    adjudicator = factories.adjudicator(tournament)
    for user in (other, adjudicator):
        with pytest.raises(PermissionDenied):
            services.tournament_update(tournament=tournament, by=user, changes={"slug": "anders"})
    assert Tournament.objects.filter(slug="herbst").exists()


# Deleting --------------------------------------------------------------------------------------


def test_the_delete_page_lists_what_goes_and_deletes_once_confirmed(client):
    organiser = factories.user()
    tournament = factories.tournament(players=8, organiser=organiser, name="Testturnier")
    factories.adjudicator(tournament)
    services.round_start(round=factories.seated_round(tournament))
    printout(tournament)
    client.force_login(organiser)
    url = reverse("tournaments:tournament-delete", args=[tournament.slug])
    page = in_(client, "de").get(url).content.decode()
    for line in (
        "8 angemeldete Spieler",
        "1 Runde",
        "2 Spiellisten (keine bestätigt)",
        "2 Rollen der Offiziellen, Ihre eingeschlossen",
        "1 Ausdruck",
    ):
        assert line in page
    assert Tournament.objects.exists()  # asking deletes nothing
    response = client.post(url)
    assert response.status_code == 302
    assert response["Location"] == reverse("tournaments:home")
    assert not Tournament.objects.exists()
    assert not Entry.objects.exists()
    assert Player.objects.count() == 8  # the persons stay
    home = client.get(reverse("tournaments:home")).content.decode()
    assert "Das Turnier Testturnier ist gelöscht." in home


@pytest.mark.parametrize(
    ("language", "reason", "archive"),
    [
        ("en", "8 scoresheets of this tournament are confirmed", "Archive the tournament"),
        ("de", "8 Spiellisten dieses Turniers sind bestätigt", "Turnier archivieren"),
    ],
)
def test_a_tournament_with_a_confirmed_sheet_is_not_deleted_and_archiving_is_offered(
    client, language, reason, archive
):
    organiser = factories.user()
    tournament = factories.tournament(players=32, organiser=organiser)
    play(tournament)
    client.force_login(organiser)
    in_(client, language)
    settings = client.get(reverse("tournaments:tournament-settings", args=[tournament.slug]))
    assert reason in settings.content.decode()
    assert (
        reverse("tournaments:tournament-delete", args=[tournament.slug])
        not in settings.content.decode()
    )
    url = reverse("tournaments:tournament-delete", args=[tournament.slug])
    page = client.get(url).content.decode()
    assert reason in page
    assert archive in page
    assert reverse("tournaments:tournament-archive", args=[tournament.slug]) in page
    assert client.post(url).status_code == 400
    with pytest.raises(ValidationError) as error:
        services.tournament_delete(tournament=tournament, by=organiser)
    assert list(error.value.message_dict) == ["scoresheets"]
    assert Tournament.objects.filter(pk=tournament.pk).exists()


def test_a_sheet_only_handed_in_does_not_stop_the_delete(kreuzpokal):
    tournament, organiser = kreuzpokal
    # Two tables confirmed, one only handed in: the confirmed ones count.
    assert selectors.tournament_contents(tournament=tournament).confirmed == 2
    other = factories.tournament(players=4, organiser=organiser)
    round_ = services.round_start(round=factories.seated_round(other))
    from scoring import services as scoring_services
    from scoring.models import Scoresheet
    from tests.tournaments.helpers import MATCH

    sheet = Scoresheet.objects.get(table__round=round_)
    keeper = factories.keeper(sheet)
    sheet = scoring_services.scoresheet_hands_replace(
        scoresheet=sheet, hands=MATCH, version=sheet.version, by=keeper
    )
    scoring_services.scoresheet_submit(scoresheet=sheet, version=sheet.version, by=keeper)
    contents = services.tournament_delete(tournament=other, by=organiser)
    assert (contents.scoresheets, contents.confirmed) == (1, 0)
    assert not Tournament.objects.filter(pk=other.pk).exists()


def test_organisers_of_other_tournaments_neither_delete_nor_archive(client):
    tournament = factories.tournament(players=4, organiser=factories.user())
    hidden = factories.tournament(players=4, organiser=factories.user(), is_public=False)
    other = creator()
    factories.tournament(organiser=other)
    client.force_login(other)
    for slug, refused in ((tournament.slug, 403), (hidden.slug, 404)):
        assert (
            client.get(reverse("tournaments:tournament-delete", args=[slug])).status_code == refused
        )
        assert (
            client.post(reverse("tournaments:tournament-delete", args=[slug])).status_code
            == refused
        )
        archive = client.post(
            reverse("tournaments:tournament-archive", args=[slug]), {"action": "archive"}
        )
        assert archive.status_code == refused
    assert Tournament.objects.filter(archived_at__isnull=True).count() == 3
    with pytest.raises(PermissionDenied):
        services.tournament_delete(tournament=tournament, by=other)
    with pytest.raises(PermissionDenied):
        services.tournament_archive(tournament=tournament, by=factories.adjudicator(tournament))


# Archiving -------------------------------------------------------------------------------------


def test_an_archived_tournament_leaves_the_home_page_and_stays_at_its_address(client):
    organiser = creator()
    tournament = factories.tournament(players=4, organiser=organiser, name="Testturnier")
    current = factories.tournament(organiser=organiser, name="Herbstpokal")
    client.force_login(organiser)
    in_(client, "de")
    response = client.post(
        reverse("tournaments:tournament-archive", args=[tournament.slug]), {"action": "archive"}
    )
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.archived_at is not None
    # His home page: the current one above, the archived one in its own section.
    response = client.get(reverse("tournaments:home"))
    assert [t.name for t in response.context["tournaments"]] == [current.name]
    assert [t.name for t in response.context["archived"]] == ["Testturnier"]
    assert "Archiviert (1)" in response.content.decode()
    # Still at its address, marked; and offered to start a new one from.
    page = client.get(reverse("tournaments:tournament", args=[tournament.slug])).content.decode()
    assert "archiviert" in page
    assert (
        tournament.slug in client.get(reverse("tournaments:tournament-new-from")).content.decode()
    )
    # Everyone else sees neither it nor its section on the home page, and finds its page.
    client.logout()
    response = client.get(reverse("tournaments:home"))
    assert [t.name for t in response.context["tournaments"]] == [current.name]
    assert response.context["archived"] == []
    assert "Testturnier" not in response.content.decode()
    assert client.get(reverse("tournaments:tournament", args=[tournament.slug])).status_code == 200
    # Back onto the home page.
    client.force_login(organiser)
    client.post(
        reverse("tournaments:tournament-archive", args=[tournament.slug]), {"action": "unarchive"}
    )
    names = {t.name for t in client.get(reverse("tournaments:home")).context["tournaments"]}
    assert names == {"Testturnier", "Herbstpokal"}


def test_an_archived_tournament_stays_in_the_ranking_lists(
    ranking,  # noqa: F811  (the fixture of that name)
    django_capture_on_commit_callbacks,
):
    capture = django_capture_on_commit_callbacks
    tournament, organiser = finished(capture)
    admitted(capture, tournament, organiser)
    with capture(execute=True):
        services.tournament_archive(tournament=tournament, by=organiser)
        ranking_schedule()  # rebuilt, as after any change
    assert ranked_players() == players_of(tournament)
    assert tournament in tournaments_ranked(ranking_list=ranking)


# A new tournament from an earlier one ----------------------------------------------------------


def test_the_players_to_copy_are_ticked_the_withdrawn_ones_not_and_marked(client):
    organiser = creator()
    source = factories.tournament(players=4, organiser=organiser)
    services.entry_withdraw(entry=source.entries.get(start_number=3))
    client.force_login(organiser)
    response = in_(client, "de").get(reverse("tournaments:tournament-new"), {"from": source.slug})
    ticked = [(c.entry.start_number, c.ticked) for c in response.context["players"]]
    assert ticked == [(1, True), (2, True), (3, False), (4, True)]
    page = response.content.decode()
    assert 'value="3" id="player-3">' in page  # not checked
    assert 'value="1" id="player-1" checked>' in page
    assert "zurückgezogen" in page
    assert "Seinen Offiziellen ihre Rollen erneut anbieten" in page


def test_a_copy_from_a_tournament_with_no_other_staff_says_so(client):
    """The walk: "1 role is held, yours included: the adjudicators, the arbitration panel, the
    desk and the organisers" read as if four roles were to be copied."""
    organiser = creator()
    source = factories.tournament(players=4, organiser=organiser, name="Herbstpokal")
    client.force_login(organiser)
    response = in_(client, "de").get(reverse("tournaments:tournament-new"), {"from": source.slug})
    page = response.content.decode()
    assert "Außer Ihnen hat in Herbstpokal niemand eine Rolle" in page
    assert "1 Rolle vergeben" not in page


def test_a_copy_on_the_page_registers_the_chosen_players_and_offers_the_staff_their_roles(
    client,
):
    organiser = creator()
    source = factories.tournament(players=4, organiser=organiser, venue="Celle")
    services.entry_withdraw(entry=source.entries.get(start_number=3))
    referee, desk = factories.user(), factories.user()
    factories.role_grant(
        tournament=source,
        user=referee,
        role=TournamentRole.Role.ADJUDICATOR,
        entry=source.entries.get(start_number=2),
    )
    factories.role_grant(
        tournament=source,
        user=desk,
        role=TournamentRole.Role.SCOREKEEPER,
        entry=source.entries.get(start_number=4),
    )
    client.force_login(organiser)
    data = {
        **settings_form(source, name="Pokal 2027", starts_on=datetime.date(2027, 3, 1)),
        "source": source.slug,
        "entries": ["1", "2", "3"],
        "staff": "on",
    }
    data.pop("ends_on")
    response = client.post(reverse("tournaments:tournament-new"), data)
    assert response.status_code == 302
    copy = Tournament.objects.get(name="Pokal 2027")
    assert list(copy.entries.values_list("start_number", "status")) == [
        (1, "active"),
        (2, "active"),
        (3, "active"),
    ]
    # The organiser holds his role at once; the others are offered theirs (nobody holds a role
    # he has not accepted). Player 4 is not registered again: the scorekeeper plays as nobody.
    assert list(copy.roles.values_list("user", "role")) == [(organiser.pk, "organiser")]
    offers = {
        (offer.user, offer.role, offer.entry.start_number if offer.entry else None)
        for offer in RoleOffer.objects.filter(tournament=copy).select_related("entry")
    }
    assert offers == {(referee, "adjudicator", 2), (desk, "scorekeeper", None)}
    for offer in RoleOffer.objects.filter(tournament=copy):
        adjudication_services.role_offer_accept(offer=offer, by=offer.user)
    roles = {
        (grant.user, grant.role, grant.entry.start_number if grant.entry else None)
        for grant in copy.roles.select_related("entry")
    }
    assert roles == {
        (organiser, "organiser", None),
        (referee, "adjudicator", 2),
        (desk, "scorekeeper", None),
    }
    assert copy.entries.get(start_number=2).pk != source.entries.get(start_number=2).pk


def test_without_the_staff_box_only_the_organiser_is_appointed(client):
    organiser = creator()
    source = factories.tournament(players=4, organiser=organiser)
    factories.adjudicator(source)
    copy = services.tournament_copy(
        source=source, by=organiser, name="Neu", starts_on=DAY, entries=[1, 2]
    )
    assert list(copy.roles.values_list("user", "role")) == [(organiser.pk, "organiser")]


def test_an_unknown_start_number_is_refused_on_entries_and_nothing_is_made():
    organiser = creator()
    source = factories.tournament(players=4, organiser=organiser)
    with pytest.raises(ValidationError) as error:
        services.tournament_copy(
            source=source, by=organiser, name="Neu", starts_on=DAY, entries=[1, 9, 12]
        )
    assert "9, 12" in error.value.message_dict["entries"][0]
    assert Tournament.objects.count() == 1


def test_staff_are_appointed_again_only_by_an_organiser_of_both():
    assert policies.may_copy_staff(roles={"organiser"}, roles_new={"organiser"}) is None
    assert policies.may_copy_staff(roles={"adjudicator"}, roles_new={"organiser"}) is not None
    assert policies.may_copy_staff(roles={"organiser"}, roles_new={"scorekeeper"}) is not None
    # An adjudicator of the earlier tournament copies neither it nor its staff.
    source = factories.tournament(players=4, organiser=factories.user())
    helper = creator()
    factories.role_grant(tournament=source, user=helper, role=TournamentRole.Role.ADJUDICATOR)
    with pytest.raises(PermissionDenied):
        services.tournament_copy(source=source, by=helper, name="Neu", starts_on=DAY, staff=True)
    assert Tournament.objects.count() == 1


# No dead ends ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "reason"),
    [
        ("en", "Only organisers create tournaments; an administrator adds you"),
        ("de", "Organisers"),
    ],
)
def test_the_home_page_says_who_creates_tournaments_to_whoever_may_not(client, language, reason):
    client.force_login(factories.user())
    page = in_(client, language).get(reverse("tournaments:home")).content.decode()
    assert reverse("tournaments:tournament-new") not in page
    assert reason in page
    client.logout()
    assert reason not in client.get(reverse("tournaments:home")).content.decode()


def test_the_tournament_page_tells_its_adjudicator_whose_the_settings_are(client):
    tournament = factories.tournament(organiser=factories.user())
    client.force_login(factories.adjudicator(tournament))
    page = (
        in_(client, "en")
        .get(reverse("tournaments:tournament", args=[tournament.slug]))
        .content.decode()
    )
    assert reverse("tournaments:tournament-settings", args=[tournament.slug]) not in page
    assert "Only an organiser changes the settings and the staff" in page
