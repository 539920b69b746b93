"""Pages: thin views that ask selectors and call services. One module per sub-domain; the names
are gathered here so that the URLs can say ``views.round_detail``."""

from tournaments.views.arrivals import (
    check_in_claim,
    check_in_entry,
    check_in_page,
    no_shows,
    personal_check_in,
    personal_check_in_undo,
)
from tournaments.views.personal import (
    personal_link_replace_view,
    personal_page,
    personal_withdraw,
)
from tournaments.views.persons import person_edit, person_merge, player_history
from tournaments.views.players import (
    entry_edit,
    entry_list,
    entry_replace,
    entry_status,
    players_import,
)
from tournaments.views.registrations import claim_confirm, register, registration_manage
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
    "check_in_claim",
    "check_in_entry",
    "check_in_page",
    "claim_confirm",
    "entry_edit",
    "entry_list",
    "entry_replace",
    "entry_status",
    "find_table",
    "home",
    "no_shows",
    "person_edit",
    "person_merge",
    "personal_check_in",
    "personal_check_in_undo",
    "personal_link_replace_view",
    "personal_page",
    "personal_withdraw",
    "player_detail",
    "player_history",
    "players_import",
    "register",
    "registration_manage",
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
