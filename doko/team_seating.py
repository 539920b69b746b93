"""Drawing the tables of a team competition (DDV league and team championship). Plain Python.

The TSR has no rules for teams; the DDV's team competitions seat, at every table, one player of
each of four different teams, so team-mates never share a table. Over the rounds of a match day
each player meets the players of the other teams as evenly as possible (as few repeat meetings
as possible, and where repeats cannot be avoided, spread over the pairs), and the seat positions
are balanced as in the individual draw (``doko.positions.balanced_positions``: nobody in one
position more than ``ceil(rounds / 4)`` times).

``team_draw`` seats the line-ups. Four teams of ``q`` players, ``q`` a prime power (4, 5, 7, 8,
9, ...), for up to ``q`` rounds have a perfect plan, built directly: mutually orthogonal Latin
squares over the field GF(q), nobody meeting anybody twice. Every other field is searched
locally from a valid random start: swaps of two players of one round at different tables that
keep every table's four teams different (two players of the same team always do), with a tabu
search over all drawn rounds. Everything random comes from one ``random.Random(seed)``: the same
input gives the same plan, whatever the order the teams and players are given in.

``team_groups`` splits a league's teams into groups of four for a match day.
"""

import dataclasses
import itertools
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from doko.positions import balanced_positions
from doko.seating import Draw, Quality, SeatingPlan, quality, table_sizes
from doko.tabu import Meetings, tabu_search


@dataclass(frozen=True)
class TeamSeatingError(ValueError):
    """The line-ups cannot be seated with four different teams at every table.

    ``reason``: ``"too_few_teams"`` (fewer than four teams), ``"team_too_large"`` (``team``
    has more players than there are tables, so two of them would share one), ``"empty_team"``
    (``team`` has no players) or ``"player_twice"`` (``player`` is in more than one line-up, or
    twice in one). ``tables``: the number of tables the field needs.
    """

    reason: str
    team: int | None = None
    player: int | None = None
    players: int = 0
    tables: int = 0

    def __str__(self) -> str:
        if self.reason == "too_few_teams":
            return "a team draw needs at least four teams: every table seats four teams"
        if self.reason == "empty_team":
            return f"team {self.team} has no players"
        if self.reason == "player_twice":
            return f"player {self.player} is named more than once in the line-ups"
        return (
            f"team {self.team} has {self.players} players but there are only {self.tables}"
            " tables: team-mates would have to share a table"
        )


def team_draw(
    teams: Mapping[int, Sequence[int]],
    *,
    rounds: int,
    seed: int,
    history: Sequence[SeatingPlan] = (),
) -> Draw:
    """Seat the line-ups ``teams`` (team id to its players) for ``rounds`` rounds at tables of
    four, each table one player of each of four different teams.

    ``history``: earlier rounds of the match day, whose meetings count (players in it who are
    gone are ignored). Refuses with ``SeatingError`` a field that does not fill tables of four,
    and with ``TeamSeatingError`` one where some table would need two players of one team (fewer
    than four teams, or a team with more players than there are tables). The quality's
    ``best_possible`` counts that team-mates never meet.

    Seat positions: rounds drawn from scratch get ``balanced_positions`` (nobody in one
    position more than ``ceil(rounds / 4)`` times, guaranteed). After ``history`` the drawn
    rounds take that or, if it spreads the positions played and drawn better, each table's
    order chosen round by round against the positions so far; the limit of
    ``ceil(all rounds / 4)`` is then kept where the tables allow it, not promised (nor are few
    repeats: a match day is best drawn in one go).
    """
    if rounds < 1:
        raise ValueError("draw at least one round")
    field = _Field(teams)
    rng = random.Random(seed)
    planner = _TeamPlanner(field, history, rounds=rounds, rng=rng)
    drawn = planner.perfect_rounds(rounds)
    if drawn is None:
        drawn = [planner.random_round() for _ in range(rounds)]
        for tables in drawn:
            planner.add(tables)
    if planner.cost() > planner.least_cost():
        planner.tabu(drawn)
    ordered = balanced_positions(drawn, rng)
    if history:
        ordered = planner.seat_after_history([ordered, planner.seat(drawn)])
    plans = tuple(
        SeatingPlan(tables=tuple(tuple(field.ids[p] for p in table) for table in tables))
        for tables in ordered
    )
    return Draw(rounds=plans, quality=team_quality(plans, teams=teams, history=history))


