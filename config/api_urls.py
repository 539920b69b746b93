"""Version 1 of the JSON API. Schema: /api/schema/; interactive docs: /api/docs/."""

from django.urls import path

from adjudication import api as adjudication_api
from config.login import ObtainAuthTokenLimited
from rankings import api as rankings_api
from registration.api import arrivals as arrivals_api
from registration.api import personal as personal_api
from registration.api import registrations as registrations_api
from scoring import api as scoring_api
from teams import api as teams_api
from tournaments import api as tournament_api

# Its routes' namespace: "api:<name>" ("api:scoresheet"), apart from the pages' routes.
app_name = "api"

urlpatterns = [
    # First, as the routes are tried in order: the standings that every phone refreshes.
    path(
        "tournaments/<slug:slug>/standings",
        tournament_api.StandingsView.as_view(),
        name="standings",
    ),
    path(
        "tournaments/<slug:slug>/club-ranking",
        tournament_api.ClubRankingView.as_view(),
        name="club-ranking",
    ),
    path("auth/token", ObtainAuthTokenLimited.as_view(), name="token"),
    path("tournaments/", tournament_api.TournamentList.as_view(), name="tournaments"),
    path(
        "tournaments/<slug:slug>/",
        tournament_api.TournamentDetail.as_view(),
        name="tournament",
    ),
    path(
        "tournaments/<slug:slug>/archive",
        tournament_api.TournamentArchive.as_view(),
        name="tournament-archive",
    ),
    path(
        "tournaments/<slug:slug>/allow-tables-of-five",
        tournament_api.TablesOfFive.as_view(),
        name="tables-of-five",
    ),
    path(
        "tournaments/<slug:slug>/rounds/",
        tournament_api.RoundList.as_view(),
        name="rounds",
    ),
    path(
        "tournaments/<slug:slug>/rounds/<num:number>/",
        tournament_api.RoundDetail.as_view(),
        name="round",
    ),
    path(
        "tournaments/<slug:slug>/players/",
        tournament_api.EntryList.as_view(),
        name="entries",
    ),
    path(
        "tournaments/<slug:slug>/players/import",
        tournament_api.PlayersImport.as_view(),
        name="players-import",
    ),
    path(
        "tournaments/<slug:slug>/players/<num:start_number>",
        tournament_api.PlayerDetail.as_view(),
        name="player",
    ),
    # The check-in at the door (issue 33).
    path(
        "tournaments/<slug:slug>/check-in",
        arrivals_api.CheckInList.as_view(),
        name="check-in",
    ),
    path(
        "tournaments/<slug:slug>/players/<num:start_number>/check-in",
        arrivals_api.EntryCheckIn.as_view(),
        name="entry-check-in",
    ),
    # The organiser decides a claim of a player registered online to be a person on record.
    path(
        "tournaments/<slug:slug>/players/<num:start_number>/claim/confirm",
        registrations_api.EntryClaim.as_view(),
        {"action": "confirm"},
        name="entry-claim-confirm",
    ),
    path(
        "tournaments/<slug:slug>/players/<num:start_number>/claim/set-aside",
        registrations_api.EntryClaim.as_view(),
        {"action": "set-aside"},
        name="entry-claim-set-aside",
    ),
    path(
        "tournaments/<slug:slug>/no-shows/withdraw",
        arrivals_api.NoShowsWithdraw.as_view(),
        name="no-shows-withdraw",
    ),
    path("rankings/", rankings_api.RankingLists.as_view(), name="rankings"),
    path("rankings/<slug:slug>", rankings_api.RankingDetail.as_view(), name="ranking"),
    path(
        "rankings/<slug:slug>/admissions",
        rankings_api.RankingAdmissions.as_view(),
        name="ranking-admissions",
    ),
    path(
        "rankings/<slug:slug>/maintainers",
        rankings_api.RankingMaintainers.as_view(),
        name="ranking-maintainers",
    ),
    path(
        "rankings/<slug:slug>/maintainers/<str:username>",
        rankings_api.RankingMaintainer.as_view(),
        name="ranking-maintainer",
    ),
    path(
        "tournaments/<slug:slug>/ranking-requests",
        rankings_api.RankingRequests.as_view(),
        name="ranking-requests",
    ),
    path(
        "tournaments/<slug:slug>/ranking-requests/<slug:ranking>/withdraw",
        rankings_api.RankingRequestWithdraw.as_view(),
        name="ranking-request-withdraw",
    ),
    # The online registration: players register (public), organisers manage it.
    path(
        "tournaments/<slug:slug>/registrations",
        registrations_api.RegistrationList.as_view(),
        name="registrations",
    ),
    path(
        "tournaments/<slug:slug>/registrations/<num:pk>",
        registrations_api.RegistrationDetail.as_view(),
        name="registration-detail",
    ),
    path(
        "tournaments/<slug:slug>/registrations/<num:pk>/admit",
        registrations_api.RegistrationAdmit.as_view(),
        name="registration-admit",
    ),
    path(
        "tournaments/<slug:slug>/registrations/<num:pk>/move",
        registrations_api.RegistrationMove.as_view(),
        name="registration-move",
    ),
    path(
        "tournaments/<slug:slug>/registration",
        registrations_api.RegistrationSettings.as_view(),
        name="registration",
    ),
    path(
        "tournaments/<slug:slug>/registration/close",
        registrations_api.RegistrationState.as_view(),
        {"action": "close"},
        name="registration-close",
    ),
    path(
        "tournaments/<slug:slug>/registration/reopen",
        registrations_api.RegistrationState.as_view(),
        {"action": "reopen"},
        name="registration-reopen",
    ),
    path("players/<num:pk>", tournament_api.PlayerHistory.as_view(), name="player-history"),
    # A player's personal link: the key in X-Player-Key, no account.
    path("personal", personal_api.PersonalDetail.as_view(), name="personal"),
    path(
        "personal/withdraw",
        personal_api.PersonalWithdraw.as_view(),
        name="personal-withdraw",
    ),
    path(
        "tournaments/<slug:slug>/players/<num:start_number>/personal-link",
        personal_api.PersonalLink.as_view(),
        name="personal-link",
    ),
    path(
        "tournaments/<slug:slug>/players/<num:start_number>/personal-link/replace",
        personal_api.PersonalLinkReplace.as_view(),
        name="personal-link-replace",
    ),
    path("players/<num:pk>/merge", tournament_api.PersonMerge.as_view(), name="person-merge"),
    path(
        "tournaments/<slug:slug>/find",
        tournament_api.FindTable.as_view(),
        name="find",
    ),
    path(
        "tournaments/<slug:slug>/rounds/<num:number>/clock",
        tournament_api.RoundClock.as_view(),
        name="round-clock",
    ),
    path(
        "tournaments/<slug:slug>/rounds/<num:number>/tables/<num:table>/extra-time",
        tournament_api.TableExtraTime.as_view(),
        name="table-extra-time",
    ),
]
# One path per action, so that each has its own entry in the schema.
urlpatterns += [
    path(
        f"tournaments/<slug:slug>/players/<num:start_number>/{action}",
        tournament_api.EntryStatus.as_view(),
        {"action": action},
        name=f"entry-{action}",
    )
    for action in tournament_api.EntryStatus.actions
]
urlpatterns += [
    path(
        f"tournaments/<slug:slug>/rounds/<num:number>/{action}",
        tournament_api.RoundAction.as_view(),
        {"action": action},
        name=f"round-{action}",
    )
    for action in tournament_api.RoundAction.actions
]

