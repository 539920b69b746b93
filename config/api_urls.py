"""Version 1 of the JSON API. Schema: /api/schema/; interactive docs: /api/docs/."""

from django.urls import path
from rest_framework.authtoken.views import ObtainAuthToken

from scoring import api as scoring_api
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

urlpatterns += [
    path("rules/hand-value", scoring_api.HandValueView.as_view(), name="api-rules-hand-value"),
    path("rules/penalty", scoring_api.PenaltyView.as_view(), name="api-rules-penalty"),
    path(
        "rules/scoresheet-check",
        scoring_api.ScoresheetCheckView.as_view(),
        name="api-rules-scoresheet-check",
    ),
]