def team_quality(
    plans: Sequence[SeatingPlan],
    *,
    teams: Mapping[int, Sequence[int]],
    history: Sequence[SeatingPlan] = (),
) -> Quality:
    """``doko.seating.quality`` of a team draw, its ``best_possible`` for a player who can meet
    only the players of the other teams (team-mates who met in ``history`` count as well)."""
    measured = quality(plans, history=history)
    team_of = {player: team for team, players in teams.items() for player in players}
    everyone = {player for plan in plans for player in plan.players}
    size = {team: sum(p in everyone for p in players) for team, players in teams.items()}
    faced = dict.fromkeys(everyone, 0)
    mates: dict[tuple[int, int], int] = {}
    for plan in [*history, *plans]:
        for table in plan.tables:
            present = [p for p in table if p in everyone]
            for a, b in itertools.combinations(sorted(present), 2):
                if team_of.get(a) is not None and team_of.get(a) == team_of.get(b):
                    mates[a, b] = mates.get((a, b), 0) + 1
                else:
                    faced[a] += 1
                    faced[b] += 1
    over = 0
    for player, count in faced.items():
        team = team_of.get(player)
        others = len(everyone) - (size[team] if team is not None else 1)
        over += max(count - others, 0)
    best = math.ceil(over / 2) + sum(count - 1 for count in mates.values())
    return dataclasses.replace(measured, best_possible=best)


def team_groups(teams: Sequence[int], *, seed: int, size: int = 4) -> list[list[int]]:
    """Split a league's ``teams`` at random into groups of ``size`` for a match day (each group
    plays at its own tables). Refuses a number of teams that ``size`` does not divide."""
    if len(set(teams)) != len(teams):
        raise ValueError("every team can be drawn into only one group")
    if size < 1 or len(teams) % size:
        raise ValueError(f"{len(teams)} teams cannot be split into groups of {size}")
    order = sorted(teams)
    random.Random(seed).shuffle(order)
    return [sorted(order[start : start + size]) for start in range(0, len(order), size)]


# The field ----------------------------------------------------------------------------------


class _Field:
    """The line-ups checked; players are indices 0..n-1 internally, sorted by id."""

    def __init__(self, teams: Mapping[int, Sequence[int]]) -> None:
        seen: set[int] = set()
        for team in sorted(teams):
            if not teams[team]:
                raise TeamSeatingError(reason="empty_team", team=team)
            for player in teams[team]:
                if player in seen:
                    raise TeamSeatingError(reason="player_twice", player=player)
                seen.add(player)
        tables = len(table_sizes(len(seen), tables_of_five=False))  # SeatingError if not 4s
        if len(teams) < 4:
            raise TeamSeatingError(reason="too_few_teams", tables=tables)
        for team in sorted(teams):
            if len(teams[team]) > tables:
                raise TeamSeatingError(
                    reason="team_too_large", team=team, players=len(teams[team]), tables=tables
                )
        self.tables = tables
        self.ids = sorted(seen)
        index = {player: i for i, player in enumerate(self.ids)}
        self.index = index
        self.lineups = [sorted(index[p] for p in teams[team]) for team in sorted(teams)]
        self.team = [0] * len(self.ids)
        for number, lineup in enumerate(self.lineups):
            for p in lineup:
                self.team[p] = number


# Perfect plans: orthogonal Latin squares over GF(q) -------------------------------------------


def _prime_power(q: int) -> tuple[int, int] | None:
    for p in range(2, q + 1):
        if q % p == 0:
            k, rest = 0, q
            while rest % p == 0:
                rest, k = rest // p, k + 1
            return (p, k) if rest == 1 else None
    return None


