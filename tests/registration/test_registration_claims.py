"""A registration's claim to be a person on record (issue 44, ``services.claims``): never that
person by itself; an organiser confirms it at the desk, or the person from her address on
record; conflicts are shown and decided, never refused at the door."""

import re
import time

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import override_settings
from django.urls import reverse
from rest_framework.authtoken.models import Token

from adjudication.services.staff import role_grant
from registration.claim_links import ClaimLink, claim_token, claim_token_read
from registration.models import Registration
from registration.selectors.claims import claims_open
from registration.services.claims import (
    registration_claim_confirm,
    registration_claim_confirm_by_mail,
    registration_claim_set_aside,
)
from registration.services.registrations import (
    registration_give_place,
    registration_submit,
    registration_to_waiting_list,
)
from tests import factories
from tournaments import services
from tournaments.models import PersonChange, Player, TournamentRole

pytestmark = pytest.mark.django_db

HER = {"first_name": "Jürgen", "last_name": "Müller", "club": "Kreuz Dame"}
SENDS = "django.core.mail.backends.locmem.EmailBackend"
KEEPS = "django.core.mail.backends.console.EmailBackend"


@pytest.fixture
def organiser():
    return factories.user(username="leitung")


@pytest.fixture
def her():
    """A person with a DDV number who played an earlier tournament from her address."""
    earlier = factories.tournament(name="Frühjahrspokal")
    services.entry_register(
        tournament=earlier, **HER, ddv_number="4711", email="juergen@example.org"
    )
    return Player.objects.get(ddv_number="4711")


@pytest.fixture
def tournament(organiser):
    tournament = factories.tournament(organiser=organiser, name="Herbstpokal")
    factories.registration_open(tournament)
    return tournament


def submit(tournament, **fields):
    values = {**HER, "email": "mallory@example.org", "ddv_number": "4711", **fields}
    return registration_submit(tournament=tournament, confirm_by_mail=False, **values)


def test_her_number_gives_a_record_of_its_own_and_an_open_claim(tournament, her):
    registered = submit(tournament)
    assert registered.entry.player_id != her.pk
    assert registered.entry.player.ddv_number == ""
    assert registered.registration.claim == Registration.Claim.OPEN
    assert registered.registration.claimed_person == her
    assert not her.entries.filter(tournament=tournament).exists()


def test_another_name_than_the_numbers_person_is_refused_without_naming_her(tournament, her):
    with pytest.raises(ValidationError) as refused:
        submit(tournament, first_name="Anna", last_name="Andere")
    assert "ddv_number" in refused.value.message_dict
    assert "Müller" not in str(refused.value)


def test_her_name_in_another_spelling_is_a_claim_too(tournament, her):
    registered = submit(tournament, first_name="Jurgen", last_name="MUELLER")
    assert registered.registration.claimed_person == her


def test_the_organiser_confirms_and_the_entry_becomes_hers(tournament, her, organiser):
    entry = submit(tournament).entry
    own = entry.player
    registration = registration_claim_confirm(entry=entry, by=organiser)
    entry.refresh_from_db()
    assert entry.player_id == her.pk
    assert registration.claim == Registration.Claim.CONFIRMED
    assert registration.claim_decided_by == organiser
    # The record of its own is gone, and the log says so.
    assert not Player.objects.filter(pk=own.pk).exists()
    assert PersonChange.objects.filter(kind="deleted", before__pk=own.pk).exists()


def test_a_number_nobody_has_goes_to_the_players_own_record_once_confirmed(tournament, organiser):
    entry = submit(tournament, ddv_number="999").entry
    assert claims_open(tournament=tournament)[entry.pk].person is None
    registration_claim_confirm(entry=entry, by=organiser)
    entry.refresh_from_db()
    assert entry.player.ddv_number == "999"


def test_two_claims_are_a_conflict_and_only_one_is_confirmed(tournament, her, organiser):
    mallory = submit(tournament).entry
    hers = submit(tournament, email="juergen@example.org").entry
    claims = claims_open(tournament=tournament)
    assert [other.start_number for other in claims[hers.pk].others] == [mallory.start_number]
    registration_claim_confirm(entry=hers, by=organiser)
    after = claims_open(tournament=tournament)
    assert after[mallory.pk].others[0].plays_as
    with pytest.raises(ValidationError) as refused:
        registration_claim_confirm(entry=mallory, by=organiser)
    assert "plays in this tournament already" in refused.value.message_dict["claim"][0]
    registration_claim_set_aside(entry=mallory, by=organiser)
    assert claims_open(tournament=tournament) == {}


def test_a_player_registered_by_hand_under_her_number_is_a_conflict(tournament, organiser, her):
    services.entry_register(tournament=tournament, **HER, ddv_number="4711")
    entry = submit(tournament).entry
    claim = claims_open(tournament=tournament)[entry.pk]
    assert [(other.start_number, other.plays_as) for other in claim.others] == [(1, True)]