urlpatterns += [
    path(
        f"rankings/<slug:slug>/admissions/<slug:tournament>/{action}",
        rankings_api.RankingDecision.as_view(),
        {"action": action},
        name=f"ranking-{action}",
    )
    for action in rankings_api.RankingDecision.actions
]

urlpatterns += [
    path("rules/hand-value", scoring_api.HandValueView.as_view(), name="rules-hand-value"),
    path("rules/penalty", scoring_api.PenaltyView.as_view(), name="rules-penalty"),
    path(
        "rules/scoresheet-check",
        scoring_api.ScoresheetCheckView.as_view(),
        name="rules-scoresheet-check",
    ),
]

SHEET = "tournaments/<slug:slug>/rounds/<num:number>/tables/<num:table>/scoresheet"
urlpatterns += [
    path(SHEET, scoring_api.ScoresheetDetail.as_view(), name="scoresheet"),
    path(f"{SHEET}/submit", scoring_api.ScoresheetSubmit.as_view(), name="scoresheet-submit"),
    path(f"{SHEET}/confirm", scoring_api.ScoresheetConfirm.as_view(), name="scoresheet-confirm"),
    path(f"{SHEET}/reopen", scoring_api.ScoresheetReopen.as_view(), name="scoresheet-reopen"),
    path(f"{SHEET}/return", scoring_api.ScoresheetReturn.as_view(), name="scoresheet-return"),
    path(f"{SHEET}/strike", scoring_api.ScoresheetStrike.as_view(), name="scoresheet-strike"),
    path(f"{SHEET}/keeper", scoring_api.ScoresheetKeeper.as_view(), name="scoresheet-keeper"),
    path(
        f"{SHEET}/end-early",
        scoring_api.ScoresheetEndEarly.as_view(),
        name="scoresheet-end-early",
    ),
    path(
        f"{SHEET}/end-early/undo",
        scoring_api.ScoresheetEndUndo.as_view(),
        name="scoresheet-end-undo",
    ),
    path(f"{SHEET}/replay", scoring_api.ScoresheetReplay.as_view(), name="scoresheet-replay"),
    path(f"{SHEET}/changes", scoring_api.ScoresheetChanges.as_view(), name="scoresheet-changes"),
    path(f"{SHEET}/scan", scoring_api.ScoresheetScanView.as_view(), name="scoresheet-scan"),
    path(
        f"{SHEET}/second-entry",
        scoring_api.ScoresheetSecondEntry.as_view(),
        name="scoresheet-second-entry",
    ),
    path(
        f"{SHEET}/second-entry/compare",
        scoring_api.ScoresheetSecondEntryCompare.as_view(),
        name="scoresheet-second-entry-compare",
    ),
    path(
        f"{SHEET}/second-entry/settle",
        scoring_api.ScoresheetSecondEntrySettle.as_view(),
        name="scoresheet-second-entry-settle",
    ),
    path(
        f"{SHEET}/first-entry/open",
        scoring_api.ScoresheetFirstEntryOpen.as_view(),
        name="scoresheet-first-entry-open",
    ),
    path(
        "tournaments/<slug:slug>/rounds/<num:number>/tables/<num:table>/links",
        scoring_api.TableLinks.as_view(),
        name="table-links",
    ),
    path(
        "tournaments/<slug:slug>/rounds/<num:number>/desk",
        scoring_api.DeskView.as_view(),
        name="desk",
    ),
]

