"""Online registration (issue 33, point 1): players register on the public page, a place while
places are free, else the waiting list; the organiser opens, changes and closes it and orders the
waiting list; registrations are limited per client and per address."""

import datetime

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from registration.models import OnlineRegistration, Registration
from registration.services.registrations import (
    Registered,
    registration_close,
    registration_give_place,
    registration_move,
    registration_remove,
    registration_reopen,
    registration_settings_save,
    registration_submit,
    registration_to_waiting_list,
)
from tests import factories
from tournaments import services
from tournaments.models import Entry, Round

pytestmark = pytest.mark.django_db

SENDS = "django.core.mail.backends.locmem.EmailBackend"


@pytest.fixture
def organiser():
    return factories.user(username="leitung")


@pytest.fixture
def tournament(organiser):
    """Two players added by hand; registration open for four places, with a waiting list."""
    tournament = factories.tournament(
        players=2, organiser=organiser, name="Herbstpokal", venue="Vereinsheim"
    )
    now = timezone.now()
    OnlineRegistration.objects.create(
        tournament=tournament,
        opens_at=now - datetime.timedelta(days=1),
        closes_at=now + datetime.timedelta(days=1),
        capacity=4,
        note="Startgeld 10 €",
    )
    return tournament


def submit(tournament, n: int, **fields) -> Registered:
    values = {
        "first_name": "Spieler",
        "last_name": f"Nummer{n}",
        "club": "Kreuz Bube",
        "email": f"spieler{n}@example.org",
        "ddv_number": "",
        "language": "de",
        **fields,
    }
    return registration_submit(tournament=tournament, **values)


def form(n: int, **fields) -> dict[str, str]:
    return {
        "first_name": "Spieler",
        "last_name": f"Nummer{n}",
        "club": "Kreuz Bube",
        "email": f"spieler{n}@example.org",
        "ddv_number": "",
        **fields,
    }


# The service ---------------------------------------------------------------------------------


def test_within_capacity_a_player_gets_an_entry_with_the_registration_key(tournament):
    registered = submit(tournament, 1, ddv_number="12345")
    entry = registered.entry
    assert entry is not None
    assert entry.start_number == 3
    assert entry.link_key == registered.registration.key
    assert entry.email == "spieler1@example.org"
    # The number is a claim until the desk confirms it (issue 44): a record of its own.
    assert entry.player.ddv_number == ""
    assert registered.registration.claim == Registration.Claim.OPEN
    assert registered.registration.state == Registration.State.ADMITTED
    assert registered.place is None


def test_capacity_counts_entries_added_by_hand_and_then_the_waiting_list(tournament):
    submit(tournament, 1)
    submit(tournament, 2)
    third = submit(tournament, 3)
    fourth = submit(tournament, 4)
    assert third.entry is None
    assert third.place == 1
    assert fourth.place == 2
    assert tournament.entries.filter(status=Entry.Status.ACTIVE).count() == 4


def test_full_without_a_waiting_list_is_refused_on_capacity(tournament):
    OnlineRegistration.objects.filter(tournament=tournament).update(waiting_list=False)
    submit(tournament, 1)
    submit(tournament, 2)
    with pytest.raises(ValidationError) as refused:
        submit(tournament, 3)
    assert "capacity" in refused.value.message_dict
    assert not Registration.objects.filter(last_name="Nummer3").exists()


def test_before_it_opens_the_refusal_says_when(tournament):
    opens = timezone.now() + datetime.timedelta(days=2)
    OnlineRegistration.objects.filter(tournament=tournament).update(
        opens_at=opens, closes_at=opens + datetime.timedelta(days=1)
    )
    with pytest.raises(ValidationError) as refused:
        submit(tournament, 1)
    assert "opens on" in refused.value.messages[0]


@pytest.mark.parametrize("how", ["closed_at", "closes_at"])
def test_after_it_closes_it_is_refused(tournament, how):
    past = timezone.now() - datetime.timedelta(minutes=1)
    OnlineRegistration.objects.filter(tournament=tournament).update(**{how: past})
    with pytest.raises(ValidationError) as refused:
        submit(tournament, 1)
    assert "closed" in refused.value.messages[0]
    assert not tournament.registrations.exists()


