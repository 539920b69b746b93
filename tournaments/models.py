"""Players, tournaments, entries, rounds (Spielrunden), tables and seats.

The models hold fields and the invariants the database can keep; workflows live in
``tournaments/services/``.
"""

import secrets
from collections.abc import Collection, Iterable
from typing import Any, TypeVar

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from doko.names import search_key
from doko.rules.deal import TABLE_OF_FIVE, TABLE_OF_FOUR, TABLE_OF_SEVEN, hands_at_table
from doko.rules.official import OFFICIAL
from tournaments.constraints import OneQueryChecks

# Real names fit many times over: 100 + 100 letters, doubled by umlauts, in two spellings; only
# names made of compatibility characters ("ﷺ" spells out to 18 letters) are cut, which keeps
# every key within what a PostgreSQL index can hold.
PLAYER_SEARCH_KEY_LENGTH = 500
_NAME_FIELDS = frozenset({"first_name", "last_name"})


def player_search_key(first_name: str, last_name: str) -> str:
    """What a player is found by (``doko.names.search_key``), as stored."""
    return search_key(first_name, last_name)[:PLAYER_SEARCH_KEY_LENGTH]


_Named = TypeVar("_Named", bound="Named")


class NamedQuerySet(models.QuerySet[_Named, _Named]):
    """Keeps ``search_key`` in step with the names on every bulk path too (players and the
    entries of tournaments alike)."""

    def bulk_create(
        self,
        objs: Iterable[_Named],
        batch_size: int | None = None,
        ignore_conflicts: bool = False,
        update_conflicts: bool = False,
        update_fields: Collection[str] | None = None,
        unique_fields: Collection[str] | None = None,
    ) -> list[_Named]:
        objs = list(objs)
        for named in objs:
            named.names_default()
            named.search_key = player_search_key(named.first_name, named.last_name)
        if update_fields and _NAME_FIELDS & set(update_fields):
            update_fields = [*update_fields, "search_key"]
        return super().bulk_create(
            objs,
            batch_size=batch_size,
            ignore_conflicts=ignore_conflicts,
            update_conflicts=update_conflicts,
            update_fields=update_fields,
            unique_fields=unique_fields,
        )

    def bulk_update(
        self, objs: Iterable[_Named], fields: Iterable[str], batch_size: int | None = None
    ) -> int:
        objs, fields = list(objs), list(fields)
        if _NAME_FIELDS & set(fields):
            for named in objs:
                named.search_key = player_search_key(named.first_name, named.last_name)
            fields.append("search_key")
        return super().bulk_update(objs, fields, batch_size=batch_size)

    def update(self, **kwargs: Any) -> int:
        if not _NAME_FIELDS & kwargs.keys():
            return super().update(**kwargs)
        # The new names may be expressions, and the filter may no longer hold after the update:
        # the rows are named first and their keys made from what was stored.
        with transaction.atomic(using=self.db):
            pks = list(self.values_list("pk", flat=True))
            count = super().update(**kwargs)
            named = self.model._base_manager.using(self.db).only("pk", "first_name", "last_name")
            for start in range(0, len(pks), 500):
                batch = list(named.filter(pk__in=pks[start : start + 500]))
                for row in batch:
                    row.search_key = player_search_key(row.first_name, row.last_name)
                self.model._base_manager.using(self.db).bulk_update(batch, ["search_key"])
        return count


class Named(OneQueryChecks):
    """A first and last name, a club, and the name folded for search (``doko.names``), kept by
    ``save`` and ``NamedQuerySet``: a person (``Player``), and how a tournament registered
    them (``Entry``)."""

    first_name = models.CharField(_("first name"), max_length=100)
    last_name = models.CharField(_("last name"), max_length=100)
    search_key = models.CharField(
        _("search key"),
        max_length=PLAYER_SEARCH_KEY_LENGTH,
        blank=True,
        editable=False,
    )
    club = models.CharField(_("club"), max_length=200, blank=True)

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        update_fields = kwargs.get("update_fields")
        if update_fields is None or _NAME_FIELDS & set(update_fields):
            self.names_default()
            self.search_key = player_search_key(self.first_name, self.last_name)
            if update_fields is not None:
                kwargs["update_fields"] = {*update_fields, "search_key"}
        super().save(*args, **kwargs)

    def names_default(self) -> None:
        """Fill in the names where a subclass has somewhere to take them from."""

    def full_clean(self, *args: Any, **kwargs: Any) -> None:
        # Before the fields are checked, which want the names.
        self.names_default()
        super().full_clean(*args, **kwargs)

    def clean(self) -> None:
        # Before ``full_clean`` checks the constraints, which want the key filled.
        self.search_key = player_search_key(self.first_name, self.last_name)

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}"

    @property
    def sort_name(self) -> str:
        return f"{self.last_name}, {self.first_name}"


