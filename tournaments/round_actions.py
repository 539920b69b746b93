"""The actions that run a round, one table for the round's page and the API: what each does
(a service) and who may (a policy). The page and the API look an action up here, ask its
policy, and call it; neither maps actions to services or roles of its own."""

from collections.abc import Callable, Collection
from dataclasses import dataclass

from django.contrib.auth.models import User

from tournaments import policies, services
from tournaments.models import Round
from tournaments.policies import Refusal


@dataclass(frozen=True)
class RoundAction:
    # The service, given the round, who asks and, for a draw, the seed (None: a random one).
    run: Callable[[Round, User, int | None], object]
    # Who may: a policy of ``tournaments.policies``.
    may: Callable[..., Refusal | None]

    def refusal(self, *, round: Round, roles: Collection[str]) -> Refusal | None:
        return self.may(round=round, roles=roles)


ROUND_ACTIONS = {
    "seat": RoundAction(
        run=lambda round, by, seed: services.round_seat(round=round, seed=seed),
        may=policies.may_seat_round,
    ),
    "unseat": RoundAction(
        run=lambda round, by, seed: services.round_unseat(round=round, by=by),
        may=policies.may_undo_draw,
    ),
    "delete": RoundAction(
        run=lambda round, by, seed: services.round_delete(round=round, by=by),
        may=policies.may_delete_round,
    ),
    "publish": RoundAction(
        run=lambda round, by, seed: services.round_publish(round=round),
        may=policies.may_publish_seating,
    ),
    "publish_all": RoundAction(
        run=lambda round, by, seed: services.tournament_seating_publish(
            tournament=round.tournament
        ),
        may=policies.may_publish_seating,
    ),
    "start": RoundAction(
        run=lambda round, by, seed: services.round_start(round=round),
        may=policies.may_start_round,
    ),
    "end": RoundAction(
        run=lambda round, by, seed: services.round_end(round=round, by=by),
        may=policies.may_end_playing_time,
    ),
    "close": RoundAction(
        run=lambda round, by, seed: services.round_close(round=round),
        may=policies.may_close_round,
    ),
}
# The API offers every action but publishing all drawn rounds at once (a page's shortcut) as
# POST .../rounds/{n}/{action}; deleting is DELETE .../rounds/{n}/.
API_ROUND_ACTIONS = ("seat", "unseat", "publish", "start", "end", "close")
# The actions the round's page asks about once before it posts them (``?ask=``): none can be
# taken back. The page asks itself, so that it asks without JavaScript too.
ASKED_ROUND_ACTIONS = ("seat", "unseat", "delete", "end")
