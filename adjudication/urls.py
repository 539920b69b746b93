"""The adjudicators' pages, under the tournament's address."""

from django.urls import path

from adjudication import views

A = "tournaments/<slug:slug>/adjudication/"
D = A + "decisions/<int:pk>/"

urlpatterns = [
    path(A, views.dashboard, name="adjudication"),
    path(
        "tournaments/<slug:slug>/rounds/<int:number>/tables/<int:table>/complaint/",
        views.complaint_add,
        name="complaint-add",
    ),
    path(A + "complaint/", views.complaint_pick, name="complaint-pick"),
    path(D, views.decision_detail, name="decision"),
    path(D + "ruling/", views.decision_ruling, name="decision-ruling"),
    path(D + "initial/", views.decision_initial, name="decision-initial"),
    path(D + "appeal/", views.appeal_lodge, name="appeal-lodge"),
    path(D + "appeal/decide/", views.appeal_decide, name="appeal-decide"),
    path(A + "sanctions/add/", views.sanction_add, name="sanction-add"),
    path(A + "sanctions/<int:pk>/", views.sanction_detail, name="sanction"),
    path(
        A + "sanctions/<int:pk>/appeal/", views.sanction_appeal_lodge, name="sanction-appeal-lodge"
    ),
    path(
        A + "sanctions/<int:pk>/appeal/decide/",
        views.sanction_appeal_decide,
        name="sanction-appeal-decide",
    ),
    path(A + "offences/", views.offences, name="offences"),
    path(A + "offences/defaults/", views.offences_default, name="offences-default"),
    path(A + "offences/<int:pk>/delete/", views.offence_delete, name="offence-delete"),
    path(A + "log/", views.log, name="adjudication-log"),
    path(A + "log.csv", views.log_csv, name="adjudication-log-csv"),
    path("tournaments/<slug:slug>/staff/", views.staff, name="staff"),
    path("tournaments/<slug:slug>/staff/invite/", views.staff_invite, name="staff-invite"),
    path(
        "tournaments/<slug:slug>/staff/invitations/<int:pk>/again/",
        views.staff_invite_again,
        name="staff-invite-again",
    ),
    path(
        "tournaments/<slug:slug>/staff/invitations/<int:pk>/withdraw/",
        views.staff_invitation_withdraw,
        name="staff-invitation-withdraw",
    ),
    path("tournaments/<slug:slug>/staff/<int:pk>/revoke/", views.staff_revoke, name="staff-revoke"),
]
