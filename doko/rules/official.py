"""What the TSR fixes for an official tournament (TSR 8.1.1), and what a club evening may set.

TSR 8.1.1: „Alle offiziellen Turniere des DDV sind unter Beachtung dieser Turnier-Spielregeln
durchzuführen." A club evening may play 8 hands in an hour; an official tournament plays the
round the TSR sets:

- 24 hands at a table of four in 100 minutes of net playing time (TSR 8.5.1 „Eine Spielrunde
  besteht aus 24 Spielen … Die reine Spielzeit beträgt für alle Tische gleichermaßen 100
  Minuten"), the compulsory solos included (20 + 4, TSR 10.2.1; ``doko.rules.deal``);
- 30 hands at a table of five in 125 minutes (TSR 10.1.5), 25 + 5;
- at tables of four (TSR 8.3.1), with tables of five only where the field needs them: the draw
  seats ``players mod 4`` of them and no more (``doko.seating.table_sizes``), and only where the
  tournament allows them (TSR 10); never at tables of six or seven (TSR 8.3.1 „Es wird
  ausschließlich an Vierer-Tischen gespielt"; the fives are the DDV's own practice for a field
  that does not divide by four, the sixes and sevens are a club evening's);
- the penalty points of the TSR's scale (TSR 9): the system knows no other scale, for any
  tournament, so there is nothing an official tournament must refuse there.

An adjudicator's extra time for one table (TSR 8.5.1 „In begründeten Ausnahmefällen darf der
Schiedsrichter für einzelne Tische hiervon abweichen") is no setting and stays his.

Plain Python: the settings in, a ``FieldError`` for each that breaks the TSR out, keyed by the
tournament's field, so that a form and the API name it.
"""

from dataclasses import dataclass

from doko.rules.deal import HANDS_PER_MATCH, TABLE_OF_FIVE, TABLE_OF_FOUR
from doko.rules.problems import FieldError, gettext_noop

RULE = "TSR 8.1.1"


@dataclass(frozen=True)
class RoundSettings:
    """A tournament's round: hands and net playing time (minutes) at a table of four and at a
    table of five; the names are the tournament's fields."""

    hands_per_match: int
    match_minutes: int
    hands_per_match_five: int
    match_minutes_five: int
    allow_tables_of_six_and_seven: bool = False
    springer: bool = False


# The round of an official tournament (TSR 8.5.1, 10.1.5).
OFFICIAL = RoundSettings(
    hands_per_match=HANDS_PER_MATCH[TABLE_OF_FOUR],
    match_minutes=100,
    hands_per_match_five=HANDS_PER_MATCH[TABLE_OF_FIVE],
    match_minutes_five=125,
    allow_tables_of_six_and_seven=False,
    springer=False,
)

# Each setting the TSR fixes: the section that fixes it and what it says.
_FIXED = (
    (
        "hands_per_match",
        "TSR 8.5.1",
        gettext_noop(
            "An official tournament plays {needed} hands a round at a table of four, the "
            "compulsory solos included: not {actual}."
        ),
    ),
    (
        "match_minutes",
        "TSR 8.5.1",
        gettext_noop(
            "An official tournament plays {needed} minutes a round at a table of four: not "
            "{actual}."
        ),
    ),
    (
        "hands_per_match_five",
        "TSR 10.1.5",
        gettext_noop(
            "An official tournament plays {needed} hands a round at a table of five, the "
            "compulsory solos included: not {actual}."
        ),
    ),
    (
        "match_minutes_five",
        "TSR 10.1.5",
        gettext_noop(
            "An official tournament plays {needed} minutes a round at a table of five: not "
            "{actual}."
        ),
    ),
    (
        "allow_tables_of_six_and_seven",
        "TSR 8.3.1",
        gettext_noop(
            "An official tournament plays at tables of four, and of five where the players "
            "need them, never at tables of six or seven."
        ),
    ),
    (
        "springer",
        "TSR 8.3.1",
        gettext_noop(
            "An official tournament plays at tables of four, and of five where the players "
            "need them: no player plays at two tables at once."
        ),
    ),
)


def official_problems(settings: RoundSettings) -> list[FieldError]:
    """Every setting of the round that an official tournament may not have (TSR 8.1.1), in
    the order the settings are shown; empty: it may be official."""
    problems = []
    for name, rule, template in _FIXED:
        needed, actual = getattr(OFFICIAL, name), getattr(settings, name)
        if actual != needed:
            problems.append(FieldError(name, rule, template, {"needed": needed, "actual": actual}))
    return problems
