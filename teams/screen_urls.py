"""The venue screen's route (``teams.screen``); the team pages' routes are in their own
module."""

from django.urls import path

from teams import screen

urlpatterns = [
    path("teams/<slug:slug>/screen/", screen.competition_screen, name="team-screen"),
]
