"""Who deals, who plays and who must play a forced solo (TSR 3.3.1, 4.2, 8.5, 10).

Seats are numbered clockwise from 1; the deal passes to the left, from seat n to seat n + 1
(TSR 3.3.1, 3.3.2). At a table of five the dealer sits out the hand (TSR 10.1.1).

Tables of six and seven (TSR 10: „Abweichend von 2.1.1 kann Doppelkopf auch von 5, 6, oder 7
Spielern gespielt werden"). The TSR sets no details for them; the system reads 10.1 and 10.2
for them as follows (the manual's "rules as the system reads them" says the same):

- who sits out: every hand is played by four (TSR 2.1.1 „Das einzelne Spiel wird von vier
  Spielern gespielt"). As at five the dealer gets no cards (10.1.1), and at a table of n the
  n - 5 players to his left sit out with him: the dealer deals to the four after them. So at
  six the dealer and seat dealer + 1 sit out, at seven the dealer and the two to his left;
  the first of the four who get cards leads, as at four and five the dealer's left neighbour
  among them does. Those sitting out score neither plus nor minus (10.1.2): their points are 0.
- how many hands: six a player, as at four (20 + 4 = 24) and five (25 + 5 = 30): n x 5 normal
  games and n compulsory solos, 36 = 30 + 6 at six and 42 = 35 + 7 at seven. So every player
  deals exactly five normal games and leads in exactly five (10.2.1), plays in exactly 20 of
  them, as at four and five, and with the solos in about 24 hands: the four-table's round per
  player. A club evening's shorter round scales the same way: the four-table's hands times
  n / 4, rounded (``hands_at_table``). The playing time scales likewise (150 and 175 minutes
  for 100 at four), the pace of 10.1.5's 125 minutes for 30 hands.
- who keeps the sheet: the last seat, as seat 5 at five (10.1.4): seat 6, seat 7.
- the odd-even rule (7.3.3.2) holds for the four who play the hand, not for those who sit out:
  10.1.3 waives it at five only, where the dealer's 0 sat among the four; at six and seven
  the four playing scores are checked as at four, the zeros of those sitting out are not.
- compulsory solos: one each (4.2.4), n at the end of the round as 25 + 5 at five; after a
  compulsory solo the same dealer deals again (10.2.1, 4.2.5). A forced solo owed only by
  players who sit out that hand passes the deal on until the first of them plays
  (``forced_deal``).

How many hands a round has (TSR 8.5.1, 10.1.5, 10.2.1): 24 at a table of four and 30 at a table
of five, the compulsory solos *included*. The German original says "Eine Spielrunde besteht aus
24 Spielen", and TSR 10.2.1 settles the count: at a table of five, where every player must lead
in exactly five normal games and nobody plays in more than 25, the round can only be 25 normal
games and 5 compulsory solos. So a table of four plays 20 hands in the main section and 4
compulsory solos (TSR 4.2.4), a table of five 25 and 5. A forced solo is a compulsory solo: it
is noted in the compulsory solos' section and is one of those lines.
"""

from collections.abc import Iterable
from dataclasses import dataclass, field

from doko.rules.contracts import Contract

TABLE_OF_FOUR = 4  # the usual table (TSR 8.3)
TABLE_OF_FIVE = 5  # the dealer sits out every hand (TSR 10.1)
TABLE_OF_SIX = 6  # TSR 10: the dealer and his left neighbour sit out (see above)
TABLE_OF_SEVEN = 7  # TSR 10: the dealer and the two to his left sit out
TABLE_SIZES = (TABLE_OF_FOUR, TABLE_OF_FIVE, TABLE_OF_SIX, TABLE_OF_SEVEN)  # TSR 8.3, 10
LARGE_TABLES = (TABLE_OF_SIX, TABLE_OF_SEVEN)
PLAYERS_PER_HAND = 4  # TSR 2.1.1: „Das einzelne Spiel wird von vier Spielern gespielt."
SEAT_NUMBERS = range(1, TABLE_OF_SEVEN + 1)  # seats 1-7; a table of four uses 1-4
FIRST_DEALER = 1  # TSR 3.3.1, 8.4.1: seat 1 deals the first hand, then the deal passes left
HANDS_PER_MATCH = {
    TABLE_OF_FOUR: 24,
    TABLE_OF_FIVE: 30,
    TABLE_OF_SIX: 36,
    TABLE_OF_SEVEN: 42,
}  # TSR 8.5.1, 10.1.5; 6 and 7 by our reading of TSR 10: every line, compulsory solos included


