"""The venue screen of a team competition (``/teams/<slug>/screen/``): on the projector in the
hall, the current match day's groups with each team's points and match points (provisional
until every sheet is confirmed) and the season table below; it refreshes itself every 30
seconds, as the tournament's screen does (htmx, no inline script or style: CSP)."""

from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from teams import selectors
from teams.display import match_points_text
from teams.models import Competition, MatchDay
from tournaments.models import Round

REFRESH_SECONDS = 30


@dataclass(frozen=True)
class ScreenRow:
    """A team's line on the screen, its numbers as shown."""

    place: int
    name: str
    points: int
    match_points: str  # "2½", or "–" before a sheet is confirmed
    through: bool | None  # a knock-out tie: goes through, is out, or not known yet


@dataclass(frozen=True)
class ScreenGroup:
    number: int
    rows: tuple[ScreenRow, ...]
    level_at_cut: bool


@dataclass(frozen=True)
class ScreenLine:
    rank: int
    shared: bool
    name: str
    match_points: str
    game_points: int
    zone: str
    ranked: bool = True  # False before any match day counts (``SeasonLine.ranked``)


def current_match_day(*, competition: Competition) -> MatchDay | None:
    """The match day the hall is at: the last one whose tables are drawn, else the first one
    (still to come); None without match days."""
    match_days = selectors.match_days_of(competition=competition)
    if not match_days:
        return None
    drawn = set(
        Round.objects.filter(
            tournament_id__in=[match_day.tournament_id for match_day in match_days],
            tables__isnull=False,
        ).values_list("tournament_id", flat=True)
    )
    started = [match_day for match_day in match_days if match_day.tournament_id in drawn]
    return started[-1] if started else match_days[0]


def _running_round(match_day: MatchDay) -> Round | None:
    """The match day's round the hall is at: the first drawn one not closed yet (a match day's
    rounds are drawn at once), else the last one."""
    rounds = match_day.tournament.rounds.filter(tables__isnull=False).distinct()
    return (
        rounds.exclude(status=Round.Status.CLOSED).order_by("number").first()
        or rounds.order_by("-number").first()
    )


@require_GET
def competition_screen(request: HttpRequest, slug: str) -> HttpResponse:
    """The projector: public when the competition is (else its organisers' only, a 404 to
    others); the same page for the hall and for staff."""
    competition = selectors.competition_get(slug=slug, user=request.user)
    match_day = current_match_day(competition=competition)
    groups: list[ScreenGroup] = []
    complete = False
    round_ = None
    if match_day is not None:
        match_day.competition = competition
        round_ = _running_round(match_day)
        results = selectors.group_results(match_day=match_day)
        complete = all(result.complete for result in results)
        groups = [
            ScreenGroup(
                number=result.group.number,
                rows=tuple(
                    ScreenRow(
                        place=row.place,
                        name=row.team.name,
                        points=row.points,
                        match_points=match_points_text(row.match_points),
                        through=row.through,
                    )
                    for row in result.rows
                ),
                level_at_cut=result.level_at_cut,
            )
            for result in results
        ]
    table = [
        ScreenLine(
            rank=line.rank,
            shared=line.shared,
            name=line.team.name,
            match_points=match_points_text(line.match_points),
            game_points=line.game_points,
            zone=line.zone,
            ranked=line.ranked,
        )
        for line in selectors.season_table(competition=competition)
    ]
    context = {
        "competition": competition,
        "match_day": match_day,
        "knockout": match_day is not None and match_day.stage == MatchDay.Stage.KNOCKOUT,
        "round": round_,
        "groups": groups,
        "provisional": match_day is not None and not complete,
        "any_points": any(row.match_points != "–" for group in groups for row in group.rows),
        "table": table,
        "refresh_seconds": REFRESH_SECONDS,
    }
    if request.headers.get("HX-Request"):
        return render(request, "teams/partials/screen_body.html", context)
    return render(request, "teams/screen.html", context)
