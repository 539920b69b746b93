"""The adjudicators' pages, under the tournament's address."""

from django.urls import path

from adjudication.views import appeals, decisions, log, offences, sanctions, staff

A = "tournaments/<slug:slug>/adjudication/"
D = A + "decisions/<num:pk>/"

# The namespace of its routes: "adjudication:<name>" (docs/development.md, "Routes").
app_name = "adjudication"

urlpatterns = [
    path(A, decisions.dashboard, name="adjudication"),
    path(
        "tournaments/<slug:slug>/rounds/<num:number>/tables/<num:table>/complaint/",
        decisions.complaint_add,
        name="complaint-add",
    ),
    path(A + "complaint/", decisions.complaint_pick, name="complaint-pick"),
    path(D, decisions.decision_detail, name="decision"),
    path(D + "ruling/", decisions.decision_ruling, name="decision-ruling"),
    path(D + "initial/", decisions.decision_initial, name="decision-initial"),
    path(D + "appeal/", appeals.appeal_lodge, {"page": decisions.APPEALS}, name="appeal-lodge"),
    path(
        D + "appeal/decide/",
        appeals.appeal_decide,
        {"page": decisions.APPEALS},
        name="appeal-decide",
    ),
    path(A + "sanctions/add/", sanctions.sanction_add, name="sanction-add"),
    path(A + "sanctions/<num:pk>/", sanctions.sanction_detail, name="sanction"),
    path(
        A + "sanctions/<num:pk>/appeal/",
        appeals.appeal_lodge,
        {"page": sanctions.APPEALS},
        name="sanction-appeal-lodge",
    ),
    path(
        A + "sanctions/<num:pk>/appeal/decide/",
        appeals.appeal_decide,
        {"page": sanctions.APPEALS},
        name="sanction-appeal-decide",
    ),
    path(A + "offences/", offences.offences, name="offences"),
    path(A + "offences/defaults/", offences.offences_default, name="offences-default"),
    path(A + "offences/<num:pk>/delete/", offences.offence_delete, name="offence-delete"),
    path(A + "log/", log.log, name="adjudication-log"),
    path(A + "log.csv", log.log_csv, name="adjudication-log-csv"),
    path("tournaments/<slug:slug>/staff/", staff.staff, name="staff"),
    path("tournaments/<slug:slug>/staff/invite/", staff.staff_invite, name="staff-invite"),
    path(
        "tournaments/<slug:slug>/staff/invitations/<num:pk>/again/",
        staff.staff_invite_again,
        name="staff-invite-again",
    ),
    path(
        "tournaments/<slug:slug>/staff/invitations/<num:pk>/withdraw/",
        staff.staff_invitation_withdraw,
        name="staff-invitation-withdraw",
    ),
    path(
        "tournaments/<slug:slug>/staff/offers/<num:pk>/withdraw/",
        staff.staff_offer_withdraw,
        name="staff-offer-withdraw",
    ),
    path("tournaments/<slug:slug>/staff/<num:pk>/revoke/", staff.staff_revoke, name="staff-revoke"),
]
