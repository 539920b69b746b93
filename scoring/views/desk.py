"""The tournament desk's page of a round (Turnierleitung, TSR 7.3.4): every table's sheet at a
glance, what needs the desk next first, and a field that opens a table's sheet by its number.

The list refreshes itself (htmx, every ``DESK_POLL_SECONDS``) and answers 304 while nothing
changed. It is rendered once per version of the round (``caching.round_version``, raised after
every committed change to the round's sheets, second entries and complaints, its players and
its extra time), language and filter, and kept in the cache and in each process's memory: a
request then costs the session and its user, the round with the reader's roles (one query), and
one read of the version.
"""

import datetime
import gzip
import hashlib
import re
import threading
import zlib
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.cache import get_conditional_response
from django.utils.formats import time_format
from django.utils.safestring import mark_safe
from django.utils.text import Truncator
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, ngettext_lazy
from django.views.decorators.http import require_GET

from scoring import policies, selectors
from scoring.models import Scoresheet, ScoresheetChange
from scoring.policies import Actor
from scoring.selectors import ConfirmedHow, DeskState
from tournaments import caching
from tournaments.models import Round
from tournaments.permissions import roles_of, round_and_roles

# How often the desk's list asks whether anything changed; an unchanged list is a 304.
DESK_POLL_SECONDS = 10


@dataclass(frozen=True)
class _Reader:
    """The round a member of the desk opened, and the filter he chose."""

    round: Round
    state: DeskState | None


def _round(request: HttpRequest, slug: str, number: int) -> Round:
    """The round with its tournament, for the desk of the tournament, and the reader's roles
    there (one query); 404 for a private tournament to anyone who holds no role in it, 403
    with the reason to anyone who may not read the desk (``policies.may_read_desk``)."""
    round_, roles = round_and_roles(request, slug=slug, number=number)
    if not round_.tournament.is_public and not roles:
        raise Http404  # as every page of a private tournament (selectors.tournaments_visible)
    refusal = policies.may_read_desk(round=round_, roles=roles)
    if refusal is not None:
        raise PermissionDenied(refusal.message)
    return round_


def _state(request: HttpRequest) -> DeskState | None:
    """The filter ``?state=``: a state of ``DeskState``, or every table without it."""
    value = request.GET.get("state")
    if not value:
        return None
    try:
        return DeskState(value)
    except ValueError:
        raise _BadState(value) from None


class _BadState(Exception):
    def __init__(self, value: str):
        super().__init__(value)
        self.value = value


def _bad_state(error: _BadState) -> HttpResponse:
    message = _("“state” must be one of %(states)s, not “%(value)s”.") % {
        "states": ", ".join(DeskState.values),
        "value": error.value[:20],
    }
    return HttpResponse(message, status=400, content_type="text/plain; charset=utf-8")


# Who reads a round's desk, remembered by his session in this process's memory for
# ``DESK_READER_SECONDS``: the page stays open all round and its list asks every
# ``DESK_POLL_SECONDS``, and the session, the account and the roles behind it cost three queries,
# more than all the rest of such a request. Only a session that was let in is remembered; a
# logout forgets it in this process at once (``reader_forget``), in the others within those
# seconds, and so does a role taken away.


def _reader_key(session_key: str) -> str:
    return f"desk-reader:{session_key}"


def _remembered(request: HttpRequest, slug: str, number: int) -> Round | None:
    session_key = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    if not session_key or settings.DESK_READER_SECONDS <= 0:
        return None
    found = caching.memory.get(_reader_key(session_key))
    if found is None or found[0] != (slug, number):
        return None
    return found[1]


def _remember(request: HttpRequest, slug: str, number: int, round_: Round) -> None:
    session_key = request.session.session_key
    if session_key and settings.DESK_READER_SECONDS > 0:
        caching.memory.put(
            _reader_key(session_key),
            ((slug, number), round_),
            seconds=settings.DESK_READER_SECONDS,
        )


