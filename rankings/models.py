"""The ranking lists across tournaments (the DDV's Rangliste), the tournaments' admissions to
them and the log of their keeping.

They moved here from the tournaments app and keep its tables (``db_table``), constraints and
indexes: the move changed no row (``rankings/migrations/0001_initial.py``).
"""

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.constraints import OneQueryChecks
from tournaments.models import Tournament


class RankingList(OneQueryChecks):
    """A ranking list across tournaments, as the DDV keeps one: each player's average points
    per round over the rounds of the last months, ranked once they have played enough rounds.
    Rebuilt in the background whenever a tournament finishes."""

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("short name for links"), max_length=80, unique=True)
    months = models.PositiveSmallIntegerField(
        _("months counted"),
        default=24,
        validators=[MinValueValidator(1), MaxValueValidator(120)],
        help_text=_("The rounds of the tournaments that ended within this many months count."),
    )
    min_rounds = models.PositiveSmallIntegerField(
        _("rounds needed"),
        default=36,
        validators=[MinValueValidator(1)],
        help_text=_("Players are ranked once they have played this many rounds."),
    )
    is_public = models.BooleanField(_("public"), default=True)
    # What the list asks of a tournament before its maintainers may admit it (besides being
    # finished, public with public standings, and ended within ``months``):
    # ``doko.rankings.unmet`` checks it.
    tournament_min_players = models.PositiveSmallIntegerField(
        _("players a tournament needs"),
        default=8,
        validators=[MinValueValidator(1)],
        help_text=_("A tournament is admitted with at least this many active players."),
    )
    tournament_min_rounds = models.PositiveSmallIntegerField(
        _("rounds a tournament needs"),
        default=2,
        validators=[MinValueValidator(1)],
        help_text=_("A tournament is admitted with at least this many rounds played (closed)."),
    )
    tournament_tables_of_four_only = models.BooleanField(
        _("tables of four only"),
        default=False,
        help_text=_("A tournament with a table of five in any round is not admitted."),
    )
    tournament_official_only = models.BooleanField(
        _("official tournaments only"),
        default=False,
        help_text=_(
            "Only a tournament marked official, played by the TSR (TSR 8.1.1), is admitted."
        ),
    )
    # Who admits tournaments to the list and appoints the other maintainers; nobody by
    # default, not even a superuser: the administration appoints the first.
    maintainers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="ranking_lists_maintained",
        verbose_name=_("maintainers"),
    )
    version = models.PositiveIntegerField(_("version"), default=0)
    built_at = models.DateTimeField(_("built"), null=True, blank=True)
    built_for = models.DateField(_("as of"), null=True, blank=True)
    data = models.JSONField(_("ranking"), default=list, blank=True)

    class Meta:
        db_table = "tournaments_rankinglist"
        verbose_name = _("ranking list")
        verbose_name_plural = _("ranking lists")
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(months__gte=1) & Q(months__lte=120), name="ranking_months_1_to_120"
            ),
            models.CheckConstraint(condition=Q(min_rounds__gte=1), name="ranking_min_rounds"),
            models.CheckConstraint(
                condition=Q(tournament_min_players__gte=1) & Q(tournament_min_rounds__gte=1),
                name="ranking_tournament_criteria_positive",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class RankingAdmission(OneQueryChecks):
    """A tournament's request to count for a ranking list, and the maintainers' decision: only
    an admitted tournament counts (``selectors.tournaments_ranked``). ``snapshot``: its counted
    results when it was (last) admitted, ``doko.rankings.snapshot``, so that the maintainers
    see what changed since."""

    class Status(models.TextChoices):
        REQUESTED = "requested", _("requested")
        ADMITTED = "admitted", _("admitted")
        DECLINED = "declined", _("declined")
        WITHDRAWN = "withdrawn", _("withdrawn")

    ranking_list = models.ForeignKey(
        RankingList,
        on_delete=models.CASCADE,
        related_name="admissions",
        verbose_name=_("ranking list"),
    )
    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="ranking_admissions",
        verbose_name=_("tournament"),
    )
    status = models.CharField(_("status"), max_length=16, choices=Status.choices)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("requested by"),
    )
    requested_at = models.DateTimeField(_("requested"), null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("decided by"),
    )
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True)
    reason = models.TextField(_("reason"), blank=True)
    snapshot = models.JSONField(_("results when admitted"), default=list, blank=True)

    class Meta:
        db_table = "tournaments_rankingadmission"
        verbose_name = _("ranking admission")
        verbose_name_plural = _("ranking admissions")
        ordering = ["ranking_list", "-requested_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["ranking_list", "tournament"], name="ranking_admission_once"
            ),
            models.CheckConstraint(
                condition=Q(status__in=["requested", "admitted", "declined", "withdrawn"]),
                name="ranking_admission_status_known",
            ),
            models.CheckConstraint(
                condition=~Q(status="declined") | ~Q(reason=""),
                name="ranking_admission_declined_has_reason",
                violation_error_message=_("Say why the tournament is declined."),
            ),
            models.CheckConstraint(
                condition=~Q(status__in=["admitted", "declined"]) | Q(decided_at__isnull=False),
                name="ranking_admission_decided_has_time",
            ),
            models.CheckConstraint(
                condition=~Q(status="requested")
                | (Q(requested_at__isnull=False) & Q(decided_at__isnull=True)),
                name="ranking_admission_request_open",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.ranking_list}: {self.tournament} ({self.get_status_display()})"


class RankingLogEntry(OneQueryChecks):
    """One step in the keeping of a ranking list: a request, a decision, a withdrawal, a
    maintainer appointed or removed. Names are copied, so that the log reads the same after a
    tournament or an account is deleted."""

    class Kind(models.TextChoices):
        REQUESTED = "requested", _("admission requested")
        WITHDRAWN = "withdrawn", _("request withdrawn")
        ADMITTED = "admitted", _("admitted")
        READMITTED = "readmitted", _("admitted again with the changed results")
        DECLINED = "declined", _("declined")
        MAINTAINER_ADDED = "maintainer_added", _("maintainer appointed")
        MAINTAINER_REMOVED = "maintainer_removed", _("maintainer removed")

    ranking_list = models.ForeignKey(
        RankingList, on_delete=models.CASCADE, related_name="log", verbose_name=_("ranking list")
    )
    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("tournament"),
    )
    tournament_name = models.CharField(_("tournament"), max_length=200, blank=True)
    kind = models.CharField(_("what"), max_length=24, choices=Kind.choices)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    by_name = models.CharField(_("by"), max_length=150, blank=True)
    at = models.DateTimeField(_("when"), db_index=True)
    reason = models.TextField(_("reason"), blank=True)
    # The account appointed or removed (its user name).
    maintainer = models.CharField(_("maintainer"), max_length=150, blank=True)

    class Meta:
        db_table = "tournaments_rankinglogentry"
        verbose_name = _("ranking list log entry")
        verbose_name_plural = _("ranking list log")
        ordering = ["-at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(
                    kind__in=[
                        "requested",
                        "withdrawn",
                        "admitted",
                        "readmitted",
                        "declined",
                        "maintainer_added",
                        "maintainer_removed",
                    ]
                ),
                name="ranking_log_kind_known",
            ),
            models.CheckConstraint(
                condition=~Q(kind="declined") | ~Q(reason=""),
                name="ranking_log_declined_has_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.ranking_list}: {self.get_kind_display()} {self.tournament_name}"