class Player(Named):
    """A person who plays; global, so one player's history spans tournaments. Each tournament
    keeps how it registered them on the ``Entry``; only the site's administrators and the
    ranking lists' maintainers change the person (``services.person_update``)."""

    ddv_number = models.CharField(
        _("DDV membership number"),
        max_length=20,
        blank=True,
        help_text=_("Membership number of the German Doppelkopf Association, if any."),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    objects = NamedQuerySet["Player"].as_manager()

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["last_name", "first_name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["ddv_number"],
                condition=~Q(ddv_number=""),
                name="player_ddv_number_unique",
                violation_error_message=_("Another player has this DDV membership number."),
                # Refused on the field (a form's, the API's ``ddv_number``), not the whole player.
                violation_error_code="unique",
            ),
            models.CheckConstraint(
                condition=~Q(first_name="") & ~Q(last_name=""),
                name="player_name_not_empty",
            ),
            # A path that writes names without the key (raw SQL, a forgotten bulk path) fails
            # here instead of making the player unfindable.
            models.CheckConstraint(condition=~Q(search_key=""), name="player_search_key_filled"),
        ]
        indexes = [
            models.Index(fields=["last_name", "first_name"]),
            models.Index(fields=["search_key"], name="player_search_key"),
        ]

    def __str__(self) -> str:
        return self.name


class PersonChange(OneQueryChecks):
    """One change to a person (``Player``), written in the transaction that made it: who, when,
    what the person was before and is after. A merge names the record merged away in
    ``before``."""

    class Kind(models.TextChoices):
        CORRECTED = "corrected", _("corrected")
        MERGED = "merged", _("another record merged in")
        # The person's only tournaments are the acting organiser's: the person followed the
        # correction of an entry (``services.entry_update``).
        FOLLOWED = "followed", _("corrected with the registration")
        # Left without any entry when an entry's DDV number named another person.
        DELETED = "deleted", _("deleted, no longer registered anywhere")

    # Kept when the person is deleted (merged away, left without entries): the log outlives it.
    player = models.ForeignKey(
        Player,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="changes",
        verbose_name=_("player"),
    )
    kind = models.CharField(_("change"), max_length=16, choices=Kind.choices)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)
    before = models.JSONField(_("before"), default=dict, blank=True)
    after = models.JSONField(_("after"), default=dict, blank=True)

    class Meta:
        verbose_name = _("change to a person")
        verbose_name_plural = _("changes to persons")
        ordering = ["-at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=["corrected", "merged", "followed", "deleted"]),
                name="person_change_kind_known",
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.at:%Y-%m-%d %H:%M}"


class SeatingMethod(models.TextChoices):
    """How the seating is drawn; the values are those of ``doko.seating.Method``."""

    DDV = "ddv", _("all rounds in advance (DDV)")
    RANDOM = "random", _("one round at a time, at random")
    STANDINGS = "standings", _("one round at a time, by standings")


class SheetKeeping(models.TextChoices):
    """How a tournament's scoresheets are kept: by the scorekeeper on a phone through the
    seat's private link, on paper that the players sign and the desk types in (TSR 7.3.4), or
    either, table by table."""

    PHONES = "phones", _("on phones at the tables")
    PAPER = "paper", _("on paper, typed in at the desk")
    BOTH = "both", _("on phones or on paper")


class Tiebreaks(models.TextChoices):
    """The chains of tie-breaks a tournament can rank by after the total points; the values
    name the ``doko.standings.Tiebreak`` steps in order."""

    PLACINGS_BEST_START = (
        "placings,best_round,start_number",
        _("table placings, then best round, then start number"),
    )
    BEST_PLACINGS_START = (
        "best_round,placings,start_number",
        _("best round, then table placings, then start number"),
    )
    PLACINGS_START = "placings,start_number", _("table placings, then start number")
    BEST_START = "best_round,start_number", _("best round, then start number")
    START = "start_number", _("start number")
    PLACINGS_BEST = "placings,best_round", _("table placings, then best round (ties shared)")


# Bounds of a tournament's settings, beyond which no club plays (and the seating draw, which
# draws every planned round at once by the DDV method, would only be kept busy).
MAX_ROUNDS = 30
MAX_HANDS = 99
MAX_MINUTES = 600
_HANDS_ENOUGH = _(
    "A round needs a hand dealt by each player and a compulsory solo by each "
    "(TSR 3.3.1, 4.2.3): at least %(limit_value)s hands."
)


