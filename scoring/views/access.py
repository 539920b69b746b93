"""Who opened which sheet, and what the page may ask of them: staff through their account,
or a player of the table through their seat's private link (``/s/<key>/``, no account)."""

import functools
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from scoring import links, policies, selectors
from scoring.models import (
    Scoresheet,
    SecondEntry,
)
from scoring.selectors.record import record_known
from scoring.services import Actor
from scoring.views.tables import table_live_prepare
from tournaments import policies as tournament_policies
from tournaments import selectors as tournament_selectors
from tournaments.after_response import after_response
from tournaments.models import Round
from tournaments.permissions import roles_known, roles_of
from tournaments.policies import Refusal
from tournaments.roles import (
    SHEET_READERS,
    SHEET_STAFF,
)


@dataclass
class Access:
    """Who opened which sheet, and what they may do with it. ``blind``: the sheet's second
    entry (double entry), typed without seeing the first; ``entry`` is it, as far as typed."""

    sheet: Scoresheet
    actor: Actor
    roles: set[str]
    base: str  # the page's URL; the actions are below it
    blind: bool = False
    entry: SecondEntry | None = None

    @property
    def version(self) -> int:
        """The version the page's writes name: the sheet's, or its second entry's (0 before
        it is begun)."""
        if self.blind:
            return self.entry.version if self.entry is not None else 0
        return self.sheet.version

    @property
    def time_over_after_hand(self) -> int | None:
        """After which hand the playing time ended, as the entry on this page notes it."""
        if self.blind:
            return self.entry.time_over_after_hand if self.entry is not None else None
        return self.sheet.time_over_after_hand

    @property
    def staff(self) -> bool:
        return bool(self.roles & SHEET_STAFF)

    @property
    def withheld(self) -> Refusal | None:
        """Why the sheet's hands are not shown to this actor (a blind first entry, double
        entry: ``policies.first_entry_hidden``), or None; asked once per request."""
        if "_withheld" not in self.__dict__:
            self.__dict__["_withheld"] = policies.first_entry_hidden(
                sheet=self.sheet, actor=self.actor
            )
        return self.__dict__["_withheld"]

    def withheld_forget(self) -> None:
        """Ask again (the actor opened the first entry)."""
        self.__dict__.pop("_withheld", None)
        self.__dict__.pop("_state", None)

    def state_known(self, state: selectors.SheetState) -> None:
        """The entry as a write just left it (``entry_state`` reads it no more, nor the sheet's
        record its seats)."""
        self.__dict__["_state"] = (self._state_key(), state)
        record_known(state.sheet, seats=state.seats, deeds=state.deeds)

    def _state_key(self) -> tuple:
        """What the entry's state stands on: the sheet and the entry, at their versions."""
        entry = (self.entry.pk, self.entry.version) if self.entry is not None else None
        return (self.sheet.pk, self.sheet.version, self.sheet.status, entry)

    @property
    def round(self) -> Round:
        return self.sheet.table.round


def _access(
    request: HttpRequest, slug=None, number=None, table=None, token=None, blind=False
) -> Access:
    if token is not None:
        seat = links.seat_for_key(request, token)
        if seat is None:
            raise Http404
        try:
            sheet = seat.table.scoresheet
        except Scoresheet.DoesNotExist as error:
            raise Http404 from error
        base = reverse("scoring:sheet-link", kwargs={"token": token})
        # Who is logged in on this device too: staff who play at the table confirm nothing
        # with another seat's link (policies.may_confirm_sheet).
        logged_in = settings.SESSION_COOKIE_NAME in request.COOKIES  # else no query for it
        account = request.user if logged_in and request.user.is_authenticated else None
        actor = Actor(seat=seat, account=account)
        return Access(sheet=sheet, actor=actor, roles=set(), base=base)
    user = request.user
    # The sheet of a tournament he may see, with it and his roles there (and the second
    # entry), in one query; else as the steps say why not: no such tournament for him (404),
    # no role in it (403), no such sheet (404).
    found, roles = selectors.staff_sheet_get(
        slug=slug, number=number, table=table, user=user, second_entry=blind
    )
    if found is not None:
        tournament = found.table.round.tournament
        roles_known(request, tournament.pk, roles)
    else:
        tournament = tournament_selectors.tournament_get(slug=slug, user=user, counts=False)
        roles = roles_of(request, tournament)
    # A visitor without a login holds no role (and sheet_view sends him to log in first).
    if not roles & SHEET_READERS or not user.is_authenticated:
        raise PermissionDenied
    if found is None:
        raise Http404
    sheet = found
    # A sheet names the seating: not before it is published, but to the staff.
    tournament_policies.enforce(
        tournament_policies.may_read_seating(round=sheet.table.round, roles=roles)
    )
    kwargs = {"slug": slug, "number": number, "table": table}
    if blind:
        return Access(
            sheet=sheet,
            actor=Actor(user=user),
            roles=roles,
            base=reverse("scoring:sheet-second", kwargs=kwargs),
            blind=True,
            entry=_second_entry(sheet),
        )
    return Access(
        sheet=sheet,
        actor=Actor(user=user),
        roles=roles,
        base=reverse("scoring:sheet", kwargs=kwargs),
    )


