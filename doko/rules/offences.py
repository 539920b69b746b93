"""The offences the TSR itself names (TSR 9.1, 9.6.3), each with this system's default outcome.

The outcomes (a breach's severity, a bound decision's points) are this system's defaults, not
the TSR's: the TSR name the offences, but their annex of outcomes is not part of the text. A
tournament edits them as its own.

A tournament starts its catalogue of standard offences with these and then edits their outcome
as its own (TSR 9.1.7, 9.6.3). Each has a ``code`` that never changes: a catalogue stores the
code, not the name, so that the offence reads in the reader's language wherever it is shown,
whoever added it. The names are English, marked for the translation catalogue.
"""

from dataclasses import dataclass
from enum import StrEnum

from doko.rules.penalty import Severity
from doko.rules.problems import gettext_noop


class OffenceKind(StrEnum):
    BREACH = "breach"  # Regelverstoß, with its severity (TSR 9.2-9.5)
    UNSPORTING = "unsporting"  # unsportliches Verhalten (TSR 9.6)


@dataclass(frozen=True)
class StandardOffence:
    code: str  # stable: stored in the catalogue, given by the API
    name: str  # English; translated when shown
    rule: str
    kind: OffenceKind
    severity: Severity | None = None  # a breach's: this system's default, not the TSR's
    bound: bool = False  # a bound decision the adjudicator gives alone (TSR 9.6.3)
    deduction: int | None = None  # the bound decision's points (a default); 0 is a warning


STANDARD_OFFENCES: tuple[StandardOffence, ...] = (
    StandardOffence(
        "not-following-suit",
        gettext_noop("Not following suit"),
        "TSR 5.2.2",
        OffenceKind.BREACH,
        Severity.MAJOR,
    ),
    StandardOffence(
        "leading-out-of-turn",
        gettext_noop("Leading out of turn"),
        "TSR 5.1.1, 5.3.4",
        OffenceKind.BREACH,
        Severity.MINOR,
    ),
    StandardOffence(
        "counting-aloud",
        gettext_noop("Counting trumps or card points aloud"),
        "TSR 9.1.4",
        OffenceKind.UNSPORTING,
        bound=True,
        deduction=0,
    ),
    StandardOffence(
        "revealing-cards",
        gettext_noop("Gestures or remarks that reveal cards or influence the game"),
        "TSR 9.1.5",
        OffenceKind.UNSPORTING,
    ),
    StandardOffence(
        "encouraging-a-breach",
        gettext_noop("Encouraging a player to break the rules"),
        "TSR 9.1.6",
        OffenceKind.UNSPORTING,
    ),
    StandardOffence(
        "abandoning-a-hand",
        gettext_noop("Hand abandoned without the adjudicator's consent"),
        "TSR 9.1.3 (2)",
        OffenceKind.UNSPORTING,
    ),
)

STANDARD_OFFENCE = {offence.code: offence for offence in STANDARD_OFFENCES}
