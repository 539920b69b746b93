"""Four eyes: no single person decides a result. Who counts as the second person of a step is
decided here, once, from what people did: never from the page, the key or the link a request
came through.

Every step that needs a second person (``Step``) is refused to whoever did one of the deeds
(``Deed``) that make him the first person of it:

- **confirm** a handed-in scoresheet (TSR 7.3.2, 8.5.2: "von einem anderen Spieler des
  Tisches"): not whoever typed the sheet's hands or handed it in;
- **type the second entry** of a paper sheet (double entry, TSR 7.3.4): not whoever typed or
  handed in the first, nor whoever read the first entry while it was blind, nor a player of
  the table, who signed the paper he would check;
- **settle** the differences between two entries: not a typist of either entry alone (both
  typists together may: one proposes, the other agrees, ``settle_pair``), nor a player of the
  table;
- **admit** a tournament to a ranking list: not whoever ever held a role in the tournament
  (a role taken away still counts) or asked for the admission;
- **decide an appeal** on the arbitration panel (TSR 8.2.1: two instances): not whoever plays
  at the table concerned, nor whoever ruled on or initialled what is appealed against.

A person is known by several identities: an account (``Account``), and the player he is in a
tournament (``Player``, the entry a seat's or a personal link acts for). ``same`` links the
identities known to be one person: an account and the player it plays as (ever, in the
tournament's role history). A deed done under one identity counts for all the identities
linked to it, so a member of staff who typed a sheet through his account confirms it neither
through his account nor through his own seat's link; and a request that presents the
identities of two players of one table (an account playing at seat 1 sending seat 3's key)
acts for somebody else (``two_players``).
"""

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum


class Step(StrEnum):
    """A step that needs a second person."""

    CONFIRM = "confirm"
    SECOND_ENTRY = "second_entry"
    SETTLE = "settle"
    ADMIT = "admit"
    DECIDE_APPEAL = "decide_appeal"


class Deed(StrEnum):
    """What someone did that may make him the first person of a step."""

    TYPED = "typed"  # typed hands of the sheet (its first entry)
    HANDED_IN = "handed_in"  # handed the sheet in
    READ = "read"  # read the first entry while only its typist was to (double entry)
    TYPED_SECOND = "typed_second"  # typed the second entry
    PLAYED = "played"  # plays at the table concerned
    HELD_ROLE = "held_role"  # held a role in the tournament, at any time
    ASKED = "asked"  # asked for the admission
    RULED = "ruled"  # ruled on or initialled the decision appealed against


DISQUALIFYING: Mapping[Step, frozenset[Deed]] = {
    Step.CONFIRM: frozenset({Deed.TYPED, Deed.HANDED_IN}),
    Step.SECOND_ENTRY: frozenset({Deed.TYPED, Deed.HANDED_IN, Deed.READ, Deed.PLAYED}),
    Step.SETTLE: frozenset({Deed.TYPED, Deed.HANDED_IN, Deed.TYPED_SECOND, Deed.PLAYED}),
    Step.ADMIT: frozenset({Deed.HELD_ROLE, Deed.ASKED}),
    Step.DECIDE_APPEAL: frozenset({Deed.PLAYED, Deed.RULED}),
}


@dataclass(frozen=True, order=True)
class Account:
    """A person's account on the site."""

    id: int


@dataclass(frozen=True, order=True)
class Player:
    """A player of a tournament (its entry): whom a seat's link or a personal link acts for."""

    id: int


Identity = Account | Player


@dataclass(frozen=True)
class Done:
    """One deed on the record, and under which identity it was done."""

    deed: Deed
    by: Identity


def person(
    identities: Iterable[Identity], same: Iterable[tuple[Identity, Identity]]
) -> set[Identity]:
    """Every identity of the person (or persons) behind ``identities``: those, and all that
    ``same`` links to them, however many links away."""
    neighbours: dict[Identity, set[Identity]] = {}
    for one, other in same:
        neighbours.setdefault(one, set()).add(other)
        neighbours.setdefault(other, set()).add(one)
    found = set(identities)
    todo = list(found)
    while todo:
        for linked in neighbours.get(todo.pop(), ()):
            if linked not in found:
                found.add(linked)
                todo.append(linked)
    return found


def disqualifying(
    *,
    step: Step,
    record: Iterable[Done],
    actor: Collection[Identity],
    same: Iterable[tuple[Identity, Identity]] = (),
) -> list[Deed]:
    """The deeds on ``record`` that make ``actor`` (the identities a request presents: an
    account, a seat's player, both) no second person for ``step``, in the order of
    ``Deed``; empty when he may take it."""
    who = person(actor, same)
    deeds = {done.deed for done in record if done.deed in DISQUALIFYING[step] and done.by in who}
    return [deed for deed in Deed if deed in deeds]


def two_players(
    *,
    actor: Collection[Identity],
    players: Collection[Player],
    same: Iterable[tuple[Identity, Identity]] = (),
) -> list[Player]:
    """The ``players`` (say, a table's) whom ``actor`` is, when that is more than one: a
    request presenting the identities of two of them acts for another. Empty otherwise."""
    among = sorted(identity for identity in person(actor, same) if identity in set(players))
    return among if len(among) > 1 else []


def settle_pair(
    *,
    proposer: Collection[Identity],
    agreeing: Collection[Identity],
    record: Iterable[Done],
    same: Iterable[tuple[Identity, Identity]] = (),
) -> bool:
    """Whether a settlement proposed by one typist and agreed by another is the two entries'
    typists together: one typed (or handed in) the first entry and the other the second, and
    neither plays at the table. Then no third person is needed to settle."""
    record = list(record)
    first = {Deed.TYPED, Deed.HANDED_IN}

    def did(actor: Collection[Identity], deeds: set[Deed]) -> bool:
        who = person(actor, same)
        return any(done.deed in deeds and done.by in who for done in record)

    def played(actor: Collection[Identity]) -> bool:
        return did(actor, {Deed.PLAYED})

    if played(proposer) or played(agreeing):
        return False
    if person(proposer, same) & person(agreeing, same):
        return False  # one person, whatever he presents
    return (did(proposer, first) and did(agreeing, {Deed.TYPED_SECOND})) or (
        did(proposer, {Deed.TYPED_SECOND}) and did(agreeing, first)
    )
