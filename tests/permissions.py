"""The permission matrix: every named route × every role, and what each may do; the world it is
checked in, and the checks.

Every named URL pattern of ``config.urls`` is listed in ``MATRIX`` with its method(s) and the
expected status for each role, in the order of ``ROLES``. The lines are kept per app
(``TOURNAMENTS``, ``SCORING``, ``ADJUDICATION``, ``PRINTING``, and ``SITE`` for config's own
routes), and each app's ``tests/<app>/test_permissions.py`` checks its own (``SITE``:
``tests/test_permissions.py``). They stay in this one table so that a route that is in none of
them fails ``tests/test_permissions.py::test_every_route_is_in_the_matrix``: a new route cannot
slip in unexamined. Django's admin (``admin:*``) is one entry: its own permission checks guard
all of its pages alike.

The world is built by ``build`` once per test module, as the ``ctx`` fixture of
``tests/conftest.py``; the ``check_*`` functions are what the test modules check for each line.

Statuses: a number is the status code; ``L`` is a redirect to the login page. A refused write
(401, 403, 404, 405, ``L``) must leave the database as it was.

The roles:

``anonymous``
    no login, no key.
``player``
    seat 1's private link of table 1: ``/s/<key>/`` for pages (its other pages are anonymous),
    the ``X-Seat-Key`` header in the API.
``keeper``
    the scorekeeper's link, seat 4 of table 1; the same otherwise.
``adjudicator``, ``deputy``, ``panel``, ``organiser``
    accounts with that role in the tournament (API: a token); the deputy adjudicator and the
    panel member hold no other role, and none of them plays.
``admin``
    a superuser, with no role of its own: a superuser holds every role.
"""

import dataclasses
import re
import secrets
from collections.abc import Callable

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token

from rankings.services.admissions import ranking_admission_request
from rankings.services.lists import ranking_list_save

ROLES = ["anonymous", "player", "keeper", "adjudicator", "deputy", "panel", "organiser", "admin"]
LINK_ROLES = {"player", "keeper"}
REFUSED = {"L", 401, 403, 404, 405}


@dataclasses.dataclass(frozen=True)
class Case:
    name: str
    method: str
    kwargs: Callable  # ctx → kwargs for reverse()
    expected: str  # one status per role, in the order of ROLES
    data: Callable | None = None  # ctx → the request's body
    json: bool = False  # the API: a JSON body
    query: str = ""
    multipart: bool = False  # the API: a multipart body (an upload) instead of JSON

    def statuses(self) -> dict:
        codes = self.expected.split()
        assert len(codes) == len(ROLES), self
        return {
            role: code if code == "L" else int(code)
            for role, code in zip(ROLES, codes, strict=True)
        }


def T(ctx):  # the tournament
    return {"slug": ctx.slug}


def R(ctx):  # round 1
    return {"slug": ctx.slug, "number": 1}


def TB(ctx):  # table 1 of round 1
    return {"slug": ctx.slug, "number": 1, "table": 1}


def E(ctx):  # start number 1
    return {"slug": ctx.slug, "start_number": 1}


def OTHER(ctx):  # a player other than seat 1's, whose personal link stays as it is
    from tournaments.models import Entry

    other = (
        Entry.objects.filter(tournament__slug=ctx.slug)
        .exclude(link_key=ctx.personal_key)
        .order_by("start_number")
        .first()
    )
    return {"slug": ctx.slug, "start_number": other.start_number}


def D(ctx):  # a decision not initialled yet
    return {"slug": ctx.slug, "pk": ctx.decision}


def S(ctx):  # a bound decision the adjudicator gave alone (TSR 9.6.3), not appealed
    return {"slug": ctx.slug, "pk": ctx.sanction}


def NONE(ctx):
    return {}


def LINK(ctx):  # filled in per role: the role's own key, or a key of no seat
    return {"token": None}


def c(name, method, kwargs, expected, data=None, **extra) -> Case:
    return Case(name, method, kwargs, expected, data, **extra)


def api(name, method, kwargs, expected, data=None, **extra) -> Case:
    return Case(name, method, kwargs, expected, data, json=True, **extra)


def hand(ctx) -> dict:
    """Hand 1 of table 1's sheet again, as the entry page posts it (quick entry)."""
    return {
        "version": ctx.sheet_version,
        "number": 1,
        "mode": "quick",
        "contract": "normal",
        "game_value": 1,
        "plus_seats": "13",
    }


def hand_json(ctx) -> dict:
    return {"version": ctx.sheet_version, "hands": ctx.hands_json}


def scan(ctx) -> dict:
    """A photo of the signed sheet, as the page and the API upload it (multipart)."""
    from tests.scans import jpeg, upload

    return {"file": upload(jpeg())}


# anonymous player keeper adjudicator deputy panel organiser admin
PUBLIC = "200 200 200 200 200 200 200 200"
NOT_FOUND = "404 404 404 404 404 404 404 404"

# A new tournament, as the page and the API take it.
# A registration on the public page or its API (issue 33).
REGISTER = {
    "first_name": "Neue",
    "last_name": "Anmeldung",
    "email": "neue@example.org",
}
# The online registration's window, as the organiser sets it.
WINDOW = {"opens_at": "2026-01-01T10:00:00Z", "closes_at": "2099-01-01T10:00:00Z"}
NEW = {
    "name": "Matrixpokal",
    "starts_on": "2026-12-05",
    "planned_rounds": 3,
    "seating_method": "random",
    "hands_per_match": 24,
    "match_minutes": 100,
    "hands_per_match_five": 30,
    "match_minutes_five": 125,
    "tiebreaks": "start_number",
    "sheet_keeping": "both",
}


def settings(ctx) -> dict:
    """The settings page's form, with a new venue."""
    from tests.tournaments.helpers import settings_form
    from tournaments.models import Tournament

    return settings_form(Tournament.objects.get(slug=ctx.slug), venue="Neuer Saal")


# The lines of each app, checked by its tests/<app>/test_permissions.py.

