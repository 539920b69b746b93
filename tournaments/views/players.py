"""Pages of the players: the list where the organiser registers them, corrects, withdraws and
reinstates them, a substitute for one who left, and a CSV list imported all or nothing."""

from typing import NotRequired, TypedDict

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from tournaments import player_import, policies, selectors, services
from tournaments.forms import (
    EntryForm,
    ImportForm,
    SubstituteForm,
    error_messages,
    errors_to_form,
)
from tournaments.models import Entry, Tournament
from tournaments.permissions import AuthenticatedHttpRequest, require, roles_of
from tournaments.roles import ORGANISER
from tournaments.views.common import organises, report_moves


@require_http_methods(["GET", "POST"])
def entry_list(request: HttpRequest, slug: str) -> HttpResponse:
    """The players, or those a search (``?q=``, a name or start number) finds; the organiser
    registers, corrects and withdraws them here."""
    tournament = selectors.tournament_get(slug=slug, user=request.user)
    is_organiser = organises(request, tournament)
    form = EntryForm(request.POST or None) if is_organiser else None
    # A late entry that fits in only at a table of five (TSR 10): the way out, offered on
    # the form (``services.late_entry_refusal``), or who decides it.
    fives: dict | None = None
    if request.method == "POST":
        require(request, tournament, ORGANISER)
        assert form is not None  # ``require`` let only an organiser on, and he got the form
        if form.is_valid():
            try:
                if request.POST.get("allow_tables_of_five"):
                    assert isinstance(request.user, User)  # ``require``: an organiser
                    registered = services.entry_register_at_tables_of_five(
                        tournament=tournament, by=request.user, **form.cleaned_data
                    )
                else:
                    registered = services.entry_register(tournament=tournament, **form.cleaned_data)
            except ValidationError as error:
                errors_to_form(form, error)
                if "allow_tables_of_five" in getattr(error, "error_dict", {}):
                    refusal = policies.may_allow_tables_of_five(roles=roles_of(request, tournament))
                    fives = {"refusal": refusal}
            else:
                messages.success(
                    request,
                    _("%(player)s is registered with start number %(number)d.")
                    % {"player": registered.entry.name, "number": registered.entry.start_number},
                )
                report_moves(request, registered.reseating)
                return redirect("tournaments:entries", slug)
    query = request.GET.get("q", "")[:100]
    return render(
        request,
        "tournaments/entries.html",
        {
            "tournament": tournament,
            "entries": selectors.entry_list(tournament=tournament, query=query),
            "query": query,
            "is_organiser": is_organiser,
            "form": form,
            "fives": fives,
        },
        status=400 if form is not None and form.errors else 200,
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
    initial = {
        "first_name": entry.first_name,
        "last_name": entry.last_name,
        "club": entry.club,
        "ddv_number": entry.player.ddv_number,
        "start_number": entry.start_number,
        "email": entry.email,
    }
    form = EntryForm(request.POST or None, initial=initial)
    form.fields["start_number"].required = True
    if request.method == "POST" and form.is_valid():
        try:
            services.entry_update(entry=entry, by=request.user, **form.cleaned_data)
        except ValidationError as error:
            errors_to_form(form, error)
        else:
            messages.success(request, _("The registration is saved."))
            return redirect("tournaments:entries", slug)
    # Whether the person follows the correction, or (playing elsewhere too) why not.
    tournament_ids = set(entry.player.entries.values_list("tournament_id", flat=True))
    person_refusal = policies.may_correct_person_with_entry(
        tournament_ids=tournament_ids,
        roles_by_tournament=selectors.user_roles_by_tournament(
            user=request.user, tournament_ids=tournament_ids
        ),
    )
    return render(
        request,
        "tournaments/entry_edit.html",
        {
            "tournament": entry.tournament,
            "entry": entry,
            "form": form,
            "person_refusal": person_refusal,
        },
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
            % {"player": entry.name, "status": entry.get_status_display()},
        )
        report_moves(request, changed.reseating)
    return redirect("tournaments:entries", slug)


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
                entry=entry,
                player=services.player_find_or_create(**form.cleaned_data),
                **{name: form.cleaned_data[name] for name in ("first_name", "last_name", "club")},
            )
        except ValidationError as error:
            errors_to_form(form, error)
        else:
            messages.success(
                request,
                _("%(substitute)s (start number %(number)d) takes the seats of %(player)s.")
                % {
                    "substitute": substitute.name,
                    "number": substitute.start_number,
                    "player": entry.name,
                },
            )
            return redirect("tournaments:entries", slug)
    return render(
        request,
        "tournaments/entry_replace.html",
        {"tournament": entry.tournament, "entry": entry, "form": form},
        status=400 if form.errors else 200,
    )


class _ImportPage(TypedDict):
    tournament: Tournament
    form: ImportForm
    import_errors: NotRequired[list[str]]  # the import was refused
    preview: NotRequired[player_import.ImportPreview]  # the rows of the file, checked
    key: NotRequired[str]  # names the file kept on the server, for the confirm
    fives: NotRequired[dict]  # the list fits in only at tables of five: the way out


def _session_key(request: HttpRequest) -> str:
    if request.session.session_key is None:
        request.session.save()
    assert request.session.session_key is not None
    return request.session.session_key


@login_required
@require_http_methods(["GET", "POST"])
def players_import(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Upload a CSV file, see every row and its problems, then import all rows or none. The
    file stays on the server in between (``services.import_upload_keep``): the confirm posts
    only its key."""
    tournament = selectors.tournament_get(slug=slug, user=request.user)
    require(request, tournament, ORGANISER)
    context: _ImportPage = {"tournament": tournament, "form": ImportForm()}
    user, session_key = request.user, _session_key(request)
    if request.method == "POST" and "key" in request.POST:
        key = request.POST["key"]
        confirm = (
            services.players_import_confirm_at_tables_of_five
            if request.POST.get("allow_tables_of_five")
            else services.players_import_confirm
        )
        try:
            imported = confirm(tournament=tournament, user=user, session_key=session_key, key=key)
        except ValidationError as error:
            context["import_errors"] = error_messages(error)
            if "allow_tables_of_five" in getattr(error, "error_dict", {}):
                # The late entries fit in only at tables of five (TSR 10): the way out, or
                # who decides it.
                context["key"] = key
                context["fives"] = {
                    "refusal": policies.may_allow_tables_of_five(
                        roles=roles_of(request, tournament)
                    )
                }
            # A refused import keeps its file: show what was refused, line by line.
            data = selectors.import_upload_data(
                tournament=tournament, user=user, session_key=session_key, key=key
            )
            if data is not None:
                context["preview"] = player_import.parse_players_csv(data)
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
            report_moves(request, imported.reseating)
            return redirect("tournaments:entries", slug)
    elif request.method == "POST":
        form = ImportForm(request.POST, request.FILES)
        context["form"] = form
        if form.is_valid():
            data = form.cleaned_data["file"]
            context["preview"] = preview = player_import.parse_players_csv(data)
            if preview.ok:
                context["key"] = services.import_upload_keep(
                    tournament=tournament, user=user, session_key=session_key, data=data
                )
            else:
                services.import_upload_discard(tournament=tournament, user=user)
    failed = (
        context["form"].errors
        or context.get("import_errors")
        or ("preview" in context and not context["preview"].ok)
    )
    return render(
        request, "tournaments/players_import.html", context, status=400 if failed else 200
    )
