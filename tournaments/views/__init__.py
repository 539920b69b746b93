"""Pages: thin views that ask selectors and call services. One module per sub-domain; the names
are gathered here so that the URLs can say ``views.round_detail``."""

from tournaments.views.persons import person_edit, person_merge, player_history
from tournaments.views.players import (
    entry_edit,
    entry_list,
    entry_replace,
    entry_status,
    players_import,
)
from tournaments.views.rounds import (
    find_table,
    round_action,
    round_add,
    round_clock,
    round_detail,
    round_extra_time,
    venue_screen,
)
from tournaments.views.standings import (
    player_detail,
    standings_csv,
    standings_page,
    standings_table,
)
from tournaments.views.tournaments import (
    home,
    tournament_archive,
    tournament_delete,
    tournament_detail,
    tournament_new,
    tournament_new_from,
    tournament_settings,
    tournament_tables_of_five,
)

__all__ = [
    "entry_edit",
    "entry_list",
    "entry_replace",
    "entry_status",
    "find_table",
    "home",
    "person_edit",
    "person_merge",
    "player_detail",
    "player_history",
    "players_import",
    "round_action",
    "round_add",
    "round_clock",
    "round_detail",
    "round_extra_time",
    "standings_csv",
    "standings_page",
    "standings_table",
    "tournament_archive",
    "tournament_delete",
    "tournament_detail",
    "tournament_new",
    "tournament_new_from",
    "tournament_settings",
    "tournament_tables_of_five",
    "venue_screen",
]
