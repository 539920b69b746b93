"""Pages that change a person (``Player``), whom every tournament of theirs shares: a correction
and a merge of another record of the same person, for the site's administrators and the ranking
lists' maintainers (``policies.may_change_person``). Everyone else is told who does it."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from tournaments import policies, selectors, services
from tournaments.forms import MergeForm, PersonForm, errors_to_form
from tournaments.models import Player


def _person(request: HttpRequest, pk: int) -> Player:
    """The person, for a user who may change persons; a 403 with the reason for the others."""
    if refusal := policies.may_change_person(user=request.user):
        raise PermissionDenied(refusal.message)
    return get_object_or_404(Player, pk=pk)


@login_required
@require_http_methods(["GET", "POST"])
def person_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Correct a person's name, club or DDV number, for every tournament of theirs."""
    player = _person(request, pk)
    initial = {
        "first_name": player.first_name,
        "last_name": player.last_name,
        "club": player.club,
        "ddv_number": player.ddv_number,
    }
    form = PersonForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            services.person_update(player=player, by=request.user, **form.cleaned_data)
        except ValidationError as error:
            errors_to_form(form, error)
        else:
            messages.success(request, _("The person is corrected."))
            return redirect("tournaments:player-history", player.pk)
    return render(
        request,
        "tournaments/person_edit.html",
        {"player": player, "form": form},
        status=400 if form.errors else 200,
    )


@login_required
@require_http_methods(["GET", "POST"])
def person_merge(request: HttpRequest, pk: int) -> HttpResponse:
    """Merge another record of the same person into this one: first find it (by DDV number or
    record number) and see it, then confirm."""
    keep = _person(request, pk)
    form = MergeForm(request.POST if "find" in request.POST else None)
    other = None
    if "other" in request.POST:
        other = selectors.person_other(pk=_number(request.POST["other"]))
        if other is None:
            form.add_error(None, _("The other record no longer exists."))
        else:
            try:
                services.persons_merge(keep=keep, other=other, by=request.user)
            except ValidationError as error:
                errors_to_form(form, error)
                other = None
            else:
                messages.success(
                    request,
                    _("The other record is merged into this one: its tournaments are %(player)s's.")
                    % {"player": keep.name},
                )
                return redirect("tournaments:player-history", keep.pk)
    elif form.is_bound and form.is_valid():
        ddv_number, record = form.cleaned_data["ddv_number"], form.cleaned_data["record"]
        other = selectors.person_other(ddv_number=ddv_number, pk=record)
        if other is None:
            form.add_error(
                "ddv_number" if ddv_number else "record", _("No person has this number.")
            )
        elif other.pk == keep.pk:
            form.add_error(
                "ddv_number" if ddv_number else "record",
                _("This is the record itself: name another one."),
            )
            other = None
    return render(
        request,
        "tournaments/person_merge.html",
        {"player": keep, "form": form, "other": other},
        status=400 if form.errors else 200,
    )


def _number(text: str) -> int | None:
    return int(text) if text.isascii() and text.isdigit() and len(text) < 19 else None


@require_GET
def player_history(request: HttpRequest, pk: int) -> HttpResponse:
    """A player across tournaments: each tournament's rounds, points and average; the apps
    above add their boxes (where they stand in the ranking lists: ``page_boxes.PERSON``)."""
    player = get_object_or_404(Player, pk=pk)
    history = selectors.player_history(player=player, user=request.user)
    # Those who correct persons see every person, the log, and what they may do.
    changes = policies.may_change_person(user=request.user) is None
    if not history and not changes:
        raise Http404
    return render(
        request,
        "tournaments/player_history.html",
        {
            "player": player,
            "history": history,
            "may_change": changes,
            "changes": selectors.person_changes(player=player) if changes else [],
        },
    )