class Tournament(OneQueryChecks):
    class Status(models.TextChoices):
        PLANNED = "planned", _("planned")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("short name for links"), max_length=80, unique=True)
    starts_on = models.DateField(_("first day"))
    ends_on = models.DateField(_("last day"))
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.PLANNED
    )
    # TSR 8.1.1: an official tournament plays by the TSR: the round of 8.5.1 and 10.1.5
    # (``doko.rules.official``), held by the constraint ``tournament_official_round_by_tsr``.
    official = models.BooleanField(
        _("official tournament"),
        default=False,
        help_text=_(
            "TSR 8.1.1: played by the TSR, 24 hands in 100 minutes at a table of four, 30 in "
            "125 at a table of five; off, a club evening sets its own round."
        ),
    )
    planned_rounds = models.PositiveSmallIntegerField(
        _("planned rounds"),
        default=3,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_ROUNDS)],
    )
    # TSR 8.5.1: 24 hands in 100 minutes; TSR 10.1.5: 30 hands in 125 minutes at tables of five.
    # Every line of the round counts, the compulsory solos included (TSR 10.2.1: 20 + 4, 25 + 5).
    hands_per_match = models.PositiveSmallIntegerField(
        _("hands per round"),
        default=24,
        validators=[MinValueValidator(8, _HANDS_ENOUGH), MaxValueValidator(MAX_HANDS)],
        help_text=_("Every hand of the round, the compulsory solos included (TSR 8.5.1)."),
    )
    match_minutes = models.PositiveSmallIntegerField(
        _("playing time (minutes)"),
        default=100,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_MINUTES)],
    )
    # TSR 8.3.1: tables of four only; tables of five (TSR 10) are the tournament's choice.
    allow_tables_of_five = models.BooleanField(
        _("tables of five allowed"),
        default=False,
        help_text=_("TSR 10.1: when the players do not divide by four, some tables seat five."),
    )
    hands_per_match_five = models.PositiveSmallIntegerField(
        _("hands per round at a table of five"),
        default=30,
        validators=[MinValueValidator(10, _HANDS_ENOUGH), MaxValueValidator(MAX_HANDS)],
        help_text=_("Every hand of the round, the compulsory solos included (TSR 10.1.5)."),
    )
    match_minutes_five = models.PositiveSmallIntegerField(
        _("playing time at a table of five (minutes)"),
        default=125,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_MINUTES)],
    )
    # TSR 10: a field of 6, 7 or 11 players, which fours and fives cannot seat, plays at a
    # table of six or seven; never in an official tournament (TSR 8.3.1). Their round and
    # playing time follow the table of four's, six hands a player (``doko.rules.deal``).
    allow_tables_of_six_and_seven = models.BooleanField(
        _("tables of six and seven allowed"),
        default=False,
        help_text=_(
            "TSR 10: where tables of four and five cannot seat the players (6, 7 or 11 of "
            "them), a table seats six or seven; the dealer and the players to his left sit "
            "out. Not in an official tournament (TSR 8.3.1)."
        ),
    )
    # TSR 10: „Statt des Spieles an einem Siebener-Tisch kann ein Spieler („Springer") auch an
    # zwei Tischen gleichzeitig spielen": the draw seats two tables of four sharing one player
    # instead of a table of seven (``doko.seating``); his round counts as the mean of the two
    # (``doko.standings.springer_result``). Only with tables of six and seven allowed.
    springer = models.BooleanField(
        _("Springer instead of a table of seven"),
        default=False,
        help_text=_(
            "TSR 10: instead of a table of seven, one player (the Springer) plays at two "
            "tables of four at once; his round counts as the mean of the two."
        ),
    )
    seating_method = models.CharField(
        _("seating draw"),
        max_length=16,
        choices=SeatingMethod.choices,
        default=SeatingMethod.RANDOM,
        help_text=_(
            "All rounds drawn in advance at random (as at DDV events), one round at a time at "
            "random, or one round at a time by the current standings."
        ),
    )
    sheet_keeping = models.CharField(
        _("scoresheets kept"),
        max_length=8,
        choices=SheetKeeping.choices,
        default=SheetKeeping.BOTH,
        help_text=_(
            "On paper, the players sign the sheet and the desk types it in (TSR 7.3.4); on "
            "phones, the scorekeeper enters each hand through the seat's private link."
        ),
    )
    # A paper sheet typed at the desk is checked by a second member of the desk typing it
    # again without seeing the first entry, instead of by the players' signatures.
    double_entry = models.BooleanField(
        _("paper sheets checked by a second, blind entry"),
        default=False,
        help_text=_(
            "A second member of the desk types each paper sheet again without seeing the "
            "first entry; the sheet is confirmed when both agree."
        ),
    )
    is_public = models.BooleanField(
        _("public"), default=True, help_text=_("Anyone can see the tournament without logging in.")
    )
    standings_public = models.BooleanField(
        _("standings public"),
        default=True,
        help_text=_("Hide the standings, for example before the last round."),
    )
    tiebreaks = models.CharField(
        _("tie-breaks"),
        max_length=64,
        choices=Tiebreaks.choices,
        default=Tiebreaks.PLACINGS_BEST_START,
        help_text=_("How players with equal points are ranked."),
    )
    counts_for_ranking = models.BooleanField(
        _("counts for the ranking list"),
        default=True,
        # The organiser's wish, kept beside the lists' own decisions: off, the tournament counts
        # for no list whatever their maintainers admitted (as when it is hidden), without
        # asking anyone. On, it counts only for the lists that admit it (``RankingAdmission``).
        help_text=_(
            "Off: it counts for no ranking list. On: its confirmed rounds count, once it is "
            "finished, in each list whose maintainers admit it."
        ),
    )
    club_ranking_players = models.PositiveSmallIntegerField(
        _("club ranking: best players per club"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(20)],
        help_text=_(
            "Empty: no club ranking. A number N: beside the standings, each club ranked by the "
            "points of its best N players summed."
        ),
    )
    # Set when its organiser archives it: off the home page and the organisers' lists of
    # current tournaments, still at its address and counted in the ranking lists.
    archived_at = models.DateTimeField(_("archived"), null=True, blank=True)
    # When the players were last mailed their personal links (``services.personal_links_mail``):
    # once in ten minutes, so that a second click sends no second mail to everyone.
    personal_links_mailed_at = models.DateTimeField(
        _("personal links mailed"), null=True, blank=True, editable=False
    )
    # Raised by every rebuild of the standings: the key of the cached standings and their ETag.
    # A match day of a team competition (the teams app's ``MatchDay``): drawn by its teams'
    # line-ups (``tournaments.lineups``). Set by the teams app, never by a form.
    is_match_day = models.BooleanField(_("team match day"), default=False, editable=False)
    standings_version = models.PositiveIntegerField(_("standings version"), default=0)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-starts_on", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_on__gte=F("starts_on")),
                name="tournament_ends_after_start",
                violation_error_message=_("The last day cannot be before the first day."),
            ),
            models.CheckConstraint(
                condition=Q(planned_rounds__gte=1), name="tournament_planned_rounds_positive"
            ),
            models.CheckConstraint(
                condition=Q(hands_per_match__gte=8) & Q(hands_per_match_five__gte=10),
                name="tournament_hands_per_match_enough",
                violation_error_message=_(
                    "A round needs a hand dealt by each player and a compulsory solo by each "
                    "(TSR 3.3.1, 4.2.3): at least 8 hands at a table of four, 10 at five."
                ),
            ),
            models.CheckConstraint(
                condition=Q(match_minutes__gte=1) & Q(match_minutes_five__gte=1),
                name="tournament_match_minutes_positive",
            ),
            models.CheckConstraint(
                condition=Q(official=False)
                | Q(
                    hands_per_match=OFFICIAL.hands_per_match,
                    match_minutes=OFFICIAL.match_minutes,
                    hands_per_match_five=OFFICIAL.hands_per_match_five,
                    match_minutes_five=OFFICIAL.match_minutes_five,
                ),
                name="tournament_official_round_by_tsr",
                violation_error_message=_(
                    "An official tournament plays 24 hands in 100 minutes at a table of four, "
                    "30 in 125 minutes at a table of five (TSR 8.1.1, 8.5.1, 10.1.5)."
                ),
            ),
            models.CheckConstraint(
                condition=Q(official=False) | Q(allow_tables_of_six_and_seven=False),
                name="tournament_official_no_tables_of_six_or_seven",
                violation_error_message=_(
                    "An official tournament plays at tables of four, and of five where the "
                    "players need them, never at tables of six or seven (TSR 8.1.1, 8.3.1)."
                ),
            ),
            models.CheckConstraint(
                condition=Q(springer=False) | Q(allow_tables_of_six_and_seven=True),
                name="tournament_springer_needs_tables_of_six_and_seven",
                violation_error_message=_(
                    "A Springer plays instead of a table of seven (TSR 10): allow tables of six "
                    "and seven first."
                ),
            ),
            models.CheckConstraint(
                condition=Q(tiebreaks__in=Tiebreaks.values), name="tournament_tiebreaks_known"
            ),
            models.CheckConstraint(
                condition=Q(sheet_keeping__in=SheetKeeping.values),
                name="tournament_sheet_keeping_known",
            ),
            # Double entry checks what the desk types: there is none when sheets are kept on
            # phones only.
            models.CheckConstraint(
                condition=~Q(sheet_keeping=SheetKeeping.PHONES) | Q(double_entry=False),
                name="tournament_double_entry_needs_paper",
                violation_error_message=_(
                    "Sheets kept on phones only are not typed at the desk, so there is no "
                    "second entry to check them: keep them on paper too, or switch double "
                    "entry off."
                ),
            ),
            models.CheckConstraint(
                condition=Q(club_ranking_players__isnull=True)
                | Q(club_ranking_players__gte=1, club_ranking_players__lte=20),
                name="tournament_club_ranking_players_1_to_20",
                violation_error_message=_("A club ranking counts from 1 to 20 players per club."),
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def hands_at(self, table_size: int) -> int:
        """The lines of a round at a table of ``table_size``, compulsory solos included; at six
        and seven as many a player as at four (``doko.rules.deal.hands_at_table``)."""
        if table_size == TABLE_OF_FOUR:
            return self.hands_per_match
        if table_size == TABLE_OF_FIVE:
            return self.hands_per_match_five
        return hands_at_table(hands_at_four=self.hands_per_match, table_size=table_size)

    def minutes_at(self, table_size: int) -> int:
        """The net playing time of a table of ``table_size`` (TSR 8.5.1, 10.1.5); at six and
        seven the table of four's pace for its hands (150 and 175 minutes for 100)."""
        if table_size == TABLE_OF_FOUR:
            return self.match_minutes
        if table_size == TABLE_OF_FIVE:
            return self.match_minutes_five
        return -(-self.match_minutes * self.hands_at(table_size) // self.hands_per_match)


class FormerSlug(models.Model):
    """A short name for links a tournament had before its organiser changed it: its old links
    (shared before anything was printed or published) lead to it while no tournament has that
    short name again."""

    slug = models.SlugField(_("short name for links"), max_length=80, unique=True)
    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="former_slugs",
        verbose_name=_("tournament"),
    )
    changed_at = models.DateTimeField(_("changed"), auto_now=True)

    class Meta:
        verbose_name = _("former short name")
        verbose_name_plural = _("former short names")

    def __str__(self) -> str:
        return self.slug


def new_link_key() -> str:
    """192 random bits, URL-safe: the key of a player's personal link (``/p/<key>/``)."""
    return secrets.token_urlsafe(24)


class Entry(Named):
    """A player's participation in one tournament, with their start number, and their name and
    club as this tournament registered them: the tournament's pages, lists and standings show
    these, which its organisers correct without touching the person (``Player``), whom other
    tournaments share."""

    # A start number already taken is the start number's error, so that the form and the API
    # show it where it was typed.
    constraint_fields = {"entry_start_number_unique": "start_number"}

    class Status(models.TextChoices):
        ACTIVE = "active", _("active")
        WITHDRAWN = "withdrawn", _("withdrawn")
        DISQUALIFIED = "disqualified", _("disqualified")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="entries", verbose_name=_("tournament")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="entries", verbose_name=_("player")
    )
    start_number = models.PositiveIntegerField(_("start number"))
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.ACTIVE
    )
    created_at = models.DateTimeField(_("registered"), auto_now_add=True)
    # Where the player's personal link and the organiser's mails reach them (given when they
    # registered online, or by the organiser); blank where nobody gave one.
    email = models.EmailField(_("e-mail address"), blank=True)
    # Set when the desk checked the player in at the door (``registration.services.arrivals``).
    arrived_at = models.DateTimeField(_("arrived"), null=True, blank=True)
    # The key of the player's personal link (``/p/<key>/``) for the whole tournament: their
    # table and seat in each round, their results, and their seat's sheet while seated. Replaced
    # (the old link then opens nothing) when a phone is lost (``registration.services.links``).
    link_key = models.CharField(
        _("personal link key"), max_length=32, unique=True, default=new_link_key, editable=False
    )

    objects = NamedQuerySet["Entry"].as_manager()

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        ordering = ["tournament", "start_number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"],
                name="entry_player_once_per_tournament",
                violation_error_message=_("This player is already registered."),
            ),
            models.UniqueConstraint(
                fields=["tournament", "start_number"],
                name="entry_start_number_unique",
                violation_error_message=_("This start number is already taken."),
            ),
            models.CheckConstraint(
                condition=Q(start_number__gte=1), name="entry_start_number_positive"
            ),
            models.CheckConstraint(
                condition=~Q(first_name="") & ~Q(last_name=""), name="entry_name_not_empty"
            ),
            models.CheckConstraint(condition=~Q(search_key=""), name="entry_search_key_filled"),
        ]

    def __str__(self) -> str:
        return f"{self.start_number} {self.name}"

    def names_default(self) -> None:
        """An entry made without a name is registered under the person's name and club."""
        if not self.first_name and not self.last_name and self.player_id is not None:
            self.first_name, self.last_name = self.player.first_name, self.player.last_name
            self.club = self.club or self.player.club


