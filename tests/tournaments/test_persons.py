"""A person belongs to nobody's tournament: an organiser corrects his tournament's entries and
never a person who plays elsewhere; a DDV number under another name is refused; the person is
corrected and merged by the site's administrators (and whoever holds the permission), logged."""

from types import SimpleNamespace

import pytest
from django.contrib.auth.models import Permission
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from rest_framework.authtoken.models import Token

from tests import factories
from tournaments import selectors, services
from tournaments.models import Entry, PersonChange, Player, Tournament

pytestmark = pytest.mark.django_db

SWINDLE = {"first_name": "Betrügerin", "last_name": "Disqualifiziert"}


@pytest.fixture
def clubs(django_capture_on_commit_callbacks):
    """Two organisers, each with a tournament of his own; Anna Schmidt (DDV 4711) plays in
    A's with three others."""
    org_a, org_b = factories.user(), factories.user()
    a = factories.tournament(organiser=org_a, name="A-Pokal", players=3)
    b = factories.tournament(organiser=org_b, name="B-Pokal", players=3)
    with django_capture_on_commit_callbacks(execute=True):
        anna = services.entry_register(
            tournament=a, first_name="Anna", last_name="Schmidt", club="Herz", ddv_number="4711"
        ).entry
    return SimpleNamespace(org_a=org_a, org_b=org_b, a=a, b=b, anna=anna, person=anna.player)


def token(user) -> dict[str, str]:
    return {
        "Authorization": f"Token {Token.objects.get_or_create(user=user)[0].key}",
        "Accept-Language": "en",
    }


def standings_names(tournament: Tournament) -> set[str]:
    table = selectors.standings_read(tournament=Tournament.objects.get(pk=tournament.pk))
    return {row.entrant.name for row in table.rows}


def admin():
    return factories.user(is_staff=True, is_superuser=True)


def person_changer():
    user = factories.user()
    user.user_permissions.add(Permission.objects.get(codename="change_player"))
    return user


def unchanged(clubs) -> None:
    """A's entry, the person, A's standings and the person's page still say Anna Schmidt."""
    assert Entry.objects.get(pk=clubs.anna.pk).name == "Anna Schmidt"
    person = Player.objects.get(pk=clubs.person.pk)
    assert (person.name, person.club, person.ddv_number) == ("Anna Schmidt", "Herz", "4711")
    assert "Anna Schmidt" in standings_names(clubs.a)
    assert "Betrügerin Disqualifiziert" not in standings_names(clubs.a)


# N1, replayed as found: B registers under A's player's DDV number with the same name, then
# corrects "his" player.


def test_n1_a_foreign_organisers_correction_stays_in_his_tournament(
    client, clubs, django_capture_on_commit_callbacks
):
    client.force_login(clubs.org_b)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("tournaments:entries", args=[clubs.b.slug]),
            {"first_name": "Anna", "last_name": "Schmidt", "ddv_number": "4711"},
        )
    assert response.status_code == 302
    theirs = clubs.b.entries.get(player=clubs.person)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("tournaments:entry-edit", args=[clubs.b.slug, theirs.start_number]),
            {**SWINDLE, "ddv_number": "4711", "start_number": theirs.start_number},
        )
    assert response.status_code == 302
    # His tournament shows what he typed, and nothing else does.
    assert Entry.objects.get(pk=theirs.pk).name == "Betrügerin Disqualifiziert"
    assert "Betrügerin Disqualifiziert" in standings_names(clubs.b)
    unchanged(clubs)
    page = client.get(
        reverse("tournaments:player-history", args=[clubs.person.pk])
    ).content.decode()
    assert "Anna Schmidt" in page
    assert "Betrügerin" not in page
    a_players = client.get(reverse("tournaments:entries", args=[clubs.a.slug])).content.decode()
    assert "Schmidt, Anna" in a_players
    assert "Betrügerin" not in a_players
    assert not PersonChange.objects.exists()


def test_n1_through_the_api_too(client, clubs, django_capture_on_commit_callbacks):
    headers = token(clubs.org_b)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("api:entries", args=[clubs.b.slug]),
            {"first_name": "Anna", "last_name": "Schmidt", "ddv_number": "4711"},
            content_type="application/json",
            headers=headers,
        )
        assert response.status_code == 201, response.json()
        number = response.json()["start_number"]
        response = client.patch(
            reverse("api:player", args=[clubs.b.slug, number]),
            SWINDLE,
            content_type="application/json",
            headers=headers,
        )
    assert response.status_code == 200, response.json()
    assert response.json()["first_name"] == "Betrügerin"
    assert response.json()["ddv_number"] == "4711"
    unchanged(clubs)
    api = client.get(reverse("api:player-history", args=[clubs.person.pk])).json()
    assert api["name"] == "Anna Schmidt"