def test_after_the_first_draw_it_is_refused(tournament):
    submit(tournament, 1)
    submit(tournament, 2)
    services.round_create(tournament=tournament)
    services.round_seat(round=tournament.rounds.get())
    with pytest.raises(ValidationError) as refused:
        submit(tournament, 3)
    assert "begun" in refused.value.messages[0]


def test_the_same_ddv_number_twice_is_two_claims_the_organiser_decides(tournament):
    """The person's own registration is never refused for another's claim (issue 44)."""
    submit(tournament, 1, ddv_number="777")
    other = submit(tournament, 1, ddv_number="777", email="anders@example.org")
    assert other.entry is not None
    assert other.registration.claim == Registration.Claim.OPEN


def test_the_ddv_number_of_an_entry_added_by_hand_is_a_claim_not_a_refusal(tournament):
    entry = factories.entries(tournament)[0]
    entry.player.ddv_number = "4242"
    entry.player.save()
    registered = submit(
        tournament, 9, first_name=entry.first_name, last_name=entry.last_name, ddv_number="4242"
    )
    assert registered.entry is not None
    assert registered.entry.player_id != entry.player_id
    assert registered.registration.claimed_person_id == entry.player_id


def test_the_same_name_and_address_in_another_spelling_is_refused_on_the_name(tournament):
    submit(tournament, 1, first_name="Jürgen", last_name="Müller")
    with pytest.raises(ValidationError) as refused:
        submit(
            tournament, 1, first_name="Jurgen", last_name="MUELLER", email="Spieler1@Example.org"
        )
    assert "first_name" in refused.value.message_dict


def test_another_persons_ddv_number_is_refused_before_anything_is_saved(tournament):
    factories.player(first_name="Anna", last_name="Andere", ddv_number="999")
    players_before = Entry.objects.count()
    for n in (1, 2):
        submit(tournament, n)  # full: the next one would wait
    with pytest.raises(ValidationError) as refused:
        submit(tournament, 5, ddv_number="999")
    assert "ddv_number" in refused.value.message_dict
    assert not Registration.objects.filter(last_name="Nummer5").exists()
    assert Entry.objects.count() == players_before + 2


def test_a_cancelled_registration_may_register_again(tournament, organiser):
    submit(tournament, 1)
    submit(tournament, 2)
    waiting = submit(tournament, 3, ddv_number="31").registration
    registration_remove(registration=waiting, by=organiser)
    again = submit(tournament, 3, ddv_number="31")
    assert again.place == 1


def test_the_confirmation_mail_names_the_personal_link_in_the_players_language(
    tournament, django_capture_on_commit_callbacks, settings
):
    settings.EMAIL_BACKEND = SENDS
    with django_capture_on_commit_callbacks(execute=True):
        registered = submit(tournament, 1, language="de")
    with django_capture_on_commit_callbacks(execute=True):
        submit(tournament, 2, language="en")
        waiting = submit(tournament, 3, language="en")
    assert [message.to for message in mail.outbox] == [
        ["spieler1@example.org"],
        ["spieler2@example.org"],
        ["spieler3@example.org"],
    ]
    german, _english, waiting_mail = mail.outbox
    assert "Startnummer 3" in german.body
    assert f"/p/{registered.registration.key}/" in german.body
    assert "waiting list, as number 1" in waiting_mail.body
    assert f"/p/{waiting.registration.key}/" in waiting_mail.body


def test_the_german_mails_say_check_in_and_spielliste(
    tournament, django_capture_on_commit_callbacks, settings
):
    """The door is "einchecken", not "anmelden" (which is the registration itself); the
    scoresheet is the "Spielliste"."""
    settings.EMAIL_BACKEND = SENDS
    with django_capture_on_commit_callbacks(execute=True):
        submit(tournament, 1, language="de")
        submit(tournament, 2, language="de")
        submit(tournament, 3, language="de")
    with django_capture_on_commit_callbacks(execute=True):
        services.entry_withdraw(entry=factories.entries(tournament)[0])
    confirmation, moved_up = mail.outbox[0], mail.outbox[-1]
    assert moved_up.to == ["spieler3@example.org"]
    for message in (confirmation, moved_up):
        assert "checken Sie am Turniertag am Eingang ein" in message.body
        assert "am Eingang an" not in message.body
    assert "die Spielliste Ihres Tisches" in moved_up.body
    assert "Spielbericht" not in moved_up.body