class Round(OneQueryChecks):
    """A Spielrunde: every table plays one match of 24 hands (30 at five) at the same time."""

    class Status(models.TextChoices):
        PLANNED = "planned", _("planned")
        SEATED = "seated", _("seated")
        RUNNING = "running", _("running")
        FINISHED = "finished", pgettext_lazy("round", "finished")
        CLOSED = "closed", _("closed")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="rounds", verbose_name=_("tournament")
    )
    number = models.PositiveSmallIntegerField(_("number"))
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.PLANNED
    )
    # The seating is seen by staff from the draw on, by everyone else once it is published.
    published_at = models.DateTimeField(_("seating published"), null=True, blank=True)
    # The seed of the draw, so that the plan can be drawn again for checking.
    seating_seed = models.BigIntegerField(_("seed of the draw"), null=True, blank=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    ended_at = models.DateTimeField(_("playing time ended"), null=True, blank=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
            models.CheckConstraint(
                condition=Q(status__in=["planned", "seated"]) | Q(started_at__isnull=False),
                name="round_started_has_start_time",
            ),
            models.CheckConstraint(
                condition=~Q(status__in=["finished", "closed"]) | Q(ended_at__isnull=False),
                name="round_finished_has_end_time",
            ),
            models.CheckConstraint(
                condition=Q(ended_at__isnull=True) | Q(ended_at__gte=F("started_at")),
                name="round_ends_after_start",
            ),
            models.CheckConstraint(
                condition=Q(status__in=["planned", "seated"]) | Q(published_at__isnull=False),
                name="round_started_is_published",
            ),
            models.CheckConstraint(
                condition=~Q(status="planned") | Q(published_at__isnull=True),
                name="round_published_is_seated",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} – {_('round')} {self.number}"


class Table(OneQueryChecks):
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="tables", verbose_name=_("round")
    )
    number = models.PositiveSmallIntegerField(_("number"))

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{_('table')} {self.number}"


def new_seat_token() -> str:
    """192 random bits, URL-safe: the key of a seat's private scoresheet link."""
    return secrets.token_urlsafe(24)


class Seat(OneQueryChecks):
    """A player's place at a table. Seat 1 deals first, seat 4 keeps the sheet (TSR 8.4.1), at
    a table of five seat 5 (TSR 10.1.4), at six and seven the last seat (TSR 10)."""

    # The round is stored again here so that the database itself can refuse a player sitting
    # twice in one round; services set it from the table.
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="seats", verbose_name=_("round")
    )
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="seats", verbose_name=_("table")
    )
    position = models.PositiveSmallIntegerField(_("seat"))
    # RESTRICT: an entry that sat at a table cannot be deleted on its own (withdraw it instead),
    # but deleting the whole tournament takes its seats with it.
    entry = models.ForeignKey(
        Entry, on_delete=models.RESTRICT, related_name="seats", verbose_name=_("player")
    )
    # Set when a withdrawal or late entry moved the player after the seating was published, so
    # that the pages can point the change out.
    moved_at = models.DateTimeField(_("moved"), null=True, blank=True)
    # The private link of whoever sits here to the table's scoresheet (printed as a QR code on
    # it): it opens that one sheet only, without an account. A new player at the seat gets a new
    # token; re-seating keeps the tokens of players who stay where they are.
    token = models.CharField(
        _("link key"), max_length=32, unique=True, default=new_seat_token, editable=False
    )
    # A Springer's seat at his second table (TSR 10: „an zwei Tischen gleichzeitig"): a player
    # has at most one ordinary seat and one second seat in a round, at two tables.
    second = models.BooleanField(_("Springer's second seat"), default=False)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "position"],
                name="seat_position_once_per_table",
                violation_error_message=_("This seat is already taken."),
            ),
            models.UniqueConstraint(
                fields=["round", "entry"],
                condition=Q(second=False),
                name="seat_entry_once_per_round",
                violation_error_message=_("This player already has a seat in this round."),
            ),
            models.UniqueConstraint(
                fields=["round", "entry"],
                condition=Q(second=True),
                name="seat_entry_second_once_per_round",
                violation_error_message=_(
                    "This player already has a second seat in this round (TSR 10)."
                ),
            ),
            models.UniqueConstraint(
                fields=["table", "entry"],
                name="seat_entry_once_per_table",
                violation_error_message=_("This player already has a seat at this table."),
            ),
            models.CheckConstraint(
                condition=Q(position__gte=1) & Q(position__lte=TABLE_OF_SEVEN),
                name="seat_position_1_to_7",
                violation_error_message=_("A seat is numbered 1 to 7 (TSR 8.4, 10)."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table}, {_('seat')} {self.position}: {self.entry}"


class ExtraTime(OneQueryChecks):
    """Playing time added to one table by an adjudicator (TSR 8.5.1): for an interruption by a
    complaint, a decision of the arbitration panel, or another justified exception."""

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="extra_times", verbose_name=_("table")
    )
    minutes = models.PositiveSmallIntegerField(
        _("minutes"),
        validators=[
            MinValueValidator(1, _("Extra time is 1 to 120 minutes (TSR 8.5.1).")),
            MaxValueValidator(120, _("Extra time is 1 to 120 minutes (TSR 8.5.1).")),
        ],
    )
    reason = models.CharField(_("reason"), max_length=300)
    granted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("granted by"),
    )
    granted_at = models.DateTimeField(_("granted"), auto_now_add=True)

    class Meta:
        verbose_name = _("extra time")
        verbose_name_plural = _("extra time")
        ordering = ["table", "granted_at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(minutes__gte=1) & Q(minutes__lte=120),
                name="extra_time_minutes_1_to_120",
                violation_error_message=_("Extra time is 1 to 120 minutes (TSR 8.5.1)."),
            ),
            models.CheckConstraint(
                condition=~Q(reason=""),
                name="extra_time_has_reason",
                violation_error_message=_("Extra time needs a reason (TSR 8.5.1)."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table}: +{self.minutes} min"


class TournamentRole(models.Model):
    """What a user may do in one tournament (TSR 8.2: adjudicator and arbitration panel)."""

    class Role(models.TextChoices):
        ORGANISER = "organiser", _("organiser")
        ADJUDICATOR = "adjudicator", _("adjudicator")
        # Rules on complaints in the first instance in the adjudicator's place (TSR 8.2.1),
        # e.g. at the adjudicator's own table; a panel member may hold this role too.
        DEPUTY = "deputy", _("deputy adjudicator")
        PANEL = "panel", _("arbitration panel member")
        SCOREKEEPER = "scorekeeper", _("scorekeeper")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="roles", verbose_name=_("tournament")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="tournament_roles",
        verbose_name=_("user"),
    )
    role = models.CharField(_("role"), max_length=16, choices=Role.choices)
    # The player this member of staff is in the tournament, if they play: an arbitration
    # panel's decision gives their table back the time it stood still (TSR 8.5.1).
    entry = models.ForeignKey(
        "Entry",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="staff_roles",
        verbose_name=_("plays as"),
    )

    class Meta:
        verbose_name = _("tournament role")
        verbose_name_plural = _("tournament roles")
        ordering = ["tournament", "role", "user"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user", "role"], name="tournament_role_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} – {self.get_role_display()}"