# tournaments: its pages and its API.
TOURNAMENTS = [
    # Pages ----------------------------------------------------------------------------------------
    c("tournaments:home", "get", NONE, PUBLIC),
    c("tournaments:tournament", "get", T, PUBLIC),
    c("tournaments:entries", "get", T, PUBLIC),
    c(
        "tournaments:entries",
        "post",
        T,
        "403 403 403 403 403 403 302 302",
        lambda ctx: {"first_name": "Neue", "last_name": "Spielerin"},
    ),
    c("tournaments:players-import", "get", T, "L L L 403 403 403 200 200"),
    c(
        "tournaments:players-import",
        "post",
        T,
        "L L L 403 403 403 400 400",
        lambda ctx: {"key": "no-such-upload"},
    ),
    # Who hands out the personal links: the organiser and the adjudicator. Nobody in the
    # world has an address, so the mail is refused with its reason (400), nothing queued.
    c("registration:personal-links-mail", "get", T, "L L L 200 403 403 200 200"),
    c("registration:personal-links-mail", "post", T, "L L L 400 403 403 400 400"),
    c("tournaments:player", "get", E, PUBLIC),
    c("tournaments:entry-edit", "get", E, "L L L 403 403 403 200 200"),
    c(
        "tournaments:entry-edit",
        "post",
        E,
        "L L L 403 403 403 302 302",
        lambda ctx: {"first_name": "Geändert", "last_name": "Name", "start_number": 1},
    ),
    c(
        "tournaments:entry-status",
        "post",
        E,
        "L L L 403 403 403 302 302",
        lambda ctx: {"action": "withdraw"},
    ),
    c("tournaments:entry-replace", "get", E, "L L L 403 403 403 200 200"),
    c(
        "tournaments:entry-replace",
        "post",
        E,
        "L L L 403 403 403 302 302",
        lambda ctx: {"first_name": "Ersatz", "last_name": "Spieler"},
    ),
    c("tournaments:find", "get", T, PUBLIC, query="?q=1"),
    # The check-in at the door: the organisers and the desk (scorekeeper accounts, a role the
    # matrix has no line for); withdrawing the no-shows: organisers, refused once a round is
    # drawn (the matrix's round 1 runs: back to the list with the reason).
    c("registration:check-in", "get", T, "L L L 403 403 403 200 200"),
    c(
        "registration:check-in-entry",
        "post",
        E,
        "L L L 403 403 403 302 302",
        lambda ctx: {"action": "in"},
    ),
    # A claim of a player registered online to be a person on record: organisers decide it
    # at the desk (start number 1 was registered by hand: nothing to decide, back with why).
    c(
        "registration:check-in-claim",
        "post",
        E,
        "L L L 403 403 403 302 302",
        lambda ctx: {"action": "confirm"},
    ),
    # The page of the link mailed to a person's address on record: a made-up one opens nothing.
    c(
        "registration:claim-confirm",
        "get",
        lambda ctx: {"token": "made-up"},
        "404 404 404 404 404 404 404 404",
    ),
    c(
        "registration:claim-confirm",
        "post",
        lambda ctx: {"token": "made-up"},
        "404 404 404 404 404 404 404 404",
    ),
    c("registration:no-shows", "get", T, "L L L 403 403 403 200 200"),
    c("registration:no-shows", "post", T, "L L L 403 403 403 302 302"),
    c("tournaments:standings", "get", T, PUBLIC),
    c("tournaments:standings-table", "get", T, PUBLIC),
    c("tournaments:standings-csv", "get", T, PUBLIC),
    # A new tournament: who may create them (the Organisers group; the matrix's organiser is
    # in it); its settings: the tournament's organisers.
    c("tournaments:tournament-new", "get", NONE, "L L L 403 403 403 200 200"),
    c("tournaments:tournament-new", "post", NONE, "L L L 403 403 403 302 302", lambda ctx: NEW),
    c("tournaments:tournament-new-from", "get", NONE, "L L L 403 403 403 200 200"),
    c("tournaments:tournament-settings", "get", T, "L L L 403 403 403 200 200"),
    c("tournaments:tournament-settings", "post", T, "L L L 403 403 403 302 302", settings),
    # Deleting (no sheet of the matrix's tournament is confirmed) and archiving: its organisers.
    c("tournaments:tournament-delete", "get", T, "L L L 403 403 403 200 200"),
    c("tournaments:tournament-delete", "post", T, "L L L 403 403 403 302 302"),
    c(
        "tournaments:tournament-archive",
        "post",
        T,
        "L L L 403 403 403 302 302",
        lambda ctx: {"action": "archive"},
    ),
    c("tournaments:screen", "get", T, PUBLIC),
    c("tournaments:round-add", "post", T, "L L L 403 403 403 302 302"),
    c("tournaments:tables-of-five", "post", T, "L L L 403 403 403 302 302"),
    c("tournaments:round", "get", R, PUBLIC),
    c("tournaments:round-clock", "get", R, PUBLIC),
    c(
        "tournaments:round-extra-time",
        "post",
        R,
        "L L L 302 302 403 302 302",
        lambda ctx: {"table": 2, "minutes": 5, "reason": "Toilet break"},
    ),
    c(
        "tournaments:round-action",
        "post",
        lambda ctx: {**R(ctx), "action": "end"},
        "L L L 302 403 403 302 302",
    ),
    # Round 1 runs: the organiser is told it cannot be undone or deleted any more.
    c(
        "tournaments:round-action",
        "post",
        lambda ctx: {**R(ctx), "action": "unseat"},
        "L L L 403 403 403 302 302",
    ),
    c(
        "tournaments:round-action",
        "post",
        lambda ctx: {**R(ctx), "action": "delete"},
        "L L L 403 403 403 302 302",
    ),
    c("rankings:rankings", "get", NONE, PUBLIC),
    c("rankings:ranking", "get", lambda ctx: {"slug": ctx.ranking}, PUBLIC),
    # The keeping of a ranking list: its maintainers (of the roles here the admin, appointed;
    # a superuser is none unless appointed) decide; they and whoever may change lists in the
    # administration appoint maintainers; the tournament's organisers ask. The matrix's
    # tournament has asked the matrix's list already.
    c(
        "rankings:ranking-maintainers",
        "post",
        lambda ctx: {"slug": ctx.ranking},
        "L L L 403 403 403 403 302",
        lambda ctx: {"action": "add", "user": ctx.stranger},
    ),
    c(
        "rankings:ranking-admission",
        "post",
        lambda ctx: {"slug": ctx.ranking, "tournament": ctx.slug},
        "L L L 403 403 403 403 302",
        lambda ctx: {"action": "decline", "reason": "No."},
    ),
    c(
        "rankings:ranking-requests",
        "post",
        T,
        "L L L 403 403 403 302 302",
        lambda ctx: {"action": "withdraw", "list": ctx.ranking},
    ),
    c("tournaments:player-history", "get", lambda ctx: {"pk": ctx.player}, PUBLIC),
    # A personal link's key is all it needs: whoever holds it sees the player's page.
    c("registration:personal-link", "get", lambda ctx: {"key": ctx.personal_key}, PUBLIC),
    # Withdrawing through the link is the player's own, before the first draw only: the matrix's
    # round 1 is drawn, so it is refused (400, with the reason), whoever asks.
    c(
        "registration:personal-link-withdraw",
        "post",
        lambda ctx: {"key": ctx.personal_key},
        "400 400 400 400 400 400 400 400",
    ),
    # Replacing a player's link: those who hand links out (organiser, adjudicator).
    c("registration:personal-link-replace", "post", OTHER, "L L L 302 403 403 302 302"),
    # The desk scanned the player's QR code: checked in from his page by those who check in.
    c(
        "registration:personal-check-in",
        "post",
        lambda ctx: {"key": ctx.personal_key},
        "L L L 403 403 403 302 302",
    ),
    c(
        "registration:personal-check-in-undo",
        "post",
        lambda ctx: {"key": ctx.personal_key},
        "L L L 403 403 403 302 302",
    ),
    # The online registration: the players' page is public (the world has no registration
    # open, so a registration sent is refused on its state); the organiser's page is his.
    c("registration:register", "get", T, PUBLIC),
    c("registration:register", "post", T, "400 400 400 400 400 400 400 400", lambda ctx: REGISTER),
    c("registration:registration-manage", "get", T, "L L L 403 403 403 200 200"),
    c(
        "registration:registration-manage",
        "post",
        T,
        "L L L 403 403 403 302 302",
        lambda ctx: {"action": "close"},
    ),
    # A person is corrected and merged by the site's administrators only (and whoever holds
    # the permission to change players): an organiser of the person's tournament neither.
    c(
        "tournaments:person-edit",
        "get",
        lambda ctx: {"pk": ctx.player},
        "L L L 403 403 403 403 200",
    ),
    c(
        "tournaments:person-edit",
        "post",
        lambda ctx: {"pk": ctx.player},
        "L L L 403 403 403 403 302",
        lambda ctx: {"first_name": "Geändert", "last_name": "Person"},
    ),
    c(
        "tournaments:person-merge",
        "get",
        lambda ctx: {"pk": ctx.player},
        "L L L 403 403 403 403 200",
    ),
    c(
        "tournaments:person-merge",
        "post",
        lambda ctx: {"pk": ctx.player},
        "L L L 403 403 403 403 400",
        lambda ctx: {"find": "1", "ddv_number": "999999999"},
    ),
    # API ------------------------------------------------------------------------------------------
    api("api:tournaments", "get", NONE, PUBLIC),
    api("api:tournament", "get", T, PUBLIC),
    api("api:tournaments", "post", NONE, "401 401 401 403 403 403 201 201", lambda ctx: NEW),
    api(
        "api:tournament",
        "patch",
        T,
        "401 401 401 403 403 403 200 200",
        lambda ctx: {"venue": "Neuer Saal"},
    ),
    api("api:tables-of-five", "post", T, "401 401 401 403 403 403 200 200"),
    api("api:tournament", "delete", T, "401 401 401 403 403 403 204 204"),
    api("api:tournament-archive", "post", T, "401 401 401 403 403 403 200 200"),
    api("api:tournament-archive", "delete", T, "401 401 401 403 403 403 200 200"),
    api("api:rounds", "get", T, PUBLIC),
    api("api:rounds", "post", T, "403 403 403 403 403 403 201 201"),
    api("api:round", "get", R, PUBLIC),
    api("api:round", "delete", R, "401 401 401 403 403 403 400 400"),
    api("api:entries", "get", T, PUBLIC),
    api(
        "api:entries",
        "post",
        T,
        "403 403 403 403 403 403 201 201",
        lambda ctx: {"first_name": "Neue", "last_name": "Spielerin"},
    ),
    api(
        "api:players-import",
        "post",
        T,
        "401 401 401 403 403 403 415 415",
        lambda ctx: {"csv": "first_name,last_name\nNeu,Er\n"},
    ),
    # The online registration: registering is public (refused here: none is open), the rest
    # is the organisers'.
    api("api:registrations", "get", T, "401 401 401 403 403 403 200 200"),
    api("api:registrations", "post", T, "400 400 400 400 400 400 400 400", lambda ctx: REGISTER),
    api("api:registration", "get", T, "401 401 401 403 403 403 404 404"),
    api("api:registration", "put", T, "401 401 401 403 403 403 200 200", lambda ctx: WINDOW),
    api("api:registration", "patch", T, "401 401 401 403 403 403 200 200", lambda ctx: WINDOW),
    api("api:registration-close", "post", T, "401 401 401 403 403 403 400 400"),
    api("api:registration-reopen", "post", T, "401 401 401 403 403 403 400 400"),
    api(
        "api:registration-detail",
        "delete",
        lambda ctx: {"slug": ctx.slug, "pk": ctx.waiting},
        "401 401 401 403 403 403 200 200",
    ),
    api(
        "api:registration-admit",
        "post",
        lambda ctx: {"slug": ctx.slug, "pk": ctx.waiting},
        "401 401 401 403 403 403 200 200",
    ),
    api(
        "api:registration-move",
        "post",
        lambda ctx: {"slug": ctx.slug, "pk": ctx.waiting},
        "401 401 401 403 403 403 200 200",
        lambda ctx: {"place": 1},
    ),
    api("api:standings", "get", T, PUBLIC),
    api("api:club-ranking", "get", T, PUBLIC),
    api("api:player", "get", E, PUBLIC),
    api(
        "api:player",
        "patch",
        E,
        "403 403 403 403 403 403 200 200",
        lambda ctx: {"first_name": "Geändert"},
    ),
    api("api:check-in", "get", T, "401 401 401 403 403 403 200 200"),
    # Start number 1 was registered by hand: no claim to decide (400 on claim).
    api("api:entry-claim-confirm", "post", E, "401 401 401 403 403 403 400 400"),
    api("api:entry-claim-set-aside", "post", E, "401 401 401 403 403 403 400 400"),
    api("api:entry-check-in", "post", E, "401 401 401 403 403 403 200 200"),
    api("api:entry-check-in", "delete", E, "401 401 401 403 403 403 200 200"),
    # The matrix's round 1 runs: too late to withdraw the no-shows in one action (400, rounds).
    api("api:no-shows-withdraw", "post", T, "401 401 401 403 403 403 400 400"),
    api("api:rankings", "get", NONE, PUBLIC),
    api("api:ranking", "get", lambda ctx: {"slug": ctx.ranking}, PUBLIC),
    api("api:ranking-admissions", "get", lambda ctx: {"slug": ctx.ranking}, PUBLIC),
    api("api:ranking-maintainers", "get", lambda ctx: {"slug": ctx.ranking}, PUBLIC),
    api(
        "api:ranking-maintainers",
        "post",
        lambda ctx: {"slug": ctx.ranking},
        "401 401 401 403 403 403 403 201",
        lambda ctx: {"user": ctx.stranger},
    ),
    api(
        "api:ranking-maintainer",
        "delete",
        lambda ctx: {"slug": ctx.ranking, "username": "matrix-listkeeper"},
        "401 401 401 403 403 403 403 204",
    ),
    # The tournament is running: not admitted (400 naming the criteria), but declined.
    api(
        "api:ranking-admit",
        "post",
        lambda ctx: {"slug": ctx.ranking, "tournament": ctx.slug},
        "401 401 401 403 403 403 403 400",
    ),
    api(
        "api:ranking-decline",
        "post",
        lambda ctx: {"slug": ctx.ranking, "tournament": ctx.slug},
        "401 401 401 403 403 403 403 200",
        lambda ctx: {"reason": "No."},
    ),
    api("api:ranking-requests", "get", T, "401 401 401 403 403 403 200 200"),
    # Asked already: 400 on the list.
    api(
        "api:ranking-requests",
        "post",
        T,
        "401 401 401 403 403 403 400 400",
        lambda ctx: {"list": ctx.ranking},
    ),
    api(
        "api:ranking-request-withdraw",
        "post",
        lambda ctx: {"slug": ctx.slug, "ranking": ctx.ranking},
        "401 401 401 403 403 403 200 200",
    ),
    api("api:player-history", "get", lambda ctx: {"pk": ctx.player}, PUBLIC),
    api(
        "api:player-history",
        "patch",
        lambda ctx: {"pk": ctx.player},
        "403 403 403 403 403 403 403 200",
        lambda ctx: {"club": "Matrix"},
    ),
    api(
        "api:person-merge",
        "post",
        lambda ctx: {"pk": ctx.player},
        "401 401 401 403 403 403 403 400",
        lambda ctx: {"ddv_number": "999999999"},
    ),
    api("api:find", "get", T, PUBLIC, query="?q=1"),
    api("api:round-clock", "get", R, PUBLIC),
    api(
        "api:table-extra-time",
        "post",
        lambda ctx: {**R(ctx), "table": 2},
        "401 401 401 201 201 403 201 201",
        lambda ctx: {"minutes": 5, "reason": "Toilet break"},
    ),
    api("api:entry-withdraw", "post", E, "401 401 401 403 403 403 200 200"),
    api("api:entry-reinstate", "post", E, "401 401 401 403 403 403 400 400"),
    # The personal link's API takes its key in X-Player-Key: without one, 400 whoever asks.
    api("api:personal", "get", NONE, "400 400 400 400 400 400 400 400"),
    api("api:personal-withdraw", "post", NONE, "400 400 400 400 400 400 400 400"),
    api("api:personal-link", "get", E, "401 401 401 200 403 403 200 200"),
    api("api:personal-link-replace", "post", OTHER, "401 401 401 200 403 403 200 200"),
    api("api:round-seat", "post", R, "401 401 401 403 403 403 400 400"),
    api("api:round-unseat", "post", R, "401 401 401 403 403 403 400 400"),
    api("api:round-publish", "post", R, "401 401 401 403 403 403 200 200"),
    api("api:round-start", "post", R, "401 401 401 400 403 403 400 400"),
    api("api:round-end", "post", R, "401 401 401 200 403 403 200 200"),
    api("api:round-close", "post", R, "401 401 401 403 403 403 400 400"),
]