# Adjudication (TSR 8.2, 9): for the tournament's organisers, adjudicators and panel members.
ADJUDICATION = "tournaments/<slug:slug>"
urlpatterns += [
    path(f"{ADJUDICATION}/decisions", adjudication_api.DecisionList.as_view(), name="decisions"),
    path(
        f"{ADJUDICATION}/decisions/<num:pk>",
        adjudication_api.DecisionDetail.as_view(),
        name="decision",
    ),
    path(
        f"{ADJUDICATION}/decisions/<num:pk>/ruling",
        adjudication_api.DecisionRuling.as_view(),
        name="decision-ruling",
    ),
    path(
        f"{ADJUDICATION}/decisions/<num:pk>/initial",
        adjudication_api.DecisionInitial.as_view(),
        name="decision-initial",
    ),
    path(
        f"{ADJUDICATION}/decisions/<num:pk>/appeal",
        adjudication_api.DecisionAppeal.as_view(),
        name="decision-appeal",
    ),
    path(f"{ADJUDICATION}/appeals", adjudication_api.AppealList.as_view(), name="appeals"),
    path(
        f"{ADJUDICATION}/appeals/<num:pk>/decide",
        adjudication_api.AppealDecide.as_view(),
        name="appeal-decide",
    ),
    path(f"{ADJUDICATION}/sanctions", adjudication_api.SanctionList.as_view(), name="sanctions"),
    path(
        f"{ADJUDICATION}/sanctions/<num:pk>/appeal",
        adjudication_api.SanctionAppeal.as_view(),
        name="sanction-appeal",
    ),
    path(f"{ADJUDICATION}/offences", adjudication_api.OffenceList.as_view(), name="offences"),
    path(
        f"{ADJUDICATION}/offences/defaults",
        adjudication_api.OffenceDefaults.as_view(),
        name="offences-defaults",
    ),
    path(
        f"{ADJUDICATION}/offences/<num:pk>",
        adjudication_api.OffenceDetail.as_view(),
        name="offence",
    ),
    path(
        f"{ADJUDICATION}/adjudication-log",
        adjudication_api.AdjudicationLog.as_view(),
        name="adjudication-log",
    ),
    path(f"{ADJUDICATION}/roles", adjudication_api.StaffList.as_view(), name="roles"),
    path(f"{ADJUDICATION}/roles/<num:pk>", adjudication_api.StaffDetail.as_view(), name="role"),
    path(
        f"{ADJUDICATION}/role-offers",
        adjudication_api.StaffOfferList.as_view(),
        name="role-offers",
    ),
    path(
        f"{ADJUDICATION}/role-offers/<num:pk>",
        adjudication_api.StaffOfferDetail.as_view(),
        name="role-offer",
    ),
    path(
        f"{ADJUDICATION}/invitations",
        adjudication_api.StaffInvitationList.as_view(),
        name="invitations",
    ),
    path(
        f"{ADJUDICATION}/invitations/<num:pk>",
        adjudication_api.StaffInvitationDetail.as_view(),
        name="invitation",
    ),
    path(
        f"{ADJUDICATION}/invitations/<num:pk>/again",
        adjudication_api.StaffInvitationAgain.as_view(),
        name="invitation-again",
    ),
]

