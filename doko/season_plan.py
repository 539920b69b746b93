"""A league's season plan: the groups of four teams of every match day, drawn at once so that
every pair of teams meets as evenly as possible over the season. Plain Python, no Django.

The TSR has no rules for teams. The DDV's Bundesliga plays 16 teams in groups of four over five
(double) match days „so dass am Ende der Saison jede Mannschaft gegen jede andere gespielt hat“:
a resolvable 2-(16, 4, 1) design, the affine plane of order 4. ``season_plan`` builds it from
the arithmetic of GF(4) (the lines y = m·x + b of one slope m, and the lines x = c, are the
groups of one match day; two points lie on exactly one line, so two teams meet exactly once).
More than five match days go round the five again, so every pair meets ⌊d/5⌋ or ⌈d/5⌉ times.

Every other field is searched: each match day greedily (a team joins the group whose teams it
has met least), then a tabu search over all match days swaps two teams of different groups of
one match day, minimising the sum over pairs of 1² + 2² + … + (m − 1)² for m meetings (no repeat
costs nothing; repeats that cannot be avoided cost least spread over many pairs). It stops at the
lower bound of that sum or when no better plan turns up.

As the match day's own draw (``teams.services.match_day_create``), a plan needs a number of
teams that four divides: every group plays four teams, one at each place of every table.
Everything random comes from one ``random.Random(seed)``: the same teams (in any order) and the
same seed give the same plan.
"""

import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from doko.tabu import Meetings, tabu_search
from doko.team_seating import galois_field

GROUP_SIZE = 4
MOST_MATCH_DAYS = 40

_STEPS = 3_000
_STALE = 500  # steps without a better plan after which the search gives up
_TRIES = 16  # (match day, team) pairs whose swaps are weighed in one step


@dataclass(frozen=True)
class SeasonPlanError(ValueError):
    """No plan for this field. ``reason``: ``"too_few_teams"`` (fewer than four),
    ``"not_groups_of_four"`` (four does not divide ``teams``), ``"team_twice"``,
    ``"match_days"`` (fewer than one or more than ``MOST_MATCH_DAYS``)."""

    reason: str
    teams: int = 0
    match_days: int = 0

    def __str__(self) -> str:
        if self.reason == "too_few_teams":
            return f"a plan needs at least four teams, not {self.teams}"
        if self.reason == "not_groups_of_four":
            return f"{self.teams} teams cannot be split into groups of four"
        if self.reason == "team_twice":
            return "every team can be planned only once"
        return f"plan 1 to {MOST_MATCH_DAYS} match days, not {self.match_days}"


Day = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class SeasonPlan:
    """``days[d][g]``: the teams (ids, ascending) of group g + 1 on match day d + 1.
    ``most``: the most times any two teams meet; ``least_most``: a lower bound for it (no plan
    of this field does better); ``perfect``: every pair meets exactly once."""

    days: tuple[Day, ...]
    most: int
    least_most: int
    perfect: bool


def pair_meetings(days: Sequence[Sequence[Sequence[int]]]) -> dict[tuple[int, int], int]:
    """How often each pair of teams (the smaller id first) shares a group over ``days``;
    pairs that never meet are absent."""
    met: dict[tuple[int, int], int] = {}
    for day in days:
        for group in day:
            for a, b in itertools.combinations(sorted(group), 2):
                met[a, b] = met.get((a, b), 0) + 1
    return met


def least_most(teams: int, match_days: int) -> int:
    """A lower bound for the most times two teams meet over ``match_days`` match days: a team
    meets 3 others each match day, spread at best evenly over the ``teams - 1`` others; and
    where a match day has fewer than four groups, a group of the next match day takes two teams
    of one group of the first (pigeonhole), so some pair meets twice."""
    if teams <= GROUP_SIZE:
        return match_days
    bound = math.ceil((GROUP_SIZE - 1) * match_days / (teams - 1))
    if match_days >= 2 and teams // GROUP_SIZE < GROUP_SIZE:
        bound = max(bound, 2)
    return bound


def season_plan(teams: Sequence[int], *, match_days: int, seed: int) -> SeasonPlan:
    """Groups of four for ``match_days`` match days, every pair of ``teams`` meeting as evenly
    as possible: exactly once for 16 teams over five match days (the affine plane of order 4);
    otherwise a greedy start improved by a tabu search. Refuses (``SeasonPlanError``) a field
    that four does not divide, as the match day's draw does."""
    if len(set(teams)) != len(teams):
        raise SeasonPlanError(reason="team_twice", teams=len(teams))
    if len(teams) < GROUP_SIZE:
        raise SeasonPlanError(reason="too_few_teams", teams=len(teams))
    if len(teams) % GROUP_SIZE:
        raise SeasonPlanError(reason="not_groups_of_four", teams=len(teams))
    if not 1 <= match_days <= MOST_MATCH_DAYS:
        raise SeasonPlanError(reason="match_days", match_days=match_days)
    rng = random.Random(seed)
    order = sorted(teams)
    rng.shuffle(order)  # a random labelling, the same for the same seed whatever the input order
    if len(order) == GROUP_SIZE**2:
        indices = _affine_plane(GROUP_SIZE, match_days, rng)
    else:
        indices = _searched(len(order), match_days, rng)
    days = tuple(
        tuple(
            sorted(
                (tuple(sorted(order[i] for i in group)) for group in day),
                key=lambda group: group[0],
            )
        )
        for day in indices
    )
    met = pair_meetings(days)
    pairs = len(order) * (len(order) - 1) // 2
    return SeasonPlan(
        days=days,
        most=max(met.values(), default=0),
        least_most=least_most(len(order), match_days),
        perfect=len(met) == pairs and all(count == 1 for count in met.values()),
    )


