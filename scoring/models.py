"""Scoresheets (Spiellisten) and the hands recorded on them (TSR 7.3)."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.db.models import F, Q, Value
from django.db.models.functions import Coalesce
from django.db.models.lookups import Exact
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from doko.rules.contracts import Contract, Section, SoloType
from doko.rules.deal import TABLE_OF_SEVEN, sheet_keeper
from doko.rules.sheet import HandLine, Replay
from tournaments.constraints import OneQueryChecks
from tournaments.models import Seat, Table
from tournaments.play import SheetStatus
from tournaments.prepared import Prepared

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise  # a str or a lazy translation

# By the contract's key: looked up with a Contract and with the plain string a row stores.
CONTRACT_LABELS: dict[str, StrOrPromise] = {
    Contract.NORMAL: _("normal game"),
    Contract.WEDDING: _("wedding"),
    Contract.SILENT_WEDDING: _("silent wedding"),
    Contract.VOLUNTARY_SOLO: _("voluntary solo"),
    Contract.COMPULSORY_SOLO: _("compulsory solo"),
    Contract.FORCED_SOLO: _("forced solo"),
}
# For narrow screens and the printed sheet: the abbreviations a scoresheet uses.
CONTRACT_SHORT: dict[str, StrOrPromise] = {
    Contract.NORMAL: "",
    Contract.WEDDING: pgettext_lazy("wedding, abbreviated", "W"),
    Contract.SILENT_WEDDING: pgettext_lazy("silent wedding, abbreviated", "SW"),
    Contract.VOLUNTARY_SOLO: pgettext_lazy("voluntary solo, abbreviated", "VS"),
    Contract.COMPULSORY_SOLO: pgettext_lazy("compulsory solo, abbreviated", "CS"),
    Contract.FORCED_SOLO: pgettext_lazy("forced solo, abbreviated", "FS"),
}
SECTION_LABELS = {
    Section.MAIN: _("main section"),
    Section.COMPULSORY_SOLO: _("compulsory solos"),
}
SOLO_TYPE_LABELS = {
    SoloType.DIAMONDS: _("diamonds solo"),
    SoloType.HEARTS: _("hearts solo"),
    SoloType.SPADES: _("spades solo"),
    SoloType.CLUBS: _("clubs solo"),
    SoloType.QUEENS: _("queen solo"),
    SoloType.JACKS: _("jack solo"),
    SoloType.ACES: _("ace solo"),
}

# The longest reason for sending a handed-in sheet back to its scorekeeper.
RETURN_REASON_LENGTH = 500
# Why a game was broken off and dealt again (TSR 9.1.3).
REPLAY_LABELS = {
    Replay.CONSENT: _("dealt again by consent of the four, with the adjudicator's (TSR 9.1.3)"),
    Replay.RULING: _("dealt again by the adjudicator's ruling (TSR 9.1.3)"),
}

NAMES_SOLOIST = [c.value for c in Contract if c.names_soloist]
COMPULSORY = [c.value for c in Contract if c.counts_as_compulsory]


def _seat_in_range(field: str) -> Q:
    return Q(**{f"{field}__gte": 1, f"{field}__lte": TABLE_OF_SEVEN})


class Confirmation(models.TextChoices):
    """How a handed-in sheet was confirmed, when not by a player of the table or by staff
    checking it themselves (TSR 7.3.2, 8.5.2)."""

    SIGNED_SHEET = "signed_sheet", _("from the signed paper sheet")
    DOUBLE_ENTRY = "double_entry", _("by blind double entry")


class Scoresheet(OneQueryChecks):
    """One table's Spielliste for a round."""

    Status = SheetStatus  # the vocabulary tournaments shares (tournaments/play.py)
    Confirmation = Confirmation

    table = models.OneToOneField(
        Table, on_delete=models.CASCADE, related_name="scoresheet", verbose_name=_("table")
    )
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.DRAFT
    )
    # Optimistic locking: every write names the version it was based on and raises it by one.
    version = models.PositiveIntegerField(_("version"), default=1)
    # How many hands had been played when the playing time ended (TSR 8.5.1): after them only
    # forced solos are played (TSR 8.5.3, 8.6.1). Empty while the time runs.
    time_over_after_hand = models.PositiveSmallIntegerField(
        _("playing time ended after hand"), null=True, blank=True
    )
    # The seat that took over the sheet by agreement at the table (TSR 3.1.1, 8.4.1); the
    # seating order stays. Empty: the rule's seat, 4 (at a table of five 5, TSR 10.1.4).
    keeper_seat = models.PositiveSmallIntegerField(
        _("scorekeeper (seat)"),
        null=True,
        blank=True,
        help_text=_("Empty: seat 4, at a table of five seat 5 (TSR 8.4.1, 10.1.4)."),
    )
    # Who handed the sheet in and who confirmed it: a staff member's account or a player of the
    # table through their seat's private link. Never the same person (TSR 7.3.2, 8.5.2).
    submitted_at = models.DateTimeField(_("submitted"), null=True, blank=True)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("submitted by"),
    )
    submitted_by_seat = models.ForeignKey(
        Seat,
        on_delete=models.RESTRICT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("submitted by (seat)"),
    )
    confirmed_at = models.DateTimeField(_("confirmed"), null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("confirmed by"),
    )
    confirmed_by_seat = models.ForeignKey(
        Seat,
        on_delete=models.RESTRICT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("confirmed by (seat)"),
    )
    # Why a player of the table or staff sent the handed-in sheet back to its scorekeeper, and
    # who (the name as it was then), shown on the draft until it is handed in again.
    sent_back_reason = models.CharField(
        _("reason for sending it back"), max_length=RETURN_REASON_LENGTH, blank=True
    )
    sent_back_by = models.CharField(_("sent back by"), max_length=200, blank=True)
    # How a paper sheet typed at the desk was confirmed: from the players' signatures on it
    # (the desk member who typed it may confirm it himself), or by a second member of the
    # desk's blind entry that agreed with it. Empty: by a player of the table or by staff.
    confirmation = models.CharField(
        _("confirmed how"), max_length=16, choices=Confirmation.choices, blank=True
    )
    # A table that cannot finish (a player left or was disqualified mid-round): the
    # adjudicator or the organiser ended its sheet with a recorded decision, the hands still
    # to play (derived when it was ended) and the compulsory solos still owed waived, so that
    # it can be handed in and the round closed (docs/rules.md, "A table that cannot finish").
    ended_early_reason = models.CharField(
        _("reason the scoresheet was ended early"), max_length=RETURN_REASON_LENGTH, blank=True
    )
    ended_early_at = models.DateTimeField(_("ended early"), null=True, blank=True)
    ended_early_by = models.CharField(_("ended early by"), max_length=200, blank=True)
    ended_early_hands_not_played = models.PositiveSmallIntegerField(
        _("hands not played"), null=True, blank=True
    )
    updated_at = models.DateTimeField(_("last change"), auto_now=True)

    class Meta:
        verbose_name = _("scoresheet")
        verbose_name_plural = _("scoresheets")
        constraints = [
            models.CheckConstraint(condition=Q(version__gte=1), name="scoresheet_version_positive"),
            models.CheckConstraint(
                condition=Q(keeper_seat__isnull=True) | _seat_in_range("keeper_seat"),
                name="scoresheet_keeper_seat_1_to_7",
                violation_error_message=_("A seat is numbered 1 to 7 (TSR 8.4, 10)."),
            ),
            models.CheckConstraint(
                condition=Q(status="draft") | Q(submitted_at__isnull=False),
                name="scoresheet_submitted_has_time",
            ),
            models.CheckConstraint(
                condition=~Q(status="confirmed") | Q(confirmed_at__isnull=False),
                name="scoresheet_confirmed_has_time",
            ),
            # Only a draft waits for its scorekeeper's correction.
            models.CheckConstraint(
                condition=Q(status="draft") | Q(sent_back_reason="", sent_back_by=""),
                name="scoresheet_sent_back_is_draft",
            ),
            # A handed-in sheet names exactly one submitter, a confirmed one exactly one
            # confirmer; a draft names neither.
            models.CheckConstraint(
                condition=Q(
                    status="draft", submitted_by__isnull=True, submitted_by_seat__isnull=True
                )
                | ~Q(status="draft")
                & (
                    Q(submitted_by__isnull=False, submitted_by_seat__isnull=True)
                    | Q(submitted_by__isnull=True, submitted_by_seat__isnull=False)
                ),
                name="scoresheet_one_submitter",
            ),
            models.CheckConstraint(
                condition=~Q(status="confirmed")
                & Q(confirmed_by__isnull=True, confirmed_by_seat__isnull=True)
                | Q(status="confirmed")
                & (
                    Q(confirmed_by__isnull=False, confirmed_by_seat__isnull=True)
                    | Q(confirmed_by__isnull=True, confirmed_by_seat__isnull=False)
                ),
                name="scoresheet_one_confirmer",
            ),
            # The players' signatures on the paper sheet are the second person (TSR 8.5.2):
            # then the desk member who typed it confirms it himself.
            models.CheckConstraint(
                condition=Q(confirmed_by__isnull=True)
                | Q(submitted_by__isnull=True)
                | ~Q(confirmed_by=F("submitted_by"))
                | Q(confirmation=Confirmation.SIGNED_SHEET),
                name="scoresheet_confirmer_not_submitter",
                violation_error_message=_(
                    "The scoresheet must be confirmed by someone other than who submitted it "
                    "(TSR 7.3.2, 8.5.2)."
                ),
            ),
            models.CheckConstraint(
                condition=Q(confirmed_by_seat__isnull=True)
                | Q(submitted_by_seat__isnull=True)
                | ~Q(confirmed_by_seat=F("submitted_by_seat")),
                name="scoresheet_confirmer_seat_not_submitter",
                violation_error_message=_(
                    "The scoresheet must be confirmed by someone other than who submitted it "
                    "(TSR 7.3.2, 8.5.2)."
                ),
            ),
            # Only a confirmed sheet says how; from the paper sheet or by a second entry, a
            # member of the desk confirmed it through his account.
            models.CheckConstraint(
                condition=Q(confirmation="")
                | Q(
                    status="confirmed",
                    confirmation__in=Confirmation.values,
                    confirmed_by__isnull=False,
                    submitted_by__isnull=False,
                ),
                name="scoresheet_confirmation_by_the_desk",
            ),
            # Ended early only by a recorded decision: its reason, who, and the hands it
            # leaves unplayed, all or none.
            models.CheckConstraint(
                condition=Q(
                    ended_early_at__isnull=True,
                    ended_early_reason="",
                    ended_early_by="",
                    ended_early_hands_not_played__isnull=True,
                )
                | Q(ended_early_at__isnull=False, ended_early_hands_not_played__isnull=False)
                & ~Q(ended_early_reason="")
                & ~Q(ended_early_by=""),
                name="scoresheet_ended_early_has_reason",
                violation_error_message=_(
                    "A scoresheet is ended early only with the reason, who ended it and the "
                    "hands not played."
                ),
            ),
        ]

    def __str__(self) -> str:
        return f"{_('scoresheet')} {self.table.round}, {self.table}"

    @property
    def ended_early(self) -> bool:
        """Ended by a recorded decision, the table being unable to finish."""
        return self.ended_early_at is not None

    def table_size(self) -> int:
        """How many players sit at the sheet's table, 4 or 5 (TSR 8.3, 10.1): one query,
        compiled once (the writes ask it)."""
        return len(_SEATED(self.table_id))

    def keeper(self, table_size: int) -> int:
        """The seat that keeps this sheet (``sheet_keeper``)."""
        return sheet_keeper(keeper_seat=self.keeper_seat, table_size=table_size)