def check_table_size(table_size: int) -> None:
    if table_size not in TABLE_SIZES:
        raise ValueError(f"a table seats 4 to 7 players (TSR 8.3, 10), not {table_size}")


def hands_at_table(*, hands_at_four: int, table_size: int) -> int:
    """The lines of a round at a table of six or seven for a round of ``hands_at_four`` at a
    table of four: the same hands per player, ``hands_at_four x n / 4`` rounded half up (24:
    36 at six, 42 at seven), and never fewer than a normal hand dealt and a compulsory solo
    played by each (TSR 3.3.1, 4.2.3). Our reading of TSR 10, see above."""
    check_table_size(table_size)
    return max(
        (hands_at_four * table_size * 2 + PLAYERS_PER_HAND) // (2 * PLAYERS_PER_HAND),
        2 * table_size,
    )


def sitting_out(*, dealer: int, table_size: int) -> tuple[int, ...]:
    """The seats that sit a hand out: none at four, the dealer at five (TSR 10.1.1), the dealer
    and the ``table_size - 5`` players to his left at six and seven (our reading of TSR 10)."""
    check_table_size(table_size)
    if table_size == TABLE_OF_FOUR:
        return ()
    return tuple(seats_clockwise_from(dealer, table_size)[: table_size - PLAYERS_PER_HAND])


def scorekeeper(table_size: int) -> int:
    """The seat that keeps the scoresheet: seat 4, at a table of five seat 5 (TSR 8.4.1,
    10.1.4), at six and seven the last seat likewise (our reading of TSR 10)."""
    check_table_size(table_size)
    return table_size


def sheet_keeper(*, keeper_seat: int | None, table_size: int) -> int:
    """The seat that keeps a table's sheet (Listenführer): seat 4, at a table of five seat 5
    (TSR 8.4.1, 10.1.4), unless the organiser or an adjudicator handed the sheet over to
    another player of the table by agreement at the table (TSR 3.1.1): then that seat. Every
    place that asks who keeps a sheet asks here."""
    return keeper_seat or scorekeeper(table_size)


def seat_after(seat: int, table_size: int) -> int:
    """The seat to the left of ``seat``, that is the next one clockwise."""
    return seat % table_size + 1


def seats_clockwise_from(seat: int, table_size: int) -> list[int]:
    """All seats of the table clockwise, starting with ``seat``."""
    return [(seat - 1 + step) % table_size + 1 for step in range(table_size)]


def playing_seats(*, dealer: int, table_size: int) -> tuple[int, ...]:
    """The four seats that play a hand: at a table of five the dealer sits out (TSR 10.1.1),
    at six and seven the dealer and the players to his left (``sitting_out``)."""
    out = sitting_out(dealer=dealer, table_size=table_size)
    return tuple(seat for seat in range(1, table_size + 1) if seat not in out)


def next_dealer(*, dealer: int, contract: Contract, table_size: int) -> int:
    """The dealer of the following hand (TSR 3.3.1, 4.2.5).

    After a compulsory solo the same dealer deals again; after a forced solo, as after every
    other hand, the deal passes to the left.
    """
    check_table_size(table_size)
    if contract is Contract.COMPULSORY_SOLO:
        return dealer
    return seat_after(dealer, table_size)


def main_section_lines(*, hands_per_match: int, table_size: int) -> int:
    """The lines of the main section: every line of the round less one compulsory solo per
    player (TSR 4.2.4, 8.5.1): 20 at a table of four, 25 at a table of five, 30 and 35 at
    six and seven."""
    check_table_size(table_size)
    return hands_per_match - table_size


def forced_solo_due(*, hands_remaining: int, solos_outstanding: int) -> bool:
    """TSR 4.2.3: as many compulsory solos outstanding as hands remaining forces the next one."""
    return solos_outstanding > 0 and solos_outstanding >= hands_remaining


def forced_soloist(*, dealer: int, table_size: int, lacking: Iterable[int]) -> int | None:
    """The player who must play the forced solo (TSR 4.2.3).

    The first player clockwise from the dealer's left who has not yet played a compulsory solo;
    at a table of four that may be the dealer himself. At a table of five the dealer sits out
    (TSR 10.1.1), so only the four playing seats are asked: None if the dealer alone lacks his
    solo (``forced_deal`` then passes the deal on).
    """
    lacking = set(lacking)
    players = set(playing_seats(dealer=dealer, table_size=table_size))
    for seat in seats_clockwise_from(seat_after(dealer, table_size), table_size):
        if seat in lacking and seat in players:
            return seat
    return None