def reader_forget(*, request: HttpRequest | None, **kwargs) -> None:
    """Forget the reader of a session that logs out (``user_logged_out``'s receiver)."""
    session = getattr(request, "session", None)
    if session is not None and session.session_key:
        caching.memory.delete(_reader_key(session.session_key))


def _desk_view(view):
    """A page of the desk: a login first, then the round and the filter. A reader whose
    session read this round's desk a moment ago is let in as then (``_remembered``)."""

    def wrapped(request: HttpRequest, slug: str, number: int) -> HttpResponse:
        round_ = _remembered(request, slug, number)
        if round_ is None:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            round_ = _round(request, slug, number)
            _remember(request, slug, number, round_)
        try:
            reader = _Reader(round=round_, state=_state(request))
        except _BadState as error:
            return _bad_state(error)
        return view(request, reader)

    wrapped.__name__ = view.__name__
    wrapped.__doc__ = view.__doc__
    return wrapped


# The list, cached ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _List:
    """The list as rendered: its bytes, its ETag, and until when it holds (the next end of a
    table's playing time; None: as long as the round's version)."""

    html: bytes
    etag: str
    valid_until: float | None
    # The same, compressed once as it is kept: 500 tables are 150 KB of HTML and a tenth of it
    # gzipped, which the hall's Wi-Fi carries ten times faster.
    gzipped: bytes = b""

    def holds(self, now: float) -> bool:
        return self.valid_until is None or now < self.valid_until


def _gzip(html: bytes) -> bytes:
    # No time in the header, so the same list compresses to the same bytes in every process.
    return gzip.compress(html, compresslevel=6, mtime=0)


ACCEPTS_GZIP = re.compile(r"\bgzip\b")


def _answer(request: HttpRequest, html: bytes, gzipped: bytes, etag: str) -> HttpResponse:
    """The page or list as the browser takes it: gzipped where it says it can (every browser
    does), each with an ETag of its own; 304 when it has it already."""
    compressed = bool(gzipped) and bool(
        ACCEPTS_GZIP.search(request.headers.get("Accept-Encoding", ""))
    )
    if compressed:
        etag = etag[:-1] + '-gz"'
    response = get_conditional_response(request, etag=etag)
    if response is None:
        response = HttpResponse(gzipped if compressed else html)
        if compressed:
            response["Content-Encoding"] = "gzip"
    _revalidate(response, etag)
    response["Vary"] = "Accept-Language, Accept-Encoding, Cookie"
    return response


def _stamp(instance) -> int:
    """Changes with any of the row's own fields (the round's status and clock, the
    tournament's settings), which the list shows but which raise no version."""
    fields = type(instance)._meta.concrete_fields
    return zlib.crc32(repr([getattr(instance, f.attname) for f in fields]).encode())


def _key(reader: _Reader, version: int) -> str:
    round_ = reader.round
    state = reader.state or "all"
    stamps = f"{_stamp(round_.tournament):x}.{_stamp(round_):x}"
    language = translation.get_language()
    return f"desk:{round_.pk}:{version}:{stamps}:{language}:{state}"


# The summary line, a state at a time: "3 to settle · 1 complaint open · … · 80 of 125
# confirmed".
SUMMARY = {
    DeskState.SETTLE: ngettext_lazy("%(count)d to settle", "%(count)d to settle", "count"),
    DeskState.COMPLAINT: ngettext_lazy(
        "%(count)d complaint open", "%(count)d complaints open", "count"
    ),
    DeskState.HANDED_IN: ngettext_lazy("%(count)d handed in", "%(count)d handed in", "count"),
    DeskState.SECOND_ENTRY: ngettext_lazy(
        "%(count)d waiting for the second entry",
        "%(count)d waiting for the second entry",
        "count",
    ),
    DeskState.TYPING: ngettext_lazy("%(count)d being typed", "%(count)d being typed", "count"),
    DeskState.EMPTY: ngettext_lazy(
        "%(count)d with no hand yet", "%(count)d with no hand yet", "count"
    ),
    DeskState.CONFIRMED: ngettext_lazy(
        "%(count)d of %(total)d confirmed", "%(count)d of %(total)d confirmed", "count"
    ),
}


