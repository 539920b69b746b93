from django.urls import path

from tournaments import views

urlpatterns = [
    path("", views.home, name="home"),
    path("tournaments/<slug:slug>/", views.tournament_detail, name="tournament"),
    path("tournaments/<slug:slug>/players/", views.entry_list, name="entries"),
    path("tournaments/<slug:slug>/rounds/<int:number>/", views.round_detail, name="round"),
    path(
        "tournaments/<slug:slug>/rounds/<int:number>/tables/<int:table>/",
        views.table_detail,
        name="table",
    ),
    path(
        "tournaments/<slug:slug>/print/players/",
        views.entry_list_print,
        name="entries-print",
    ),
    path("jobs/<uuid:pk>/", views.job_detail, name="job"),
    path("jobs/<uuid:pk>/download/", views.job_download, name="job-download"),
]