def forced_deal(*, dealer: int, table_size: int, lacking: Iterable[int]) -> tuple[int, int]:
    """Who deals the forced solo and who plays it (TSR 4.2.3, 10.1.1).

    ``dealer`` is the player due to deal; he deals even if he must play the forced solo himself
    (TSR 4.2.3), which at a table of four he can. At a table of five the dealer sits out, so if
    he is the only one still lacking his compulsory solo the TSR has no answer; our reading:
    the deal passes to the next seat, as it would after the hand, and the player lacking the
    solo plays it. The round is never stuck. At six and seven likewise: if only players who
    sit out lack it, the first of them clockwise from the dealer's left (the dealer last)
    plays it, and the seat to his left deals, so that he is among the four who play.
    """
    lacking = set(lacking)
    if not lacking:
        raise ValueError("nobody lacks a compulsory solo, so no forced solo is due")
    soloist = forced_soloist(dealer=dealer, table_size=table_size, lacking=lacking)
    if soloist is None:  # only players sitting out lack it
        first = next(
            seat
            for seat in seats_clockwise_from(seat_after(dealer, table_size), table_size)
            if seat in lacking
        )
        return seat_after(first, table_size), first
    return dealer, soloist


@dataclass
class MatchProgress:
    """Where a match stands after the hands recorded so far: who deals the next hand, how many
    of the round's lines are played and who has played his compulsory solo (TSR 3.3.1, 4.2,
    8.5.1, 10.1.5). Feed it every hand in the order played with ``record``.

    ``hands_per_match`` counts every line of the round, compulsory and forced solos included
    (24 at four, 30 at five). A hand stopped by a major breach counts as not played (TSR 9.4.3):
    it is not one of the round's lines, and the same dealer deals again. A hand dealt by the
    wrong player stands if nobody complained in time (TSR 9.7.3): the deal continues from the
    player who actually dealt it.
    """

    table_size: int
    hands_per_match: int
    dealer: int = FIRST_DEALER  # who deals the next hand in the normal order (TSR 3.3.1, 8.4.1)
    played: int = 0  # lines of the round played
    compulsory_played: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        check_table_size(self.table_size)
        if self.hands_per_match < 2 * self.table_size:
            raise ValueError(
                "a round has at least one normal hand dealt by each player and one compulsory "
                f"solo by each (TSR 3.3.1, 4.2.3): {2 * self.table_size} hands or more"
            )

    @property
    def lacking(self) -> set[int]:
        """The seats still owing their compulsory solo (TSR 4.2.3, 8.6.1)."""
        return set(range(1, self.table_size + 1)) - self.compulsory_played

    @property
    def lines_remaining(self) -> int:
        return max(self.hands_per_match - self.played, 0)

    @property
    def full(self) -> bool:
        """Every line of the round is played."""
        return self.played >= self.hands_per_match

    def forced_due(self, *, time_over: bool = False) -> bool:
        """The next hand must be a forced solo: the compulsory solos outstanding equal the lines
        still to play (TSR 4.2.3), or the playing time is over and solos are owed (TSR 8.5.3,
        8.6.1)."""
        lacking = len(self.lacking)
        if time_over:
            return lacking > 0
        return not self.full and forced_solo_due(
            hands_remaining=self.lines_remaining, solos_outstanding=lacking
        )

    def next_deal(self, *, time_over: bool = False) -> tuple[int, int | None]:
        """Who deals the next hand, and who must play it as a forced solo (or None)."""
        if self.forced_due(time_over=time_over):
            return forced_deal(dealer=self.dealer, table_size=self.table_size, lacking=self.lacking)
        return self.dealer, None

    def record(
        self, *, dealer: int, contract: Contract, soloist: int | None, not_played: bool = False
    ) -> None:
        """One more hand, as it was dealt and played."""
        if not_played:
            self.dealer = dealer  # dealt again by the same dealer (TSR 9.1.3, 9.4.3)
            return
        if contract.counts_as_compulsory and soloist is not None:
            self.compulsory_played.add(soloist)
        self.played += 1
        self.dealer = next_dealer(dealer=dealer, contract=contract, table_size=self.table_size)