# scoring: the table's page, the scoresheets and the rules.
SCORING = [
    # The table's page -----------------------------------------------------------------------------
    c("scoring:table", "get", TB, PUBLIC),
    c("scoring:table-live", "get", TB, PUBLIC),
    # The desk: every table's sheet of a round, for the staff who read sheets ---------------------
    c("scoring:desk", "get", R, "L L L 200 200 200 200 200"),
    c("scoring:desk-list", "get", R, "L L L 200 200 200 200 200"),
    # Scoresheets: staff pages and the players' links ----------------------------------------------
    c("scoring:sheet", "get", TB, "L L L 200 200 200 200 200"),
    c("scoring:sheet-check", "post", TB, "L L L 200 200 200 200 200", hand),
    c("scoring:sheet-save", "post", TB, "L L L 302 403 403 302 302", hand),
    c(
        "scoring:sheet-delete",
        "post",
        TB,
        "L L L 422 403 403 422 422",
        lambda ctx: {"version": ctx.sheet_version, "number": 4},
    ),
    # The round runs: before the adjudicator announces its end, nobody notes it (TSR 8.5.1).
    c(
        "scoring:sheet-time-over",
        "post",
        TB,
        "L L L 422 403 403 422 422",
        lambda ctx: {"version": ctx.sheet_version, "after": 4},
    ),
    c(
        "scoring:sheet-submit",
        "post",
        TB,
        "L L L 422 403 403 422 422",
        lambda ctx: {"version": ctx.sheet_version},
    ),
    c(
        "scoring:sheet-confirm",
        "post",
        TB,
        "L L L 422 403 403 422 422",
        lambda ctx: {"version": ctx.sheet_version},
    ),
    c(
        "scoring:sheet-reopen",
        "post",
        TB,
        "L L L 403 403 403 422 422",
        lambda ctx: {"version": ctx.sheet_version, "reason": "x"},
    ),
    # Any player of the table or sheet staff sends a handed-in sheet back (TSR 7.3.2); this one
    # is a draft.
    c(
        "scoring:sheet-return",
        "post",
        TB,
        "L L L 422 403 403 422 422",
        lambda ctx: {"version": ctx.sheet_version, "reason": "Hand 2"},
    ),
    c("scoring:sheet-history", "get", TB, "L L L 200 200 200 200 200"),
    # A table that cannot finish: whoever may rule there, or the organiser, ends its sheet; not
    # ended, there is nothing to take back. A replay (TSR 9.1.3): the adjudicators only.
    c(
        "scoring:sheet-end-early",
        "post",
        TB,
        "L L L 302 302 403 302 302",
        lambda ctx: {"version": ctx.sheet_version, "reason": "Seat 3 left"},
    ),
    c(
        "scoring:sheet-end-undo",
        "post",
        TB,
        "L L L 422 422 403 422 422",
        lambda ctx: {"version": ctx.sheet_version},
    ),
    c(
        "scoring:sheet-replay",
        "post",
        TB,
        "L L L 302 302 403 403 302",
        lambda ctx: {"version": ctx.sheet_version, "replay": "consent"},
    ),
    # TSR 3.1.1, 8.4.1: the organiser or an adjudicator hands the sheet over; no link does.
    c(
        "scoring:sheet-keeper",
        "post",
        TB,
        "L L L 302 403 403 302 302",
        lambda ctx: {"version": ctx.sheet_version, "seat": 2},
    ),
    # The desk confirms from the signed paper sheet (TSR 7.3.4): this draft is not complete.
    c(
        "scoring:sheet-confirm",
        "post",
        TB,
        "L L L 422 403 403 422 422",
        lambda ctx: {"version": ctx.sheet_version, "from_signed_sheet": "1"},
    ),
    # The second entry of a paper sheet (double entry), the desk's: the tournament does not
    # check its paper sheets so, and this sheet is a draft.
    c("scoring:sheet-second", "get", TB, "L L L 200 200 200 200 200"),
    c("scoring:sheet-second-check", "post", TB, "L L L 200 200 200 200 200", hand),
    c("scoring:sheet-second-save", "post", TB, "L L L 422 403 403 422 422", hand),
    c(
        "scoring:sheet-second-delete",
        "post",
        TB,
        "L L L 422 403 403 422 422",
        lambda ctx: {"version": 0, "number": 1},
    ),
    c(
        "scoring:sheet-second-time-over",
        "post",
        TB,
        "L L L 422 403 403 422 422",
        lambda ctx: {"version": 0, "after": 1},
    ),
    c("scoring:sheet-second-compare", "post", TB, "L L L 422 403 403 422 422"),
    c("scoring:sheet-second-discard", "post", TB, "L L L 302 403 403 302 302"),
    c("scoring:sheet-differences", "get", TB, "L L L 200 200 200 200 200"),
    c(
        "scoring:sheet-differences",
        "post",
        TB,
        "L L L 422 403 403 422 422",
        lambda ctx: {"hand-1": "first"},
    ),
    # Opening a blind first entry (double entry): recorded only where it is blind, which the
    # matrix's sheet is not; the page goes back, the API answers the sheet.
    c("scoring:sheet-first-entry-open", "post", TB, "L L L 302 302 302 302 302"),
    c("scoring:sheet-link", "get", LINK, "404 200 200 404 404 404 404 404"),
    c("scoring:sheet-link-check", "post", LINK, "404 200 200 404 404 404 404 404", hand),
    c("scoring:sheet-link-save", "post", LINK, "404 403 302 404 404 404 404 404", hand),
    c(
        "scoring:sheet-link-delete",
        "post",
        LINK,
        "404 403 422 404 404 404 404 404",
        lambda ctx: {"version": ctx.sheet_version, "number": 4},
    ),
    c(
        "scoring:sheet-link-time-over",
        "post",
        LINK,
        "404 403 422 404 404 404 404 404",
        lambda ctx: {"version": ctx.sheet_version, "after": 4},
    ),
    c(
        "scoring:sheet-link-submit",
        "post",
        LINK,
        "404 403 422 404 404 404 404 404",
        lambda ctx: {"version": ctx.sheet_version},
    ),
    c(
        "scoring:sheet-link-confirm",
        "post",
        LINK,
        "404 422 422 404 404 404 404 404",
        lambda ctx: {"version": ctx.sheet_version},
    ),
    c(
        "scoring:sheet-link-reopen",
        "post",
        LINK,
        "404 403 403 404 404 404 404 404",
        lambda ctx: {"version": ctx.sheet_version, "reason": "x"},
    ),
    c(
        "scoring:sheet-link-return",
        "post",
        LINK,
        "404 422 422 404 404 404 404 404",
        lambda ctx: {"version": ctx.sheet_version, "reason": "Hand 2"},
    ),
    c("scoring:sheet-link-history", "get", LINK, "404 200 200 404 404 404 404 404"),
    # No seat's link ends a sheet early, takes it back or records a replay.
    c(
        "scoring:sheet-link-end-early",
        "post",
        LINK,
        "404 403 403 404 404 404 404 404",
        lambda ctx: {"version": ctx.sheet_version, "reason": "Seat 3 left"},
    ),
    c(
        "scoring:sheet-link-end-undo",
        "post",
        LINK,
        "404 403 403 404 404 404 404 404",
        lambda ctx: {"version": ctx.sheet_version},
    ),
    c(
        "scoring:sheet-link-replay",
        "post",
        LINK,
        "404 403 403 404 404 404 404 404",
        lambda ctx: {"version": ctx.sheet_version, "replay": "consent"},
    ),
    # The signed paper sheet's photo (TSR 7.3.4): the table's links and the sheet's readers see
    # it; the scorekeeper's link and the sheet staff attach it.
    c("scoring:sheet-scan", "get", TB, "L L L 200 200 200 200 200"),
    c("scoring:sheet-scan", "post", TB, "L L L 302 403 403 302 302", scan),
    c("scoring:sheet-link-scan", "get", LINK, "404 200 200 404 404 404 404 404"),
    c("scoring:sheet-link-scan", "post", LINK, "404 403 302 404 404 404 404 404", scan),
    # The entry pages' service worker (static/js/sw.js), public as any static file.
    c("scoring:service-worker", "get", NONE, PUBLIC),
    # API: the rules (public, rate-limited per client) ---------------------------------------------
    api("api:rules-hand-value", "post", NONE, "400 400 400 400 400 400 400 400", lambda ctx: {}),
    api("api:rules-penalty", "post", NONE, "400 400 400 400 400 400 400 400", lambda ctx: {}),
    api(
        "api:rules-scoresheet-check",
        "post",
        NONE,
        "400 400 400 400 400 400 400 400",
        lambda ctx: {},
    ),
    # API: scoresheets -----------------------------------------------------------------------------
    api("api:scoresheet", "get", TB, "401 200 200 200 200 200 200 200"),
    api("api:scoresheet", "put", TB, "401 403 200 200 403 403 200 200", hand_json),
    api(
        "api:scoresheet-submit",
        "post",
        TB,
        "401 403 400 400 403 403 400 400",
        lambda ctx: {"version": ctx.sheet_version},
    ),
    api(
        "api:scoresheet-confirm",
        "post",
        TB,
        "401 400 400 400 403 403 400 400",
        lambda ctx: {"version": ctx.sheet_version},
    ),
    api(
        "api:scoresheet-reopen",
        "post",
        TB,
        "401 403 403 403 403 403 400 400",
        lambda ctx: {"version": ctx.sheet_version, "reason": "x"},
    ),
    api(
        "api:scoresheet-return",
        "post",
        TB,
        "401 400 400 400 403 403 400 400",
        lambda ctx: {"version": ctx.sheet_version, "reason": "Hand 2"},
    ),
    # Hands 2 to 4 carry decisions: none of them is struck out (TSR 8.2.2).
    api(
        "api:scoresheet-strike",
        "post",
        TB,
        "401 403 400 400 403 403 400 400",
        lambda ctx: {"version": ctx.sheet_version, "number": 4},
    ),
    api(
        "api:scoresheet-keeper",
        "post",
        TB,
        "401 403 403 200 403 403 200 200",
        lambda ctx: {"version": ctx.sheet_version, "seat": 2},
    ),
    api(
        "api:scoresheet-end-early",
        "post",
        TB,
        "401 403 403 200 200 403 200 200",
        lambda ctx: {"version": ctx.sheet_version, "reason": "Seat 3 left"},
    ),
    api(
        "api:scoresheet-end-undo",
        "post",
        TB,
        "401 403 403 400 400 403 400 400",
        lambda ctx: {"version": ctx.sheet_version},
    ),
    api(
        "api:scoresheet-replay",
        "post",
        TB,
        "401 403 403 200 200 403 403 200",
        lambda ctx: {"version": ctx.sheet_version, "replay": "consent"},
    ),
    api("api:scoresheet-changes", "get", TB, "401 200 200 200 200 200 200 200"),
    api(
        "api:scoresheet-confirm",
        "post",
        TB,
        "401 403 403 400 403 403 400 400",
        lambda ctx: {"version": ctx.sheet_version, "from_signed_sheet": True},
    ),
    # Double entry: the desk's, through its accounts; off in this tournament, and the sheet a
    # draft.
    api("api:scoresheet-second-entry", "get", TB, "401 403 403 404 404 404 404 404"),
    api(
        "api:scoresheet-second-entry",
        "put",
        TB,
        "401 403 403 400 403 403 400 400",
        lambda ctx: {"hands": ctx.hands_json},
    ),
    api("api:scoresheet-second-entry", "delete", TB, "401 403 403 204 403 403 204 204"),
    api("api:scoresheet-second-entry-compare", "post", TB, "401 403 403 400 403 403 400 400"),
    api(
        "api:scoresheet-second-entry-settle",
        "post",
        TB,
        "401 403 403 400 403 403 400 400",
        lambda ctx: {"choices": [{"hand": 1, "take": "first"}]},
    ),
    api("api:scoresheet-first-entry-open", "post", TB, "401 403 403 200 200 200 200 200"),
    api("api:scoresheet-scan", "get", TB, "401 200 200 200 200 200 200 200"),
    api("api:scoresheet-scan", "post", TB, "401 403 201 201 403 403 201 201", scan, multipart=True),
    # Every seat's private link: the organiser and the adjudicator only, never a seat's key.
    api("api:table-links", "get", TB, "401 403 403 200 403 403 200 200"),
    # The desk: the staff who read sheets, never a seat's key.
    api("api:desk", "get", R, "401 403 403 200 200 200 200 200"),
]

