"""Handing the players their personal links (``/p/<key>/``): the block of the players page
that prints them as cards and mails them, and the page that asks once before mailing them."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from registration.selectors import link_handout
from registration.services.links import personal_links_mail
from tournaments import policies, selectors
from tournaments.mails import mail_leaves_the_server
from tournaments.models import Tournament
from tournaments.permissions import AuthenticatedHttpRequest, roles_of
from tournaments.roles_history import plays_in
from tournaments.site import site_warning


def handout_context(request: HttpRequest, tournament: Tournament) -> dict | None:
    """What the players page shows of the personal links to those who may hand them out
    (``policies.may_read_personal_links``); None to everyone else."""
    roles = roles_of(request, tournament)
    if policies.may_read_personal_links(roles=roles) is not None:
        return None
    return {
        # Every player's card: not for an organiser who plays (his tablemates' links).
        "print_refusal": policies.may_print_every_link(
            roles=roles, plays=plays_in(user_id=request.user.pk, tournament_id=tournament.pk)
        ),
        "site_warning": site_warning(request),
        "mailed_at": tournament.personal_links_mailed_at,
        "mail_again_at": link_handout.personal_links_mail_again_at(
            tournament=tournament, now=timezone.now()
        ),
    }


@login_required
@require_http_methods(["GET", "POST"])
def personal_links_mail_page(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Ask once before mailing every player their personal link: how many it reaches, and who
    has no address (they get a card instead); then queue the mails."""
    tournament = selectors.tournament_get(slug=slug, user=request.user)
    policies.enforce(policies.may_read_personal_links(roles=roles_of(request, tournament)))
    error = None
    if request.method == "POST":
        try:
            mailing = personal_links_mail(tournament=tournament, by=request.user)
        except ValidationError as refused:
            error = " ".join(refused.messages)
        else:
            messages.success(
                request,
                ngettext(
                    "The personal link is being mailed to %(count)d player.",
                    "The personal links are being mailed to %(count)d players.",
                    len(mailing.entry_ids),
                )
                % {"count": len(mailing.entry_ids)},
            )
            if not mail_leaves_the_server():
                messages.warning(request, _no_mail_message())
            return redirect("tournaments:entries", slug)
        tournament.refresh_from_db(fields=["personal_links_mailed_at"])
    now = timezone.now()
    return render(
        request,
        "registration/personal_links_mail.html",
        {
            "tournament": tournament,
            "reach": link_handout.personal_links_reach(tournament=tournament),
            "mail_again_at": link_handout.personal_links_mail_again_at(
                tournament=tournament, now=now
            ),
            "mails_leave": mail_leaves_the_server(),
            "no_mail_message": _no_mail_message(),
            "print_refusal": policies.may_print_every_link(
                roles=roles_of(request, tournament),
                plays=plays_in(user_id=request.user.pk, tournament_id=tournament.pk),
            ),
            "error": error,
        },
        status=400 if error else 200,
    )


def _no_mail_message() -> str:
    return _(
        "This site sends no e-mail: the mails go to the server's console, not to the players. "
        "Print the cards with the personal links instead."
    )
