"""Issue 44, item 4: registration that cannot be hijacked, replayed through HTTP against the
running site (``tests.live.Visitor``).

The findings, as tried on the demo site:

- anyone registered another person through the public registration with her DDV number (public
  in any list of players) and his own address: the entry was bound to her record, she was
  refused later as "already registered", and he held the personal link of her entry;
- duplicates in another spelling ("Jurgen MUELLER" after "Jürgen Müller") at the same address
  were taken;
- without the device cookie only the address was counted (13 of 13 cookieless registrations
  accepted), and a cross-site form-encoded POST to the public registration API was accepted
  (201), so that any web page could make its visitors' browsers register.
"""

import re

import pytest
from django.core import mail

from registration.models import Registration
from tests import factories
from tournaments import services
from tournaments.models import Entry, Player

pytestmark = pytest.mark.django_db(transaction=True)

HER = {"first_name": "Jürgen", "last_name": "Müller", "club": "Kreuz Dame Köln"}
HER_ADDRESS = "juergen.mueller@example.org"
NUMBER = "4711"


@pytest.fixture
def world():
    """A person with a DDV number who played an earlier tournament from her address, an
    organiser, and his tournament, whose online registration is open without a limit."""
    organiser = factories.user(username="leitung")
    earlier = factories.tournament(name="Frühjahrspokal")
    services.entry_register(tournament=earlier, **HER, ddv_number=NUMBER, email=HER_ADDRESS)
    tournament = factories.tournament(name="Herbstpokal", organiser=organiser)
    factories.registration_open(tournament)
    return {
        "her": Player.objects.get(ddv_number=NUMBER),
        "tournament": tournament,
        "organiser": ("leitung", "a-long-test-password"),
    }


def _register(client, tournament, **fields):
    return client.api("POST", f"tournaments/{tournament.slug}/registrations", {**HER, **fields})


def _entry(answer) -> Entry:
    key = answer.json()["personal_link"].rstrip("/").rsplit("/", 1)[-1]
    return Entry.objects.get(link_key=key)


# Another person's DDV number -----------------------------------------------------------------


def test_her_number_with_another_address_does_not_get_her_record(visitor, world):
    answer = _register(
        visitor(), world["tournament"], email="mallory@example.org", ddv_number=NUMBER
    )
    assert answer.status_code == 201, answer.text
    # Her page (public) does not list the tournament: it is not hers until confirmed.
    history = visitor().get(f"/players/{world['her'].pk}/")
    assert history.status_code == 200
    assert "Herbstpokal" not in history.text
    assert _entry(answer).player_id != world["her"].pk


def test_she_is_not_refused_after_someone_claimed_her_number(visitor, world):
    _register(visitor(), world["tournament"], email="mallory@example.org", ddv_number=NUMBER)
    hers = _register(visitor(), world["tournament"], email=HER_ADDRESS, ddv_number=NUMBER)
    assert hers.status_code == 201, hers.text
    assert world["tournament"].registrations.count() == 2


def test_the_desk_sees_the_claim_and_the_conflict_and_the_organiser_confirms(visitor, world):
    tournament = world["tournament"]
    mallory = _entry(_register(visitor(), tournament, email="mallory@ex.org", ddv_number=NUMBER))
    hers = _entry(_register(visitor(), tournament, email=HER_ADDRESS, ddv_number=NUMBER))
    desk = visitor()
    desk.log_in(*world["organiser"])
    page = desk.get(f"/tournaments/{tournament.slug}/check-in/?lang=en")
    assert page.status_code == 200
    text = re.sub(r"\s+", " ", page.text)
    assert "DDV number 4711 claimed, not confirmed" in text
    assert "also claimed by start number" in text
    confirmed = desk.post_form(
        f"/tournaments/{tournament.slug}/check-in/{hers.start_number}/claim/",
        {"action": "confirm"},
        form=f"/tournaments/{tournament.slug}/check-in/",
    )
    assert confirmed.status_code == 302, confirmed.text
    hers.refresh_from_db()
    assert hers.player_id == world["her"].pk
    assert "Herbstpokal" in visitor().get(f"/players/{world['her'].pk}/").text
    # The other claim cannot take her any more: she plays here already.
    refused = desk.post_form(
        f"/tournaments/{tournament.slug}/check-in/{mallory.start_number}/claim/",
        {"action": "confirm"},
        form=f"/tournaments/{tournament.slug}/check-in/",
    )
    assert refused.status_code == 302
    mallory.refresh_from_db()
    assert mallory.player_id != world["her"].pk


def test_only_an_organiser_confirms_a_claim(visitor, world):
    tournament = world["tournament"]
    entry = _entry(_register(visitor(), tournament, email="mallory@ex.org", ddv_number=NUMBER))
    stranger = visitor()
    factories.user(username="fremd")
    stranger.log_in("fremd", "a-long-test-password")
    answer = stranger.api(
        "POST", f"tournaments/{tournament.slug}/players/{entry.start_number}/claim/confirm"
    )
    assert answer.status_code == 403
    entry.refresh_from_db()
    assert entry.player_id != world["her"].pk