# Team competitions (issue 34): a league's season or a team championship; its match days are
# tournaments, played through the routes above.
COMPETITION = "competitions/<slug:slug>"
MATCH_DAY = f"{COMPETITION}/match-days/<num:number>"
urlpatterns += [
    path("competitions", teams_api.CompetitionList.as_view(), name="competitions"),
    path(COMPETITION, teams_api.CompetitionDetail.as_view(), name="competition"),
    path(
        f"{COMPETITION}/organisers",
        teams_api.CompetitionOrganisers.as_view(),
        name="competition-organisers",
    ),
    path(f"{COMPETITION}/teams", teams_api.TeamList.as_view(), name="teams"),
    path(f"{COMPETITION}/teams/<num:team_id>", teams_api.TeamDetail.as_view(), name="team"),
    path(
        f"{COMPETITION}/teams/<num:team_id>/players",
        teams_api.TeamPlayers.as_view(),
        name="team-players",
    ),
    path(
        f"{COMPETITION}/teams/<num:team_id>/players/<num:player_id>",
        teams_api.TeamPlayer.as_view(),
        name="team-player",
    ),
    path(
        f"{COMPETITION}/teams/<num:team_id>/captain",
        teams_api.TeamCaptain.as_view(),
        name="team-captain",
    ),
    path(f"{COMPETITION}/match-days", teams_api.MatchDayList.as_view(), name="match-days"),
    path(MATCH_DAY, teams_api.MatchDayDetail.as_view(), name="match-day"),
    path(
        f"{MATCH_DAY}/line-ups/<num:team_id>",
        teams_api.LineUpDetail.as_view(),
        name="line-up",
    ),
    path(
        f"{MATCH_DAY}/ties/<num:team_id>/decide",
        teams_api.TieDecide.as_view(),
        name="tie-decide",
    ),
    path(f"{COMPETITION}/plan", teams_api.SeasonPlanDetail.as_view(), name="season-plan"),
    path(
        f"{COMPETITION}/plan/swap",
        teams_api.SeasonPlanSwap.as_view(),
        name="season-plan-swap",
    ),
    path(f"{COMPETITION}/table", teams_api.SeasonTable.as_view(), name="season-table"),
    path(f"{COMPETITION}/bracket", teams_api.Bracket.as_view(), name="bracket"),
]