# An offer not yet answered (the offers' own constraints keep one open per place and name).
OFFER_OPEN = Q(accepted_at__isnull=True, withdrawn_at__isnull=True, declined_at__isnull=True)


class OfferQuerySet(models.QuerySet):
    def open(self) -> "OfferQuerySet":
        """The offers still to be answered: not accepted, declined or withdrawn, not run out."""
        return self.filter(
            accepted_at__isnull=True,
            declined_at__isnull=True,
            withdrawn_at__isnull=True,
            expires_at__gt=timezone.now(),
        )


class Offer(OneQueryChecks):
    """Something offered to a person by name that he takes up only by accepting it (a role in
    a tournament, ``adjudication.RoleOffer``; organising a competition, ``teams.
    OrganiserOffer``): who offered it and when, until when it is open, and its one answer
    (accepted, declined) or its withdrawal. Nobody is given what he has not accepted."""

    offered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("offered by"),
    )
    created_at = models.DateTimeField(_("offered at"), default=timezone.now)
    expires_at = models.DateTimeField(_("valid until"))
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)
    accepted_at = models.DateTimeField(_("accepted at"), null=True, blank=True)
    declined_at = models.DateTimeField(_("declined at"), null=True, blank=True)

    objects = OfferQuerySet.as_manager()

    class Meta:
        abstract = True
        constraints = [
            # Accepted, declined or withdrawn: one of them at most.
            models.CheckConstraint(
                condition=(
                    Q(accepted_at__isnull=True, declined_at__isnull=True)
                    | Q(accepted_at__isnull=True, withdrawn_at__isnull=True)
                    | Q(declined_at__isnull=True, withdrawn_at__isnull=True)
                ),
                name="%(class)s_answered_once",
            ),
            models.CheckConstraint(
                condition=Q(expires_at__gt=F("created_at")),
                name="%(class)s_expires_after_made",
            ),
        ]

    @property
    def answered(self) -> bool:
        """Accepted, declined or withdrawn."""
        return bool(self.accepted_at or self.declined_at or self.withdrawn_at)


