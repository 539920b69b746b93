"""A club organiser prepares and runs the day from the site alone (issue 20): he creates the
tournament from the page, invites his adjudicator, who chooses a password from the invitation
link and logs in, imports the players, draws the first round and prints the seat slips; a player
opens the link printed on his own slip on his phone and confirms his table's scoresheet.

No admin, no command line: the organiser account holds nothing but its membership of the
Organisers group, as an administrator grants it.
"""

import datetime
import io

import pytest
from django.contrib.auth.models import Group, Permission
from django.urls import reverse
from playwright.sync_api import Page, expect
from pypdf import PdfReader

from doko.sample_sheets import full_match
from scoring import services as scoring_services
from scoring.models import Scoresheet
from tests import factories
from tournaments.models import Seat, Tournament, TournamentRole
from tournaments.policies import ORGANISERS_GROUP

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
PASSWORD = "a-long-test-password"
ADJUDICATOR_PASSWORD = "Schiri-Passwort-2026"
# Eight players fill two tables of four (TSR 8.3.1); names that need more than Latin-1.
PLAYERS = """Vorname;Nachname;Verein
Łukasz;Dvořák;DK Münster
Ayşe;Yılmaz;DK Münster
Jörg;Müller;Doko-Freunde Köln
Ελένη;Παπαδοπούλου;Doko-Freunde Köln
Dmitri;Şahin;Kreuz-Dame Bonn
Anna;Straße;Kreuz-Dame Bonn
Ben;Koehler;
Clara;Öztürk;
"""


def organiser():
    """An account an administrator put into the Organisers group, and nothing else."""
    user = factories.user(username="leitung")
    group, _ = Group.objects.get_or_create(name=ORGANISERS_GROUP)
    group.permissions.add(
        Permission.objects.get(content_type__app_label="tournaments", codename="add_tournament")
    )
    user.groups.add(group)
    return user


def log_in(page: Page, username: str, password: str) -> None:
    page.goto(reverse("login"))
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name="Log out")).to_be_visible()


def create_tournament(page: Page) -> Tournament:
    page.goto("/")
    page.get_by_role("link", name="New tournament").click()
    page.locator("#id_name").fill("Herbstturnier Münster")
    page.get_by_label("First day").fill(datetime.date.today().isoformat())
    page.get_by_role("button", name="Create the tournament").click()
    tournament = Tournament.objects.get(name="Herbstturnier Münster")
    expect(page).to_have_url(
        f"{reverse('tournaments:tournament', args=[tournament.slug])}", ignore_case=True
    )
    assert tournament.slug.startswith("herbstturnier-muenster")
    return tournament


def invite_adjudicator(page: Page, tournament: Tournament) -> str:
    """The invitation link the staff page shows the organiser, to pass on."""
    page.goto(reverse("adjudication:staff", args=[tournament.slug]))
    page.locator("#invite_name").fill("Jürgen Schiedsrichter")
    page.locator("#invite_email").fill("schiri@example.org")
    page.locator("#invite_role").select_option("adjudicator")
    page.get_by_role("button", name="Invite", exact=True).click()
    link = page.locator("#invitation-url")
    expect(link).to_be_visible()
    return link.input_value()


def accept_invitation(page: Page, link: str, tournament: Tournament) -> None:
    page.goto(link)
    page.get_by_label("New password", exact=True).fill(ADJUDICATOR_PASSWORD)
    page.get_by_label("The new password again").fill(ADJUDICATOR_PASSWORD)
    page.get_by_role("button", name="Set the password").click()
    expect(page.get_by_text("Your account is made")).to_be_visible()
    page.goto(reverse("adjudication:adjudication", args=[tournament.slug]))
    expect(page.get_by_role("heading", level=1)).to_be_visible()