def test_an_organiser_cannot_correct_another_tournaments_entry(client, clubs):
    client.force_login(clubs.org_b)
    response = client.post(
        reverse("tournaments:entry-edit", args=[clubs.a.slug, clubs.anna.start_number]),
        {**SWINDLE, "ddv_number": "4711", "start_number": clubs.anna.start_number},
    )
    assert response.status_code == 403
    response = client.patch(
        reverse("api:player", args=[clubs.a.slug, clubs.anna.start_number]),
        SWINDLE,
        content_type="application/json",
        headers=token(clubs.org_b),
    )
    assert response.status_code == 403
    unchanged(clubs)


def test_an_organiser_corrects_only_his_entry_when_the_person_plays_elsewhere(clubs):
    theirs = services.entry_register(
        tournament=clubs.b, first_name="Anna", last_name="Schmidt", ddv_number="4711"
    ).entry
    entry = services.entry_update(
        entry=theirs, **SWINDLE, ddv_number="4711", start_number=9, by=clubs.org_b
    )
    assert (entry.name, entry.start_number, entry.player_id) == (
        "Betrügerin Disqualifiziert",
        9,
        clubs.person.pk,
    )
    unchanged(clubs)


# The DDV number is the person's: under another name it is refused, without naming them.


def test_a_foreign_ddv_number_under_another_name_is_refused_on_its_field(client, clubs):
    client.force_login(clubs.org_b)
    response = client.post(
        reverse("tournaments:entries", args=[clubs.b.slug]),
        {**SWINDLE, "ddv_number": "4711"},
        headers={"Accept-Language": "en"},
    )
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert list(errors) == ["ddv_number"]
    message = errors["ddv_number"][0]
    assert "belongs to a person registered under a different name" in message
    assert "administrators or a ranking list's maintainers" in message
    # The box to say it is the same person comes with the refusal.
    assert 'name="same_person"' in response.content.decode()
    assert not clubs.b.entries.filter(player=clubs.person).exists()

    response = client.post(
        reverse("api:entries", args=[clubs.b.slug]),
        {**SWINDLE, "ddv_number": "4711", "same_person": True},
        content_type="application/json",
        headers=token(clubs.org_b),
    )
    assert response.status_code == 400
    assert list(response.json()) == ["ddv_number"]
    for text in (response.json()["ddv_number"][0], message):
        assert "Anna" not in text
        assert "Schmidt" not in text
        assert "Herz" not in text
    assert not clubs.b.entries.filter(player=clubs.person).exists()
    unchanged(clubs)


def test_the_registration_form_asks_for_the_same_person_only_with_the_refusal(client, clubs):
    client.force_login(clubs.org_b)
    page = client.get(reverse("tournaments:entries", args=[clubs.b.slug])).content.decode()
    assert 'name="same_person"' not in page


def test_the_same_name_in_another_case_is_the_same_person_without_saying_so(clubs):
    entry = services.entry_register(
        tournament=clubs.b, first_name="ANNA", last_name="schmidt", ddv_number="4711"
    ).entry
    assert entry.player_id == clubs.person.pk
    assert entry.name == "ANNA schmidt"  # as B registered her
    unchanged(clubs)


@pytest.mark.parametrize(
    ("typed", "same_person", "accepted"),
    [
        ("MUELLER", False, False),
        ("MUELLER", True, True),
        ("Mueller", True, True),
        # Umlauts left off, as a keyboard or a foreign list writes them.
        ("Muller", True, True),
        ("MULLER", False, False),
        ("Schmidt", True, False),
        ("Müllers", True, False),
    ],
)
def test_another_spelling_is_the_same_person_only_when_the_organiser_says_so(
    clubs, typed, same_person, accepted
):
    mueller = services.entry_register(
        tournament=clubs.a, first_name="Jörg", last_name="Müller", ddv_number="4712"
    ).entry.player

    def register():
        return services.entry_register(
            tournament=clubs.b,
            first_name="Jörg",
            last_name=typed,
            ddv_number="4712",
            same_person=same_person,
        ).entry

    if accepted:
        entry = register()
        assert entry.player_id == mueller.pk
        assert entry.last_name == typed
        assert Player.objects.get(pk=mueller.pk).last_name == "Müller"
    else:
        with pytest.raises(ValidationError) as refused:
            register()
        assert list(refused.value.message_dict) == ["ddv_number"]
        assert not clubs.b.entries.filter(player=mueller).exists()


