"""The log of everything the adjudicators and the organiser did, as a page and as CSV."""

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, StreamingHttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from adjudication import selectors
from adjudication.views.common import READERS, tournament_for
from tournaments import exports
from tournaments.permissions import AuthenticatedHttpRequest


@login_required
@require_GET
def log(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_for(request, slug, READERS)
    return render(
        request,
        "adjudication/log.html",
        {"tournament": tournament, "events": selectors.event_log(tournament=tournament)},
    )


@login_required
@require_GET
def log_csv(request: AuthenticatedHttpRequest, slug: str) -> StreamingHttpResponse:
    """The log for the organiser's files and the federation: one row per action."""
    tournament = tournament_for(request, slug, READERS)
    header = [_("time"), _("by"), _("action"), _("what")]

    def rows():
        yield header
        for event in selectors.event_log(tournament=tournament).iterator(chunk_size=500):
            yield [
                timezone.localtime(event.at).isoformat(timespec="seconds"),
                event.by.get_username(),
                event.get_action_display(),
                event.text,
            ]

    return exports.csv_streaming_response(
        filename=f"{tournament.slug}-adjudication.csv", rows=rows()
    )