# The organiser's services ---------------------------------------------------------------------


def test_raising_the_capacity_moves_the_waiting_list_up_at_once(tournament, organiser):
    for n in (1, 2, 3, 4):
        submit(tournament, n)
    settings = tournament.online_registration
    saved = registration_settings_save(
        tournament=tournament,
        by=organiser,
        opens_at=settings.opens_at,
        closes_at=settings.closes_at,
        capacity=5,
        waiting_list=True,
        note="",
    )
    assert [registration.last_name for registration in saved.moved_up] == ["Nummer3"]
    assert Registration.objects.get(last_name="Nummer4").waiting_position is not None


def test_lowering_the_capacity_below_the_players_throws_nobody_out(tournament, organiser):
    submit(tournament, 1)
    settings = tournament.online_registration
    saved = registration_settings_save(
        tournament=tournament,
        by=organiser,
        opens_at=settings.opens_at,
        closes_at=settings.closes_at,
        capacity=1,
        waiting_list=True,
    )
    assert saved.over_capacity == 2
    assert tournament.entries.filter(status=Entry.Status.ACTIVE).count() == 3


def test_only_an_organiser_manages_the_registration(tournament):
    stranger = factories.user()
    with pytest.raises(PermissionDenied, match="Only an organiser"):
        registration_close(tournament=tournament, by=stranger)


def test_close_and_open_again(tournament, organiser):
    registration_close(tournament=tournament, by=organiser)
    with pytest.raises(ValidationError):
        submit(tournament, 1)
    registration_reopen(tournament=tournament, by=organiser)
    assert submit(tournament, 1).entry is not None


def test_reopening_after_the_closing_time_asks_for_a_later_one(tournament, organiser):
    OnlineRegistration.objects.filter(tournament=tournament).update(
        closes_at=timezone.now() - datetime.timedelta(minutes=1),
        opens_at=timezone.now() - datetime.timedelta(days=1),
    )
    with pytest.raises(ValidationError) as refused:
        registration_reopen(tournament=tournament, by=organiser)
    assert "closes_at" in refused.value.message_dict


def test_moving_reorders_the_waiting_list(tournament, organiser):
    for n in (1, 2, 3, 4, 5):
        submit(tournament, n)
    last = Registration.objects.get(last_name="Nummer5")
    order = registration_move(registration=last, by=organiser, place=1)
    assert [registration.last_name for registration in order] == [
        "Nummer5",
        "Nummer3",
        "Nummer4",
    ]
    assert services.entry_withdraw(entry=factories.entries(tournament)[0]).moved_up[0] == last


def test_giving_a_place_goes_beyond_the_capacity(tournament, organiser):
    for n in (1, 2, 3, 4):
        submit(tournament, n)
    fourth = Registration.objects.get(last_name="Nummer4")
    given = registration_give_place(registration=fourth, by=organiser)
    assert given.entry is not None
    assert given.entry.link_key == given.key
    assert tournament.entries.filter(status=Entry.Status.ACTIVE).count() == 5
    assert Registration.objects.get(last_name="Nummer3").waiting_position == 1


def test_back_to_the_waiting_list_goes_to_the_front_and_keeps_the_link(tournament, organiser):
    for n in (1, 2, 3):
        submit(tournament, n)
    first = Registration.objects.get(last_name="Nummer1")
    key, entry_pk = first.key, first.entry_id
    back = registration_to_waiting_list(registration=first, by=organiser)
    assert back.state == Registration.State.WAITING
    assert back.waiting_position == 1
    assert back.key == key
    assert not Entry.objects.filter(pk=entry_pk).exists()
    assert Registration.objects.get(last_name="Nummer3").waiting_position == 2