# The seats of a table, for their number (``Scoresheet.table_size``).
_SEATED = Prepared(lambda table_id: Seat.objects.filter(table_id=table_id).values_list("pk"))


class Hand(OneQueryChecks):
    """One line of the scoresheet: a hand played, its contract and the points per seat."""

    scoresheet = models.ForeignKey(
        Scoresheet, on_delete=models.CASCADE, related_name="hands", verbose_name=_("scoresheet")
    )
    # The order in which the hands were played, over both sections.
    number = models.PositiveSmallIntegerField(_("hand"))
    section = models.CharField(
        _("section"), max_length=16, choices=list(SECTION_LABELS.items()), default=Section.MAIN
    )
    dealer = models.PositiveSmallIntegerField(_("dealer"))
    contract = models.CharField(
        _("contract"), max_length=16, choices=list(CONTRACT_LABELS.items()), default="normal"
    )
    solo_type = models.CharField(
        _("solo type"), max_length=16, choices=list(SOLO_TYPE_LABELS.items()), blank=True
    )
    # The soloist, or the holder of both Queens of Clubs in a wedding settled as a solo.
    soloist = models.PositiveSmallIntegerField(_("soloist"), null=True, blank=True)
    # The Spielwert (TSR 7.2): what each winner of a normal game receives; a soloist wins or
    # loses three times it (TSR 7.2.4). Who won shows in the signs of the points.
    game_value = models.PositiveSmallIntegerField(_("game value"))
    points_1 = models.SmallIntegerField(_("seat 1"))
    points_2 = models.SmallIntegerField(_("seat 2"))
    points_3 = models.SmallIntegerField(_("seat 3"))
    points_4 = models.SmallIntegerField(_("seat 4"))
    points_5 = models.SmallIntegerField(_("seat 5"), null=True, blank=True)
    points_6 = models.SmallIntegerField(_("seat 6"), null=True, blank=True)  # TSR 10
    points_7 = models.SmallIntegerField(_("seat 7"), null=True, blank=True)
    # Stopped by a major breach and counted as not played (TSR 9.4.3): only the adjudicator's
    # decision puts such a line on the sheet; it has no game points, and the same dealer deals
    # again. Its penalty points are the decision's.
    not_played = models.BooleanField(_("not played"), default=False)
    # The dealer was away and his left neighbour dealt for him (TSR 3.3.2): ``dealer`` stays
    # the seat whose turn it was, so the rotation does not move and at a table of five that
    # seat sits out.
    dealt_by_neighbour = models.BooleanField(_("dealt by the left neighbour"), default=False)
    # A game broken off and dealt again under TSR 9.1.3, by the consent of the four with the
    # adjudicator's, or by ruling: a line not played, without penalty points.
    replay = models.CharField(
        _("replayed"),
        max_length=16,
        choices=[(replay.value, label) for replay, label in REPLAY_LABELS.items()],
        blank=True,
    )

    class Meta:
        verbose_name = _("hand")
        verbose_name_plural = _("hands")
        ordering = ["scoresheet", "number"]
        constraints = [
            models.UniqueConstraint(fields=["scoresheet", "number"], name="hand_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="hand_number_positive"),
            models.CheckConstraint(
                condition=Q(game_value__gte=0), name="hand_game_value_not_negative"
            ),
            models.CheckConstraint(condition=_seat_in_range("dealer"), name="hand_dealer_seat"),
            models.CheckConstraint(
                condition=Q(soloist__isnull=True) | _seat_in_range("soloist"),
                name="hand_soloist_seat",
            ),
            models.CheckConstraint(
                condition=Exact(
                    F("points_1")
                    + F("points_2")
                    + F("points_3")
                    + F("points_4")
                    + Coalesce(F("points_5"), Value(0))
                    + Coalesce(F("points_6"), Value(0))
                    + Coalesce(F("points_7"), Value(0)),
                    Value(0),
                ),
                name="hand_checksum_zero",
                violation_error_message=_("The points of a hand must add up to zero (TSR 7.3.3)."),
            ),
            models.CheckConstraint(
                condition=Q(not_played=False)
                | Q(
                    game_value=0,
                    points_1=0,
                    points_2=0,
                    points_3=0,
                    points_4=0,
                )
                & (Q(points_5__isnull=True) | Q(points_5=0))
                & (Q(points_6__isnull=True) | Q(points_6=0))
                & (Q(points_7__isnull=True) | Q(points_7=0)),
                name="hand_not_played_has_no_points",
                violation_error_message=_(
                    "A hand that counts as not played has no game points (TSR 9.4.3)."
                ),
            ),
            models.CheckConstraint(
                condition=Q(replay="") | Q(not_played=True, replay__in=[r.value for r in Replay]),
                name="hand_replay_is_not_played",
                violation_error_message=_(
                    "A game broken off and dealt again counts as not played (TSR 9.1.3)."
                ),
            ),
            # TSR 4.2.4: compulsory solos, forced ones included (TSR 4.2.3), and only they, are
            # noted in their own section.
            models.CheckConstraint(
                condition=(Q(section="compulsory_solo") & Q(contract__in=COMPULSORY))
                | (Q(section="main") & ~Q(contract__in=COMPULSORY)),
                name="hand_section_matches_contract",
            ),
            # A solo, a silent wedding and a wedding settled as a solo name the soloist and the
            # solo type; a normal game names neither.
            models.CheckConstraint(
                condition=~Q(contract__in=NAMES_SOLOIST)
                | (Q(soloist__isnull=False) & ~Q(solo_type="")),
                name="hand_solo_has_soloist",
            ),
            models.CheckConstraint(
                condition=~Q(contract="normal") | (Q(soloist__isnull=True) & Q(solo_type="")),
                name="hand_normal_has_no_soloist",
            ),
            models.CheckConstraint(
                condition=Q(soloist__isnull=True, solo_type="")
                | Q(soloist__isnull=False) & ~Q(solo_type=""),
                name="hand_soloist_with_solo_type",
            ),
            # TSR 4.4.3 b, 4.4.5: a wedding played alone is a diamonds solo.
            models.CheckConstraint(
                condition=~Q(contract__in=["wedding", "silent_wedding"])
                | Q(solo_type__in=["", "diamonds"]),
                name="hand_wedding_solo_is_diamonds",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.scoresheet}: {_('hand')} {self.number}"

    @property
    def points(self) -> dict[int, int]:
        """Points per seat; seat 5 only at a table of five or more, 6 and 7 at six and seven."""
        points = {1: self.points_1, 2: self.points_2, 3: self.points_3, 4: self.points_4}
        for seat, value in ((5, self.points_5), (6, self.points_6), (7, self.points_7)):
            if value is not None:
                points[seat] = value
        return points

    @classmethod
    def from_line(cls, *, scoresheet: Scoresheet, number: int, line: HandLine) -> Hand:
        """The row of hand ``number`` of a sheet, as the rules core gives it (unsaved). The line
        has its game value (``doko.rules.sheet.with_game_values``): the row must store one."""
        if line.game_value is None:
            raise ValueError(f"hand {number} has no game value to store")
        points = line.points
        values = {
            "id": None,
            "scoresheet_id": scoresheet.pk,
            "number": number,
            "section": line.contract.section,
            "dealer": line.dealer,
            "contract": line.contract,
            "solo_type": line.solo_type or "",
            "soloist": line.soloist,
            "game_value": line.game_value,
            "points_1": points[1],
            "points_2": points[2],
            "points_3": points[3],
            "points_4": points[4],
            "points_5": points.get(5),
            "points_6": points.get(6),
            "points_7": points.get(7),
            "not_played": line.not_played,
            "dealt_by_neighbour": line.dealt_by_neighbour,
            "replay": line.replay.value if line.replay else "",
        }
        # By position, in the columns' order (a column added and not named here fails at once):
        # a sheet's rows are made by the dozen on every save, and the ORM's keywords cost thrice.
        # (django-stubs' plugin takes the starred values for the first field, where it checks.)
        hand = cls(*(values[field.attname] for field in cls._meta.concrete_fields))  # type: ignore[misc]
        hand._state.fields_cache["scoresheet"] = scoresheet
        return hand


class ScoresheetChange(OneQueryChecks):
    """One change to a scoresheet, kept for good: who, when, and the sheet before and after."""

    class Action(models.TextChoices):
        HANDS = "hands", _("hands changed")
        TIME_OVER = "time_over", _("end of playing time noted")
        KEEPER = "keeper", _("scorekeeper changed")
        SUBMIT = "submit", _("submitted")
        CONFIRM = "confirm", _("confirmed")
        CONFIRM_SIGNED = "confirm_signed", _("confirmed from the signed paper sheet")
        CONFIRM_DOUBLE = "confirm_double", _("confirmed by blind double entry")
        SETTLE = "settle", _("difference settled from the paper sheet")
        SETTLE_PROPOSED = "settle_proposed", _("settlement proposed by one typist")
        REOPEN = "reopen", _("reopened")
        RETURN = "return", _("sent back to the scorekeeper")
        END_EARLY = "end_early", _("ended early")
        UNDO_END = "undo_end", _("ended early: taken back")

    scoresheet = models.ForeignKey(
        Scoresheet, on_delete=models.CASCADE, related_name="changes", verbose_name=_("scoresheet")
    )
    version = models.PositiveIntegerField(_("version"))  # the sheet's version after the change
    action = models.CharField(_("action"), max_length=16, choices=Action.choices)
    at = models.DateTimeField(_("time"), auto_now_add=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by (account)"),
    )
    by_seat = models.ForeignKey(
        Seat,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by (seat)"),
    )
    # The name as it was then, so that the record still reads right if a seat is re-drawn.
    by_name = models.CharField(_("by"), max_length=200)
    reason = models.TextField(_("reason"), blank=True)
    before = models.JSONField(_("before"))
    after = models.JSONField(_("after"))

    class Meta:
        verbose_name = _("scoresheet change")
        verbose_name_plural = _("scoresheet changes")
        ordering = ["scoresheet", "version"]
        constraints = [
            models.UniqueConstraint(
                fields=["scoresheet", "version"], name="scoresheet_change_version_once"
            ),
            models.CheckConstraint(
                condition=~Q(action="reopen") | ~Q(reason=""),
                name="scoresheet_reopen_has_reason",
                violation_error_message=_("Reopening a confirmed scoresheet needs a reason."),
            ),
            models.CheckConstraint(
                condition=~Q(action="return") | ~Q(reason=""),
                name="scoresheet_return_has_reason",
                violation_error_message=_("Sending a scoresheet back needs a reason."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.scoresheet}: {self.get_action_display()} ({self.by_name})"


class SecondEntry(OneQueryChecks):
    """A paper sheet typed a second time, by another member of the desk who does not see the
    first entry (double entry, ``Tournament.double_entry``). It changes nothing on the sheet:
    compared with the handed-in first entry, the sheet is confirmed when both agree; where they
    differ, the desk settles each hand from the paper (``SETTLE`` in the sheet's history)."""

    scoresheet = models.OneToOneField(
        Scoresheet,
        on_delete=models.CASCADE,
        related_name="second_entry",
        verbose_name=_("scoresheet"),
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("typed by"),
    )
    # The hands as typed, in the order played: ``scoring.selectors.hand_snapshot`` of each.
    hands = models.JSONField(_("hands"), default=list, blank=True)
    time_over_after_hand = models.PositiveSmallIntegerField(
        _("playing time ended after hand"), null=True, blank=True
    )
    # Optimistic locking of the second entry itself, as the sheet's ``version``.
    version = models.PositiveIntegerField(_("version"), default=1)
    # The hands (by number) that differed from the first entry at the last comparison; 0
    # stands for the end of the playing time. Emptied when the second entry changes.
    differences = models.JSONField(_("differences"), default=list, blank=True)
    compared_at = models.DateTimeField(_("compared"), null=True, blank=True)
    # A settlement of the differences proposed by one of the two typists, waiting for the
    # other's agreement (``doko.four_eyes.settle_pair``): for each differing hand (by number,
    # "0" for the end of the playing time) the entry the paper agrees with. Emptied when the
    # second entry changes.
    proposed_choices = models.JSONField(_("settlement proposed"), null=True, blank=True)
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("settlement proposed by"),
    )
    proposed_at = models.DateTimeField(_("settlement proposed at"), null=True, blank=True)
    started_at = models.DateTimeField(_("started"), auto_now_add=True)
    updated_at = models.DateTimeField(_("last change"), auto_now=True)

    class Meta:
        verbose_name = _("second entry")
        verbose_name_plural = _("second entries")
        constraints = [
            models.CheckConstraint(
                condition=Q(version__gte=1), name="second_entry_version_positive"
            ),
            models.CheckConstraint(
                condition=Q(
                    proposed_choices__isnull=True,
                    proposed_by__isnull=True,
                    proposed_at__isnull=True,
                )
                | Q(
                    proposed_choices__isnull=False,
                    proposed_by__isnull=False,
                    proposed_at__isnull=False,
                ),
                name="second_entry_proposal_whole",
            ),
        ]

    def __str__(self) -> str:
        return f"{_('second entry')}: {self.scoresheet}"


class SheetRead(models.Model):
    """Somebody who did not type it opened the first entry of a sheet while it was blind: typed
    at the desk in a tournament that checks its paper sheets by a second entry, from its first
    hand until it is confirmed (``scoring.policies.first_entry_hidden``). Kept for good: he no
    longer types that sheet's second entry (``doko.four_eyes``, ``Deed.READ``)."""

    scoresheet = models.ForeignKey(
        Scoresheet, on_delete=models.CASCADE, related_name="reads", verbose_name=_("scoresheet")
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("opened by"),
    )
    at = models.DateTimeField(_("opened"), auto_now_add=True)
    # Where: the sheet's page, its history, the API, a ruling's page, a printout.
    where = models.CharField(_("where"), max_length=40)

    class Meta:
        verbose_name = _("first entry opened while blind")
        verbose_name_plural = _("first entries opened while blind")
        ordering = ["scoresheet", "at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["scoresheet", "by"], name="sheet_read_once"),
        ]

    def __str__(self) -> str:
        return f"{self.scoresheet}: {self.by}"


# The largest photo or scan of a signed sheet taken, and stored (scoring/scans.py).
SCAN_MAX_BYTES = 10 * 1024 * 1024


def scan_upload_to(scan: ScoresheetScan, filename: str) -> str:
    """A name nobody guesses, with the file's extension: the file is never served by its name."""
    return f"scans/{uuid.uuid4().hex}{Path(filename).suffix}"


class ScoresheetScan(OneQueryChecks):
    """The photo or scan of the signed paper sheet, the evidence the table signed (TSR 7.3.4,
    8.5.2): one per sheet, a new one replacing it (and its file). Stored without its metadata
    through the storage API (``scoring/scans.py``), read only through views that check who
    asks. Attaching it changes nothing of the sheet, not its version either."""

    class Kind(models.TextChoices):
        JPEG = "image/jpeg", "JPEG"
        PNG = "image/png", "PNG"
        PDF = "application/pdf", "PDF"

    scoresheet = models.OneToOneField(
        Scoresheet, on_delete=models.CASCADE, related_name="scan", verbose_name=_("scoresheet")
    )
    file = models.FileField(_("file"), upload_to=scan_upload_to, max_length=200)
    content_type = models.CharField(_("content type"), max_length=32, choices=Kind.choices)
    size = models.PositiveIntegerField(_("size (bytes)"))
    sha256 = models.CharField(_("SHA-256"), max_length=64)
    uploaded_at = models.DateTimeField(_("attached"))
    # Who attached it: a staff member's account or the scorekeeper through his seat's link,
    # and the name as it was then (as ScoresheetChange.by_name).
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("attached by (account)"),
    )
    uploaded_by_seat = models.ForeignKey(
        Seat,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("attached by (seat)"),
    )
    uploaded_by_name = models.CharField(_("attached by"), max_length=200)

    class Meta:
        verbose_name = _("scan of the signed scoresheet")
        verbose_name_plural = _("scans of the signed scoresheets")
        constraints = [
            models.CheckConstraint(
                condition=Q(size__gte=1, size__lte=SCAN_MAX_BYTES), name="scan_size_limit"
            ),
            models.CheckConstraint(
                condition=Q(content_type__in=["image/jpeg", "image/png", "application/pdf"]),
                name="scan_content_type_known",
            ),
            models.CheckConstraint(
                condition=Q(uploaded_by__isnull=True) | Q(uploaded_by_seat__isnull=True),
                name="scan_one_uploader",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.scoresheet}: {self.get_content_type_display()}"

    @property
    def is_image(self) -> bool:
        return self.content_type != self.Kind.PDF
