"""Who may do what with a scoresheet, answered once per action (as ``tournaments.policies``).

Each policy returns None when the action is allowed, otherwise the reason it is refused. The
services enforce it; the pages and the API ask the same function whether to show the form.
``roles`` are the account's roles in the tournament; a player's seat link has none.
"""

from collections.abc import Collection

from django.utils.translation import gettext as _

from tournaments.policies import Refusal
from tournaments.roles import HANDS_OVER_SHEET


def may_hand_over_sheet(*, roles: Collection[str]) -> Refusal | None:
    """Move the keeping of a table's sheet to another of its seats (TSR 3.1.1, 8.4.1): the
    organiser or an adjudicator."""
    if set(roles) & HANDS_OVER_SHEET:
        return None
    return _(
        "Only an organiser or an adjudicator hands the scoresheet over to another player of "
        "the table (TSR 3.1.1, 8.4.1)."
    )
