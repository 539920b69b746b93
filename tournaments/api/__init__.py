"""API for tournaments, players, rounds and tables: thin views over selectors and services.

Reading is public where the tournament is; writing needs the role the page needs as well. One
module per sub-domain, each with its serializers; the views are gathered here so that the URLs
can say ``api.RoundDetail``.
"""

from tournaments.api.persons import PersonMerge, PlayerHistory
from tournaments.api.players import EntryList, EntryStatus, PlayersImport
from tournaments.api.rounds import (
    FindTable,
    RoundAction,
    RoundClock,
    RoundDetail,
    RoundList,
    TableExtraTime,
)
from tournaments.api.standings import ClubRankingView, PlayerDetail, StandingsView
from tournaments.api.tournaments import (
    TablesOfFive,
    TournamentArchive,
    TournamentDetail,
    TournamentList,
)

__all__ = [
    "ClubRankingView",
    "EntryList",
    "EntryStatus",
    "FindTable",
    "PersonMerge",
    "PlayerDetail",
    "PlayerHistory",
    "PlayersImport",
    "RoundAction",
    "RoundClock",
    "RoundDetail",
    "RoundList",
    "StandingsView",
    "TableExtraTime",
    "TablesOfFive",
    "TournamentArchive",
    "TournamentDetail",
    "TournamentList",
]
