"""Version 1 of the JSON API. Schema: /api/schema/; interactive docs: /api/docs/."""

from django.urls import path
from rest_framework.authtoken.views import ObtainAuthToken

from tournaments import api as tournament_api

urlpatterns = [
    path("auth/token", ObtainAuthToken.as_view(), name="api-token"),
    path("tournaments/", tournament_api.TournamentList.as_view(), name="api-tournaments"),
    path(
        "tournaments/<slug:slug>/",
        tournament_api.TournamentDetail.as_view(),
        name="api-tournament",
    ),
    path(
        "tournaments/<slug:slug>/rounds/",
        tournament_api.RoundList.as_view(),
        name="api-rounds",
    ),
    path(
        "tournaments/<slug:slug>/rounds/<int:number>/",
        tournament_api.RoundDetail.as_view(),
        name="api-round",
    ),
]
