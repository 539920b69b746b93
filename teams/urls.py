from django.urls import path

from teams import screen, views

C = "teams/<slug:slug>/"
TEAM = C + "team/<num:pk>/"
DAY = C + "match-days/<num:number>/"

# The namespace of its routes: "teams:<name>" (docs/development.md, "Routes").
app_name = "teams"

urlpatterns = [
    path("teams/", views.competition_list, name="competitions"),
    # Before the competitions' own addresses: "new" is no competition's short name.
    path("teams/new/", views.competition_new, name="competition-new"),
    path(C, views.competition_detail, name="competition"),
    path(C + "settings/", views.competition_settings, name="competition-settings"),
    path(C + "organisers/", views.competition_organisers, name="competition-organisers"),
    path(
        C + "organisers/offers/<num:pk>/withdraw/",
        views.competition_organiser_offer_withdraw,
        name="competition-organiser-offer-withdraw",
    ),
    path(C + "table/", views.season_table, name="season-table"),
    path(C + "plan/", views.season_plan, name="season-plan"),
    path(C + "plan/draw/", views.season_plan_draw, name="season-plan-draw"),
    path(C + "plan/swap/", views.season_plan_swap, name="season-plan-swap"),
    path(C + "bracket/", views.bracket, name="bracket"),
    path(C + "team/new/", views.team_new, name="team-new"),
    path(TEAM, views.team_detail, name="team"),
    path(TEAM + "edit/", views.team_edit, name="team-edit"),
    path(TEAM + "delete/", views.team_delete, name="team-delete"),
    path(TEAM + "players/", views.team_member_add, name="team-member-add"),
    path(
        TEAM + "players/<num:member>/remove/",
        views.team_member_remove,
        name="team-member-remove",
    ),
    path(TEAM + "players/<num:member>/captain/", views.team_captain, name="team-captain"),
    path(C + "match-days/new/", views.match_day_new, name="match-day-new"),
    path(DAY, views.match_day_detail, name="match-day"),
    path(DAY + "delete/", views.match_day_delete, name="match-day-delete"),
    path(DAY + "line-up/<num:team>/", views.line_up_edit, name="line-up"),
    path(DAY + "decide/", views.tie_decide, name="tie-decide"),
    path(C + "screen/", screen.competition_screen, name="team-screen"),
]