def test_back_to_the_waiting_list_is_refused_after_the_draw(tournament, organiser):
    for n in (1, 2):
        submit(tournament, n)
    services.round_create(tournament=tournament)
    services.round_seat(round=tournament.rounds.get())
    with pytest.raises(ValidationError, match="drawn"):
        registration_to_waiting_list(
            registration=Registration.objects.get(last_name="Nummer1"), by=organiser
        )


def test_a_withdrawn_player_is_not_sent_to_the_front_of_the_waiting_list(
    client, tournament, organiser
):
    """He gave his place up; at the front of the waiting list he would take the next free
    place back. The page shows why there is no button and who can take him back."""
    for n in (1, 2):
        submit(tournament, n)
    withdrawn = Registration.objects.get(last_name="Nummer1")
    assert withdrawn.entry is not None
    services.entry_withdraw(entry=withdrawn.entry)
    with pytest.raises(ValidationError, match="players page"):
        registration_to_waiting_list(registration=withdrawn, by=organiser)
    withdrawn.refresh_from_db()
    assert withdrawn.state == Registration.State.ADMITTED
    client.force_login(organiser)
    client.cookies["django_language"] = "en"
    url = reverse("registration:registration-manage", args=[tournament.slug])
    text = client.get(url).content.decode()
    assert f'name="registration" value="{withdrawn.pk}"' not in text
    assert "an organiser takes a withdrawn player back on the players page first" in text
    page = client.post(url, {"action": "back", "registration": str(withdrawn.pk)}, follow=True)
    assert "Spieler Nummer1 is withdrawn: an organiser takes" in page.content.decode()


# The public page ------------------------------------------------------------------------------


def test_the_public_page_shows_places_left_and_the_note_in_german(client, tournament):
    page = client.get(reverse("registration:register", args=[tournament.slug]))
    text = page.content.decode()
    assert page.status_code == 200
    assert "2 von 4 Plätzen frei" in text
    assert "Startgeld 10 €" in text
    assert "Vereinsheim" in text


def test_a_bad_address_is_refused_in_german_with_sie(client, tournament):
    page = client.post(
        reverse("registration:register", args=[tournament.slug]), form(1, email="kein-email")
    )
    text = page.content.decode()
    assert page.status_code == 400
    assert "Geben Sie eine gültige E-Mail-Adresse ein." in text
    assert "Gib eine" not in text


def test_the_public_pages_labels_start_with_a_capital_in_english(client, tournament):
    client.cookies["django_language"] = "en"
    text = client.get(reverse("registration:register", args=[tournament.slug])).content.decode()
    assert ">First name *<" in text
    assert ">Last name *<" in text
    assert ">Club<" in text
    assert ">E-mail address *<" in text


def test_the_public_page_when_full_offers_the_waiting_list_in_english(client, tournament):
    submit(tournament, 1)
    submit(tournament, 2)
    submit(tournament, 3)
    client.cookies["django_language"] = "en"
    text = client.get(reverse("registration:register", args=[tournament.slug])).content.decode()
    assert "Full: you join the waiting list as number 2." in text
    assert "Join the waiting list" in text


@override_settings(EMAIL_BACKEND="django.core.mail.backends.console.EmailBackend")
def test_registering_on_the_page_shows_the_start_number_and_the_link(client, tournament):
    client.cookies["django_language"] = "en"
    page = client.post(reverse("registration:register", args=[tournament.slug]), form(1))
    text = page.content.decode()
    registration = Registration.objects.get()
    assert page.status_code == 200
    assert "You are registered, with start number 3." in text
    assert f"/p/{registration.key}/" in text
    assert "Open my page" in text
    assert "Keep this link: it shows your table in each round." in text
    # This site sends no mail out of the server: the page says to keep the link.
    assert "This site sends no e-mail" in text
    assert page["Cache-Control"] == "private, no-store"
    assert registration.language == "en"


@override_settings(EMAIL_BACKEND=SENDS)
def test_registering_when_full_shows_the_place_and_says_a_mail_was_sent(client, tournament):
    submit(tournament, 1)
    submit(tournament, 2)
    text = client.post(
        reverse("registration:register", args=[tournament.slug]), form(3)
    ).content.decode()
    assert "Warteliste" in text
    assert "Nummer 1" in text
    assert "spieler3@example.org" in text


