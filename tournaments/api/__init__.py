"""API for tournaments, players, rounds and tables: thin views over selectors and services.

Reading is public where the tournament is; writing needs the role the page needs as well. One
module per sub-domain, each with its serializers; the views are gathered here so that the URLs
can say ``api.RoundDetail``.
"""

from tournaments.api.arrivals import CheckInList, EntryCheckIn, NoShowsWithdraw
from tournaments.api.personal import (
    PersonalDetail,
    PersonalLink,
    PersonalLinkReplace,
    PersonalWithdraw,
)
from tournaments.api.persons import PersonMerge, PlayerHistory
from tournaments.api.players import EntryList, EntryStatus, PlayersImport
from tournaments.api.registrations import (
    EntryClaim,
    RegistrationAdmit,
    RegistrationDetail,
    RegistrationList,
    RegistrationMove,
    RegistrationSettings,
    RegistrationState,
)
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
    "CheckInList",
    "ClubRankingView",
    "EntryCheckIn",
    "EntryClaim",
    "EntryList",
    "EntryStatus",
    "FindTable",
    "NoShowsWithdraw",
    "PersonMerge",
    "PersonalDetail",
    "PersonalLink",
    "PersonalLinkReplace",
    "PersonalWithdraw",
    "PlayerDetail",
    "PlayerHistory",
    "PlayersImport",
    "RegistrationAdmit",
    "RegistrationDetail",
    "RegistrationList",
    "RegistrationMove",
    "RegistrationSettings",
    "RegistrationState",
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
