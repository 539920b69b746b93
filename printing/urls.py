from django.urls import path

from printing import views

T = "tournaments/<slug:slug>/"
R = T + "rounds/<num:number>/"

# The namespace of its routes: "printing:<name>" (docs/development.md, "Routes").
app_name = "printing"

urlpatterns = [
    path(T + "print/players/", views.entry_list_print, name="entries-print"),
    path(T + "print/personal-links/", views.personal_cards_print, name="personal-cards-print"),
    path(
        T + "print/personal-links/<num:start_number>/",
        views.personal_card_print,
        name="personal-card-print",
    ),
    path(T + "print/standings/", views.standings_print, name="standings-print"),
    path(R + "print/<slug:kind>/", views.round_print, name="round-print"),
    path(R + "tables/<num:table>/sheet/pdf/", views.sheet_print, name="sheet-pdf"),
    path("jobs/<uuid:pk>/", views.job_detail, name="job"),
    path("jobs/<uuid:pk>/download/", views.job_download, name="job-download"),
]

# Team competitions (teams app): made on the spot, not by a job.
TEAMS = "teams/<slug:slug>/"
urlpatterns += [
    path(
        TEAMS + "match-days/<num:number>/line-ups.pdf",
        views.team_line_ups_pdf,
        name="team-line-ups-pdf",
    ),
    path(TEAMS + "table.pdf", views.team_table_pdf, name="team-table-pdf"),
    path(TEAMS + "plan.pdf", views.team_plan_pdf, name="team-plan-pdf"),
]