def test_a_duplicate_on_the_page_is_a_400_on_the_field(client, tournament):
    submit(tournament, 1)
    client.cookies["django_language"] = "en"
    page = client.post(reverse("registration:register", args=[tournament.slug]), form(1))
    assert page.status_code == 400
    assert page.context["form"].errors["first_name"] == [
        "This player is already registered for this tournament with this e-mail address (the "
        "name in any spelling)."
    ]


def test_a_closed_registration_page_says_so_and_shows_no_form(client, tournament):
    OnlineRegistration.objects.filter(tournament=tournament).update(closed_at=timezone.now())
    client.cookies["django_language"] = "en"
    page = client.get(reverse("registration:register", args=[tournament.slug]))
    assert "The registration is closed." in page.content.decode()
    assert page.context["refusal"]
    assert b'name="first_name"' not in page.content


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("first_name", "x" * 101),
        ("email", "not-an-address"),
        ("ddv_number", "12ab"),
        ("last_name", "Nul\x00"),
    ],
)
def test_bad_input_on_the_page_is_a_400_naming_the_field(client, tournament, field, value):
    page = client.post(
        reverse("registration:register", args=[tournament.slug]), form(1, **{field: value})
    )
    assert page.status_code == 400
    assert field in page.context["form"].errors
    assert not Registration.objects.exists()


def test_the_tournament_page_offers_register_to_players(client, tournament):
    client.cookies["django_language"] = "en"
    text = client.get(reverse("tournaments:tournament", args=[tournament.slug])).content.decode()
    assert reverse("registration:register", args=[tournament.slug]) in text
    assert reverse("registration:registration-manage", args=[tournament.slug]) not in text


def test_the_tournament_page_says_why_players_cannot_register(client, tournament):
    client.cookies["django_language"] = "en"
    opens = timezone.now() + datetime.timedelta(days=2)
    OnlineRegistration.objects.filter(tournament=tournament).update(
        opens_at=opens, closes_at=opens + datetime.timedelta(days=1)
    )
    text = client.get(reverse("tournaments:tournament", args=[tournament.slug])).content.decode()
    assert "The online registration opens on" in text
    assert reverse("registration:register", args=[tournament.slug]) not in text
    OnlineRegistration.objects.filter(tournament=tournament).update(closed_at=timezone.now())
    text = client.get(reverse("tournaments:tournament", args=[tournament.slug])).content.decode()
    assert "The online registration is closed." in text


def test_the_tournament_page_links_the_organiser_to_the_registration(client, tournament, organiser):
    submit(tournament, 1)
    client.force_login(organiser)
    client.cookies["django_language"] = "en"
    text = client.get(reverse("tournaments:tournament", args=[tournament.slug])).content.decode()
    assert reverse("registration:registration-manage", args=[tournament.slug]) in text
    assert "3 of 4 places taken" in text


# Abuse limits ---------------------------------------------------------------------------------


@override_settings(REGISTRATION_RATE_CLIENT="2/hour", REGISTRATION_RATE_ADDRESS="5/hour")
def test_a_client_is_limited_and_told_when_to_try_again(client, tournament, steady_clock):
    client.cookies["django_language"] = "en"
    client.get(
        reverse("registration:register", args=[tournament.slug])
    )  # hands out the client cookie
    for n in (1, 2):
        assert (
            client.post(
                reverse("registration:register", args=[tournament.slug]), form(n)
            ).status_code
            == 200
        )
    # Reading the page counts nothing.
    for _ in range(5):
        assert (
            client.get(reverse("registration:register", args=[tournament.slug])).status_code == 200
        )
    refused = client.post(reverse("registration:register", args=[tournament.slug]), form(3))
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    assert "Please try again in" in refused.content.decode()
    assert not Registration.objects.filter(last_name="Nummer3").exists()
    steady_clock(3600)
    assert (
        client.post(reverse("registration:register", args=[tournament.slug]), form(3)).status_code
        == 200
    )


