import re

from django.urls import path, register_converter

from tournaments import views
from tournaments.round_actions import ROUND_ACTIONS

T = "tournaments/<slug:slug>/"
R = T + "rounds/<num:number>/"


class RoundActionConverter:
    """A round's action (``ROUND_ACTIONS``) and nothing else, so that the other pages of a round
    (the desk's, say, ``…/rounds/<n>/desk/``) are not taken for one."""

    regex = "|".join(re.escape(action) for action in ROUND_ACTIONS)

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(RoundActionConverter, "round_action")

# The namespace of its routes: "tournaments:<name>" (docs/development.md, "Routes").
app_name = "tournaments"

urlpatterns = [
    # First, as the routes are tried in order: the standings that every phone refreshes.
    path(T + "standings/", views.standings_page, name="standings"),
    path(T + "standings/table/", views.standings_table, name="standings-table"),
    path("", views.home, name="home"),
    # Before the tournaments' own addresses: "new" is no tournament's short name.
    path("tournaments/new/", views.tournament_new, name="tournament-new"),
    path("tournaments/new/from/", views.tournament_new_from, name="tournament-new-from"),
    path(T, views.tournament_detail, name="tournament"),
    path(T + "players/", views.entry_list, name="entries"),
    path(T + "players/import/", views.players_import, name="players-import"),
    path(T + "players/<num:start_number>/", views.player_detail, name="player"),
    path(T + "players/<num:start_number>/edit/", views.entry_edit, name="entry-edit"),
    path(T + "players/<num:start_number>/status/", views.entry_status, name="entry-status"),
    path(T + "players/<num:start_number>/substitute/", views.entry_replace, name="entry-replace"),
    path(T + "find/", views.find_table, name="find"),
    path(T + "standings.csv", views.standings_csv, name="standings-csv"),
    path(T + "settings/", views.tournament_settings, name="tournament-settings"),
    path(T + "delete/", views.tournament_delete, name="tournament-delete"),
    path(T + "archive/", views.tournament_archive, name="tournament-archive"),
    path(T + "screen/", views.venue_screen, name="screen"),
    path(T + "tables-of-five/", views.tournament_tables_of_five, name="tables-of-five"),
    path(T + "rounds/add/", views.round_add, name="round-add"),
    path(R, views.round_detail, name="round"),
    path(R + "clock/", views.round_clock, name="round-clock"),
    path(R + "extra-time/", views.round_extra_time, name="round-extra-time"),
    path(R + "<round_action:action>/", views.round_action, name="round-action"),
    path("players/<num:pk>/", views.player_history, name="player-history"),
    path("players/<num:pk>/correct/", views.person_edit, name="person-edit"),
    path("players/<num:pk>/merge/", views.person_merge, name="person-merge"),
]
