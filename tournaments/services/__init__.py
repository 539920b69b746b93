"""Writes for tournaments, players and entries, rounds and results. Each service
is one transaction. One module per sub-domain; the names are gathered here so that callers can
say ``services.round_seat(...)``."""

from tournaments.services.players import (
    EntryChange,
    Imported,
    entry_create,
    entry_disqualify,
    entry_register,
    entry_reinstate,
    entry_replace,
    entry_update,
    entry_withdraw,
    player_create,
    player_find_or_create,
    players_import,
)
from tournaments.services.results import (
    ranking_list_save,
    ranking_rebuild,
    ranking_schedule,
    rankings_rebuild,
    results_refresh,
    results_refresh_all,
    standings_rebuild,
    standings_schedule,
)
from tournaments.services.rounds import (
    Reseating,
    round_close,
    round_create,
    round_end,
    round_publish,
    round_seat,
    round_start,
    table_extra_time_grant,
    tournament_seating_publish,
)
from tournaments.services.tournaments import (
    tournament_create,
    tournament_publication_update,
    tournament_tables_of_five_allow,
)

__all__ = [
    "EntryChange",
    "Imported",
    "Reseating",
    "entry_create",
    "entry_disqualify",
    "entry_register",
    "entry_reinstate",
    "entry_replace",
    "entry_update",
    "entry_withdraw",
    "player_create",
    "player_find_or_create",
    "players_import",
    "ranking_list_save",
    "ranking_rebuild",
    "ranking_schedule",
    "rankings_rebuild",
    "results_refresh",
    "results_refresh_all",
    "round_close",
    "round_create",
    "round_end",
    "round_publish",
    "round_seat",
    "round_start",
    "standings_rebuild",
    "standings_schedule",
    "table_extra_time_grant",
    "tournament_create",
    "tournament_publication_update",
    "tournament_seating_publish",
    "tournament_tables_of_five_allow",
]