class RoleRecord(OneQueryChecks):
    """One line of a tournament's role history, kept for good: a role granted, its *plays as*
    changed, or the role taken away (``tournaments.roles_history``, on every path that changes
    a ``TournamentRole``). The steps that need a second person read who ever held a role and
    whom he ever played as from here (``doko.four_eyes``): taking a role away, or a *plays
    as*, never makes somebody a second person after the fact."""

    class Change(models.TextChoices):
        GRANTED = "granted", _("granted")
        CHANGED = "changed", _("plays as changed")
        REMOVED = "removed", _("taken away")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="+", verbose_name=_("tournament")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("user"),
    )
    role = models.CharField(_("role"), max_length=16, choices=TournamentRole.Role.choices)
    # Whom he played as with the role then: a link between the account and the player that
    # outlives the role.
    entry = models.ForeignKey(
        "Entry",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("plays as"),
    )
    change = models.CharField(_("change"), max_length=16, choices=Change.choices)
    at = models.DateTimeField(_("at"), default=timezone.now)

    class Meta:
        verbose_name = _("role history entry")
        verbose_name_plural = _("role history")
        ordering = ["tournament", "at", "pk"]
        indexes = [models.Index(fields=["tournament", "user"], name="role_record_holder")]
        constraints = [
            models.CheckConstraint(
                condition=Q(change__in=["granted", "changed", "removed"]),
                name="role_record_change_known",
            ),
            models.CheckConstraint(
                condition=Q(role__in=TournamentRole.Role.values), name="role_record_role_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} – {self.get_role_display()}: {self.get_change_display()}"


class SeatResult(OneQueryChecks):
    """What one seat's player scored in a round, once the table's sheet is handed in: game
    points, initialled penalty points (TSR 8.2.2), deductions (TSR 9.6.2 b), the placing at
    the table and the solos. Rewritten from the sheet and the adjudication by
    ``services.results_refresh`` whenever one of them changes; the standings and the ranking
    lists are read from here."""

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="results", verbose_name=_("table")
    )
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="results", verbose_name=_("round")
    )
    entry = models.ForeignKey(
        Entry, on_delete=models.CASCADE, related_name="results", verbose_name=_("player")
    )
    position = models.PositiveSmallIntegerField(_("seat"))
    game_points = models.IntegerField(_("game points"))
    penalty = models.IntegerField(_("penalty points"), default=0)
    deducted = models.PositiveIntegerField(_("points deducted"), default=0)
    points = models.IntegerField(_("points"))
    placing = models.PositiveSmallIntegerField(_("placing at the table"))
    # False while the sheet is submitted but not confirmed: provisional (TSR 8.5.2).
    confirmed = models.BooleanField(_("confirmed"))
    hands = models.PositiveSmallIntegerField(_("hands"))
    solos_played = models.PositiveSmallIntegerField(_("solos played"), default=0)
    solos_won = models.PositiveSmallIntegerField(_("solos won"), default=0)
    # The result of a Springer's second seat (``Seat.second``): his round counts as the mean of
    # his two results (``doko.standings.springer_result``).
    second = models.BooleanField(_("Springer's second seat"), default=False)

    class Meta:
        verbose_name = _("result")
        verbose_name_plural = _("results")
        ordering = ["round", "table", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "entry"],
                condition=Q(second=False),
                name="result_once_per_round",
            ),
            models.UniqueConstraint(
                fields=["round", "entry"],
                condition=Q(second=True),
                name="result_second_once_per_round",
            ),
            models.UniqueConstraint(fields=["table", "position"], name="result_once_per_seat"),
            models.CheckConstraint(
                condition=Q(points=F("game_points") + F("penalty") - F("deducted")),
                name="result_points_add_up",
            ),
            models.CheckConstraint(
                condition=Q(placing__gte=1) & Q(placing__lte=TABLE_OF_SEVEN),
                name="result_placing_1_to_7",
            ),
            models.CheckConstraint(
                condition=Q(solos_won__lte=F("solos_played")), name="result_solos_won_played"
            ),
        ]
        indexes = [models.Index(fields=["entry", "confirmed"])]

    def __str__(self) -> str:
        return f"{self.round}, {self.table}: {self.entry} {self.points:+d}"


