"""The registration's pages: the public registration page and the organiser's, the check-in at
the door, the claims mailed to persons on record, and the players' personal links. Their paths
are the ones they had in the tournaments app: players carry them on printed cards and QR codes."""

from django.urls import path

from registration.views import arrivals, link_handout, personal, registrations

T = "tournaments/<slug:slug>/"

# The namespace of its routes: "registration:<name>" (docs/development.md, "Routes").
app_name = "registration"

urlpatterns = [
    path(
        T + "players/personal-links/mail/",
        link_handout.personal_links_mail_page,
        name="personal-links-mail",
    ),
    path(
        T + "players/<num:start_number>/personal-link/replace/",
        personal.personal_link_replace_view,
        name="personal-link-replace",
    ),
    path(T + "check-in/", arrivals.check_in_page, name="check-in"),
    path(T + "check-in/<num:start_number>/", arrivals.check_in_entry, name="check-in-entry"),
    # The organiser decides a claim of a player registered online to be a person on record.
    path(T + "check-in/<num:start_number>/claim/", arrivals.check_in_claim, name="check-in-claim"),
    path(T + "check-in/no-shows/", arrivals.no_shows, name="no-shows"),
    # The online registration: the players' public page, and the organiser's.
    path(T + "register/", registrations.register, name="register"),
    path(T + "registration/", registrations.registration_manage, name="registration-manage"),
    # The person a registration names confirms it, from the link mailed to her address.
    path("claims/<str:token>/", registrations.claim_confirm, name="claim-confirm"),
    # A player's personal link for the whole tournament (its key is all it needs).
    path("p/<str:key>/", personal.personal_page, name="personal-link"),
    path("p/<str:key>/withdraw/", personal.personal_withdraw, name="personal-link-withdraw"),
    # The desk scanned the player's QR code at the door: check him in from his page.
    path("p/<str:key>/check-in/", arrivals.personal_check_in, name="personal-check-in"),
    path(
        "p/<str:key>/check-in/undo/",
        arrivals.personal_check_in_undo,
        name="personal-check-in-undo",
    ),
]