# adjudication: its pages and its API.
ADJUDICATION = [
    # Pages ----------------------------------------------------------------------------------------
    c("adjudication:adjudication", "get", T, "L L L 200 200 200 200 200"),
    # TSR 8.2.1: the adjudicator and his deputy rule in the first instance; a panel member only
    # as deputy, since the panel hears the appeals.
    c("adjudication:complaint-add", "get", TB, "L L L 200 200 403 403 200"),
    c(
        "adjudication:complaint-add",
        "post",
        TB,
        "L L L 302 302 403 403 302",
        lambda ctx: {"hand_number": 3, "offender": 2, "complainant": 1, "description": "Revoke"},
    ),
    c("adjudication:complaint-pick", "get", T, "L L L 302 302 403 403 302"),
    c("adjudication:decision", "get", D, "L L L 200 200 200 200 200"),
    c(
        "adjudication:decision-ruling",
        "post",
        D,
        "L L L 302 302 403 403 302",
        lambda ctx: {
            "severity": "major",
            "contract": "normal",
            "announcements": 0,
            "written_line": "next",
        },
    ),
    # TSR 8.2.2: a member of the panel initials too.
    c("adjudication:decision-initial", "post", D, "L L L 302 302 302 403 302"),
    c(
        "adjudication:appeal-lodge",
        "post",
        lambda ctx: {"slug": ctx.slug, "pk": ctx.initialled},
        "L L L 302 302 302 403 302",
        lambda ctx: {"appellant": 2, "grounds": "I had no club"},
    ),
    c(
        "adjudication:appeal-decide",
        "post",
        lambda ctx: {"slug": ctx.slug, "pk": ctx.appealed},
        "L L L 403 403 302 403 302",
        lambda ctx: {
            "outcome": "uphold",
            "members": ctx.panel_ids,
            "reasons": "As ruled.",
            "interruption": 0,
        },
    ),
    c("adjudication:sanction-add", "get", T, "L L L 200 200 200 403 200"),
    c(
        "adjudication:sanction-add",
        "post",
        T,
        "L L L 422 422 302 403 302",
        lambda ctx: {
            "start_number": 1,
            "round": 1,
            "kind": "warning",
            "reasons": "Loud",
            "members": ctx.panel_ids,
        },
    ),
    # Any decision of the adjudicator can be appealed, a bound decision's points too (TSR
    # 8.2.1, 9.6.3): anyone who adjudicates records the appeal; the panel decides it.
    c("adjudication:sanction", "get", S, "L L L 200 200 200 200 200"),
    c(
        "adjudication:sanction-appeal-lodge",
        "post",
        S,
        "L L L 302 302 302 403 302",
        lambda ctx: {"grounds": "Not my phone"},
    ),
    c(
        "adjudication:sanction-appeal-decide",
        "post",
        lambda ctx: {"slug": ctx.slug, "pk": ctx.sanction_appealed},
        "L L L 403 403 302 403 302",
        lambda ctx: {
            "outcome": "uphold",
            "members": ctx.panel_ids,
            "reasons": "As decided.",
            "interruption": 0,
        },
    ),
    c("adjudication:offences", "get", T, "L L L 200 200 200 200 200"),
    c(
        "adjudication:offences",
        "post",
        T,
        "L L L 302 302 302 302 302",
        lambda ctx: {"name": "Mobile phone", "kind": "breach", "severity": "minor"},
    ),
    c("adjudication:offences-default", "post", T, "L L L 302 302 302 302 302"),
    c(
        "adjudication:offence-delete",
        "post",
        lambda ctx: {"slug": ctx.slug, "pk": ctx.offence},
        "L L L 302 302 302 302 302",
    ),
    c("adjudication:adjudication-log", "get", T, "L L L 200 200 200 200 200"),
    c("adjudication:adjudication-log-csv", "get", T, "L L L 200 200 200 200 200"),
    c("adjudication:staff", "get", T, "L L L 403 403 403 200 200"),
    c(
        "adjudication:staff",
        "post",
        T,
        "L L L 403 403 403 302 302",
        lambda ctx: {"username": ctx.stranger, "role": "adjudicator"},
    ),
    c(
        "adjudication:staff-invite",
        "post",
        T,
        "L L L 403 403 403 302 302",
        lambda ctx: {"name": "Neue Richterin", "email": "neu@example.org", "role": "panel"},
    ),
    c(
        "adjudication:staff-invite-again",
        "post",
        lambda ctx: {"slug": ctx.slug, "pk": ctx.invited},
        "L L L 403 403 403 302 302",
    ),
    c(
        "adjudication:staff-invitation-withdraw",
        "post",
        lambda ctx: {"slug": ctx.slug, "pk": ctx.invited},
        "L L L 403 403 403 302 302",
    ),
    c(
        "adjudication:staff-revoke",
        "post",
        lambda ctx: {"slug": ctx.slug, "pk": ctx.grant},
        "L L L 403 403 403 302 302",
    ),
    c(
        "adjudication:staff-offer-withdraw",
        "post",
        lambda ctx: {"slug": ctx.slug, "pk": ctx.role_offer},
        "L L L 403 403 403 302 302",
    ),
    # API ------------------------------------------------------------------------------------------
    api("api:decisions", "get", T, "401 403 403 200 200 200 200 200"),
    api(
        "api:decisions",
        "post",
        T,
        "401 403 403 201 201 403 403 201",
        lambda ctx: {"round": 1, "table": 1, "hand_number": 3, "offender": 2, "description": "x"},
    ),
    api("api:decision", "get", D, "401 403 403 200 200 200 200 200"),
    api(
        "api:decision-ruling",
        "post",
        D,
        "401 403 403 200 200 403 403 200",
        lambda ctx: {"severity": "major", "written_line": "next"},
    ),
    # TSR 8.2.2: a member of the panel initials too.
    api("api:decision-initial", "post", D, "401 403 403 200 200 200 403 200"),
    api(
        "api:decision-appeal",
        "post",
        lambda ctx: {"slug": ctx.slug, "pk": ctx.initialled},
        "401 403 403 201 201 201 403 201",
        lambda ctx: {"appellant": 2, "grounds": "I had no club"},
    ),
    api("api:appeals", "get", T, "401 403 403 200 200 200 200 200"),
    api(
        "api:appeal-decide",
        "post",
        lambda ctx: {"slug": ctx.slug, "pk": ctx.appeal},
        "401 403 403 403 403 200 403 200",
        lambda ctx: {"outcome": "uphold", "members": ctx.panel_names, "reasons": "As ruled."},
    ),
    api("api:sanctions", "get", T, "401 403 403 200 200 200 200 200"),
    api(
        "api:sanctions",
        "post",
        T,
        "401 403 403 403 403 201 403 201",
        lambda ctx: {
            "start_number": 1,
            "round": 1,
            "kind": "warning",
            "reasons": "Loud",
            "members": ctx.panel_names,
        },
    ),
    api(
        "api:sanction-appeal",
        "post",
        S,
        "401 403 403 201 201 201 403 201",
        lambda ctx: {"grounds": "Not my phone"},
    ),
    api("api:offences", "get", T, "401 403 403 200 200 200 200 200"),
    api(
        "api:offences",
        "post",
        T,
        "401 403 403 201 201 201 201 201",
        lambda ctx: {"name": "Mobile phone", "kind": "breach", "severity": "minor"},
    ),
    api("api:offences-defaults", "post", T, "401 403 403 201 201 201 201 201"),
    api(
        "api:offence",
        "put",
        lambda ctx: {"slug": ctx.slug, "pk": ctx.offence},
        "401 403 403 200 200 200 200 200",
        lambda ctx: {"name": "Renamed", "kind": "breach", "severity": "minor"},
    ),
    api(
        "api:offence",
        "delete",
        lambda ctx: {"slug": ctx.slug, "pk": ctx.offence},
        "401 403 403 204 204 204 204 204",
    ),
    api("api:adjudication-log", "get", T, "401 403 403 200 200 200 200 200"),
    api("api:roles", "get", T, "401 403 403 200 200 200 200 200"),
    # A role named by user name is offered (202), whether the name has an account or not.
    api(
        "api:roles",
        "post",
        T,
        "401 403 403 403 403 403 202 202",
        lambda ctx: {"username": ctx.stranger, "role": "adjudicator"},
    ),
    api(
        "api:roles",
        "post",
        T,
        "401 403 403 403 403 403 202 202",
        lambda ctx: {"name": "Neue Richterin", "email": "neu@example.org", "role": "panel"},
    ),
    api(
        "api:role",
        "delete",
        lambda ctx: {"slug": ctx.slug, "pk": ctx.grant},
        "401 403 403 403 403 403 204 204",
    ),
    api("api:role-offers", "get", T, "401 403 403 403 403 403 200 200"),
    api(
        "api:role-offer",
        "delete",
        lambda ctx: {"slug": ctx.slug, "pk": ctx.role_offer},
        "401 403 403 403 403 403 204 204",
    ),
    api("api:invitations", "get", T, "401 403 403 403 403 403 200 200"),
    api(
        "api:invitation",
        "delete",
        lambda ctx: {"slug": ctx.slug, "pk": ctx.invited},
        "401 403 403 403 403 403 204 204",
    ),
    api(
        "api:invitation-again",
        "post",
        lambda ctx: {"slug": ctx.slug, "pk": ctx.invited},
        "401 403 403 403 403 403 202 202",
    ),
]