def test_the_same_person_box_on_the_page_lets_another_spelling_in(client, clubs):
    services.entry_register(
        tournament=clubs.a, first_name="Jörg", last_name="Müller", ddv_number="4712"
    )
    client.force_login(clubs.org_b)
    typed = {"first_name": "Jörg", "last_name": "MUELLER", "ddv_number": "4712"}
    assert (
        client.post(reverse("tournaments:entries", args=[clubs.b.slug]), typed).status_code == 400
    )
    response = client.post(
        reverse("tournaments:entries", args=[clubs.b.slug]), {**typed, "same_person": "on"}
    )
    assert response.status_code == 302
    assert clubs.b.entries.get(player__ddv_number="4712").name == "Jörg MUELLER"


def test_an_import_refuses_a_foreign_ddv_number_under_another_name_by_line(clubs):
    data = "Vorname;Nachname;DDV-Nummer\nErika;Muster;\nBetrügerin;Disqualifiziert;4711\n"
    with pytest.raises(ValidationError) as refused:
        services.players_import(tournament=clubs.b, data=data.encode())
    (message,) = refused.value.message_dict["file"]
    assert message.startswith("Line 3: ")
    assert "different name" in message
    assert "Schmidt" not in message
    assert clubs.b.entries.count() == 3  # none of the file
    unchanged(clubs)


def test_an_import_registers_the_person_under_the_names_of_the_file(clubs):
    data = "Vorname;Nachname;Verein;DDV-Nummer\nANNA;SCHMIDT;Kreuz;4711\n"
    (entry,) = services.players_import(tournament=clubs.b, data=data.encode()).entries
    entry = Entry.objects.get(pk=entry.pk)
    assert (entry.name, entry.club, entry.player_id) == ("ANNA SCHMIDT", "Kreuz", clubs.person.pk)
    unchanged(clubs)


# Another DDV number on an entry makes it another person's.


def test_a_foreign_ddv_number_on_an_entry_under_another_name_is_refused(client, clubs):
    entry = clubs.b.entries.first()
    client.force_login(clubs.org_b)
    response = client.post(
        reverse("tournaments:entry-edit", args=[clubs.b.slug, entry.start_number]),
        {"first_name": "Erika", "last_name": "Muster", "ddv_number": "4711", "start_number": 1},
    )
    assert response.status_code == 400
    assert list(response.context["form"].errors) == ["ddv_number"]
    assert Entry.objects.get(pk=entry.pk).player_id == entry.player_id
    unchanged(clubs)


def test_a_ddv_number_typed_later_makes_the_entry_that_persons_and_drops_the_empty_record(
    clubs,
):
    """B registered Anna without her number (a record of his own), then adds it: the entry
    becomes the person's, and the record left without entries goes, logged."""
    entry = services.entry_register(
        tournament=clubs.b, first_name="Anna", last_name="Schmidt", club="Herz"
    ).entry
    alone = entry.player
    assert alone.pk != clubs.person.pk
    entry = services.entry_update(
        entry=entry,
        first_name="Anna",
        last_name="Schmidt",
        club="Herz",
        ddv_number="4711",
        start_number=entry.start_number,
        by=clubs.org_b,
    )
    assert entry.player_id == clubs.person.pk
    assert not Player.objects.filter(pk=alone.pk).exists()
    (log,) = PersonChange.objects.all()
    assert (log.kind, log.player, log.by) == ("deleted", None, clubs.org_b)
    assert log.before["pk"] == alone.pk
    unchanged(clubs)


def test_a_person_only_in_his_tournaments_follows_his_correction(
    clubs, django_capture_on_commit_callbacks
):
    entry = clubs.a.entries.exclude(pk=clubs.anna.pk).first()
    with django_capture_on_commit_callbacks(execute=True):
        services.entry_update(
            entry=entry,
            first_name="Grete",
            last_name="Korrigiert",
            club="Pik",
            ddv_number="999",
            start_number=entry.start_number,
            by=clubs.org_a,
        )
    person = Player.objects.get(pk=entry.player_id)
    assert (person.name, person.club, person.ddv_number) == ("Grete Korrigiert", "Pik", "999")
    (log,) = PersonChange.objects.filter(player=person)
    assert (log.kind, log.by, log.after["last_name"]) == ("followed", clubs.org_a, "Korrigiert")
    assert "Grete Korrigiert" in standings_names(clubs.a)