@override_settings(REGISTRATION_RATE_CLIENT="2/hour", REGISTRATION_RATE_ADDRESS="5/hour")
def test_a_club_on_one_connection_gets_through_up_to_the_address_limit(tournament, steady_clock):
    from django.test import Client

    OnlineRegistration.objects.filter(tournament=tournament).update(capacity=None)
    url = reverse("registration:register", args=[tournament.slug])
    statuses = []
    for n in range(1, 7):
        member = Client()  # each member's phone, behind the club's one address
        member.get(url)
        statuses.append(member.post(url, form(n)).status_code)
    assert statuses == [200, 200, 200, 200, 200, 429]


@override_settings(REGISTRATION_RATE_CLIENT="2/hour", REGISTRATION_RATE_ADDRESS="5/hour")
def test_devices_without_a_cookie_share_one_client_limit(tournament, steady_clock):
    """Issue 44: dropping the cookie buys a script nothing; a phone with its cookie still gets
    through."""
    from django.test import Client

    OnlineRegistration.objects.filter(tournament=tournament).update(capacity=None)
    url = reverse("registration:register", args=[tournament.slug])
    statuses = []
    for n in range(1, 4):
        script = Client()
        script.get(url)  # the form's CSRF cookie, but no client cookie kept
        del script.cookies["doko_client"]
        statuses.append(script.post(url, form(n)).status_code)
    phone = Client()
    phone.get(url)
    statuses.append(phone.post(url, form(4)).status_code)
    assert statuses == [200, 200, 429, 200]


# The organiser's page -------------------------------------------------------------------------


def test_the_organisers_page_is_refused_to_others_with_the_reason(client, tournament):
    client.force_login(factories.user())
    client.cookies["django_language"] = "en"
    page = client.get(reverse("registration:registration-manage", args=[tournament.slug]))
    assert page.status_code == 403
    assert "Only an organiser manages the registration" in page.content.decode()


def test_the_settings_labels_start_with_a_capital_in_german_and_english(client, organiser):
    tournament = factories.tournament(organiser=organiser)
    client.force_login(organiser)
    url = reverse("registration:registration-manage", args=[tournament.slug])
    text = client.get(url).content.decode()
    assert 'for="id_opens_at">Beginnt *<' in text
    assert 'for="id_closes_at">Endet *<' in text
    client.cookies["django_language"] = "en"
    text = client.get(url).content.decode()
    assert 'for="id_opens_at">Opens *<' in text
    assert 'for="id_note">Note for players<' in text


def test_the_organiser_opens_the_registration_on_the_page(client, organiser):
    tournament = factories.tournament(organiser=organiser)
    client.force_login(organiser)
    url = reverse("registration:registration-manage", args=[tournament.slug])
    page = client.post(
        url,
        {
            "action": "save",
            "opens_at": "2026-01-01T10:00",
            "closes_at": "2099-01-01T10:00",
            "capacity": "40",
            "waiting_list": "on",
            "note": "Startgeld 10 €",
        },
    )
    assert page.status_code == 302
    settings = OnlineRegistration.objects.get(tournament=tournament)
    assert settings.capacity == 40
    assert settings.waiting_list
    assert settings.is_open()


def test_a_closing_time_before_the_opening_is_a_400_on_the_field(client, organiser):
    tournament = factories.tournament(organiser=organiser)
    client.force_login(organiser)
    client.cookies["django_language"] = "en"
    page = client.post(
        reverse("registration:registration-manage", args=[tournament.slug]),
        {"action": "save", "opens_at": "2026-02-01T10:00", "closes_at": "2026-01-01T10:00"},
    )
    assert page.status_code == 400
    assert page.context["form"].errors["closes_at"]


