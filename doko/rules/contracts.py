"""The kinds of hand a scoresheet records (TSR 2.3.3, 4)."""

from enum import StrEnum


class Contract(StrEnum):
    NORMAL = "normal"  # Normalspiel
    WEDDING = "wedding"  # angemeldete Hochzeit, TSR 4.4.3
    SILENT_WEDDING = "silent_wedding"  # stille Hochzeit, TSR 4.4.5: settled as a diamonds solo
    VOLUNTARY_SOLO = "voluntary_solo"  # Lustsolo, TSR 4.3
    COMPULSORY_SOLO = "compulsory_solo"  # Pflichtsolo, TSR 4.2
    FORCED_SOLO = "forced_solo"  # vorgeführtes Pflichtsolo, TSR 4.2.3

    @property
    def is_solo(self) -> bool:
        """A solo bid: the soloist plays alone against three (TSR 2.4.7)."""
        return self in {Contract.VOLUNTARY_SOLO, Contract.COMPULSORY_SOLO, Contract.FORCED_SOLO}

    @property
    def names_soloist(self) -> bool:
        """The scoresheet names who played alone: every solo, and the silent wedding, which is
        settled as a diamonds solo (TSR 4.4.5)."""
        return self.is_solo or self is Contract.SILENT_WEDDING

    @property
    def counts_as_compulsory(self) -> bool:
        """The hand is the soloist's one compulsory solo of the match (TSR 4.2.3, 8.6.1)."""
        return self in {Contract.COMPULSORY_SOLO, Contract.FORCED_SOLO}

    @property
    def section(self) -> "Section":
        """Where the scoresheet notes it (TSR 4.2.4): compulsory solos in their own section, a
        forced solo too, for it is a compulsory solo (TSR 4.2.3, 8.6.1); voluntary solos and
        weddings settled as a solo with the normal games (TSR 4.3.2, 4.4.3 b, 4.4.5).
        """
        return Section.COMPULSORY_SOLO if self.counts_as_compulsory else Section.MAIN


class Section(StrEnum):
    MAIN = "main"
    COMPULSORY_SOLO = "compulsory_solo"  # Rubrik für Pflichtsoli, TSR 4.2.4


class SoloType(StrEnum):
    """TSR 2.3.3: suit solos, queen solo, jack solo and ace solo (Fleischloser)."""

    DIAMONDS = "diamonds"
    HEARTS = "hearts"
    SPADES = "spades"
    CLUBS = "clubs"
    QUEENS = "queens"
    JACKS = "jacks"
    ACES = "aces"