def test_she_confirms_from_her_address_on_record(visitor, world, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    tournament = world["tournament"]
    entry = _entry(_register(visitor(), tournament, email="neu@example.org", ddv_number=NUMBER))
    claim_mails = [sent for sent in mail.outbox if sent.to == [HER_ADDRESS]]
    assert len(claim_mails) == 1, [sent.to for sent in mail.outbox]
    # Nothing of it reaches the address the registration gave.
    assert all("/claims/" not in sent.body for sent in mail.outbox if sent.to != [HER_ADDRESS])
    link = re.search(r"https?://\S+/claims/\S+/", claim_mails[0].body).group(0)
    path = "/" + link.split("/", 3)[3]
    she = visitor()
    page = she.get(path)
    assert page.status_code == 200
    assert "Herbstpokal" in page.text
    entry.refresh_from_db()
    assert entry.player_id != world["her"].pk  # opening the link is no confirmation
    assert she.post_form(path, {}).status_code == 200
    entry.refresh_from_db()
    assert entry.player_id == world["her"].pk
    assert Registration.objects.get(entry=entry).claim == Registration.Claim.CONFIRMED


def test_a_made_up_claim_link_opens_nothing(visitor, world):
    assert visitor().get("/claims/made-up:token/").status_code == 404


# The same person in another spelling ---------------------------------------------------------


@pytest.mark.parametrize(
    "names",
    [
        {"first_name": "Jurgen", "last_name": "MUELLER"},
        {"first_name": "Juergen", "last_name": "Mueller"},
        {"first_name": "jürgen", "last_name": "müller"},
    ],
)
def test_the_same_person_in_another_spelling_at_the_same_address_is_refused(visitor, world, names):
    client = visitor()
    assert _register(client, world["tournament"], email="jm@example.org").status_code == 201
    again = _register(client, world["tournament"], email="JM@Example.org", **names)
    assert again.status_code == 400, again.text
    assert "first_name" in again.json()
    assert world["tournament"].registrations.count() == 1


def test_the_same_person_in_another_spelling_on_the_page_is_refused_on_the_name(visitor, world):
    slug = world["tournament"].slug
    client = visitor()
    data = {**HER, "email": "jm@example.org", "ddv_number": ""}
    assert client.post_form(f"/tournaments/{slug}/register/", data).status_code == 200
    again = client.post_form(
        f"/tournaments/{slug}/register/",
        {**data, "first_name": "Jurgen", "last_name": "MUELLER", "email": "Jm@example.org"},
    )
    assert again.status_code == 400
    first_name = re.search(
        r'<input[^>]*name="first_name"[^>]*>\s*<div class="invalid-feedback">([^<]*)<', again.text
    )
    assert first_name is not None, again.text
    assert "already registered for this tournament with this e-mail address" in first_name.group(1)
    assert world["tournament"].registrations.count() == 1


# Limits, and other sites ---------------------------------------------------------------------


def test_cookieless_registrations_share_one_strict_bucket(visitor, world):
    statuses = [
        _register(
            visitor(cookies=False),
            world["tournament"],
            first_name="Skript",
            last_name=f"Nummer{n}",
            email=f"skript{n}@example.org",
        ).status_code
        for n in range(13)
    ]
    assert statuses == [201] * 10 + [429] * 3


def test_a_device_with_its_cookie_is_counted_on_its_own(visitor, world):
    url = f"/tournaments/{world['tournament'].slug}/register/"
    for _script in range(10):
        _register(
            visitor(cookies=False),
            world["tournament"],
            first_name="Skript",
            last_name=f"N{_script}",
            email=f"s{_script}@example.org",
        )
    phone = visitor()
    phone.get(url)  # the page hands out the device's cookie
    answer = _register(phone, world["tournament"], email="phone@example.org")
    assert answer.status_code == 201, answer.text


def test_a_cross_site_form_post_to_the_api_is_refused(visitor, world):
    answer = visitor(cookies=False).request(
        "POST",
        f"/api/v1/tournaments/{world['tournament'].slug}/registrations",
        data={**HER, "email": "opfer@example.org"},
        headers={"Origin": "https://evil.example"},
    )
    assert answer.status_code == 403
    assert "https://evil.example" in answer.json()["detail"]
    assert not Registration.objects.exists()


def test_a_form_encoded_post_to_the_api_is_a_415_naming_the_type(visitor, world):
    answer = visitor(cookies=False).request(
        "POST",
        f"/api/v1/tournaments/{world['tournament'].slug}/registrations",
        data={**HER, "email": "opfer@example.org"},
    )
    assert answer.status_code == 415
    assert "application/x-www-form-urlencoded" in answer.json()["detail"]
    assert not Registration.objects.exists()


def test_json_from_a_foreign_origin_is_refused_and_from_the_site_itself_taken(visitor, world):
    client = visitor()
    url = f"tournaments/{world['tournament'].slug}/registrations"
    foreign = client.api("POST", url, {**HER, "email": "a@example.org"}, headers={"Origin": "null"})
    assert foreign.status_code == 403
    own = client.api(
        "POST",
        url,
        {**HER, "email": "a@example.org"},
        headers={"Origin": client.base_url.rstrip("/")},
    )
    assert own.status_code == 201, own.text


def test_the_page_keeps_its_csrf_protection(visitor, world):
    answer = visitor().request(
        "POST",
        f"/tournaments/{world['tournament'].slug}/register/",
        data={**HER, "email": "opfer@example.org"},
        headers={"Origin": "https://evil.example"},
    )
    assert answer.status_code == 403
    assert not Registration.objects.exists()
