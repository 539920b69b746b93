"""The ranking lists' pages, and the tournament's requests to count for them."""

from django.urls import path

from rankings import views

app_name = "rankings"

urlpatterns = [
    path("ranking/", views.ranking_list, name="rankings"),
    path("ranking/<slug:slug>/", views.ranking_detail, name="ranking"),
    path("ranking/<slug:slug>/maintainers/", views.ranking_maintainers, name="ranking-maintainers"),
    path(
        "ranking/<slug:slug>/admissions/<slug:tournament>/",
        views.ranking_admission,
        name="ranking-admission",
    ),
    path(
        "tournaments/<slug:slug>/ranking-requests/",
        views.ranking_requests,
        name="ranking-requests",
    ),
]