# printing: the printouts and their jobs.
PRINTING = [
    # Printouts, made by jobs ----------------------------------------------------------------------
    c("printing:standings-print", "post", T, "L L L 403 403 403 302 302"),
    c(
        "printing:round-print",
        "post",
        lambda ctx: {**R(ctx), "kind": "tables"},
        "L L L 403 403 403 302 302",
    ),
    c(
        "printing:round-print",
        "post",
        lambda ctx: {**R(ctx), "kind": "slips"},
        "L L L 403 403 403 302 302",
    ),
    c("printing:entries-print", "post", T, "L L L 403 403 403 302 302"),
    c("printing:personal-cards-print", "post", T, "L L L 403 403 403 302 302"),
    c("printing:personal-card-print", "post", E, "L L L 403 403 403 302 302"),
    c("printing:sheet-pdf", "post", TB, "L L L 403 403 403 302 302"),
    # The jobs -------------------------------------------------------------------------------------
    c("printing:job", "get", lambda ctx: {"pk": ctx.job}, "L L L 404 404 404 200 200"),
    c("printing:job-download", "get", lambda ctx: {"pk": ctx.job}, "L L L 404 404 404 200 200"),
    # teams: the printouts of a competition and its venue screen (the organiser organises it;
    # the rest hold no role in it) -------------------------------------------------------------
    c(
        "printing:team-line-ups-pdf",
        "get",
        lambda ctx: {"slug": ctx.competition, "number": 1},
        "L L L 403 403 403 200 200",
    ),
    c("printing:team-table-pdf", "get", lambda ctx: {"slug": ctx.competition}, PUBLIC),
    # The matrix's league has no season plan: nothing to print, for anyone (tests/printing/).
    c("printing:team-plan-pdf", "get", lambda ctx: {"slug": ctx.competition}, NOT_FOUND),
    c("teams:team-screen", "get", lambda ctx: {"slug": ctx.competition}, PUBLIC),
]

# The site's own routes (config.urls: health, login, passwords, languages, the API's token,
# schema and docs, Django's admin), checked by tests/test_permissions.py.
SITE = [
    # Pages ----------------------------------------------------------------------------------------
    c("healthz", "get", NONE, PUBLIC),
    # The browser's own ask for an icon: on to the static file, for everyone.
    c("favicon", "get", NONE, "301 301 301 301 301 301 301 301"),
    c("login", "get", NONE, PUBLIC),
    # The login's second step, only after the right password of an account with a second factor.
    c("login-code", "get", NONE, "L L L L L L L L"),
    c("logout", "post", NONE, "302 302 302 302 302 302 302 302"),
    # Each account's own second factor (config/second_factor/): a wrong first code keeps none.
    c("second-factor", "get", NONE, "L L L 200 200 200 200 200"),
    c(
        "second-factor",
        "post",
        NONE,
        "L L L 400 400 400 400 400",
        lambda ctx: {"action": "add", "code": "000000"},
    ),
    # Passwords (config/accounts.py): public; a link of no account shows that it does not work.
    c("password_reset", "get", NONE, PUBLIC),
    c(
        "password_reset",
        "post",
        NONE,
        "302 302 302 302 302 302 302 302",
        lambda ctx: {"email": "nobody@example.org"},
    ),
    c("password_reset_done", "get", NONE, PUBLIC),
    c("password_reset_confirm", "get", lambda ctx: {"uidb64": "MA", "token": "x-y"}, PUBLIC),
    c("password_reset_complete", "get", NONE, PUBLIC),
    c("invitation-token", "get", lambda ctx: {"uidb64": "MA", "token": "x-y"}, PUBLIC),
    # An invitation of an address without an account: whoever has the link chooses a password.
    c("invitation", "get", lambda ctx: {"key": ctx.invitation_key}, PUBLIC),
    # "Your roles": every account its own; an offer is answered by its account alone (the
    # adjudicator's here), anyone else's is no offer to him (404).
    c("roles", "get", NONE, "L L L 200 200 200 200 200"),
    c(
        "role-offer-answer",
        "post",
        lambda ctx: {"pk": ctx.role_offer},
        "L L L 302 404 404 404 404",
        lambda ctx: {"answer": "accept"},
    ),
    c(
        "organiser-offer-answer",
        "post",
        lambda ctx: {"pk": ctx.organiser_offer},
        "L L L 302 404 404 404 404",
        lambda ctx: {"answer": "accept"},
    ),
    c(
        "set_language",
        "post",
        NONE,
        "302 302 302 302 302 302 302 302",
        lambda ctx: {"language": "en"},
    ),
    c("language", "get", lambda ctx: {"code": "en"}, "302 302 302 302 302 302 302 302"),
    c("api-schema", "get", NONE, PUBLIC),
    c("api-docs", "get", NONE, PUBLIC),
    c("admin:index", "get", NONE, "302 302 302 302 302 302 302 200"),
    # API: the token -------------------------------------------------------------------------------
    api(
        "api:token",
        "post",
        NONE,
        "400 400 400 400 400 400 400 400",
        lambda ctx: {"username": "x", "password": "y"},
    ),
]

# teams: the API of team competitions (issue 34), checked by tests/teams/test_api_permissions.py.
# The matrix's organiser organises the competition (a league of four teams in one group on match
# day 1, and a fifth team that plays on no match day); the admin, a superuser, does too.


def CO(ctx):  # the competition
    return {"slug": ctx.api_competition}