def test_the_organisers_page_lists_and_orders_the_waiting_list(
    client, tournament, organiser, django_assert_max_num_queries
):
    for n in range(1, 9):
        submit(tournament, n)
    client.force_login(organiser)
    client.cookies["django_language"] = "en"
    url = reverse("registration:registration-manage", args=[tournament.slug])
    with django_assert_max_num_queries(16):
        page = client.get(url)
    text = page.content.decode()
    assert "4 of 4 places taken." in text
    assert text.index("Nummer3") < text.index("Nummer4")
    fifth = Registration.objects.get(last_name="Nummer5")
    client.post(url, {"action": "up", "registration": fifth.pk})
    client.post(url, {"action": "up", "registration": fifth.pk})
    assert [line.last_name for line in Registration.objects.filter(state="waiting")] == [
        "Nummer5",
        "Nummer3",
        "Nummer4",
        "Nummer6",
        "Nummer7",
        "Nummer8",
    ]
    client.post(url, {"action": "remove", "registration": fifth.pk})
    fifth.refresh_from_db()
    assert fifth.state == Registration.State.CANCELLED
    client.post(
        url, {"action": "admit", "registration": Registration.objects.get(last_name="Nummer8").pk}
    )
    assert Registration.objects.get(last_name="Nummer8").state == Registration.State.ADMITTED
    client.post(url, {"action": "close"})
    assert OnlineRegistration.objects.get(tournament=tournament).closed_at is not None
    client.post(url, {"action": "reopen"})
    assert OnlineRegistration.objects.get(tournament=tournament).closed_at is None


def test_the_organisers_page_says_nobody_is_taken_out_below_the_players(
    client, tournament, organiser
):
    submit(tournament, 1)
    client.force_login(organiser)
    client.cookies["django_language"] = "de"
    settings = tournament.online_registration
    page = client.post(
        reverse("registration:registration-manage", args=[tournament.slug]),
        {
            "action": "save",
            "opens_at": timezone.localtime(settings.opens_at).strftime("%Y-%m-%dT%H:%M"),
            "closes_at": timezone.localtime(settings.closes_at).strftime("%Y-%m-%dT%H:%M"),
            "capacity": "2",
            "waiting_list": "on",
        },
        follow=True,
    )
    text = page.content.decode()
    assert "Es ist 1 Spieler mehr angemeldet, als es Plätze gibt." in text
    assert "Niemand wird deshalb gestrichen" in text
    assert tournament.entries.filter(status=Entry.Status.ACTIVE).count() == 3


def test_a_refused_row_action_says_why(client, tournament, organiser):
    submit(tournament, 1)
    client.force_login(organiser)
    client.cookies["django_language"] = "en"
    admitted = Registration.objects.get()
    page = client.post(
        reverse("registration:registration-manage", args=[tournament.slug]),
        {"action": "remove", "registration": admitted.pk},
        follow=True,
    )
    assert "is not on the waiting list" in page.content.decode()


def test_a_place_given_after_the_draw_is_a_late_entry(tournament, organiser):
    for n in (1, 2, 3):
        submit(tournament, n)
    services.round_create(tournament=tournament)
    services.round_seat(round=tournament.rounds.get())
    waiting = Registration.objects.get(last_name="Nummer3")
    # Five players do not fill tables of four: the late entry's refusal says what lets them in.
    with pytest.raises(ValidationError) as refused:
        registration_give_place(registration=waiting, by=organiser)
    assert "allow_tables_of_five" in refused.value.message_dict
    waiting.refresh_from_db()
    assert waiting.state == Registration.State.WAITING
    assert Round.objects.get(tournament=tournament).status != Round.Status.PLANNED


@pytest.mark.parametrize("sends", [True, False])
def test_the_pages_promise_mail_only_where_the_site_sends_it(client, tournament, settings, sends):
    """Issue 47: the form said "your confirmation is sent here" and the waiting player's page
    "you are told by e-mail" on a site that sends none, whose answer then said so."""
    settings.EMAIL_BACKEND = SENDS if sends else "django.core.mail.backends.console.EmailBackend"
    client.cookies["django_language"] = "en"
    page = client.get(reverse("registration:register", args=[tournament.slug])).content.decode()
    assert ("Your confirmation and your personal link are sent here." in page) is sends
    assert ("this site sends no e-mail" in page) is not sends
    submit(tournament, 1)
    submit(tournament, 2)
    waiting = submit(tournament, 3).registration
    personal = client.get(
        reverse("registration:personal-link", args=[waiting.key])
    ).content.decode()
    assert "You are number 1 on the waiting list." in personal
    assert ("are told by e-mail" in personal) is sends
    assert ("This site sends no e-mail, so look here again." in personal) is not sends