def _second_entry(sheet: Scoresheet) -> SecondEntry | None:
    """The second entry read with the sheet (``staff_sheet_get``), or None before it is begun."""
    try:
        return sheet.second_entry
    except SecondEntry.DoesNotExist:
        return None


def entry_state(access: Access) -> selectors.SheetState:
    """The entry on the page: the sheet, or its second entry (never the first then). Read once
    a request: again only once the sheet or the entry read changed (a write, a reload)."""
    known = access.__dict__.get("_state")
    key = access._state_key()
    if known is not None and known[0] == key:
        return known[1]
    if access.blind:
        state = selectors.second_entry_state(sheet=access.sheet, entry=access.entry)
    else:
        withheld = access.withheld
        state = selectors.sheet_state(
            sheet=access.sheet, withheld=withheld.message if withheld is not None else None
        )
    access.__dict__["_state"] = (key, state)
    return state


def sheet_view(view):
    """Resolve the sheet and the actor; staff pages need a login, link pages don't."""

    def wrapped(request: HttpRequest, **kwargs) -> HttpResponse:
        if "token" not in kwargs and not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        try:
            access = _access(request, **kwargs)
        except links.LinkLimited as limited:
            return _too_many(
                request, limited.wait, back=reverse("scoring:sheet-link", args=[kwargs["token"]])
            )
        version = access.sheet.version
        response = view(request, access)
        if access.sheet.version != version:
            _table_page_prepared(access)
        return response

    wrapped.__name__ = view.__name__
    wrapped.__doc__ = view.__doc__
    return wrapped


def _table_page_prepared(access: Access) -> None:
    """The sheet was written: the phones' refresh of its table's page is made once the answer
    has gone, in the writer's language (``tables.table_live_prepare``), not by the first phone
    to ask while it waits. Asked as the write's other work is, once it is committed (at once
    here, where the service's transaction has ended; in a test's transaction never)."""
    table = access.sheet.table
    prepare = functools.partial(
        table_live_prepare,
        slug=table.round.tournament.slug,
        number=table.round.number,
        table=table.number,
        language=get_language(),
    )
    transaction.on_commit(lambda: after_response(prepare))


def _too_many(request: HttpRequest, wait: float, *, back: str) -> HttpResponse:
    """HTTP 429 for a link over its limit: the message alone for htmx, which shows it above the
    page (static/js/errors.js), as JSON for a client that asks for it (the offline queue, which
    waits as ``Retry-After`` says), else a page with it."""
    message = _("Too many requests through this link. Please wait a minute and try again.")
    response: HttpResponse
    if wants_json(request):
        response = JsonResponse({"detail": message, "messages": [message]}, status=429)
    elif request.headers.get("HX-Request"):
        response = HttpResponse(message, content_type="text/plain; charset=utf-8", status=429)
    else:
        response = render(request, "429.html", {"message": message, "back": back}, status=429)
    response["Retry-After"] = str(max(1, round(wait)))
    return response


def wants_json(request: HttpRequest) -> bool:
    """Whether the request asks for JSON (``Accept: application/json``), as the offline queue
    of the entry page does (static/js/offline-queue.js); htmx and plain forms ask for HTML."""
    return request.get_preferred_type(["text/html", "application/json"]) == "application/json"


def sheet_url(access: Access, name: str) -> str:
    """The address of one of the sheet's staff pages, by its URL name."""
    table = access.sheet.table
    return reverse(
        name,
        kwargs={
            "slug": table.round.tournament.slug,
            "number": table.round.number,
            "table": table.number,
        },
    )