def test_a_person_in_another_organisers_tournament_does_not_follow(clubs):
    theirs = services.entry_register(
        tournament=clubs.b, first_name="Anna", last_name="Schmidt", ddv_number="4711"
    ).entry
    # Even A, whose player she was first, corrects only his entry now.
    services.entry_update(
        entry=clubs.anna,
        **SWINDLE,
        club="Herz",
        ddv_number="4711",
        start_number=clubs.anna.start_number,
        by=clubs.org_a,
    )
    assert Player.objects.get(pk=clubs.person.pk).name == "Anna Schmidt"
    assert Entry.objects.get(pk=theirs.pk).name == "Anna Schmidt"


# Persons are corrected and merged by administrators and who holds the permission, logged.


def test_an_organiser_may_not_correct_or_merge_a_person(client, clubs):
    other = factories.player(first_name="Anna", last_name="Schmidt")
    with pytest.raises(PermissionDenied):
        services.person_update(
            player=clubs.person, **SWINDLE, club="", ddv_number="4711", by=clubs.org_a
        )
    with pytest.raises(PermissionDenied):
        services.persons_merge(keep=clubs.person, other=other, by=clubs.org_a)
    client.force_login(clubs.org_b)
    for name in ("tournaments:person-edit", "tournaments:person-merge"):
        response = client.post(
            reverse(name, args=[clubs.person.pk]),
            {**SWINDLE, "record": other.pk, "find": "1"},
            headers={"Accept-Language": "en"},
        )
        assert response.status_code == 403
    response = client.patch(
        reverse("api:player-history", args=[clubs.person.pk]),
        SWINDLE,
        content_type="application/json",
        headers=token(clubs.org_b),
    )
    assert response.status_code == 403
    assert "administrators or a ranking list's maintainers" in response.json()["detail"]
    response = client.post(
        reverse("api:person-merge", args=[clubs.person.pk]),
        {"other": other.pk},
        content_type="application/json",
        headers=token(clubs.org_b),
    )
    assert response.status_code == 403
    assert Player.objects.filter(pk=other.pk).exists()
    assert not PersonChange.objects.exists()
    unchanged(clubs)


def test_the_person_page_offers_corrections_to_those_who_may_only(client, clubs):
    url = reverse("tournaments:player-history", args=[clubs.person.pk])
    client.force_login(clubs.org_a)
    page = client.get(url).content.decode()
    assert reverse("tournaments:person-edit", args=[clubs.person.pk]) not in page
    assert reverse("tournaments:person-merge", args=[clubs.person.pk]) not in page
    client.force_login(person_changer())
    page = client.get(url).content.decode()
    assert reverse("tournaments:person-edit", args=[clubs.person.pk]) in page
    assert reverse("tournaments:person-merge", args=[clubs.person.pk]) in page


@pytest.mark.parametrize("who", [admin, person_changer])
def test_a_person_corrected_is_logged_and_shown_everywhere_registered_so(
    clubs, who, django_capture_on_commit_callbacks
):
    theirs = services.entry_register(
        tournament=clubs.b, first_name="ANNA", last_name="SCHMIDT", ddv_number="4711"
    ).entry
    user = who()
    with django_capture_on_commit_callbacks(execute=True):
        services.person_update(
            player=clubs.person,
            first_name="Anna",
            last_name="Schmitt",
            club="Herz",
            ddv_number="4711",
            by=user,
        )
    assert Player.objects.get(pk=clubs.person.pk).name == "Anna Schmitt"
    # A registered her as she was: A's entry follows; B registered another spelling: kept.
    assert Entry.objects.get(pk=clubs.anna.pk).name == "Anna Schmitt"
    assert Entry.objects.get(pk=theirs.pk).name == "ANNA SCHMIDT"
    assert "Anna Schmitt" in standings_names(clubs.a)
    (log,) = PersonChange.objects.all()
    assert (log.kind, log.player_id, log.by) == ("corrected", clubs.person.pk, user)
    assert (log.before["last_name"], log.after["last_name"]) == ("Schmidt", "Schmitt")


def test_a_correction_through_the_page_and_the_api(client, clubs):
    client.force_login(admin())
    response = client.post(
        reverse("tournaments:person-edit", args=[clubs.person.pk]),
        {"first_name": "Anna", "last_name": "Schmitt", "club": "Herz", "ddv_number": "4711"},
    )
    assert response.status_code == 302
    page = client.get(
        reverse("tournaments:player-history", args=[clubs.person.pk])
    ).content.decode()
    assert "Anna Schmitt" in page
    assert "Schmidt" in page
    response = client.patch(
        reverse("api:player-history", args=[clubs.person.pk]),
        {"club": "Kreuz"},
        content_type="application/json",
        headers=token(person_changer()),
    )
    assert response.status_code == 200, response.json()
    assert response.json()["club"] == "Kreuz"
    assert response.json()["last_name"] == "Schmitt"
    assert PersonChange.objects.filter(player=clubs.person).count() == 2


