"""Scoring team competitions (DDV league and team championship). Plain Python, no Django.

The TSR has no rules for teams; these are the DDV's, as the club's issue states them:

- a league plays match days on which groups of (usually) four teams meet; within a group the
  teams score 4, 3, 2, 1 match points by their players' summed game points (``match_points``);
- the season table sums match points over the match days; ties are broken by the summed game
  points, then by direct comparison, in a settable order (``season_table``);
- the team championship plays a group stage the same way, then knock-out ties decided by the
  points summed over the rounds of the tie (``knockout_winner``).

Match points are ``Fraction``s: tied teams that share places share their points exactly (two
teams tied for second in a group of four get 2½ each), and the sum over a group stays 10.
Teams are opaque ints (the caller's ids).
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

MATCH_POINTS = (4, 3, 2, 1)
TIEBREAKS = ("game_points", "direct")


def match_points(
    team_points: Mapping[int, int],
    *,
    points: Sequence[int] = MATCH_POINTS,
    ties: str = "shared",
) -> dict[int, Fraction]:
    """The match points of each team of one group by its summed game points (``team_points``),
    most points first: ``points[0]`` for the first place, ``points[1]`` for the second, and so
    on (a smaller group takes the first places' points).

    Teams with equal game points cover as many places as they are. ``ties="shared"``: they
    share the points of those places equally (4 and 3 for two teams tied first: 3½ each), so
    the group's sum is that of its places; ``ties="higher"``: each gets the points of the
    highest of them (4 each).
    """
    if ties not in ("shared", "higher"):
        raise ValueError(f"ties must be 'shared' or 'higher', not {ties!r}")
    if len(team_points) > len(points):
        raise ValueError(f"{len(team_points)} teams but match points for {len(points)} places")
    order = sorted(team_points, key=lambda team: -team_points[team])
    result: dict[int, Fraction] = {}
    place = 0
    while place < len(order):
        tied = [team for team in order if team_points[team] == team_points[order[place]]]
        covered = points[place : place + len(tied)]
        share = Fraction(sum(covered), len(tied)) if ties == "shared" else Fraction(covered[0])
        for team in tied:
            result[team] = share
        place += len(tied)
    return result


@dataclass(frozen=True)
class SeasonRow:
    """One team's line of the season table. ``rank`` is shared by teams that no tie-break
    tells apart (1, 2, 2, 4); ``shared`` says so."""

    team: int
    match_points: Fraction
    game_points: int
    rank: int
    shared: bool


def season_table(
    meetings: Sequence[Mapping[int, tuple[Fraction | int, int]]],
    *,
    tiebreaks: Sequence[str] = TIEBREAKS,
) -> list[SeasonRow]:
    """The season table over ``meetings``: each a group's meeting on a match day (a match day
    with several groups gives several), team to (match points, game points) there.

    Teams rank by their summed match points, then by ``tiebreaks`` in the order given:
    ``"game_points"``, their summed game points; ``"direct"``, the direct comparison among the
    teams still tied: in every meeting where two of them met, the one with more match points
    there scores 1 and the other 0 (½ each if equal), and more such points rank higher. Teams
    tied after all tie-breaks share their rank.
    """
    for rule in tiebreaks:
        if rule not in TIEBREAKS:
            raise ValueError(f"unknown tie-break {rule!r}: choose from {', '.join(TIEBREAKS)}")
    totals: dict[int, Fraction] = {}
    games: dict[int, int] = {}
    for meeting in meetings:
        for team, (won, played) in meeting.items():
            totals[team] = totals.get(team, Fraction(0)) + Fraction(won)
            games[team] = games.get(team, 0) + played

    def direct(tied: list[int]) -> dict[int, Fraction]:
        scores = dict.fromkeys(tied, Fraction(0))
        for meeting in meetings:
            present = [team for team in tied if team in meeting]
            for a in present:
                for b in present:
                    if a != b:
                        mine, theirs = Fraction(meeting[a][0]), Fraction(meeting[b][0])
                        scores[a] += 1 if mine > theirs else Fraction(1, 2) if mine == theirs else 0
        return scores

    def split(tied: list[int], rules: Sequence[str]) -> list[list[int]]:
        """``tied`` (equal so far) in blocks, best first, by the first rule that tells them
        apart, each block split again by the rules after it."""
        if len(tied) == 1 or not rules:
            return [sorted(tied)]
        rule, rest = rules[0], rules[1:]
        key: Mapping[int, Fraction | int] = games if rule == "game_points" else direct(tied)
        blocks: list[list[int]] = []
        for value in sorted({key[team] for team in tied}, reverse=True):
            blocks += split([team for team in tied if key[team] == value], rest)
        return blocks

    rows: list[SeasonRow] = []
    for value in sorted(set(totals.values()), reverse=True):
        for block in split([team for team in totals if totals[team] == value], tiebreaks):
            rank = len(rows) + 1
            rows += [
                SeasonRow(
                    team=team,
                    match_points=totals[team],
                    game_points=games[team],
                    rank=rank,
                    shared=len(block) > 1,
                )
                for team in block
            ]
    return rows


def knockout_winner(tie_points: Mapping[int, int]) -> int | None:
    """The team that goes through a knock-out tie: the one with the most points summed over the
    rounds of the tie. ``None`` if the most points are shared: the rules the issue gives decide
    no further, so the caller (the tournament's director) decides, e.g. by another round."""
    if not tie_points:
        raise ValueError("a knock-out tie needs teams")
    most = max(tie_points.values())
    leaders = [team for team, points in tie_points.items() if points == most]
    return leaders[0] if len(leaders) == 1 else None