def _summary(reader: _Reader, desk: selectors.Desk) -> list[dict]:
    """The summary line: each state with tables in it, as a filter of the list; the confirmed
    ones always, as "80 of 125 confirmed"."""
    base = reverse("scoring:desk", args=[reader.round.tournament.slug, reader.round.number])
    return [
        {
            "text": SUMMARY[state] % {"count": desk.counts[state], "total": desk.total},
            "url": f"{base}?state={state.value}",
            "current": reader.state == state,
        }
        for state in DeskState
        if desk.counts[state] or state == DeskState.CONFIRMED
    ]


class _Words:
    """What the rows say, translated once per list: 500 rows ask for the same few words and
    times."""

    def __init__(self) -> None:
        self.states = {state: str(state.label) for state in DeskState}
        self.how = {how: str(how.label) for how in ConfirmedHow}
        self.actions = {str(value): str(label) for value, label in ScoresheetChange.Action.choices}
        self.second_entry = _("second entry: %(hands)s of %(total)s typed by %(name)s")
        self.typed = _("%(hands)s of %(total)s typed")
        self.sent_back = _("sent back: %(reason)s")
        self.end_of_time = _("end of the playing time")
        self.time_over = _("time over")
        self.playing_until = _("playing until %(end)s")
        self._times: dict[datetime.datetime, str] = {}

    def at(self, moment: datetime.datetime) -> str:
        """The time of day, as the reader's language writes it (hours and minutes)."""
        minute = moment.replace(second=0, microsecond=0)
        if minute not in self._times:
            self._times[minute] = time_format(timezone.localtime(minute), "TIME_FORMAT")
        return self._times[minute]

    def state(self, row: selectors.DeskRow) -> tuple[str, str]:
        """The row's state: its badge, and what the desk reads beside it."""
        state, label = row.state, self.states[row.state]
        if state == DeskState.SETTLE:
            hands = [str(hand) if hand else self.end_of_time for hand in row.differences]
            return label, ngettext("hand %(hands)s", "hands %(hands)s", len(hands)) % {
                "hands": ", ".join(hands)
            }
        if state == DeskState.COMPLAINT:
            return label + (f" ({row.complaints})" if row.complaints > 1 else ""), ""
        if state == DeskState.SECOND_ENTRY and row.second_entry is not None:
            return label, self.second_entry % {
                "hands": row.second_entry.hands,
                "total": row.hands_per_match,
                "name": row.second_entry.by,
            }
        if state == DeskState.TYPING:
            typed = self.typed % {"hands": row.hands, "total": row.hands_per_match}
            if not row.sent_back:
                return typed, ""
            return typed, self.sent_back % {"reason": Truncator(row.sent_back).chars(80)}
        if state == DeskState.CONFIRMED and row.confirmed_how is not None:
            return label, self.how[row.confirmed_how]
        return label, ""

    def last(self, row: selectors.DeskRow) -> str:
        if row.last is None:
            return ""
        return f"{self.actions[row.last.action]}: {row.last.by}, {self.at(row.last.at)}"

    def time(self, row: selectors.DeskRow) -> str:
        """Whether the table still plays: said of a sheet still being written (one handed in
        is the table's last word), once the round has started."""
        if row.status != Scoresheet.Status.DRAFT or row.time.ends_at is None:
            return ""
        if row.time_over:
            return self.time_over
        said = self.playing_until % {"end": self.at(row.time.ends_at)}
        return said + (f" (+{row.time.extra_minutes})" if row.time.extra_minutes else "")


# Where a row leads, below the table's sheet, when the desk's next step has a page of its own:
# the differences to settle, the blind second entry (double entry).
NEXT_PAGE = {
    DeskState.SETTLE: "differences/",
    DeskState.SECOND_ENTRY: "second-entry/",
}