def test_a_correction_to_another_persons_ddv_number_is_refused_on_its_field(client, clubs):
    factories.player(first_name="Erika", last_name="Muster", ddv_number="4712")
    response = client.patch(
        reverse("api:player-history", args=[clubs.person.pk]),
        {"ddv_number": "4712"},
        content_type="application/json",
        headers=token(admin()),
    )
    assert response.status_code == 400
    assert list(response.json()) == ["ddv_number"]
    unchanged(clubs)


def test_the_admins_change_of_a_player_is_a_logged_correction(client, clubs):
    client.force_login(admin())
    response = client.post(
        reverse("admin:tournaments_player_change", args=[clubs.person.pk]),
        {"first_name": "Anna", "last_name": "Schmitt", "club": "Herz", "ddv_number": "4711"},
    )
    assert response.status_code == 302
    (log,) = PersonChange.objects.all()
    assert (log.kind, log.after["last_name"]) == ("corrected", "Schmitt")
    assert Entry.objects.get(pk=clubs.anna.pk).name == "Anna Schmitt"


def test_a_merge_moves_the_other_records_entries_and_deletes_it(
    clubs, django_capture_on_commit_callbacks
):
    twice = services.entry_register(
        tournament=clubs.b, first_name="Anna", last_name="Schmid", club="Herz"
    ).entry
    other = twice.player
    user = admin()
    with django_capture_on_commit_callbacks(execute=True):
        keep = services.persons_merge(keep=clubs.person, other=other, by=user)
    assert keep.pk == clubs.person.pk
    assert Entry.objects.get(pk=twice.pk).player_id == clubs.person.pk
    assert Entry.objects.get(pk=twice.pk).name == "Anna Schmid"  # B's registration stays
    assert not Player.objects.filter(pk=other.pk).exists()
    (log,) = PersonChange.objects.all()
    assert (log.kind, log.player_id, log.by) == ("merged", clubs.person.pk, user)
    assert log.before["merged"]["pk"] == other.pk
    history = selectors.player_history(player=clubs.person, user=user)
    assert {line.tournament.pk for line in history} == {clubs.a.pk, clubs.b.pk}


def test_the_merged_record_gives_its_ddv_number_to_a_record_without_one(clubs):
    keep = services.entry_register(
        tournament=clubs.b, first_name="Anna", last_name="Schmidt", club="Herz"
    ).entry.player
    services.persons_merge(keep=keep, other=clubs.person, by=admin())
    assert Player.objects.get(pk=keep.pk).ddv_number == "4711"
    assert Entry.objects.get(pk=clubs.anna.pk).player_id == keep.pk


def test_a_merge_of_two_records_in_one_tournament_is_refused_with_the_reason(clubs):
    other = clubs.a.entries.exclude(pk=clubs.anna.pk).first().player
    with pytest.raises(ValidationError) as refused:
        services.persons_merge(keep=clubs.person, other=other, by=admin())
    assert "A-Pokal" in refused.value.message_dict["other"][0]
    assert Player.objects.filter(pk=other.pk).exists()
    assert not PersonChange.objects.exists()


def test_a_merge_through_the_page_finds_shows_and_then_merges(client, clubs):
    other = services.entry_register(
        tournament=clubs.b, first_name="Anna", last_name="Schmid", ddv_number="99"
    ).entry.player
    client.force_login(admin())
    url = reverse("tournaments:person-merge", args=[clubs.person.pk])
    response = client.post(url, {"find": "1", "ddv_number": "99"})
    assert response.status_code == 200
    assert "Anna Schmid" in response.content.decode()
    assert Player.objects.filter(pk=other.pk).exists()  # not before the confirmation
    response = client.post(url, {"other": other.pk})
    assert response.status_code == 302
    assert not Player.objects.filter(pk=other.pk).exists()


def test_a_merge_through_the_api(client, clubs):
    other = services.entry_register(
        tournament=clubs.b, first_name="Anna", last_name="Schmid"
    ).entry.player
    url = reverse("api:person-merge", args=[clubs.person.pk])
    headers = token(person_changer())
    response = client.post(url, {"other": 10**9}, content_type="application/json", headers=headers)
    assert response.status_code == 400
    assert list(response.json()) == ["other"]
    response = client.post(
        url, {"other": other.pk}, content_type="application/json", headers=headers
    )
    assert response.status_code == 200, response.json()
    assert response.json()["id"] == clubs.person.pk
    assert not Player.objects.filter(pk=other.pk).exists()
