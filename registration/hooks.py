"""What the registration answers the tournaments app below it: the waiting list moves up into
a place a withdrawal frees, a registration's claim follows an entry corrected by hand, and a
person a registration names stays (``tournaments.entered``); its boxes on tournaments' pages
(``tournaments.page_boxes``); and the door from a scoresheet to the player's personal page
(``tournaments.doors``)."""

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.template import Context
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from registration.models import Registration
from registration.selectors.claims import claims_open
from registration.selectors.registrations import registration_counts
from registration.services.claims import claim_follow_entry
from registration.services.waiting import waiting_list_advance
from registration.templatetags.registration_tags import check_in_summary_data
from registration.views.link_handout import handout_context
from registration.views.personal import personal_link_context
from tournaments import doors, entered, page_boxes
from tournaments.models import Entry, Named, Player, Tournament
from tournaments.permissions import roles_of
from tournaments.roles import ORGANISER
from tournaments.round_page import render_box


class WaitingList:
    """The online registration, told by tournaments when an entry frees a place or changes."""

    def place_freed(self, *, tournament: Tournament) -> Sequence[Named]:
        return waiting_list_advance(tournament=tournament)

    def entry_corrected(self, *, entry: Entry, by: User | None) -> None:
        claim_follow_entry(entry=entry, by=by)

    def person_held(self, *, player: Player) -> bool:
        return Registration.objects.filter(claimed_person=player).exists()


def _tournament(objects: dict[str, object]) -> Tournament:
    tournament = objects["tournament"]
    assert isinstance(tournament, Tournament)
    return tournament


def _entry(objects: dict[str, object]) -> Entry:
    entry = objects["entry"]
    assert isinstance(entry, Entry)
    return entry


class RegistrationBox:
    """On the tournament's page: "Register" for players while the online registration is open,
    its state and counts for the organiser with the way to manage it. A match day's players are
    its teams' line-ups: it has no registration of its own."""

    def render(self, *, context: Context, **objects: object) -> str:
        tournament = _tournament(objects)
        if tournament.is_match_day:
            return ""
        request = context.get("request")
        is_organiser = request is not None and bool(roles_of(request, tournament) & ORGANISER)
        return render_box(
            context,
            "registration/partials/registration_box.html",
            {
                "tournament": tournament,
                "is_organiser": is_organiser,
                "counts": registration_counts(tournament=tournament),
                "now": timezone.now(),
            },
        )


class CheckInSummary:
    """On the tournament's page and its list of players, for whoever checks players in:
    "Check-in: 27 of 30 here", a link to the desk's list."""

    def render(self, *, context: Context, **objects: object) -> str:
        data = check_in_summary_data(context, _tournament(objects))
        if not data["show"]:
            return ""
        return render_box(context, "registration/partials/check_in_summary.html", data)


class PersonalLinksHandout:
    """On the list of players, for who may hand the personal links out: print every card, mail
    every player their link, when they were last mailed."""

    def render(self, *, context: Context, **objects: object) -> str:
        tournament = _tournament(objects)
        request = context.get("request")
        handout = handout_context(request, tournament) if request is not None else None
        if handout is None:
            return ""
        return render_box(
            context,
            "registration/partials/personal_links_handout.html",
            {"tournament": tournament, "handout": handout},
        )


class EntryClaim:
    """On a player's row of the list, for the organiser: the player registered online naming a
    person on record, not confirmed yet (issue 44), with the way to the desk that decides it.
    The open claims are read once per page."""

    def render(self, *, context: Context, **objects: object) -> str:
        entry = _entry(objects)
        request = context.get("request")
        if request is None:
            return ""
        page_tournament = context.get("tournament")
        tournament = (
            page_tournament
            if isinstance(page_tournament, Tournament) and page_tournament.pk == entry.tournament_id
            else entry.tournament
        )
        key = f"registration-open-claims-{tournament.pk}"
        claims = context.render_context.get(key)
        if claims is None:
            organises = bool(roles_of(request, tournament) & ORGANISER)
            claims = claims_open(tournament=tournament) if organises else {}
            context.render_context[key] = claims
        claim = claims.get(entry.pk)
        if claim is None:
            return ""
        # After the player's state, as a word of its own.
        return " " + render_box(
            context,
            "registration/partials/entry_claim.html",
            {"tournament": tournament, "entry": entry, "claim": claim},
        )


class PersonalLinkBox:
    """On the organiser's page of one player: the player's personal link (or why it is not
    shown), the way to replace it, and its card."""

    def render(self, *, context: Context, **objects: object) -> str:
        entry = _entry(objects)
        request = context.get("request")
        if request is None:
            return ""
        return render_box(
            context,
            "registration/partials/personal_link_box.html",
            {
                "tournament": entry.tournament,
                "entry": entry,
                **personal_link_context(request, entry),
            },
        )


def hooks_register() -> None:
    entered.register(WaitingList())
    page_boxes.register(CheckInSummary(), place=page_boxes.CHECK_IN)
    page_boxes.register(RegistrationBox(), place=page_boxes.TOURNAMENT)
    page_boxes.register(PersonalLinksHandout(), place=page_boxes.ENTRIES)
    page_boxes.register(EntryClaim(), place=page_boxes.ENTRY)
    page_boxes.register(PersonalLinkBox(), place=page_boxes.ENTRY_EDIT)
    doors.register(
        "personal-link",
        address=lambda key: reverse("registration:personal-link", args=[key]),
        label=_("Your page for the whole tournament"),
    )
