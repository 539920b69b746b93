"""The tournament's catalogue of standard offences (TSR 9): the list with its form to add or
change one, the TSR's standard offences added at once, and one taken out."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from adjudication import forms, selectors, services
from adjudication.models import Offence
from adjudication.views.common import button, form_apply, tournament_for
from doko.names import collapsed
from tournaments.permissions import AuthenticatedHttpRequest
from tournaments.roles import CATALOGUE

ID_DIGITS = 18  # a number of 18 digits fits the 64 bits of an id


@login_required
@require_http_methods(["GET", "POST"])
def offences(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_for(request, slug, CATALOGUE)
    edit = None
    refused = False
    field, pk = (
        ("edit", request.GET["edit"]) if request.GET.get("edit") else ("pk", request.POST.get("pk"))
    )
    if pk and not (pk.isascii() and pk.isdigit() and len(pk) <= ID_DIGITS):
        # Not an id at all (a typed or broken link): said on the page, 400; nothing is saved.
        messages.error(
            request,
            _("“%(field)s” must be the number of an offence of the catalogue.") % {"field": field},
        )
        refused = True
    elif pk:
        edit = get_object_or_404(Offence, tournament=tournament, pk=int(pk))
    initial = (
        {
            "name": edit.label,
            "rule": edit.rule,
            "kind": edit.kind,
            "severity": edit.severity,
            "bound": edit.bound,
            "deduction": edit.deduction,
        }
        if edit
        else {}
    )
    form = forms.OffenceForm(request.POST or None, initial=initial)
    if request.method == "POST" and not refused and form.is_valid():
        saved = form_apply(
            request,
            form,
            lambda: services.offence_save(
                tournament=tournament, offence=edit, by=request.user, **form.cleaned_data
            ),
        )
        if saved is not None:
            messages.success(request, _("“%(name)s” is saved.") % {"name": saved.label})
            return redirect("adjudication:offences", slug)
    return render(
        request,
        "adjudication/offences.html",
        {
            "tournament": tournament,
            # By the names the reader reads (the TSR's are stored in English), umlauts with
            # their vowel as German lists sort them.
            "offences": sorted(
                selectors.offence_list(tournament=tournament),
                key=lambda offence: (offence.kind, collapsed(offence.label)),
            ),
            "form": form,
            "edit": edit,
        },
        status=400 if refused else 422 if form.errors else 200,
    )


@login_required
@require_POST
def offence_delete(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = tournament_for(request, slug, CATALOGUE)
    offence = get_object_or_404(Offence, tournament=tournament, pk=pk)
    return button(
        request,
        lambda: services.offence_delete(offence=offence, by=request.user),
        _("“%(name)s” is out of the catalogue.") % {"name": offence.label},
        redirect("adjudication:offences", slug),
    )


@login_required
@require_POST
def offences_default(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_for(request, slug, CATALOGUE)
    added = services.offences_default(tournament=tournament, by=request.user)
    messages.success(
        request,
        ngettext(
            "%(count)d standard offence of the TSR added.",
            "%(count)d standard offences of the TSR added.",
            len(added),
        )
        % {"count": len(added)},
    )
    return redirect("adjudication:offences", slug)