def test_setting_a_confirmed_claim_aside_gives_a_record_of_its_own_again(
    tournament, her, organiser
):
    entry = submit(tournament).entry
    registration_claim_confirm(entry=entry, by=organiser)
    registration = registration_claim_set_aside(entry=entry, by=organiser)
    entry.refresh_from_db()
    assert entry.player_id != her.pk
    assert registration.claim == Registration.Claim.SET_ASIDE
    assert not her.entries.filter(tournament=tournament).exists()


def test_a_registration_without_a_number_names_a_person_of_the_same_name_and_club(
    tournament, organiser
):
    earlier = factories.tournament()
    services.entry_register(tournament=earlier, **HER)
    person = Player.objects.get(first_name="Jürgen")
    registered = submit(tournament, ddv_number="")
    assert registered.registration.claimed_person == person
    assert registered.entry.player_id != person.pk
    registration_claim_confirm(entry=registered.entry, by=organiser)
    registered.entry.refresh_from_db()
    assert registered.entry.player_id == person.pk


def test_a_new_person_has_nothing_to_confirm(tournament, organiser):
    registered = submit(tournament, ddv_number="", first_name="Neu", last_name="Ling")
    assert registered.registration.claim == Registration.Claim.NONE
    assert claims_open(tournament=tournament) == {}
    with pytest.raises(ValidationError):
        registration_claim_confirm(entry=registered.entry, by=organiser)


def test_only_an_organiser_decides_a_claim(tournament, her, organiser):
    entry = submit(tournament).entry
    desk = factories.user()
    role_grant(tournament=tournament, user=desk, role=TournamentRole.Role.SCOREKEEPER, by=organiser)
    with pytest.raises(PermissionDenied):
        registration_claim_confirm(entry=entry, by=desk)


def test_an_entry_registered_by_hand_has_no_claim(tournament, organiser):
    entry = services.entry_register(tournament=tournament, first_name="A", last_name="B").entry
    with pytest.raises(ValidationError) as refused:
        registration_claim_confirm(entry=entry, by=organiser)
    assert "claim" in refused.value.message_dict


def test_the_organiser_typing_the_number_on_the_players_page_confirms_the_claim(
    tournament, her, organiser
):
    entry = submit(tournament).entry
    services.entry_update(
        entry=entry,
        **HER,
        ddv_number="4711",
        start_number=entry.start_number,
        by=organiser,
        email=entry.email,
    )
    registration = Registration.objects.get(entry=entry)
    assert registration.claim == Registration.Claim.CONFIRMED
    assert registration.claim_decided_by == organiser


def test_back_to_the_waiting_list_drops_the_own_record_and_a_place_binds_a_confirmed_claim(
    tournament, her, organiser
):
    entry = submit(tournament).entry
    registration = registration_claim_confirm(entry=entry, by=organiser)
    registration_to_waiting_list(registration=registration, by=organiser)
    assert not her.entries.filter(tournament=tournament).exists()
    again = registration_give_place(registration=registration, by=organiser)
    assert again.entry.player_id == her.pk
    own = submit(tournament, ddv_number="", first_name="Eigen", last_name="Satz").entry
    own_player = own.player_id
    registration_to_waiting_list(registration=Registration.objects.get(entry=own), by=organiser)
    assert not Player.objects.filter(pk=own_player).exists()


# The person confirms from her address on record ------------------------------------------------


