"""Pages: thin views that ask selectors and call services."""

import base64
import binascii

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.safestring import mark_safe
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from doko import standings
from tournaments import caching, exports, player_import, policies, selectors, services
from tournaments.forms import (
    EntryForm,
    ExtraTimeForm,
    ImportForm,
    PublicationForm,
    SubstituteForm,
    error_messages,
    errors_to_form,
)
from tournaments.messages import fives_would_seat, seating_error_message
from tournaments.models import Entry, Player, Round, SeatingMethod, Tournament
from tournaments.permissions import require, roles_of, standings_mode
from tournaments.roles import CLOCK, ORGANISER, SEES_SHEET_LINKS, STAFF, Role
from tournaments.round_actions import ROUND_ACTIONS


def _is_organiser(request: HttpRequest, tournament) -> bool:
    return Role.ORGANISER in roles_of(request, tournament)


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "tournaments/home.html",
        {"tournaments": selectors.tournament_list(user=request.user)},
    )


def _shortfall(tournament: Tournament, roles: set[str]) -> dict | None:
    """For the organiser: why the active players cannot be drawn as the tournament stands
    (TSR 8.3.1, 10.1), with the numbers, and whether allowing tables of five would seat them."""
    if Role.ORGANISER not in roles or tournament.status == Tournament.Status.FINISHED:
        return None
    error = selectors.seating_shortfall(tournament=tournament)
    if error is None:
        return None
    return {
        "message": seating_error_message(error),
        "offer_fives": not tournament.allow_tables_of_five
        and fives_would_seat(error.players)
        and policies.may_allow_tables_of_five(roles=roles) is None,
    }


@require_GET
def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = selectors.tournament_get(slug=slug, user=request.user)
    rounds = list(selectors.tournament_rounds(tournament=tournament))
    roles = roles_of(request, tournament)
    return render(
        request,
        "tournaments/tournament.html",
        {
            "tournament": tournament,
            "rounds": rounds,
            "is_organiser": _is_organiser(request, tournament),
            "is_staff": bool(roles_of(request, tournament) & STAFF),
            "can_add_round": len(rounds) < tournament.planned_rounds
            and not (tournament.seating_method == SeatingMethod.DDV and rounds),
            "current": selectors.current_round(tournament=tournament),
            "publication_form": PublicationForm() if _is_organiser(request, tournament) else None,
            # Only once there are players to seat: a new tournament has nothing to say yet.
            "shortfall": _shortfall(tournament, roles) if tournament.entry_count else None,
        },
    )


@login_required
@require_POST
def tournament_tables_of_five(request: HttpRequest, slug: str) -> HttpResponse:
    """The organiser allows tables of five (TSR 10) where the players do not divide into
    tables of four (TSR 8.3.1); back to the round page the button was on, if any."""
    tournament = selectors.tournament_get(slug=slug, user=request.user, counts=False)
    try:
        reseating = services.tournament_tables_of_five_allow(tournament=tournament, by=request.user)
    except ValidationError as error:
        for message in error_messages(error):
            messages.error(request, message)
    else:
        messages.success(
            request,
            _(
                "Tables of five are allowed from now on (TSR 10): the next draw seats the "
                "players who do not fill a table of four at tables of five."
            ),
        )
        _report_moves(request, reseating)
    number = request.POST.get("round", "")
    if number.isdecimal() and len(number) < 6 and tournament.rounds.filter(number=number).exists():
        return redirect("round", slug, int(number))
    return redirect("tournament", slug)