def TM(ctx):  # its first team
    return {"slug": ctx.api_competition, "team_id": ctx.api_team}


def MD(ctx):  # match day 1 and its first team
    return {"slug": ctx.api_competition, "number": 1, "team_id": ctx.api_team}


# anonymous player keeper adjudicator deputy panel organiser admin
COMPETITION_WRITE = "401 401 401 403 403 403 {0} {0}"
TEAMS_API = [
    api("api:competitions", "get", NONE, PUBLIC),
    api(
        "api:competitions",
        "post",
        NONE,
        COMPETITION_WRITE.format(201),
        lambda ctx: {"name": "Matrixliga", "season": "2026/27"},
    ),
    api("api:competition", "get", CO, PUBLIC),
    api(
        "api:competition",
        "patch",
        CO,
        COMPETITION_WRITE.format(200),
        lambda ctx: {"season": "2027/28", "relegation_places": 1},
    ),
    api(
        "api:competition-organisers",
        "post",
        CO,
        COMPETITION_WRITE.format(202),
        lambda ctx: {"username": ctx.stranger},
    ),
    api("api:teams", "get", CO, PUBLIC),
    api("api:teams", "post", CO, COMPETITION_WRITE.format(201), lambda ctx: {"name": "Neu"}),
    api("api:team", "get", TM, PUBLIC),
    api("api:team", "patch", TM, COMPETITION_WRITE.format(200), lambda ctx: {"club": "DK Neu"}),
    # The fifth team, on no match day, may go; one that played may not (tests/teams/).
    api(
        "api:team",
        "delete",
        lambda ctx: {"slug": ctx.api_competition, "team_id": ctx.spare_team},
        COMPETITION_WRITE.format(204),
    ),
    api(
        "api:team-players",
        "post",
        TM,
        COMPETITION_WRITE.format(201),
        lambda ctx: {"first_name": "Neu", "last_name": "Ling", "club": "DK"},
    ),
    api(
        "api:team-player",
        "delete",
        lambda ctx: {**TM(ctx), "player_id": ctx.reserve},
        COMPETITION_WRITE.format(200),
    ),
    api(
        "api:team-captain",
        "post",
        TM,
        COMPETITION_WRITE.format(200),
        lambda ctx: {"player_id": ctx.reserve},
    ),
    api("api:match-days", "get", CO, PUBLIC),
    api(
        "api:match-days",
        "post",
        CO,
        COMPETITION_WRITE.format(201),
        lambda ctx: {"starts_on": "2027-01-16", "rounds": 2, "groups": [ctx.group]},
    ),
    api("api:match-day", "get", lambda ctx: {"slug": ctx.api_competition, "number": 1}, PUBLIC),
    # Match day 1 has no round drawn: whoever may create it deletes it.
    api(
        "api:match-day",
        "delete",
        lambda ctx: {"slug": ctx.api_competition, "number": 1},
        COMPETITION_WRITE.format(204),
    ),
    api("api:line-up", "get", MD, PUBLIC),
    api(
        "api:line-up",
        "put",
        MD,
        COMPETITION_WRITE.format(200),
        lambda ctx: {"players": ctx.api_line_up, "from_round": 2},
    ),
    # Match day 1 plays groups: no tie to decide, said on ``through`` (knock-out: tests/teams/).
    api(
        "api:tie-decide",
        "post",
        MD,
        COMPETITION_WRITE.format(400),
        lambda ctx: {"through": True},
    ),
    api("api:season-table", "get", CO, PUBLIC),
    api("api:bracket", "get", CO, PUBLIC),
    # The league has match day 1 and no season plan (issue 46): nothing to read, and the
    # organiser's draw is refused on ``plan``, a swap on ``plan`` (tests/teams/test_plan*).
    api("api:season-plan", "get", CO, NOT_FOUND),
    api(
        "api:season-plan",
        "post",
        CO,
        COMPETITION_WRITE.format(400),
        lambda ctx: {"match_days": 3},
    ),
    api(
        "api:season-plan-swap",
        "post",
        CO,
        COMPETITION_WRITE.format(400),
        lambda ctx: {"match_day": 2, "teams": ctx.group[:2]},
    ),
]

# teams: the pages of team competitions (issue 34), checked by tests/teams/test_permissions.py.
# The competition is the matrix organiser's; the other staff are signed in but organise nothing.
MANAGE = "L L L 403 403 403 200 200"
MANAGED = "L L L 403 403 403 302 302"


def C(ctx):  # the public league
    return {"slug": ctx.competition}


def TEAM(ctx):  # its first team
    return {"slug": ctx.competition, "pk": ctx.team}


def MEMBER(ctx):  # the first team's reserve, in no line-up
    return {"slug": ctx.competition, "pk": ctx.team, "member": ctx.member}


def DAY(ctx):  # match day 1
    return {"slug": ctx.competition, "number": 1}


NEW_COMPETITION = {
    "name": "Matrixliga",
    "kind": "league",
    "season": "2027",
    "promotion_places": "1",
    "relegation_places": "1",
    "ties": "shared",
    "tiebreaks": "game_points,direct",
    "is_public": "on",
}


def line_up(ctx) -> dict:
    """The first team's line-up with its reserve at place 4, from round 1."""
    return {"from_round": "1", **{f"place_{n}": str(p) for n, p in enumerate(ctx.line_up, 1)}}


TEAMS = [
    # Pages ----------------------------------------------------------------------------------------
    c("teams:competitions", "get", NONE, PUBLIC),
    c("teams:competition-new", "get", NONE, MANAGE),
    c("teams:competition-new", "post", NONE, MANAGED, lambda ctx: NEW_COMPETITION),
    c("teams:competition", "get", C, PUBLIC),
    c("teams:competition-settings", "get", C, MANAGE),
    c("teams:competition-settings", "post", C, MANAGED, lambda ctx: NEW_COMPETITION),
    c(
        "teams:competition-organisers",
        "post",
        C,
        MANAGED,
        lambda ctx: {"user": "matrix-stranger"},
    ),
    c(
        "teams:competition-organiser-offer-withdraw",
        "post",
        lambda ctx: {"slug": ctx.competition, "pk": ctx.organiser_offer},
        MANAGED,
    ),
    c("teams:season-table", "get", C, PUBLIC),
    c("teams:season-plan", "get", C, PUBLIC),
    # Match day 1 is made: the plan is not drawn any more (400, the form says why).
    c(
        "teams:season-plan-draw",
        "post",
        C,
        "L L L 403 403 403 400 400",
        lambda ctx: {"match_days": "3"},
    ),
    c(
        "teams:season-plan-swap",
        "post",
        C,
        MANAGED,
        lambda ctx: {"match_day": "2", "first": str(ctx.team), "second": str(ctx.team)},
    ),
    c("teams:bracket", "get", C, PUBLIC),
    c("teams:team-new", "get", C, MANAGE),
    c("teams:team-new", "post", C, MANAGED, lambda ctx: {"name": "Matrix-Team", "club": ""}),
    c("teams:team", "get", TEAM, PUBLIC),
    c("teams:team", "get", TEAM, PUBLIC, query="?q=Matrix"),
    c("teams:team-edit", "post", TEAM, MANAGED, lambda ctx: {"name": "Umbenannt", "club": ""}),
    c("teams:team-delete", "post", TEAM, MANAGED),
    c("teams:team-member-add", "post", TEAM, MANAGED, lambda ctx: {"player": ctx.player}),
    c("teams:team-member-remove", "post", MEMBER, MANAGED),
    c("teams:team-captain", "post", MEMBER, MANAGED),
    c("teams:match-day-new", "get", C, MANAGE),
    c(
        "teams:match-day-new",
        "post",
        C,
        MANAGED,
        lambda ctx: {
            "starts_on": "2026-12-12",
            "rounds": "1",
            "stage": "groups",
            "grouping": "draw",
        },
    ),
    c("teams:match-day", "get", DAY, PUBLIC),
    c("teams:match-day-delete", "get", DAY, MANAGE),
    c("teams:match-day-delete", "post", DAY, MANAGED),
    c("teams:line-up", "get", lambda ctx: {**DAY(ctx), "team": ctx.team}, MANAGE),
    c("teams:line-up", "post", lambda ctx: {**DAY(ctx), "team": ctx.team}, MANAGED, line_up),
    c("teams:tie-decide", "post", DAY, MANAGED, lambda ctx: {"place": ctx.place, "through": "yes"}),
]

# Every route has its line: tests/test_permissions.py::test_every_route_is_in_the_matrix.
MATRIX = [*TOURNAMENTS, *SCORING, *ADJUDICATION, *PRINTING, *TEAMS, *TEAMS_API, *SITE]


# The tournament ----------------------------------------------------------------------------------


@dataclasses.dataclass
class Ctx:
    slug: str
    private: str
    hidden: str
    users: dict
    tokens: dict  # role → API token key
    links: dict  # role → seat key
    decision: int
    initialled: int
    appealed: int
    appeal: int
    sanction: int
    sanction_appealed: int
    offence: int
    grant: int
    invited: int  # an invitation not yet accepted
    role_offer: int  # a role offered to the adjudicator's account, not yet answered
    invitation_key: str  # its link's key
    job: str
    ranking: str
    player: int
    personal_key: str  # the personal link of seat 1's player
    waiting: int  # a registration on the online registration's waiting list
    stranger: str
    panel_ids: list
    panel_names: list
    sheet_version: int
    hands_json: list
    # teams: the API's league
    api_competition: str  # its slug (the API's league)
    api_team: int  # its first team, in the group of match day 1
    spare_team: int  # a team on no match day
    reserve: int  # the first team's fifth player (player_id), in no line-up
    api_line_up: list  # the first team's line-up of match day 1, reversed (player_ids)
    group: list  # the team ids of match day 1's group
    # teams: a public league of the organiser's with a match day, and a hidden one
    competition: str = ""
    hidden_competition: str = ""
    team: int = 0  # the league's first team
    member: int = 0  # its reserve, in no line-up
    line_up: tuple = ()  # its players for the four places, the reserve at place 4
    place: int = 0  # the first team's place in its group of match day 1
    organiser_offer: int = 0  # an offer to the adjudicator's account to organise the league


