"""A player's personal link (``/p/<key>/``): one page for the whole tournament, without an
account. Whoever holds the key sees what the player sees and may do what the player's own seat
allows, nothing more."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from tournaments.models import Entry
from tournaments.selectors.personal import personal_link_find


@require_GET
def personal_page(request: HttpRequest, key: str) -> HttpResponse:
    """The player's page: their entry, or their place on the waiting list."""
    found = personal_link_find(key=key)
    if found is None:
        raise Http404("No player has this link (it may have been replaced).")
    context = {"tournament": found.tournament, "key": key}
    if isinstance(found, Entry):
        context["entry"] = found
    else:
        context["registration"] = found
        context["place"] = (
            found.tournament.registrations.filter(
                state=found.State.WAITING, waiting_position__lt=found.waiting_position
            ).count()
            + 1
            if found.waiting_position is not None
            else None
        )
    response = render(request, "tournaments/personal.html", context)
    # The key is the player's: never sent on to another site, never kept by a shared cache.
    response["Referrer-Policy"] = "no-referrer"
    response["Cache-Control"] = "private, no-store"
    return response