@require_POST
@login_required
def round_add(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = selectors.tournament_get(slug=slug, user=request.user)
    require(request, tournament, ORGANISER)
    try:
        round_ = services.round_create(tournament=tournament)
    except ValidationError as error:
        for message in error_messages(error):
            messages.error(request, message)
        return redirect("tournament", slug)
    return redirect("round", slug, round_.number)


@require_http_methods(["GET", "POST"])
def entry_list(request: HttpRequest, slug: str) -> HttpResponse:
    """The players; the organiser registers, corrects and withdraws them here."""
    tournament = selectors.tournament_get(slug=slug, user=request.user)
    is_organiser = _is_organiser(request, tournament)
    form = EntryForm(request.POST or None) if is_organiser else None
    if request.method == "POST":
        require(request, tournament, ORGANISER)
        if form.is_valid():
            try:
                registered = services.entry_register(tournament=tournament, **form.cleaned_data)
            except ValidationError as error:
                errors_to_form(form, error)
            else:
                messages.success(
                    request,
                    _("%(player)s is registered with start number %(number)d.")
                    % {"player": registered.entry.player, "number": registered.entry.start_number},
                )
                _report_moves(request, registered.reseating)
                return redirect("entries", slug)
    return render(
        request,
        "tournaments/entries.html",
        {
            "tournament": tournament,
            "entries": selectors.entry_list(tournament=tournament),
            "is_organiser": is_organiser,
            "form": form,
        },
        status=400 if form is not None and form.errors else 200,
    )


def _report_moves(request: HttpRequest, reseating: services.Reseating) -> None:
    """Tell the organiser which published rounds the change just made had to re-seat."""
    for number, moved in sorted(reseating.moved.items()):
        messages.warning(
            request,
            ngettext(
                "The published seating of round %(number)d changed for %(count)d player; "
                "the change is marked in the seating.",
                "The published seating of round %(number)d changed for %(count)d players; "
                "the changes are marked in the seating.",
                moved,
            )
            % {"number": number, "count": moved},
        )


def _entry(request: HttpRequest, slug: str, start_number: int) -> Entry:
    tournament = selectors.tournament_get(slug=slug, user=request.user)
    require(request, tournament, ORGANISER)
    return get_object_or_404(
        Entry.objects.select_related("player", "tournament"),
        tournament=tournament,
        start_number=start_number,
    )


@login_required
@require_http_methods(["GET", "POST"])
def entry_edit(request: HttpRequest, slug: str, start_number: int) -> HttpResponse:
    entry = _entry(request, slug, start_number)
    player = entry.player
    initial = {
        "first_name": player.first_name,
        "last_name": player.last_name,
        "club": player.club,
        "ddv_number": player.ddv_number,
        "start_number": entry.start_number,
    }
    form = EntryForm(request.POST or None, initial=initial)
    form.fields["start_number"].required = True
    if request.method == "POST" and form.is_valid():
        try:
            services.entry_update(entry=entry, **form.cleaned_data)
        except ValidationError as error:
            errors_to_form(form, error)
        else:
            messages.success(request, _("The registration is saved."))
            return redirect("entries", slug)
    return render(
        request,
        "tournaments/entry_edit.html",
        {"tournament": entry.tournament, "entry": entry, "form": form},
        status=400 if form.errors else 200,
    )


@login_required
@require_POST
def entry_status(request: HttpRequest, slug: str, start_number: int) -> HttpResponse:
    """Withdraw a player, or take a withdrawn player back."""
    entry = _entry(request, slug, start_number)
    change = {"withdraw": services.entry_withdraw, "reinstate": services.entry_reinstate}.get(
        request.POST.get("action", "")
    )
    if change is None:
        raise Http404
    try:
        changed = change(entry=entry)
    except ValidationError as error:
        for message in error_messages(error):
            messages.error(request, message)
    else:
        entry = changed.entry
        messages.success(
            request,
            _("%(player)s: %(status)s.")
            % {"player": entry.player, "status": entry.get_status_display()},
        )
        _report_moves(request, changed.reseating)
    return redirect("entries", slug)


@login_required
@require_http_methods(["GET", "POST"])
def entry_replace(request: HttpRequest, slug: str, start_number: int) -> HttpResponse:
    """A substitute takes the seats of a player who withdraws, or who was disqualified, in the
    rounds not yet started."""
    entry = _entry(request, slug, start_number)
    form = SubstituteForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            substitute = services.entry_replace(
                entry=entry, player=services.player_find_or_create(**form.cleaned_data)
            )
        except ValidationError as error:
            errors_to_form(form, error)
        else:
            messages.success(
                request,
                _("%(substitute)s (start number %(number)d) takes the seats of %(player)s.")
                % {
                    "substitute": substitute.player,
                    "number": substitute.start_number,
                    "player": entry.player,
                },
            )
            return redirect("entries", slug)
    return render(
        request,
        "tournaments/entry_replace.html",
        {"tournament": entry.tournament, "entry": entry, "form": form},
        status=400 if form.errors else 200,
    )


@login_required
@require_http_methods(["GET", "POST"])
def players_import(request: HttpRequest, slug: str) -> HttpResponse:
    """Upload a CSV file, see every row and its problems, then import all rows or none."""
    tournament = selectors.tournament_get(slug=slug, user=request.user)
    require(request, tournament, ORGANISER)
    context = {"tournament": tournament, "form": ImportForm()}
    if request.method == "POST" and "content" in request.POST:
        try:
            data = base64.b64decode(request.POST["content"], validate=True)
        except (binascii.Error, ValueError):
            return HttpResponse(status=400)
        try:
            imported = services.players_import(tournament=tournament, data=data)
        except ValidationError as error:
            context["import_errors"] = error_messages(error)
        else:
            messages.success(
                request,
                ngettext(
                    "%(count)d player is registered.",
                    "%(count)d players are registered.",
                    len(imported.entries),
                )
                % {"count": len(imported.entries)},
            )
            _report_moves(request, imported.reseating)
            return redirect("entries", slug)
        context["preview"] = player_import.parse_players_csv(data)
        context["content"] = request.POST["content"]
    elif request.method == "POST":
        form = ImportForm(request.POST, request.FILES)
        context["form"] = form
        if form.is_valid():
            data = form.cleaned_data["file"]
            context["preview"] = player_import.parse_players_csv(data)
            context["content"] = base64.b64encode(data).decode()
    failed = (
        context["form"].errors
        or context.get("import_errors")
        or ("preview" in context and not context["preview"].ok)
    )
    return render(
        request, "tournaments/players_import.html", context, status=400 if failed else 200
    )


@require_GET
def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = selectors.tournament_get(slug=slug, user=request.user)
    round_ = selectors.round_get(tournament=tournament, number=number)
    roles = roles_of(request, tournament)
    staff = bool(roles & STAFF)
    show_seating = staff or round_.published_at is not None
    return render(
        request,
        "tournaments/round.html",
        {
            "tournament": tournament,
            "round": round_,
            "tables": selectors.round_tables(round=round_) if show_seating else [],
            "show_seating": show_seating,
            "show_points": standings_mode(request, tournament) != "hidden",
            "is_organiser": Role.ORGANISER in roles,
            "runs_clock": bool(roles & CLOCK),
            "may_end": policies.may_end_playing_time(round=round_, roles=roles) is None,
            "shortfall": _shortfall(tournament, roles)
            if round_.status in {Round.Status.PLANNED, Round.Status.SEATED}
            else None,
            "staff": staff,
            # Staff and scorekeepers open each table's scoresheet from here once play begins.
            "sheet_links": bool(roles & SEES_SHEET_LINKS)
            and round_.status in {Round.Status.RUNNING, Round.Status.FINISHED, Round.Status.CLOSED},
            "quality": selectors.seating_quality(round=round_) if staff else None,
            "clock": selectors.round_clock(round=round_),
            "extra_form": ExtraTimeForm() if roles & CLOCK else None,
            "unpublished_later": tournament.rounds.filter(
                status=Round.Status.SEATED, published_at=None
            ).exists()
            if Role.ORGANISER in roles
            else False,
        },
    )


@require_GET
def round_clock(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The round clock alone, for the pages that refresh it."""
    tournament = selectors.tournament_get(slug=slug, user=request.user)
    round_ = selectors.round_get(tournament=tournament, number=number)
    return render(
        request,
        "tournaments/partials/clock.html",
        {
            "tournament": tournament,
            "round": round_,
            "clock": selectors.round_clock(round=round_),
            "staff": bool(roles_of(request, tournament) & STAFF),
        },
    )


def _round_for(request: HttpRequest, slug: str, number: int, roles: set[str] | None) -> Round:
    """The round, for a user with one of ``roles``; ``None``: its service asks its policy."""
    tournament = selectors.tournament_get(slug=slug, user=request.user)
    if roles is not None:
        require(request, tournament, roles)
    return get_object_or_404(
        Round.objects.select_related("tournament"), tournament=tournament, number=number
    )


def _action_done(action: str) -> str:
    return {
        "seat": _("The seating is drawn. Check it, then publish it."),
        "publish": _("The seating is published: players can find their table."),
        "publish_all": _("The seating of every drawn round is published."),
        "start": _("The round has started. The clock runs for all tables."),
        "end": _(
            "The playing time has ended: hands begun are finished, only forced solos follow (TSR 8.5.3)."
        ),
        "close": _("The round is closed."),
    }[action]


@login_required
@require_POST
def round_action(request: HttpRequest, slug: str, number: int, action: str) -> HttpResponse:
    if action not in ROUND_ACTIONS:
        raise Http404
    round_ = _round_for(request, slug, number, None)
    policies.enforce(
        ROUND_ACTIONS[action].refusal(round=round_, roles=roles_of(request, round_.tournament))
    )
    try:
        ROUND_ACTIONS[action].run(round_, request.user, None)
    except ValidationError as error:
        for message in error_messages(error):
            messages.error(request, message)
    else:
        messages.success(request, _action_done(action))
    return redirect("round", slug, number)


@login_required
@require_POST
def round_extra_time(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = _round_for(request, slug, number, CLOCK)
    form = ExtraTimeForm(request.POST)
    if form.is_valid():
        table = round_.tables.filter(number=form.cleaned_data["table"]).first()
        if table is None:
            form.add_error("table", _("Round %(number)d has no such table.") % {"number": number})
        else:
            try:
                granted = services.table_extra_time_grant(
                    table=table,
                    minutes=form.cleaned_data["minutes"],
                    reason=form.cleaned_data["reason"],
                    by=request.user,
                )
            except ValidationError as error:
                errors_to_form(form, error)
            else:
                messages.success(
                    request,
                    _("Table %(table)d has %(minutes)d more minutes.")
                    % {"table": table.number, "minutes": granted.minutes},
                )
                return redirect("round", slug, number)
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        for message in errors:
            messages.error(request, f"{label}: {message}" if label else message)
    return redirect("round", slug, number)


@require_GET
def find_table(request: HttpRequest, slug: str) -> HttpResponse:
    """Players find their table and seat by name or start number; no login needed."""
    tournament = selectors.tournament_get(slug=slug, user=request.user)
    query = request.GET.get("q", "")[:100]
    context = {
        "tournament": tournament,
        "query": query,
        "found": selectors.seat_find(
            tournament=tournament, query=query, staff=bool(roles_of(request, tournament) & STAFF)
        ),
        "limit": selectors.FIND_LIMIT,
    }
    if request.headers.get("HX-Request"):
        return render(request, "tournaments/partials/found.html", context)
    return render(request, "tournaments/find.html", context)


@require_GET
def venue_screen(request: HttpRequest, slug: str) -> HttpResponse:
    """The projector at the venue: the round clock and every player's table, by name."""
    tournament = selectors.tournament_get(slug=slug, user=request.user)
    round_ = selectors.current_round(tournament=tournament)
    context = {
        "tournament": tournament,
        "round": round_,
        "clock": selectors.round_clock(round=round_) if round_ else None,
        "seats": selectors.round_seats_by_name(round=round_) if round_ else [],
        "find_url": request.build_absolute_uri(reverse("find", args=[slug])),
        "now": timezone.now(),
    }
    if request.headers.get("HX-Request"):
        return render(request, "tournaments/partials/screen_body.html", context)
    return render(request, "tournaments/screen.html", context)


# Standings, players' pages and ranking lists: public, for phones ------------------------------

TIEBREAK_LABELS = {
    standings.Tiebreak.PLACINGS: gettext_lazy("the sum of the table placings"),
    standings.Tiebreak.BEST_ROUND: gettext_lazy("the best single round"),
    standings.Tiebreak.START_NUMBER: gettext_lazy("the start number"),
}
# How often the standings page asks whether they changed; an unchanged answer is a 304.
STANDINGS_POLL_SECONDS = 20


STANDINGS_PAGE_SIZE = 100  # players per page: a phone loads about 40 KB


def _standings_page(request: HttpRequest) -> int:
    try:
        return max(int(request.GET.get("page", 1)), 1)
    except ValueError:
        return 1


def _not_modified(request: HttpRequest, etag: str) -> HttpResponse | None:
    """A 304 for a client that has this version already: no query beyond the tournament's."""
    return get_conditional_response(request, etag=etag)


def _revalidate(response: HttpResponse, etag: str) -> HttpResponse:
    response["ETag"] = etag
    patch_cache_control(response, no_cache=True)
    patch_vary_headers(response, ["Accept-Language", "Cookie"])
    return response


def _standings_table_html(tournament: Tournament, mode: str, page: int) -> str:
    """A page of the standings table, rendered once per version, language and page and then
    served from the cache."""
    if mode == "hidden":
        return render_to_string(
            "tournaments/partials/standings_table.html", {"tournament": tournament, "hidden": True}
        )
    key = (
        f"standings-html:{tournament.pk}:{tournament.standings_version}:"
        f"{caching.head_stamp(tournament):x}:{translation.get_language()}:{page}"
    )
    html = caching.versioned_get(key)
    if html is None:
        table = selectors.standings_read(tournament=tournament)
        rows = table.rows if table else ()
        size = STANDINGS_PAGE_SIZE
        html = render_to_string(
            "tournaments/partials/standings_table.html",
            {
                "tournament": tournament,
                "table": table,
                "rows": rows[(page - 1) * size : page * size],
                "page": page,
                "pages": [
                    (number, first + 1, min(first + size, len(rows)))
                    for number, first in enumerate(range(0, len(rows), size), start=1)
                ],
                "statistics": standings.statistics(table) if table and page == 1 else None,
                "tiebreaks": [TIEBREAK_LABELS[t] for t in table.tiebreaks] if table else [],
                "player_url": reverse("player", args=[tournament.slug, 0])[:-2],
                "built_at": table.built_at if table else None,
            },
        )
        caching.versioned_put(key, html)
    return html


def _same_for_everyone(request: HttpRequest) -> bool:
    """An anonymous reader without a session or messages, asking for nothing but a page: the
    page is then the same for every such reader (no CSRF token: the language switches by link)
    and can be cached whole."""
    return (
        not request.user.is_authenticated
        and settings.SESSION_COOKIE_NAME not in request.COOKIES
        and "messages" not in request.COOKIES
        and set(request.GET) <= {"page"}
    )


@require_GET
def standings_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings, for everyone; the page asks every few seconds whether they changed."""
    tournament = selectors.tournament_head(slug=slug, user=request.user)
    mode = standings_mode(request, tournament)
    page = _standings_page(request)
    etag = caching.standings_etag(tournament=tournament, mode=mode, part="page", page=page)
    # Only an anonymous reader's page is the same for everyone (no name, no messages).
    anonymous = not request.user.is_authenticated
    if anonymous and (response := _not_modified(request, etag)):
        return response
    key = f"standings-page:{etag}"
    html = caching.versioned_get(key) if _same_for_everyone(request) else None
    if html is None:
        html = render_to_string(
            "tournaments/standings.html",
            {
                "tournament": tournament,
                "mode": mode,
                "page": page,
                # Our own template's output, escaped as it was rendered.
                "table_html": mark_safe(_standings_table_html(tournament, mode, page)),
                "poll_seconds": STANDINGS_POLL_SECONDS,
                "is_organiser": Role.ORGANISER in roles_of(request, tournament),
            },
            request,
        )
        if _same_for_everyone(request):
            caching.versioned_put(key, html)
    response = HttpResponse(html)
    return _revalidate(response, etag) if anonymous else response


@require_GET
def standings_table(request: HttpRequest, slug: str) -> HttpResponse:
    """A page of the standings table alone, for the page's refresh: 304 while nothing
    changed."""
    tournament = selectors.tournament_head(slug=slug, user=request.user)
    mode = standings_mode(request, tournament)
    page = _standings_page(request)
    etag = caching.standings_etag(tournament=tournament, mode=mode, part="table", page=page)
    if response := _not_modified(request, etag):
        return response
    return _revalidate(HttpResponse(_standings_table_html(tournament, mode, page)), etag)


@require_GET
def standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings as a CSV file for spreadsheets (``exports.standings_rows``)."""
    tournament = selectors.tournament_get(slug=slug, user=request.user, counts=False)
    if standings_mode(request, tournament) == "hidden":
        raise PermissionDenied(_("The organiser has hidden the standings for now."))
    table = selectors.standings_read(tournament=tournament)
    return exports.csv_response(
        filename=f"{tournament.slug}-{slugify(_('standings'))}.csv",
        rows=exports.standings_rows(table=table),
    )


@require_GET
def player_detail(request: HttpRequest, slug: str, start_number: int) -> HttpResponse:
    """One player's tournament: each round's table, seat, opponents, points, solos and
    penalties, and their place in the standings."""
    tournament = selectors.tournament_get(slug=slug, user=request.user, counts=False)
    entry = selectors.entry_get(tournament=tournament, start_number=start_number)
    mode = standings_mode(request, tournament)
    rounds = selectors.entry_rounds(entry=entry, staff=mode == "staff")
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
            "deducted": sum(r.result.deducted for r in rounds if r.result and r.result.confirmed),
        },
    )


