"""Pages: thin views that ask selectors and call services."""

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from scoring.messages import problem_message
from scoring.selectors import hand_lines, scoresheet_check, scoresheet_rows
from tournaments import selectors, services
from tournaments.models import Job, TournamentRole


def _is_organiser(request: HttpRequest, tournament) -> bool:
    roles = selectors.user_roles(user=request.user, tournament=tournament)
    return TournamentRole.Role.ORGANISER in roles


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "tournaments/home.html",
        {"tournaments": selectors.tournament_list(user=request.user)},
    )


@require_GET
def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = selectors.tournament_get(slug=slug, user=request.user)
    return render(
        request,
        "tournaments/tournament.html",
        {
            "tournament": tournament,
            "rounds": selectors.tournament_rounds(tournament=tournament),
            "is_organiser": _is_organiser(request, tournament),
        },
    )


@require_GET
def entry_list(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = selectors.tournament_get(slug=slug, user=request.user)
    return render(
        request,
        "tournaments/entries.html",
        {"tournament": tournament, "entries": selectors.entry_list(tournament=tournament)},
    )


@require_GET
def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = selectors.tournament_get(slug=slug, user=request.user)
    round_ = selectors.round_get(tournament=tournament, number=number)
    return render(
        request,
        "tournaments/round.html",
        {
            "tournament": tournament,
            "round": round_,
            "tables": selectors.round_tables(round=round_),
        },
    )


@require_GET
def table_detail(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    tournament = selectors.tournament_get(slug=slug, user=request.user)
    round_ = selectors.round_get(tournament=tournament, number=number)
    row = selectors.table_get(round=round_, number=table)
    context = {"tournament": tournament, "round": round_, "row": row}
    if row.sheet is not None:
        hands = list(row.sheet.hands.all())
        table_size = len(row.seats)
        context["hand_rows"] = scoresheet_rows(hands=hands, table_size=table_size)
        try:
            check = scoresheet_check(
                scoresheet=row.sheet, hands=hand_lines(hands), table_size=table_size
            )
        except ValidationError:
            check = None
        context["check"] = check
        context["problems"] = [problem_message(p) for p in check.problems] if check else []
    return render(request, "tournaments/table.html", context)


@login_required
@require_POST
def entry_list_print(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = selectors.tournament_get(slug=slug, user=request.user)
    if not _is_organiser(request, tournament):
        raise PermissionDenied
    job = services.job_start(tournament=tournament, kind=Job.Kind.ENTRY_LIST_PDF, by=request.user)
    return redirect("job", pk=job.pk)


def _job_for(request: HttpRequest, pk) -> Job:
    job = get_object_or_404(Job.objects.select_related("tournament"), pk=pk)
    if not _is_organiser(request, job.tournament):
        raise Http404
    return job


@login_required
@require_GET
def job_detail(request: HttpRequest, pk) -> HttpResponse:
    job = _job_for(request, pk)
    template = (
        "tournaments/partials/job_status.html"
        if request.headers.get("HX-Request")
        else "tournaments/job.html"
    )
    return render(request, template, {"job": job, "tournament": job.tournament})


@login_required
@require_GET
def job_download(request: HttpRequest, pk) -> FileResponse:
    job = _job_for(request, pk)
    if job.status != Job.Status.DONE:
        raise Http404
    return FileResponse(
        job.file.open("rb"), as_attachment=True, filename=job.file.name.split("/")[-1]
    )
