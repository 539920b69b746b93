"""What the ranking lists answer the tournaments app below them: they rebuild when a
tournament's results or ranked settings change (``tournaments.ranked``), and they add a box to
the tournament's settings page (the lists it asked to count for) and to a person's page (where
they stand in each list) (``tournaments.page_boxes``); and their maintainers correct persons
(``tournaments.policies.may_change_person``)."""

from django.contrib.auth.models import AnonymousUser, User
from django.template import Context

from rankings import selectors
from rankings.models import RankingList
from rankings.services import lists
from tournaments import page_boxes, policies, ranked
from tournaments.models import Player, Tournament
from tournaments.round_page import render_box


class RankingLists:
    """The ranking lists, told by tournaments when what they count may have changed."""

    def tournament_changed(self, *, tournament: Tournament) -> None:
        lists.ranking_schedule_if_ranked(tournament=tournament)

    def everything_changed(self) -> None:
        lists.ranking_schedule()

    def rebuild(self) -> list[str]:
        return [
            f"ranking list {ranking_list.slug}: {len(ranking_list.data)} players"
            for ranking_list in lists.rankings_rebuild()
        ]


class RankingRequests:
    """On the tournament's settings page: the lists it may ask to count it, and what each
    decided (its organiser asks and withdraws there)."""

    def render(self, *, context: Context, **objects: object) -> str:
        tournament = objects["tournament"]
        assert isinstance(tournament, Tournament)
        return render_box(
            context,
            "rankings/partials/ranking_requests.html",
            {
                "tournament": tournament,
                "ranking_admissions": selectors.tournament_admissions(tournament=tournament),
            },
        )


class PlayerPlaces:
    """On a person's page: where the person stands in each ranking list the reader sees."""

    def render(self, *, context: Context, **objects: object) -> str:
        player = objects["player"]
        assert isinstance(player, Player)
        user = getattr(context.get("request"), "user", None) or AnonymousUser()
        places = selectors.player_ranking_places(player=player, user=user)
        if not places:
            return ""
        return render_box(context, "rankings/partials/player_places.html", {"places": places})


def maintains_a_list(user: User) -> bool:
    """Whether the user keeps a ranking list: such a user corrects persons
    (``tournaments.policies.may_change_person``)."""
    return RankingList.objects.filter(maintainers=user).exists()


def hooks_register() -> None:
    policies.person_keeper_register(name="rankings", keeps=maintains_a_list)
    ranked.register(RankingLists())
    page_boxes.register(RankingRequests(), place=page_boxes.SETTINGS)
    page_boxes.register(PlayerPlaces(), place=page_boxes.PERSON)