def _hand_json(line) -> dict:
    return {
        "contract": str(line.contract),
        "dealer": line.dealer,
        "soloist": line.soloist,
        "solo_type": str(line.solo_type) if line.solo_type else None,
        "game_value": line.game_value,
        "points": {str(seat): points for seat, points in line.points.items()},
    }


def build() -> Ctx:
    """The world the matrix is checked in: a tournament of eight with its staff, round 1
    running, decisions, appeals and sanctions at each stage, the photo of table 1's signed
    sheet, a print job, a ranking list, a private tournament and one with hidden standings."""
    from tests.adjudication.helpers import MATCH

    users, panel = _users()
    tournament, staff = _staffed_tournament(users, panel)
    sheet, round_ = _round_running(tournament)
    adjudication = _adjudication(tournament, sheet, round_, users, panel)
    elsewhere = _jobs_rankings_and_other_tournaments(tournament, users)
    seats, sheet, lines = _sheet_scanned(sheet)
    waiting = _waiting_list(tournament)
    teams = _teams(users["organiser"])
    return Ctx(
        **teams,
        **staff,
        **adjudication,
        **elsewhere,
        slug=tournament.slug,
        users=users,
        tokens={role: Token.objects.create(user=user).key for role, user in users.items()},
        links={"player": seats[1].token, "keeper": seats[4].token},
        player=seats[1].entry.player_id,
        personal_key=seats[1].entry.link_key,
        waiting=waiting.pk,
        stranger="matrix-stranger",
        panel_ids=[u.pk for u in panel],
        panel_names=[u.username for u in panel],
        sheet_version=sheet.version,
        hands_json=[_hand_json(line) for line in [*lines, MATCH[4]]],
        **_teams_world(users["organiser"]),
    )


def _users() -> tuple[dict, list]:
    """The roles' accounts (the organiser in the Organisers group, a superuser), a second panel
    member, the desk's account and a stranger with no role."""
    from django.contrib.auth.models import Group

    from tests import factories
    from tournaments import policies

    users = {
        "organiser": factories.user(username="matrix-organiser"),
        "adjudicator": factories.user(username="matrix-adjudicator"),
        "deputy": factories.user(username="matrix-deputy"),
        "panel": factories.user(username="matrix-panel1"),
        "admin": get_user_model().objects.create_superuser(
            username="matrix-admin", password="a-long-test-password"
        ),
    }
    users["organiser"].groups.add(Group.objects.get(name=policies.ORGANISERS_GROUP))
    panel = [users["panel"], factories.user(username="matrix-panel2")]
    return users, panel


def _staffed_tournament(users: dict, panel: list) -> tuple:
    """The tournament of eight and its staff: the roles, the desk (a scorekeeper account) and
    an invitation to the desk not accepted yet."""
    from django.utils import timezone

    from adjudication.invitations import VALID_FOR, invitation_key_hash, invitation_key_new
    from adjudication.models import RoleOffer, StaffInvitation
    from tests import factories
    from tournaments.models import TournamentRole

    Role = TournamentRole.Role
    desk = factories.user(username="matrix-desk")
    factories.user(username="matrix-stranger")
    tournament = factories.tournament(players=8, organiser=users["organiser"])
    grant = factories.role_grant
    grant(tournament=tournament, user=users["adjudicator"], role=Role.ADJUDICATOR)
    grant(tournament=tournament, user=users["deputy"], role=Role.DEPUTY)
    for member in panel:
        grant(tournament=tournament, user=member, role=Role.PANEL)
    desk_grant = grant(tournament=tournament, user=desk, role=Role.SCOREKEEPER)
    invitation_key = invitation_key_new()
    invited = StaffInvitation.objects.create(
        tournament=tournament,
        name="Ina Eingeladen",
        email="invitee@example.org",
        role=Role.SCOREKEEPER,
        invited_by=users["organiser"],
        key_hash=invitation_key_hash(invitation_key),
        expires_at=timezone.now() + VALID_FOR,
    )
    offered = RoleOffer.objects.create(
        tournament=tournament,
        username=users["adjudicator"].username,
        user=users["adjudicator"],
        role=Role.DEPUTY,
        offered_by=users["organiser"],
        expires_at=timezone.now() + VALID_FOR,
    )
    return tournament, {
        "grant": desk_grant.pk,
        "invited": invited.pk,
        "role_offer": offered.pk,
        "invitation_key": invitation_key,
    }


def _round_running(tournament) -> tuple:
    """Round 1 started, table 1's sheet with its first four hands."""
    from scoring.models import Scoresheet
    from tests import factories
    from tests.adjudication.helpers import MATCH, enter
    from tournaments import services

    round_ = services.round_start(round=factories.seated_round(tournament))
    sheet = Scoresheet.objects.get(table__round=round_, table__number=1)
    return enter(sheet, MATCH[:4]), round_


def _adjudication(tournament, sheet, round_, users: dict, panel: list) -> dict:
    """Decisions at each stage (a draft, one initialled, one appealed), the offences, and two
    bound sanctions the adjudicator gave alone (TSR 9.6.3), the second appealed."""
    from adjudication import services as adjudication_services
    from doko.rules.penalty import Severity
    from tests.adjudication.helpers import decide

    staff = {"adjudicator": users["adjudicator"], "panel": panel}
    ruling = adjudication_services.Ruling(Severity.MINOR)
    draft = decide(sheet, staff, hand=2, offender=1, ruling=ruling, initial=False)
    initialled = decide(sheet, staff, hand=3, offender=2, ruling=ruling)
    appealed = decide(sheet, staff, hand=4, offender=3, ruling=ruling)
    appeal = adjudication_services.appeal_lodge(
        decision=appealed, appellant=3, grounds="No", by=users["adjudicator"]
    )
    offence = adjudication_services.offence_save(
        tournament=tournament, name="Late", kind="breach", severity="minor", by=users["organiser"]
    )
    phone = adjudication_services.offence_save(
        tournament=tournament,
        name="Mobile phone rang",
        kind="unsporting",
        bound=True,
        deduction=2,
        by=users["organiser"],
    )
    bound = [
        adjudication_services.sanction_impose(
            entry=sheet.table.seats.get(position=position).entry,
            round=round_,
            kind="deduction",
            points=2,
            offence=phone,
            reasons="It rang.",
            by=users["adjudicator"],
        )
        for position in (1, 2)
    ]
    adjudication_services.appeal_lodge(sanction=bound[1], by=users["adjudicator"])
    return {
        "decision": draft.pk,
        "initialled": initialled.pk,
        "appealed": appealed.pk,
        "appeal": appeal.pk,
        "sanction": bound[0].pk,
        "sanction_appealed": bound[1].pk,
        "offence": offence.pk,
    }


def _jobs_rankings_and_other_tournaments(tournament, users: dict) -> dict:
    """A finished print job, a ranking list the tournament asks to count for, a private
    tournament and one with hidden standings, all the matrix organiser's."""
    from django.core.files.base import ContentFile

    from printing.models import Job
    from tests import factories
    from tournaments import services

    job = Job(tournament=tournament, kind=Job.Kind.ENTRY_LIST_PDF, language="en", status="done")
    job.file.save("matrix.pdf", ContentFile(b"%PDF-1.4\n"), save=True)
    ranking = ranking_list_save(name="Matrix", slug="matrix-ranking")
    ranking.maintainers.add(factories.user(username="matrix-listkeeper"), users["admin"])
    ranking_admission_request(ranking_list=ranking, tournament=tournament, by=users["organiser"])
    private = factories.tournament(players=4, organiser=users["organiser"], is_public=False)
    hidden = factories.tournament(players=4, organiser=users["organiser"])
    services.tournament_update(
        tournament=hidden, by=users["organiser"], changes={"standings_public": False}
    )
    return {
        "job": str(job.pk),
        "ranking": ranking.slug,
        "private": private.slug,
        "hidden": hidden.slug,
    }


def _sheet_scanned(sheet) -> tuple:
    """The photo of table 1's signed sheet, attached by its scorekeeper (seat 4): the seats,
    the sheet as it is now and its lines."""
    from scoring import services as scoring_services
    from scoring.policies import Actor
    from scoring.selectors import hand_lines

    seats = {s.position: s for s in sheet.table.seats.all()}
    scoring_services.scoresheet_scan_attach(
        scoresheet=sheet, upload=scan(None)["file"], by=Actor(seat=seats[4])
    )
    sheet.refresh_from_db()
    return seats, sheet, hand_lines(list(sheet.hands.all()))


def _waiting_list(tournament):
    """A registration on the online registration's waiting list."""
    from registration.models import Registration

    return Registration.objects.create(
        tournament=tournament,
        first_name="Warte",
        last_name="Liste",
        email="warte@example.org",
        state=Registration.State.WAITING,
        waiting_position=1,
    )


def _teams_world(organiser) -> dict:
    """teams: a league of four teams of five, organised by the matrix's organiser, its match
    day 1 (one group of the four) and a fifth team on no match day."""
    import datetime

    from teams import services as team_services
    from teams.models import LineUp
    from tests.teams.factories import league
    from tests.teams.factories import teams as teams_of

    competition = league(teams=4, members=5, by=organiser, name="Matrixliga")
    group = teams_of(competition)
    team_services.match_day_create(
        competition=competition, starts_on=datetime.date(2026, 12, 5), by=organiser, groups=[group]
    )
    spare = team_services.team_create(competition=competition, name="Ohne Spieltag", by=organiser)
    team = group[0]
    playing = list(
        LineUp.objects.filter(team=team, round_number=1)
        .order_by("place")
        .values_list("entry__player_id", flat=True)
    )
    reserve = team.members.exclude(player_id__in=playing).get().player_id
    return {
        "api_competition": competition.slug,
        "api_team": team.pk,
        "spare_team": spare.pk,
        "reserve": reserve,
        "api_line_up": playing[::-1],
        "group": [each.pk for each in group],
    }