@login_required
@require_POST
def tournament_publication(request: HttpRequest, slug: str) -> HttpResponse:
    """The organiser decides what the public sees and how ties are broken."""
    tournament = selectors.tournament_get(slug=slug, user=request.user, counts=False)
    require(request, tournament, ORGANISER)
    form = PublicationForm(request.POST)
    if form.is_valid():
        try:
            services.tournament_publication_update(tournament=tournament, **form.cleaned_data)
        except ValidationError as error:
            for message in error_messages(error):
                messages.error(request, message)
        else:
            messages.success(request, _("The settings are saved."))
    else:
        for field, errors in form.errors.items():
            for message in errors:
                messages.error(request, f"{form.fields[field].label}: {message}")
    return redirect("tournament", slug)


@require_GET
def ranking_list(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "tournaments/rankings.html",
        {"ranking_lists": selectors.ranking_lists(user=request.user)},
    )


@require_GET
def ranking_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """A ranking list across tournaments: average points per round over the last months."""
    ranking = selectors.ranking_get(slug=slug, user=request.user)
    lines = selectors.ranking_lines(ranking_list=ranking)
    return render(
        request,
        "tournaments/ranking.html",
        {
            "ranking": ranking,
            "ranked": [line for line in lines if line.rank is not None],
            "unranked": [line for line in lines if line.rank is None],
        },
    )


@require_GET
def player_history(request: HttpRequest, pk: int) -> HttpResponse:
    """A player across tournaments: each tournament's rounds, points and average, and where
    they stand in the ranking lists."""
    player = get_object_or_404(Player, pk=pk)
    history = selectors.player_history(player=player, user=request.user)
    if not history and not request.user.is_superuser:
        raise Http404
    return render(
        request,
        "tournaments/player_history.html",
        {
            "player": player,
            "history": history,
            "places": selectors.player_ranking_places(player=player, user=request.user),
        },
    )
