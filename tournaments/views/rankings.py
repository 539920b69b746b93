"""Ranking lists across tournaments and a player's history across them: public."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from tournaments import policies, selectors
from tournaments.models import Player


@require_GET
def ranking_list(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "tournaments/rankings.html",
        {"ranking_lists": selectors.ranking_lists(user=request.user)},
    )


@require_GET
def ranking_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """A ranking list across tournaments: average points per round over the last months."""
    ranking = selectors.ranking_get(slug=slug, user=request.user)
    lines = selectors.ranking_lines(ranking_list=ranking)
    return render(
        request,
        "tournaments/ranking.html",
        {
            "ranking": ranking,
            "ranked": [line for line in lines if line.rank is not None],
            "unranked": [line for line in lines if line.rank is None],
        },
    )


@require_GET
def player_history(request: HttpRequest, pk: int) -> HttpResponse:
    """A player across tournaments: each tournament's rounds, points and average, and where
    they stand in the ranking lists."""
    player = get_object_or_404(Player, pk=pk)
    history = selectors.player_history(player=player, user=request.user)
    # Those who correct persons see every person, the log, and what they may do.
    changes = policies.may_change_person(user=request.user) is None
    if not history and not changes:
        raise Http404
    return render(
        request,
        "tournaments/player_history.html",
        {
            "player": player,
            "history": history,
            "places": selectors.player_ranking_places(player=player, user=request.user),
            "may_change": changes,
            "changes": selectors.person_changes(player=player) if changes else [],
        },
    )