# The affine plane -------------------------------------------------------------------------------


def _affine_plane(q: int, match_days: int, rng: random.Random) -> list[list[list[int]]]:
    """The q + 1 parallel classes of AG(2, q) on the points x·q + y, x and y in GF(q): for each
    slope m the lines y = m·x + b (b in GF(q)), and the lines x = c. Each is a match day of q
    groups of q teams; any two points share exactly one line, so over the q + 1 match days any
    two teams meet exactly once. Later match days take the classes round again."""
    field = galois_field(q)
    assert field is not None, "the group size is a prime power"
    add, mul = field
    classes = [[[x * q + add[mul[m][x]][b] for x in range(q)] for b in range(q)] for m in range(q)]
    classes.append([[c * q + y for y in range(q)] for c in range(q)])
    rng.shuffle(classes)
    return [classes[day % len(classes)] for day in range(match_days)]


# The search -------------------------------------------------------------------------------------


def _weight(m: int) -> int:
    """The cost of a pair that meets m times: 0, 0, 1, 5, 14, ... (each further meeting costs
    the square of those before it: a third meeting of one pair costs more than a second
    meeting of two others, so the search spreads repeats)."""
    return (m - 1) * m * (2 * m - 1) // 6


def _cost(met: list[list[int]]) -> int:
    n = len(met)
    return sum(_weight(m) for a in range(n) for m in met[a][a + 1 :])


def _least_cost(n: int, match_days: int) -> int:
    """The cost of the meetings spread as evenly as the pairs allow (a lower bound)."""
    pairs = n * (n - 1) // 2
    meetings = match_days * (n // GROUP_SIZE) * GROUP_SIZE * (GROUP_SIZE - 1) // 2
    even, extra = divmod(meetings, pairs)
    return (pairs - extra) * _weight(even) + extra * _weight(even + 1)


def _greedy_day(n: int, met: list[list[int]], rng: random.Random) -> list[list[int]]:
    """One match day: groups filled one after another, each time with the team (of those left,
    in random order) that has met the group's teams least."""
    left = list(range(n))
    rng.shuffle(left)
    groups = []
    while left:
        group = [left.pop()]
        while len(group) < GROUP_SIZE:
            best = min(range(len(left)), key=lambda i: sum(met[left[i]][t] ** 2 for t in group))
            group.append(left.pop(best))
        groups.append(group)
    for group in groups:
        for a, b in itertools.combinations(group, 2):
            met[a][b] += 1
            met[b][a] += 1
    return groups


def _searched(n: int, match_days: int, rng: random.Random) -> list[list[list[int]]]:
    moves = _Moves(n, cap=max(1, least_most(n, match_days)))
    days = [_greedy_day(n, moves.met, rng) for _ in range(match_days)]
    least = _least_cost(n, match_days)
    cost = _cost(moves.met)
    if cost <= least or n == GROUP_SIZE:
        return days
    return tabu_search(
        days,
        moves,
        rng,
        steps=_STEPS,
        stale=_STALE,
        tries=_TRIES,
        tenure=(3, 10),
        cost=cost,
        least=least,
    )


class _Moves(Meetings):
    """The season plan as ``doko.tabu`` sees it: a team is conflicted while it meets another
    more often than ``cap``; if none is, every team; any two teams of a match day may swap."""

    def __init__(self, n: int, *, cap: int) -> None:
        super().__init__(n)
        self.cap = cap
        self.teams = range(n)

    def conflicted(self, drawn: Sequence[Sequence[Sequence[int]]]) -> list[tuple[int, int]]:
        met = self.met
        return [
            (number, a)
            for number, day in enumerate(drawn)
            for group in day
            for a in group
            if max(met[a][t] for t in group if t != a) > self.cap
        ] or [(number, a) for number in range(len(drawn)) for a in self.teams]

    def partners(self, number: int, a: int) -> range:
        return self.teams

    def delta(self, number: int, a: int, here: list[int], b: int, there: list[int]) -> int:
        met = self.met
        return sum(met[b][t] ** 2 - (met[a][t] - 1) ** 2 for t in here if t != a) + sum(
            met[a][t] ** 2 - (met[b][t] - 1) ** 2 for t in there if t != b
        )