def _teams(organiser) -> dict:
    """teams: a public league of four teams of five (the fifth a reserve) with match day 1
    drawn by the groups given, and a hidden league, both the matrix organiser's."""
    import datetime

    from teams import services as team_services
    from teams.models import GroupTeam
    from tests import factories

    def league(name: str, **settings):
        competition = team_services.competition_create(name=name, by=organiser, **settings)
        for number in range(1, 5):
            team = team_services.team_create(
                competition=competition, name=f"{name} {number}", by=organiser
            )
            for index in range(5):
                team_services.team_member_add(
                    team=team, player=factories.player(), by=organiser, captain=index == 0
                )
        return competition

    competition = league("Matrix-Liga")
    hidden = league("Matrix-Geheim", is_public=False)
    teams = list(competition.teams.order_by("name"))
    match_day = team_services.match_day_create(
        competition=competition,
        starts_on=datetime.date(2026, 12, 5),
        by=organiser,
        groups=[teams],
        rounds=2,
    )
    first = teams[0]
    members = list(first.members.order_by("pk"))  # the first four play, the fifth is reserve
    adjudicator = get_user_model().objects.get(username="matrix-adjudicator")
    offer = team_services.competition_organiser_offer(
        competition=competition, who=adjudicator.username, by=organiser
    )
    return {
        "organiser_offer": offer.pk,
        "competition": competition.slug,
        "hidden_competition": hidden.slug,
        "team": first.pk,
        "member": members[4].pk,
        "line_up": tuple(member.player_id for member in [*members[:3], members[4]]),
        "place": GroupTeam.objects.get(match_day=match_day, team=first).pk,
    }


def fingerprint() -> dict:
    """Every row of the database that a write could change; sessions, tokens and log-in times
    are not (signing in is part of the role). Read with one plain query per table, in the
    database's own types: the ORM's ``values()`` took ten times as long, twice per refused
    write."""
    skip = {"sessions.session", "authtoken.token", "authtoken.tokenproxy", "admin.logentry"}
    name = connection.ops.quote_name
    rows = {}
    with connection.cursor() as cursor:
        for model in apps.get_models():
            meta = model._meta
            if meta.label_lower in skip or meta.proxy:
                continue
            columns = [f.column for f in meta.concrete_fields if f.column != "last_login"]
            cursor.execute(
                f"SELECT {', '.join(map(name, columns))} FROM {name(meta.db_table)} "
                f"ORDER BY {name(meta.pk.column)}"
            )
            rows[meta.label_lower] = cursor.fetchall()
    return rows


def client_for(role: str, ctx: Ctx, *, csrf: bool = False) -> Client:
    client = Client(enforce_csrf_checks=csrf)
    client.cookies["django_language"] = "en"
    if role in ctx.users:
        client.force_login(ctx.users[role])
    elif role in LINK_ROLES:
        assert client.get(reverse("scoring:sheet-link", args=[ctx.links[role]])).status_code == 200
    return client


def request(case: Case, role: str, ctx: Ctx, client: Client | None = None):
    kwargs = case.kwargs(ctx)
    if "token" in kwargs:
        kwargs["token"] = ctx.links.get(role) or secrets.token_urlsafe(24)
    address = reverse(case.name, kwargs=kwargs) + case.query
    data = case.data(ctx) if case.data else {}
    if case.json:
        headers = {"Accept-Language": "en"}
        if role in ctx.tokens:
            headers["Authorization"] = f"Token {ctx.tokens[role]}"
        elif role in LINK_ROLES:
            headers["X-Seat-Key"] = ctx.links[role]
        client = client or Client()
        if case.method == "get":
            return client.get(address, headers=headers)
        if case.multipart:
            return getattr(client, case.method)(address, data, headers=headers)
        return getattr(client, case.method)(
            address, data, content_type="application/json", headers=headers
        )
    client = client or client_for(role, ctx)
    if case.method == "get":
        return client.get(address)
    return getattr(client, case.method)(address, data)


def case_id(case: Case) -> str:
    return f"{case.method.upper()} {case.name}"


def check(case: Case, role: str, ctx: Ctx) -> None:
    """``role``'s request answers as the matrix says."""
    expected = case.statuses()[role]
    client = None if case.json else client_for(role, ctx)
    # A write that is refused, or that the rules refuse (4xx), leaves everything as it was.
    refused = expected == "L" or expected >= 400
    before = fingerprint() if refused and case.method != "get" else None
    response = request(case, role, ctx, client)
    if expected == "L":
        assert response.status_code == 302, response
        assert response["Location"].startswith(reverse("login")), response["Location"]
    else:
        assert response.status_code == expected, (
            response.status_code,
            response.content[:300],
        )
    if before is not None:
        assert fingerprint() == before, "a refused write changed the database"


# CSRF -------------------------------------------------------------------------------------------

FORM = re.compile(r"<form\b([^>]*)>(.*?)</form>", re.S | re.I)


def post_forms(html: str) -> list[str]:
    """The POST forms of a page: (opening tag's attributes, body)."""
    return [
        attrs + body
        for attrs, body in FORM.findall(html)
        if re.search(r"method\s*=\s*[\"']?post", attrs, re.I)
    ]


def matrix(rows: list[Case]) -> list:
    """``rows`` × ``ROLES``: the parameters ``case, role`` of each app's ``test_matrix``.

    The matrix runs in the SQLite pass only: who may do what is decided by the URL and the policy
    functions, the same on any database (tests/plugins/backends.py)."""
    return [
        pytest.param(case, role, id=f"{case_id(case)}-{role}")
        for case in rows
        for role, status in case.statuses().items()
    ]


def page_reads(rows: list[Case]) -> list[tuple[Case, str]]:
    """The pages of ``rows`` (GET, not the API) with each role that may read them."""
    return [
        (case, role)
        for case in rows
        if case.method == "get" and not case.json
        for role, status in case.statuses().items()
        if status == 200
    ]


def may(case: Case) -> str | None:
    """A role that may make this request, if any."""
    return next((r for r, s in case.statuses().items() if s != "L" and s not in REFUSED), None)


def page_writes(rows: list[Case]) -> list[tuple[Case, str]]:
    """The form posts of ``rows`` with a role that may make them."""
    return [
        (case, may(case))
        for case in rows
        if case.method == "post" and not case.json and may(case) is not None
    ]


def pair_ids(pairs: list[tuple[Case, str]]) -> list[str]:
    return [f"{case_id(c)}-{r}" for c, r in pairs]


def check_post_forms_carry_the_csrf_token(case: Case, role: str, ctx: Ctx) -> None:
    """Every POST form of the page carries the CSRF token."""
    response = request(case, role, ctx, client_for(role, ctx, csrf=True))
    assert response.status_code == 200
    if not response.get("Content-Type", "").startswith("text/html"):
        return
    html = response.content.decode()
    for form in post_forms(html):
        assert "csrfmiddlewaretoken" in form, form[:300]


def check_has_post_forms(name: str, kwargs: Callable, role: str, ctx: Ctx) -> None:
    """The page has POST forms: the check of their CSRF tokens looks at something."""
    response = request(Case(name, "get", kwargs, PUBLIC), role, ctx)
    assert post_forms(response.content.decode())


def check_refused_without_the_csrf_token(case: Case, role: str, ctx: Ctx) -> None:
    """The post, by a role that may make it, is 403 without the CSRF token and changes
    nothing."""
    client = client_for(role, ctx, csrf=True)
    before = fingerprint()
    response = request(case, role, ctx, client)
    assert response.status_code == 403, response
    assert fingerprint() == before


# The tests each app's test_permissions.py runs on its lines -------------------------------------
# One parametrised test per check, made here once: each module names them
# (``test_matrix = matrix_test(TOURNAMENTS)``) and pytest collects them there, with the module's
# ``ctx``.


def matrix_test(rows: list[Case]) -> Callable:
    """``test_matrix``: every line of ``rows`` answers every role as the matrix says."""

    @pytest.mark.django_db
    @pytest.mark.parametrize(("case", "role"), matrix(rows))
    def test_matrix(case, role, ctx):
        check(case, role, ctx)

    return test_matrix


def csrf_token_test(rows: list[Case]) -> Callable:
    """``test_every_post_form_carries_the_csrf_token``: on every page of ``rows`` that a role
    may read."""
    reads = page_reads(rows)

    @pytest.mark.django_db
    @pytest.mark.parametrize(("case", "role"), reads, ids=pair_ids(reads))
    def test_every_post_form_carries_the_csrf_token(case, role, ctx):
        check_post_forms_carry_the_csrf_token(case, role, ctx)

    return test_every_post_form_carries_the_csrf_token


def form_pages_test(pages: list[tuple]) -> Callable:
    """``test_the_form_pages_have_post_forms``: the CSRF token test looks at something.

    ``pages``: ``(name, kwargs, role)``, or ``(name, kwargs)`` for a page the organiser reads;
    each test's id is the tuple's, as pytest writes it (``entries-T-organiser``)."""

    def param(page: tuple):
        name, kwargs, *role = page
        return pytest.param(
            name, kwargs, *(role or ["organiser"]), id="-".join([name, kwargs.__name__, *role])
        )

    @pytest.mark.django_db
    @pytest.mark.parametrize(("name", "kwargs", "role"), [param(page) for page in pages])
    def test_the_form_pages_have_post_forms(name, kwargs, role, ctx):
        """The check of the CSRF tokens looks at something: these pages do have POST forms."""
        check_has_post_forms(name, kwargs, role, ctx)

    return test_the_form_pages_have_post_forms


def csrf_refusal_test(rows: list[Case]) -> Callable:
    """``test_a_post_without_the_csrf_token_is_403``: every form post of ``rows``, by a role that
    may make it."""
    writes = page_writes(rows)

    @pytest.mark.django_db
    @pytest.mark.parametrize(("case", "role"), writes, ids=pair_ids(writes))
    def test_a_post_without_the_csrf_token_is_403(case, role, ctx):
        check_refused_without_the_csrf_token(case, role, ctx)

    return test_a_post_without_the_csrf_token_is_403
