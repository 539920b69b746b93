"""The standings (TSR 8.5.2) and a player's page in a tournament: public, for phones, cached
and answered with a 304 while nothing changed; and the standings as a CSV file."""

import re
from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.cache import get_conditional_response
from django.utils.safestring import mark_safe
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from tournaments import caching, exports, policies, selectors
from tournaments.models import Tournament
from tournaments.permissions import roles_of, standings_mode, standings_mode_of
from tournaments.standings_html import as_bytes, standings_table_html

# How often the standings page asks whether they changed; an unchanged answer is a 304.
STANDINGS_POLL_SECONDS = 20


def _standings_page(request: HttpRequest, mode: str) -> int | None:
    """The page asked for: 1 without ``?page=``, else a whole number from 1; None for anything
    else. While the standings are hidden every page is the first (it says only that), so that a
    phone on page 3 is told too, and it is cached once."""
    if mode == "hidden" or not request.META.get("QUERY_STRING"):
        return 1
    value = request.GET.get("page")
    if value is None:
        return 1
    if not re.fullmatch(r"[0-9]{1,9}", value) or int(value) < 1:
        return None
    return int(value)


def _bad_page(request: HttpRequest) -> HttpResponse:
    message = _("“page” must be a page number from 1, not “%(value)s”.") % {
        "value": request.GET["page"][:20]
    }
    return HttpResponse(message, status=400, content_type="text/plain; charset=utf-8")


def _not_modified(request: HttpRequest, etag: str) -> HttpResponse | None:
    """A 304 for a client that has this version already, with the headers of the 200 it
    stands for: no query beyond the tournament's."""
    response = get_conditional_response(request, etag=etag)
    return None if response is None else _revalidate(response, etag)


def _revalidate(response: HttpResponse, etag: str) -> HttpResponse:
    """Answered again only if changed: the ETag, to be asked for every time. (The response is
    new, so the headers are set rather than patched: a phone asks every 20 seconds.)"""
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    response["Vary"] = "Accept-Language, Cookie"
    return response


@dataclass(frozen=True)
class _Reader:
    """Who asks for the standings, and of which tournament."""

    tournament: Tournament
    version: str  # caching.head_version(tournament)
    mode: str  # what they see: ``permissions.standings_mode``
    anonymous: bool


def _reader(request: HttpRequest, slug: str) -> _Reader:
    """The tournament and what this reader sees of its standings. A request without a session
    cookie has no login: its tournament comes from memory (``selectors.public_head``), and
    neither the session nor the user is looked up."""
    if settings.SESSION_COOKIE_NAME not in request.COOKIES:
        head = selectors.public_head(slug=slug)
        mode = standings_mode_of(head.tournament, roles=set())
        return _Reader(head.tournament, head.version, mode, True)
    tournament = selectors.tournament_head(slug=slug, user=request.user)
    return _Reader(
        tournament,
        caching.head_version(tournament),
        standings_mode(request, tournament),
        not request.user.is_authenticated,
    )


def _table_html(reader: _Reader, page: int) -> bytes:
    return standings_table_html(
        tournament=reader.tournament, version=reader.version, mode=reader.mode, page=page
    )


def _same_for_everyone(request: HttpRequest, reader: _Reader) -> bool:
    """An anonymous reader without a session or messages, asking for nothing but a page: the
    page is then the same for every such reader (no CSRF token: the language switches by link)
    and can be cached whole."""
    return (
        reader.anonymous
        and settings.SESSION_COOKIE_NAME not in request.COOKIES
        and "messages" not in request.COOKIES
        and set(request.GET) <= {"page"}
    )


@require_GET
def standings_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings, for everyone; the page asks every few seconds whether they changed."""
    reader = _reader(request, slug)
    page = _standings_page(request, reader.mode)
    if page is None:
        return _bad_page(request)
    tournament = reader.tournament
    etag = caching.standings_etag(
        tournament_id=tournament.pk,
        version=reader.version,
        mode=reader.mode,
        part="page",
        page=page,
    )
    # Only an anonymous reader's page is the same for everyone (no name, no messages).
    if reader.anonymous and (response := _not_modified(request, etag)):
        return response
    key = f"standings-page:{etag}"
    cached = _same_for_everyone(request, reader)
    html = caching.versioned_get(key) if cached else None
    if html is None:
        roles = roles_of(request, tournament)
        # The PDF is the organisers': the rest of the staff are told why they have no button.
        print_refusal = policies.may_print(roles=roles)
        html = render_to_string(
            "tournaments/standings.html",
            {
                "tournament": tournament,
                "mode": reader.mode,
                "page": page,
                # Our own template's output, escaped as it was rendered.
                "table_html": mark_safe(_table_html(reader, page).decode()),
                "poll_seconds": STANDINGS_POLL_SECONDS,
                "is_organiser": print_refusal is None,
                "print_refusal": print_refusal if roles else None,
            },
            request,
        ).encode()
        if cached:
            caching.versioned_put(key, html)
    response = HttpResponse(as_bytes(html))
    return _revalidate(response, etag) if reader.anonymous else response


@require_GET
def standings_table(request: HttpRequest, slug: str) -> HttpResponse:
    """A page of the standings table alone, for the page's refresh: 304 while nothing
    changed."""
    reader = _reader(request, slug)
    page = _standings_page(request, reader.mode)
    if page is None:
        return _bad_page(request)
    etag = caching.standings_etag(
        tournament_id=reader.tournament.pk,
        version=reader.version,
        mode=reader.mode,
        part="table",
        page=page,
    )
    if response := _not_modified(request, etag):
        return response
    return _revalidate(HttpResponse(_table_html(reader, page)), etag)


@require_GET
def standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings as a CSV file for spreadsheets (``exports.standings_rows``), with the
    players' DDV numbers, which a ranking list needs."""
    tournament = selectors.tournament_get(slug=slug, user=request.user, counts=False)
    policies.enforce(
        policies.may_read_standings(tournament=tournament, roles=roles_of(request, tournament))
    )
    table = selectors.standings_read(tournament=tournament)
    return exports.csv_response(
        filename=f"{tournament.slug}-{slugify(_('standings'))}.csv",
        rows=exports.standings_rows(
            table=table, ddv_numbers=selectors.ddv_numbers(tournament=tournament)
        ),
    )


@require_GET
def player_detail(request: HttpRequest, slug: str, start_number: int) -> HttpResponse:
    """One player's tournament: each round's table, seat, opponents, points, solos and
    penalties, and their place in the standings."""
    tournament = selectors.tournament_get(slug=slug, user=request.user, counts=False)
    entry = selectors.entry_get(tournament=tournament, start_number=start_number)
    mode = standings_mode(request, tournament)
    unpublished = policies.may_read_unpublished_seating(roles=roles_of(request, tournament))
    rounds = selectors.entry_rounds(entry=entry, staff=unpublished is None)
    row = (
        selectors.standings_row(
            table=selectors.standings_read(tournament=tournament), entry_id=entry.pk
        )
        if mode != "hidden"
        else None
    )
    return render(
        request,
        "tournaments/player.html",
        {
            "tournament": tournament,
            "entry": entry,
            "rounds": rounds,
            "row": row,
            "show_points": mode != "hidden",
            "penalties": sum(r.result.penalty for r in rounds if r.result and r.result.confirmed),
            # A deduction is the round's (TSR 9.6.2 b): a Springer's two results both hold it.
            "deducted": sum(
                r.result.deducted
                for r in rounds
                if r.result and r.result.confirmed and not r.result.second
            ),
        },
    )