def galois_field(q: int) -> tuple[list[list[int]], list[list[int]]] | None:
    """Addition and multiplication tables of GF(``q``) (``None`` unless ``q`` is a prime
    power). An element is an int whose base-p digits are its polynomial's coefficients, so 0
    and 1 are the field's zero and one; multiplication is modulo the first monic irreducible
    polynomial of degree k found (the one whose products have no zero divisors)."""
    found = _prime_power(q)
    if found is None:
        return None
    p, k = found

    def digits(x: int) -> list[int]:
        return [(x // p**i) % p for i in range(k)]

    def number(coefficients: Sequence[int]) -> int:
        return sum(c * p**i for i, c in enumerate(coefficients))

    add = [
        [number([(a + b) % p for a, b in zip(digits(x), digits(y), strict=True)]) for y in range(q)]
        for x in range(q)
    ]
    if k == 1:
        return add, [[(x * y) % p for y in range(q)] for x in range(q)]
    for low in range(p**k):
        modulus = digits(low)  # x^k = -(modulus) below

        def multiply(x: int, y: int, modulus: list[int] = modulus) -> int:
            product = [0] * (2 * k - 1)
            for i, a in enumerate(digits(x)):
                for j, b in enumerate(digits(y)):
                    product[i + j] = (product[i + j] + a * b) % p
            for degree in range(2 * k - 2, k - 1, -1):
                lead, product[degree] = product[degree], 0
                for i, c in enumerate(modulus):
                    product[degree - k + i] = (product[degree - k + i] - lead * c) % p
            return number(product[:k])

        mul = [[multiply(x, y) for y in range(q)] for x in range(q)]
        if all(mul[x][y] for x in range(1, q) for y in range(1, q)):
            return add, mul
    raise AssertionError("every finite field has an irreducible polynomial")  # pragma: no cover


# The search ---------------------------------------------------------------------------------

_TABU_STEPS = 4_000
_TABU_STALE = 600  # steps without a better plan after which the search gives up
_TABU_TRIES = 24  # conflicted players whose swaps are weighed in one step
_SAMPLE = 48  # partners tried per conflicted player in a large field
_OVER = 1_000  # seating after earlier rounds: a player in one position over the limit


class _TeamPlanner(Meetings):
    """``met[p][q]`` counts the rounds (earlier and drawn) p and q shared a table. The cost of a
    plan is the sum over pairs of ``m (m - 1) / 2`` for m meetings: no repeat costs nothing, and
    repeats that cannot be avoided cost least spread over many pairs."""

    def __init__(
        self, field: _Field, history: Sequence[SeatingPlan], *, rounds: int, rng: random.Random
    ) -> None:
        self.field = field
        self.rng = rng
        n = len(field.ids)
        super().__init__(n)
        self.faced = [3 * rounds] * n
        self.positions = [[0] * 5 for _ in range(n)]  # in the history
        self.history_rounds = len(history)
        for plan in history:
            for table in plan.tables:
                seated = [field.index[p] for p in table if p in field.index]
                for position, player in enumerate(table):
                    if player in field.index:
                        self.positions[field.index[player]][position] += 1
                for a, b in itertools.combinations(seated, 2):
                    self.met[a][b] += 1
                    self.met[b][a] += 1
                    if field.team[a] != field.team[b]:
                        self.faced[a] += 1
                        self.faced[b] += 1
        others = [n - len(field.lineups[field.team[p]]) for p in range(n)]
        self.others = others
        # A player at a table with somebody he met more often than an even spread needs is
        # ``conflicted``; each of his swaps is weighed.
        self.cap = [max(1, math.ceil(self.faced[p] / others[p])) for p in range(n)]

    def cost(self) -> int:
        n = len(self.met)
        return sum(m * (m - 1) // 2 for a in range(n) for m in self.met[a][a + 1 :])

    def least_cost(self) -> int:
        """A lower bound for ``cost``: every player's meetings spread evenly over the players
        of the other teams (team-mates meet only in the history, and count as they are)."""
        total = 0
        team = self.field.team
        n = len(self.met)
        for p in range(n):
            even, extra = divmod(self.faced[p], self.others[p])
            total += (self.others[p] - extra) * even * (even - 1) + extra * (even + 1) * even
            total += sum(
                m * (m - 1) for q, m in enumerate(self.met[p]) if q != p and team[q] == team[p]
            )
        return total // 4  # each pair twice, and m (m - 1) / 2 each

    def random_round(self) -> list[list[int]]:
        """A valid round at random: the line-ups one after another, each shuffled, dealt to the
        tables in turn; no line-up is longer than the tables are many, so no table gets two
        players of one team."""
        lineups = [list(lineup) for lineup in self.field.lineups]
        self.rng.shuffle(lineups)
        for lineup in lineups:
            self.rng.shuffle(lineup)
        tables: list[list[int]] = [[] for _ in range(self.field.tables)]
        start = self.rng.randrange(self.field.tables)
        for k, p in enumerate(itertools.chain.from_iterable(lineups)):
            tables[(start + k) % self.field.tables].append(p)
        self.rng.shuffle(tables)
        return tables

    def perfect_rounds(self, rounds: int) -> list[list[list[int]]] | None:
        """For four teams of q players (q a prime power) and at most q rounds: table t of round
        r seats A_t, B_(t + r), C_(t + x r), D_(t + y r), in GF(q) with 0, 1, x, y distinct, so
        any two players of different teams meet in exactly one r (their difference fixes it).
        The rounds are a random choice of r, the teams and players a random labelling. Added."""
        lineups = self.field.lineups
        q = len(lineups[0])
        if len(lineups) != 4 or any(len(lineup) != q for lineup in lineups) or rounds > q:
            return None
        if q < 4:  # GF(2), GF(3) have no four distinct steps (and no such plan): searched
            return None
        gf = galois_field(q)
        if gf is None:
            return None
        add, mul = gf
        labels = [list(lineup) for lineup in lineups]
        self.rng.shuffle(labels)
        for lineup in labels:
            self.rng.shuffle(lineup)
        steps = (0, 1, 2, 3)  # distinct elements of GF(q), q >= 4
        drawn = []
        for r in self.rng.sample(range(q), rounds):
            tables = [
                [labels[team][add[t][mul[step][r]]] for team, step in enumerate(steps)]
                for t in range(q)
            ]
            self.rng.shuffle(tables)
            drawn.append(tables)
            self.add(tables)
        return drawn

    def seat_after_history(self, choices: Sequence[list[list[list[int]]]]) -> list[list[list[int]]]:
        """Of ``choices`` (seat orders of the drawn rounds), the one whose players, with their
        positions played, have the fewest times in one position, then the fewest squared."""

        def spread(ordered: list[list[list[int]]]) -> tuple[int, int]:
            counts = [list(row) for row in self.positions]
            for tables in ordered:
                for table in tables:
                    for position, p in enumerate(table):
                        counts[p][position] += 1
            return (
                max(max(row) for row in counts),
                sum(c * c for row in counts for c in row),
            )

        return min(choices, key=spread)

    def seat(self, drawn: Sequence[Sequence[Sequence[int]]]) -> list[list[list[int]]]:
        """Seat orders after the history's: each table, round by round, in the order that adds
        least to its players' counts of their positions, squared, with a heavy cost for a count
        over ``ceil(rounds so far / 4)`` (as ``doko.seating`` seats a round drawn alone)."""
        positions = [list(row) for row in self.positions]  # the history's, and then these
        ordered = []
        for number, tables in enumerate(drawn):
            limit = math.ceil((self.history_rounds + number + 1) / 4)
            seated = []
            for table in tables:
                orders = list(itertools.permutations(table))
                self.rng.shuffle(orders)

                def cost(order: Sequence[int], limit: int = limit) -> int:
                    counts = [positions[p][k] + 1 for k, p in enumerate(order)]
                    return sum(c * c + (_OVER if c > limit else 0) for c in counts)

                best = min(orders, key=cost)
                for position, p in enumerate(best):
                    positions[p][position] += 1
                seated.append(list(best))
            ordered.append(seated)
        return ordered

    def swap_delta(self, a: int, here: Sequence[int], b: int, there: Sequence[int]) -> int:
        """The change of cost if a (at ``here``) and b (at ``there``) change tables."""
        met_a, met_b = self.met[a], self.met[b]
        delta = 0
        for q in here:
            if q != a:
                delta += met_b[q] - met_a[q] + 1
        for q in there:
            if q != b:
                delta += met_a[q] - met_b[q] + 1
        return delta

    def allowed(self, a: int, here: Sequence[int], b: int, there: Sequence[int]) -> bool:
        """Whether a and b may change tables: every table keeps four different teams."""
        team = self.field.team
        if team[a] == team[b]:
            return True
        return all(team[q] != team[b] for q in here if q != a) and all(
            team[q] != team[a] for q in there if q != b
        )

    def tabu(self, drawn: list[list[list[int]]]) -> None:
        """Tabu search over all drawn rounds (added): move a conflicted player by the allowed
        swap of his round that costs least, even uphill, never undoing a recent move, keeping
        the best plan seen; stop at the lower bound or when no better plan turns up."""
        tabu_search(
            drawn,
            self,
            self.rng,
            steps=_TABU_STEPS,
            stale=_TABU_STALE,
            tries=_TABU_TRIES,
            tenure=(4, 12),
            cost=self.cost(),
            least=self.least_cost(),
        )

    # As doko.tabu's ``Moves``:

    def conflicted(self, drawn: Sequence[Sequence[Sequence[int]]]) -> list[tuple[int, int]]:
        """Players who meet somebody more often than an even spread needs, the furthest from
        it first; if none, everybody."""
        excess = {
            (number, p): most - self.cap[p]
            for number, tables in enumerate(drawn)
            for table in tables
            for p in table
            if (most := max(self.met[p][q] for q in table if q != p)) > self.cap[p]
        }
        conflicted = list(excess)
        if not conflicted:
            n = len(self.field.ids)
            conflicted = [(number, p) for number in range(len(drawn)) for p in range(n)]
        if len(conflicted) > _TABU_TRIES:
            # The players furthest from an even spread always, a sample of the others.
            worst = max(excess.values(), default=0)
            first = [key for key, over in excess.items() if over == worst > 1]
            first = self.rng.sample(first, min(len(first), _TABU_TRIES // 2))
            taken = set(first)
            rest = [key for key in conflicted if key not in taken]
            conflicted = first + self.rng.sample(rest, _TABU_TRIES - len(first))
        return conflicted

    def partners(self, number: int, a: int) -> Sequence[int]:
        n = len(self.field.ids)
        return self.rng.sample(range(n), _SAMPLE) if n > _SAMPLE else range(n)

    def delta(self, number: int, a: int, here: list[int], b: int, there: list[int]) -> int | None:
        if not self.allowed(a, here, b, there):
            return None
        return self.swap_delta(a, here, b, there)
