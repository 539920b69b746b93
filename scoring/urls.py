"""The scoresheet pages: for staff under the table's address, for the players of the table
under their seat's private link (``/s/<key>/``, printed as a QR code on the sheet)."""

from django.urls import path

from scoring import views
from scoring.views import desk

STAFF = "tournaments/<slug:slug>/rounds/<num:number>/tables/<num:table>/sheet/"
LINK = "s/<str:token>/"
ACTIONS = [
    ("", views.sheet, ""),
    ("check/", views.sheet_check, "-check"),
    ("save/", views.sheet_save, "-save"),
    ("delete/", views.sheet_delete, "-delete"),
    ("time-over/", views.sheet_time_over, "-time-over"),
    ("submit/", views.sheet_submit, "-submit"),
    ("confirm/", views.sheet_confirm, "-confirm"),
    ("reopen/", views.sheet_reopen, "-reopen"),
    ("return/", views.sheet_return, "-return"),
    ("end-early/", views.sheet_end_early, "-end-early"),
    ("end-early/undo/", views.sheet_end_undo, "-end-undo"),
    ("replay/", views.sheet_replay, "-replay"),
    ("history/", views.sheet_history, "-history"),
    ("scan/", views.sheet_scan, "-scan"),  # the signed paper sheet's photo or scan
]

# The second entry of a paper sheet (double entry), typed by the desk without seeing the first:
# the entry page's own actions, and comparing it with the first.
SECOND = STAFF + "second-entry/"
SECOND_ACTIONS = [
    ("", views.sheet, ""),
    ("check/", views.sheet_check, "-check"),
    ("save/", views.sheet_save, "-save"),
    ("delete/", views.sheet_delete, "-delete"),
    ("time-over/", views.sheet_time_over, "-time-over"),
]

# The namespace of its routes: "scoring:<name>" (docs/development.md, "Routes").
app_name = "scoring"

urlpatterns = (
    [
        path(prefix + suffix, view, name=name + ending)
        for prefix, name in ((STAFF, "sheet"), (LINK, "sheet-link"))
        for suffix, view, ending in ACTIONS
    ]
    + [
        path(SECOND + suffix, view, {"blind": True}, name="sheet-second" + ending)
        for suffix, view, ending in SECOND_ACTIONS
    ]
    + [
        path(
            SECOND + "compare/",
            views.sheet_second_compare,
            {"blind": True},
            name="sheet-second-compare",
        ),
        path(
            SECOND + "discard/",
            views.sheet_second_discard,
            {"blind": True},
            name="sheet-second-discard",
        ),
        path(STAFF + "differences/", views.sheet_differences, name="sheet-differences"),
        # A blind first entry opened all the same: recorded (double entry).
        path(
            STAFF + "first-entry/open/",
            views.sheet_first_entry_open,
            name="sheet-first-entry-open",
        ),
    ]
    + [
        # Handing the sheet over is for staff: the players' links cannot (printing it: the
        # printing app, at STAFF + "pdf/").
        path(STAFF + "keeper/", views.sheet_keeper_move, name="sheet-keeper"),
        # The service worker that keeps the entry pages for a reload while offline: from the
        # site's root, so that its scope covers the staff pages and the links alike.
        path("sw.js", views.service_worker, name="service-worker"),
        # The desk's view of a round: every table's sheet, and its list alone for the refresh.
        path("tournaments/<slug:slug>/rounds/<num:number>/desk/", desk.desk, name="desk"),
        path(
            "tournaments/<slug:slug>/rounds/<num:number>/desk/list/",
            desk.desk_list,
            name="desk-list",
        ),
        # The table's own page (its path is the round's, under the tournament's pages).
        path(
            "tournaments/<slug:slug>/rounds/<num:number>/tables/<num:table>/",
            views.table_detail,
            name="table",
        ),
        # What of the table's page changes, for the page's refresh while the round is played.
        path(
            "tournaments/<slug:slug>/rounds/<num:number>/tables/<num:table>/live/",
            views.table_live,
            name="table-live",
        ),
    ]
)