def import_players(page: Page, tournament: Tournament) -> None:
    page.goto(reverse("tournaments:players-import", args=[tournament.slug]))
    page.locator("input[type=file]").set_input_files(
        {"name": "spieler.csv", "mimeType": "text/csv", "buffer": PLAYERS.encode()}
    )
    page.get_by_role("button", name="Show the preview").click()
    page.get_by_role("button", name="Register all 8 players").click()
    expect(page.get_by_text("Yılmaz").first).to_be_visible()
    assert tournament.entries.count() == 8


def draw_first_round(page: Page, tournament: Tournament) -> None:
    page.goto(reverse("tournaments:tournament", args=[tournament.slug]))
    page.get_by_role("button", name="Add round 1").click()
    page.goto(reverse("tournaments:round", args=[tournament.slug, 1]))
    page.get_by_role("button", name="Draw the seating").click()
    page.get_by_role("button", name="Publish the seating").click()
    expect(page.get_by_role("button", name="Start the round")).to_be_visible()


def print_seat_slips(page: Page, tournament: Tournament) -> str:
    """The seat slips' PDF, as text."""
    page.goto(reverse("tournaments:round", args=[tournament.slug, 1]))
    page.get_by_role("button", name="Seat slips (PDF)").click()
    download = page.get_by_role("link", name="Download")
    expect(download).to_be_visible()
    response = page.request.get(download.get_attribute("href"))
    assert response.ok
    assert response.headers["content-type"] == "application/pdf"
    pdf = PdfReader(io.BytesIO(response.body()))
    return "\n".join(page.extract_text() for page in pdf.pages)


def test_an_organiser_prepares_the_day_and_a_player_confirms_from_his_slip(new_page, settings):
    # The embedded default: no mail leaves the server, the staff page shows the link.
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    organiser()
    page = new_page()
    log_in(page, "leitung", PASSWORD)
    tournament = create_tournament(page)
    assert TournamentRole.objects.filter(
        tournament=tournament, user__username="leitung", role="organiser"
    ).exists()

    link = invite_adjudicator(page, tournament)
    accept_invitation(new_page(**PHONE), link, tournament)
    assert TournamentRole.objects.filter(
        tournament=tournament, user__username="juergen.schiedsrichter", role="adjudicator"
    ).exists()

    import_players(page, tournament)
    draw_first_round(page, tournament)
    slips = print_seat_slips(page, tournament)
    for name in ("Yılmaz", "Dvořák", "Łukasz", "Şahin", "Ελένη"):
        assert name in slips

    # Seat 1 of table 1 finds his own link printed on his slip.
    seat = Seat.objects.select_related("entry__player").get(
        round__tournament=tournament, table__number=1, position=1
    )
    own_link = reverse("scoring:sheet-link", args=[seat.token])
    assert own_link in slips
    assert seat.entry.player.last_name in slips

    page.goto(reverse("tournaments:round", args=[tournament.slug, 1]))
    page.get_by_role("button", name="Start the round").click()
    expect(page.get_by_role("link", name="End the playing time")).to_be_visible()

    # The scorekeeper (seat 4) enters the 24 hands through his link and hands the sheet in.
    sheet = Scoresheet.objects.get(table=seat.table)
    sheet = scoring_services.scoresheet_hands_replace(
        scoresheet=sheet, hands=full_match(), version=sheet.version, by=factories.keeper(sheet)
    )
    scoring_services.scoresheet_submit(
        scoresheet=sheet, version=sheet.version, by=factories.keeper(sheet)
    )

    player = new_page(**PHONE)
    player.goto(own_link)
    confirm = player.get_by_role("link", name="Confirm: the scoresheet is correct")
    confirm.click()
    player.locator("#sheet-step").get_by_role("button", name="Yes, it is correct").click()
    expect(player.locator("#sheet-step")).to_have_count(0)
    expect(confirm).to_have_count(0)
    sheet.refresh_from_db()
    assert sheet.status == Scoresheet.Status.CONFIRMED
    assert sheet.confirmed_by_seat_id == seat.pk