@override_settings(EMAIL_BACKEND=SENDS)
def test_the_link_goes_to_her_address_on_record_only(
    tournament, her, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        registration_submit(
            tournament=tournament, **HER, email="neu@example.org", ddv_number="4711"
        )
    claim = [sent for sent in mail.outbox if "/claims/" in sent.body]
    assert [sent.to for sent in claim] == [["juergen@example.org"]]
    assert "Herbstpokal" in claim[0].subject


@override_settings(EMAIL_BACKEND=KEEPS)
def test_no_link_where_the_site_sends_no_mail(tournament, her, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        submit(tournament)
    assert not any("/claims/" in sent.body for sent in mail.outbox)


@override_settings(EMAIL_BACKEND=SENDS)
def test_no_link_without_an_address_on_record(tournament, django_capture_on_commit_callbacks):
    factories.player(**HER, ddv_number="4711")
    with django_capture_on_commit_callbacks(execute=True):
        submit(tournament)
    assert not any("/claims/" in sent.body for sent in mail.outbox)


def test_her_link_confirms_and_only_once(tournament, her):
    registration = submit(tournament).registration
    link = ClaimLink(registration.pk, her.pk, "4711")
    assert claim_token_read(claim_token(link)) == link
    registration_claim_confirm_by_mail(link=link)
    registration.refresh_from_db()
    assert registration.entry.player_id == her.pk
    with pytest.raises(ValidationError):
        registration_claim_confirm_by_mail(link=link)


def test_a_link_for_another_person_or_number_confirms_nothing(tournament, her):
    registration = submit(tournament).registration
    for link in (
        ClaimLink(registration.pk, her.pk + 1000, "4711"),
        ClaimLink(registration.pk, her.pk, "4712"),
    ):
        with pytest.raises(ValidationError):
            registration_claim_confirm_by_mail(link=link)
    registration.refresh_from_db()
    assert registration.claim == Registration.Claim.OPEN


@pytest.mark.parametrize("token", ["", "x" * 201, "a:b:c", "W1sxLDIsIjQ3MTEiXV0:1:x", "\x00"])
def test_a_made_up_token_reads_as_nothing(token):
    assert claim_token_read(token) is None


def test_an_expired_link_reads_as_nothing(tournament, her, monkeypatch):
    token = claim_token(ClaimLink(1, her.pk, "4711"))
    later = time.time() + 31 * 24 * 3600
    monkeypatch.setattr(time, "time", lambda: later)
    assert claim_token_read(token) is None


def test_the_page_asks_before_it_confirms_and_says_so_in_german(client, tournament, her):
    registration = submit(tournament).registration
    url = reverse(
        "registration:claim-confirm", args=[claim_token(ClaimLink(registration.pk, her.pk, "4711"))]
    )
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="de")
    assert page.status_code == 200
    assert page["Cache-Control"] == "private, no-store"
    assert "Ja, ich habe mich angemeldet" in page.content.decode()
    registration.refresh_from_db()
    assert registration.claim == Registration.Claim.OPEN
    done = client.post(url, HTTP_ACCEPT_LANGUAGE="de")
    assert done.status_code == 200
    assert "zählt für Sie" in done.content.decode()
    registration.refresh_from_db()
    assert registration.claim == Registration.Claim.CONFIRMED


# The desk ---------------------------------------------------------------------------------------


def test_the_check_in_list_shows_the_claim_and_the_organiser_decides_it(
    client, tournament, her, organiser
):
    entry = submit(tournament).entry
    client.force_login(organiser)
    page = client.get(
        reverse("registration:check-in", args=[tournament.slug]), HTTP_ACCEPT_LANGUAGE="en"
    )
    text = re.sub(r"\s+", " ", page.content.decode())
    assert "DDV number 4711 claimed, not confirmed" in text
    assert "On record: Jürgen Müller (Kreuz Dame), in 1 tournament." in text
    answer = client.post(
        reverse("registration:check-in-claim", args=[tournament.slug, entry.start_number]),
        {"action": "set_aside", "q": "Müller"},
    )
    assert answer.status_code == 302
    assert answer["Location"].endswith("?q=M%C3%BCller")
    assert Registration.objects.get(entry=entry).claim == Registration.Claim.SET_ASIDE


def test_a_scorekeeper_at_the_desk_sees_the_claim_and_who_decides(
    client, tournament, her, organiser
):
    submit(tournament)
    desk = factories.user()
    role_grant(tournament=tournament, user=desk, role=TournamentRole.Role.SCOREKEEPER, by=organiser)
    client.force_login(desk)
    text = client.get(
        reverse("registration:check-in", args=[tournament.slug]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "claimed, not confirmed" in text
    assert "Only an organiser confirms" in text
    assert "Same person: confirm" not in text


def test_the_players_page_shows_the_organiser_the_open_claim(client, tournament, her, organiser):
    submit(tournament)
    url = reverse("tournaments:entries", args=[tournament.slug])
    assert "claimed, not confirmed" not in client.get(url).content.decode()
    client.force_login(organiser)
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "DDV number 4711 claimed, not confirmed" in page


def test_the_api_decides_a_claim_and_lists_it(client, tournament, her, organiser):
    entry = submit(tournament).entry
    headers = {"Authorization": f"Token {Token.objects.create(user=organiser).key}"}
    listed = client.get(reverse("api:check-in", args=[tournament.slug]), headers=headers)
    claim = listed.json()["players"][0]["claim"]
    assert claim == {
        "ddv_number": "4711",
        "person": her.pk,
        "person_name": "Jürgen Müller",
        "conflicts": [],
    }
    answer = client.post(
        reverse("api:entry-claim-confirm", args=[tournament.slug, entry.start_number]),
        headers=headers,
    )
    assert answer.status_code == 200
    assert answer.json()["claim"] == "confirmed"
    assert answer.json()["claimed_person"] == her.pk


def test_a_claim_set_aside_stays_set_aside_with_the_next_place(tournament, her, organiser):
    entry = submit(tournament).entry
    registration = registration_claim_set_aside(entry=entry, by=organiser)
    registration_to_waiting_list(registration=registration, by=organiser)
    again = registration_give_place(registration=registration, by=organiser)
    assert again.claim == Registration.Claim.SET_ASIDE
    assert again.entry.player_id != her.pk