class StandingsSnapshot(models.Model):
    """The standings as last rebuilt after a change (``services.standings_rebuild``): readers
    are served this, from the cache or from here, and never compute it themselves."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="standings", verbose_name=_("tournament")
    )
    version = models.PositiveIntegerField(_("version"))
    built_at = models.DateTimeField(_("built"))
    # Standings.pack(): compact JSON, compressed.
    packed = models.BinaryField(_("standings"))

    class Meta:
        verbose_name = _("standings")
        verbose_name_plural = _("standings")

    def __str__(self) -> str:
        return f"{self.tournament} ({self.version})"


class StandingsWanted(models.Model):
    """A rebuild of a tournament's standings that a committed change asked for and that no
    rebuild has done yet (``services.standings_schedule``, ``standings_rebuild``): a worker that
    died with the task, or a lost message, leaves it here, and ``standings_recover`` queues the
    rebuild again. A row per change rather than a column of the tournament: the confirms of
    many tables at once each insert one and wait for no other (a column would lock the
    tournament's row for the whole transaction, and change what its pages are cached under)."""

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="standings_wanted",
        verbose_name=_("tournament"),
    )
    wanted_at = models.DateTimeField(_("wanted"), default=timezone.now, db_index=True)
    # The table whose results changed (``services.results_refresh``), by id: the rebuild then
    # reads only its players' results (``standings_rebuild``). None: anything may have changed,
    # the standings are computed from all results. No foreign key: a table deleted since
    # leaves its id here, which names no table, and the rebuild reads everything.
    table_pk = models.BigIntegerField(null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("standings rebuild wanted")
        verbose_name_plural = _("standings rebuilds wanted")

    def __str__(self) -> str:
        return f"{self.tournament_id} ({self.wanted_at})"


class ImportUpload(models.Model):
    """A list of players uploaded for the import's preview and kept here, in the database that
    every web process shares, until its uploader confirms it (``services.players_import_confirm``)
    or it expires (``services.IMPORT_KEPT``); the confirm posts only ``key``. One per uploader
    and tournament: a new upload replaces the one before."""

    key = models.CharField(_("key"), max_length=64, unique=True)
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="+", verbose_name=_("tournament")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("uploaded by"),
    )
    # A hash of the uploader's session key: the preview is confirmed in the session it was
    # shown in.
    session = models.CharField(_("session"), max_length=64)
    data = models.BinaryField(_("file"))
    created_at = models.DateTimeField(_("uploaded"), db_index=True)

    class Meta:
        verbose_name = _("uploaded list of players")
        verbose_name_plural = _("uploaded lists of players")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"], name="import_upload_one_per_uploader"
            )
        ]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.created_at:%Y-%m-%d %H:%M}"
