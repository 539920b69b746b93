"""The printout pages: starting a printout (organisers), its progress, its download.

Every printout is a job (``printing.services.job_start``) whose page shows the progress and
then the file; the URLs keep the paths they had under the tournament and the round.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from printing import jobs, selectors, services
from printing.models import Job
from printing.pdf import teams as teams_pdf
from scoring.models import Scoresheet
from teams import policies as team_policies
from teams import selectors as team_selectors
from tournaments import policies
from tournaments import selectors as tournament_selectors
from tournaments.models import Entry, Round, Tournament
from tournaments.permissions import AuthenticatedHttpRequest, roles_of
from tournaments.site import site_url

ROUND_PRINTOUTS = {
    "tables": Job.Kind.SEATING_BY_TABLE_PDF,
    "names": Job.Kind.SEATING_ALPHABETICAL_PDF,
    "cards": Job.Kind.TABLE_CARDS_PDF,
    "scoresheets": Job.Kind.SCORESHEETS_PDF,
    "slips": Job.Kind.SEAT_SLIPS_PDF,
    "results": Job.Kind.ROUND_RESULTS_PDF,
}


def _tournament_for_printing(request: HttpRequest, slug: str, *, counts: bool = True) -> Tournament:
    tournament = tournament_selectors.tournament_get(slug=slug, user=request.user, counts=counts)
    policies.enforce(policies.may_print(roles=roles_of(request, tournament)))
    return tournament


@login_required
@require_POST
def round_print(
    request: AuthenticatedHttpRequest, slug: str, number: int, kind: str
) -> HttpResponse:
    if kind not in ROUND_PRINTOUTS:
        raise Http404
    tournament = _tournament_for_printing(request, slug)
    round_ = get_object_or_404(
        Round.objects.select_related("tournament"), tournament=tournament, number=number
    )
    if not round_.tables.exists():
        messages.error(request, _("The seating of this round has not been drawn yet."))
        return redirect("tournaments:round", slug, number)
    job = services.job_start(
        tournament=round_.tournament,
        round=round_,
        kind=ROUND_PRINTOUTS[kind],
        by=request.user,
        site_url=site_url(request),
    )
    return redirect("printing:job", pk=job.pk)


@login_required
@require_POST
def entry_list_print(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament_for_printing(request, slug)
    job = services.job_start(tournament=tournament, kind=Job.Kind.ENTRY_LIST_PDF, by=request.user)
    return redirect("printing:job", pk=job.pk)


@login_required
@require_POST
def personal_cards_print(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Cards with every active player's personal link (``/p/<key>/``), made at the address the
    phones reach (``site_url``), as the seat slips' links are."""
    tournament = _tournament_for_printing(request, slug)
    job = services.job_start(
        tournament=tournament,
        kind=Job.Kind.PERSONAL_CARDS_PDF,
        by=request.user,
        site_url=site_url(request),
    )
    return redirect("printing:job", pk=job.pk)


@login_required
@require_POST
def personal_card_print(
    request: AuthenticatedHttpRequest, slug: str, start_number: int
) -> HttpResponse:
    """One player's personal link card: a card lost, or a link replaced."""
    tournament = _tournament_for_printing(request, slug)
    entry = get_object_or_404(tournament.entries, start_number=start_number)
    if entry.status != Entry.Status.ACTIVE:
        messages.error(
            request,
            _("%(player)s is not active (%(status)s): no card is printed.")
            % {"player": entry.name, "status": entry.get_status_display()},
        )
        return redirect("tournaments:entry-edit", slug, start_number)
    job = services.job_start(
        tournament=tournament,
        entry=entry,
        kind=Job.Kind.PERSONAL_CARDS_PDF,
        by=request.user,
        site_url=site_url(request),
    )
    return redirect("printing:job", pk=job.pk)


@login_required
@require_POST
def standings_print(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament_for_printing(request, slug, counts=False)
    job = services.job_start(tournament=tournament, kind=Job.Kind.STANDINGS_PDF, by=request.user)
    return redirect("printing:job", pk=job.pk)


@login_required
@require_POST
def sheet_print(
    request: AuthenticatedHttpRequest, slug: str, number: int, table: int
) -> HttpResponse:
    """A table's sheet as a PDF for the archive (as confirmed, or as it stands)."""
    tournament = _tournament_for_printing(request, slug)
    sheet = get_object_or_404(
        Scoresheet.objects.select_related("table__round"),
        table__round__tournament=tournament,
        table__round__number=number,
        table__number=table,
    )
    job = services.job_start(
        tournament=tournament,
        round=sheet.table.round,
        table=sheet.table,
        kind=Job.Kind.SCORESHEET_PDF,
        by=request.user,
    )
    return redirect("printing:job", pk=job.pk)


def _job(request: HttpRequest, pk) -> Job:
    """A job, for whoever may print in its tournament; 404 to anyone else (its id is its
    secret, and nobody else learns that it exists)."""
    job = selectors.job_get(pk=pk)
    if policies.may_print(roles=roles_of(request, job.tournament)):
        raise Http404
    return job


@login_required
@require_GET
def job_detail(request: HttpRequest, pk) -> HttpResponse:
    job = _job(request, pk)
    template = (
        "printing/partials/job_status.html"
        if request.headers.get("HX-Request")
        else "printing/job.html"
    )
    return render(request, template, {"job": job, "tournament": job.tournament})


@login_required
@require_GET
def job_download(request: HttpRequest, pk) -> FileResponse:
    job = _job(request, pk)
    # A done job has its file (the constraint job_done_has_file).
    if job.status != Job.Status.DONE or not job.file.name:
        raise Http404
    # Named in the reader's language, whoever started the job (``jobs.job_filename``).
    return FileResponse(
        job.file.open("rb"), as_attachment=True, filename=jobs.job_filename(job=job)
    )


# Team competitions: small documents (a few teams), made on the spot and named at download -----


def _pdf_response(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = content_disposition_header(True, filename)
    return response


@login_required
@require_GET
def team_line_ups_pdf(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A match day's line-up sheets: its competition's organisers only (they hold who plays
    where before the tables are drawn); a competition one may not read is a 404."""
    competition = team_selectors.competition_get(slug=slug, user=request.user)
    policies.enforce(
        team_policies.may_manage_competition(competition=competition, user=request.user)
    )
    match_day = team_selectors.match_day_get(competition=competition, number=number)
    content = teams_pdf.line_up_sheets_pdf(
        match_day=match_day, groups=selectors.line_up_sheets(match_day=match_day)
    )
    words = [competition.slug, slugify(_("match day")), str(number), slugify(_("line-ups"))]
    return _pdf_response(content, "-".join(words) + ".pdf")


@require_GET
def team_table_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    """A competition's season table, for whoever may read the competition."""
    competition = team_selectors.competition_get(slug=slug, user=request.user)
    provisional = team_selectors.match_days_not_counted(competition=competition)
    content = teams_pdf.season_table_pdf(
        competition=competition,
        lines=team_selectors.season_table(competition=competition),
        provisional=provisional,
    )
    return _pdf_response(content, f"{competition.slug}-{slugify(_('season table'))}.pdf")


@require_GET
def team_plan_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    """A league's season plan, for whoever may read the competition (404 without a plan)."""
    competition = team_selectors.competition_get(slug=slug, user=request.user)
    plan = team_selectors.season_plan_of(competition=competition)
    if plan is None:
        raise Http404
    content = teams_pdf.season_plan_pdf(competition=competition, plan=plan)
    return _pdf_response(content, f"{competition.slug}-{slugify(_('season plan'))}.pdf")