def _lines(rows: list[selectors.DeskRow], sheet_prefix: str) -> list[dict]:
    """The rows as the list shows them, put into words here rather than in the template (500
    rows: a few variables each there, and every word translated once)."""
    words = _Words()
    lines = []
    for row in rows:
        badge, detail = words.state(row)
        lines.append(
            {
                "state": row.state.value,
                "url": f"{sheet_prefix}{row.number}/sheet/{NEXT_PAGE.get(row.state, '')}",
                "number": row.number,
                "players": ", ".join(row.players),
                "badge": badge,
                "detail": detail,
                "hands": f"{row.hands}/{row.hands_per_match}",
                "last": words.last(row),
                "time": words.time(row),
            }
        )
    return lines


def _render(reader: _Reader) -> tuple[bytes, float | None]:
    round_ = reader.round
    desk = selectors.desk_read(round=round_)
    tournament = round_.tournament
    # The sheet pages' addresses, made once: "…/tables/0/sheet/" without its "0/sheet/".
    sheet_prefix = reverse("scoring:sheet", args=[tournament.slug, round_.number, 0])[
        : -len("0/sheet/")
    ]
    html = render_to_string(
        "scoring/partials/desk_list.html",
        {
            "desk": desk,
            "lines": _lines(desk.of(reader.state), sheet_prefix),
            "state": reader.state,
            "summary": _summary(reader, desk),
            "all_url": reverse("scoring:desk", args=[tournament.slug, round_.number]),
        },
    ).encode()
    return html, desk.valid_until.timestamp() if desk.valid_until else None


_RENDERING = [threading.Lock() for _ in range(8)]


def _list(reader: _Reader) -> _List:
    """The list as this reader sees it: from this process's memory or the cache while the
    round's version holds, else rendered and kept."""
    version = caching.round_version(reader.round.pk)
    now = timezone.now().timestamp()
    if version is None:  # the cache is down: from the database, and kept nowhere
        html, valid_until = _render(reader)
        return _List(html, f'"desk-{hashlib.md5(html).hexdigest()}"', valid_until)
    key = _key(reader, version)
    found = caching.memory.get(key)
    if found is None:
        found = caching.cache_get(key)
        if isinstance(found, _List) and found.holds(now):
            caching.memory.put(
                key,
                found,
                seconds=settings.DESK_CACHE_SECONDS,
                size=len(found.html) + len(found.gzipped),
            )
    if isinstance(found, _List) and found.holds(now):
        return found
    # One thread of this process renders a list; the others asking for it meanwhile wait for
    # it rather than render it too.
    with _RENDERING[hash(key) % len(_RENDERING)]:
        found = caching.memory.get(key)
        if isinstance(found, _List) and found.holds(now):
            return found
        return _rendered(reader, key, now)


def _rendered(reader: _Reader, key: str, now: float) -> _List:
    html, valid_until = _render(reader)
    # A list says which tables still play: rendered anew once the next of them ends.
    etag = f'"{key.replace(":", "-")}-{int(valid_until or 0)}"'
    made = _List(html, etag, valid_until, _gzip(html))
    seconds = settings.DESK_CACHE_SECONDS
    if valid_until is not None:
        seconds = max(1, min(seconds, int(valid_until - now) + 1))
    caching.memory.put(key, made, seconds=seconds, size=len(html) + len(made.gzipped))
    caching.cache_put(key, made, seconds)
    return made


def _revalidate(response: HttpResponse, etag: str) -> HttpResponse:
    """Answered again only if changed: the ETag, to be asked for every time, by the reader
    only (the answer follows his login)."""
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    response["Vary"] = "Accept-Language, Cookie"
    return response


# The pages ----------------------------------------------------------------------------------


def _jump(request: HttpRequest, round_: Round) -> HttpResponse | tuple[str, int]:
    """``?table=7``: a redirect to table 7's sheet, or why not (shown beside the field) with
    the page's status: 400 for what is no table number, 404 for a table the round lacks."""
    text = request.GET["table"].strip()
    if not (text.isascii() and text.isdigit() and len(text) <= 6):
        return _("Type the number of a table, e.g. 7."), 400
    number = int(text)
    sheet = (
        Scoresheet.objects.select_related("table__round__tournament")
        .filter(table__round=round_, table__number=number)
        .first()
    )
    if sheet is None:
        message = _("Round %(round)d has no table %(table)d.")
        return message % {"round": round_.number, "table": number}, 404
    assert isinstance(request.user, User)  # the desk's pages need a login (_desk_view)
    page = _next_page(request.user, roles_of(request, round_.tournament), sheet)
    return redirect(page, round_.tournament.slug, round_.number, number)


def _next_page(user: User, roles: set[str], sheet: Scoresheet) -> str:
    """Where the desk's next step on ``sheet`` is for this member of the desk: a paper sheet
    waiting for its second entry, which he may type, straight to a blank second entry (he is
    never shown the first, double entry); its differences to settle; else the sheet."""
    if not (sheet.status == Scoresheet.Status.SUBMITTED and policies.double_entry_applies(sheet)):
        return "scoring:sheet"
    actor = Actor(user=user)
    entry = selectors.second_entry_get(sheet=sheet)
    if entry is not None and entry.differences:
        return "scoring:sheet-differences"
    if policies.may_enter_second(sheet=sheet, actor=actor, roles=roles, entry=entry) is None:
        return "scoring:sheet-second"
    return "scoring:sheet"


@require_GET
@_desk_view
def desk(request: HttpRequest, reader: _Reader) -> HttpResponse:
    """Every table's sheet of the round at a glance, what needs the desk next first (``?state=``
    shows the tables in one state); "Table number" + Enter (``?table=7``) opens that table's
    sheet."""
    round_ = reader.round
    error, status, typed = "", 200, ""
    if "table" in request.GET:
        jumped = _jump(request, round_)
        if isinstance(jumped, HttpResponse):
            return jumped
        (error, status), typed = jumped, request.GET["table"][:20]
    listed = _list(reader)
    # The page around the list, for this session (its name, its CSRF token), as long as the
    # list is the same; not with a message to show, nor with an answer to a table typed.
    session_key = request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")
    page_key = f"desk-page:{session_key}:{listed.etag}:{translation.get_language()}"
    cacheable = (
        bool(session_key) and "table" not in request.GET and "messages" not in request.COOKIES
    )
    page_etag = f'"{page_key}"'.replace(":", "-")
    kept = caching.memory.get(page_key) if cacheable else None
    if kept is not None:
        kept_html, kept_gzipped = kept
        return _answer(request, kept_html, kept_gzipped, page_etag)
    context = {
        "tournament": round_.tournament,
        "round": round_,
        "state": reader.state,
        # Our own template's output, escaped as it was rendered.
        "list_html": mark_safe(listed.html.decode()),
        "list_url": reverse("scoring:desk-list", args=[round_.tournament.slug, round_.number]),
        "poll_seconds": DESK_POLL_SECONDS,
        "error": error,
        "typed": typed,
    }
    html = render_to_string("scoring/desk.html", context, request).encode()
    if cacheable and status == 200:
        gzipped = _gzip(html)
        caching.memory.put(
            page_key,
            (html, gzipped),
            seconds=settings.DESK_CACHE_SECONDS,
            size=len(html) + len(gzipped),
        )
        return _answer(request, html, gzipped, page_etag)
    return HttpResponse(html, status=status)


@require_GET
@_desk_view
def desk_list(request: HttpRequest, reader: _Reader) -> HttpResponse:
    """The desk's list alone, for the page's refresh: 304 while nothing changed."""
    listed = _list(reader)
    return _answer(request, listed.html, listed.gzipped, listed.etag)
