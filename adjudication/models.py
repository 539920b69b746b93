"""Adjudication (TSR 8.2, 9): complaints and the adjudicator's decisions on them with their
penalty points, initials, appeals to the arbitration panel, sanctions for unsporting conduct,
the tournament's catalogue of standard offences, and the log of everything done.

Nothing here is edited once it counts: an initialled decision is only superseded by the
panel's, a sanction stands, and the log is only appended to. Only deleting the whole tournament
(or its player, for a sanction) takes them away: offences named in a decision or sanction, and
the rounds sanctions count in, are kept otherwise (RESTRICT).
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q, Value
from django.db.models.functions import Coalesce, Lower
from django.db.models.lookups import Exact
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from adjudication.messages import words
from doko.rules import sanctions
from doko.rules.deal import SEAT_NUMBERS, TABLE_OF_SEVEN
from doko.rules.offences import STANDARD_OFFENCE
from doko.rules.penalty import MOST_ANNOUNCEMENTS, Severity
from doko.rules.procedure import WrittenLine
from scoring.models import CONTRACT_LABELS, SOLO_TYPE_LABELS, Scoresheet
from tournaments.constraints import OneQueryChecks
from tournaments.models import OFFER_OPEN, Entry, Offer, Round, Tournament, TournamentRole

SEVERITY_LABELS = {
    Severity.INSIGNIFICANT: _("insignificant (TSR 9.2)"),
    Severity.MINOR: _("minor (TSR 9.3)"),
    Severity.MAJOR: _("major (TSR 9.4)"),
}
# Deduction for unsporting conduct: at most 12 points, without credit to anyone (TSR 9.6.2 b);
# the core's number, re-exported for the forms, serializers and constraints.
MOST_DEDUCTION = sanctions.MOST_DEDUCTION


def _seat(field: str) -> Q:
    return Q(**{f"{field}__gte": 1, f"{field}__lte": TABLE_OF_SEVEN})


def _penalty_sum():
    return (
        F("penalty_1")
        + F("penalty_2")
        + F("penalty_3")
        + F("penalty_4")
        + Coalesce(F("penalty_5"), Value(0))
        + Coalesce(F("penalty_6"), Value(0))
        + Coalesce(F("penalty_7"), Value(0))
    )


class Offence(OneQueryChecks):
    """A standard offence of the tournament's catalogue with its preset outcome: a breach of
    the rules with its severity (TSR 9.2-9.4), or unsporting conduct (TSR 9.6), which the
    adjudicator decides alone only where it is a bound decision (TSR 9.6.3) with its points.

    One the TSR names has its ``code`` (doko.rules.offences) and is shown in the reader's
    language (``label``), whoever added it; its ``name`` is the TSR's English. The tournament's
    own offences have no code and read as typed."""

    class Kind(models.TextChoices):
        BREACH = "breach", _("breach of the rules (TSR 9.2-9.5)")
        UNSPORTING = "unsporting", _("unsporting conduct (TSR 9.6)")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="offences", verbose_name=_("tournament")
    )
    name = models.CharField(_("name"), max_length=200)
    code = models.CharField(
        _("code of the TSR's offence"), max_length=40, blank=True, editable=False
    )
    rule = models.CharField(_("rule"), max_length=60, blank=True)
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    severity = models.CharField(
        _("severity"), max_length=16, choices=list(SEVERITY_LABELS.items()), blank=True
    )
    # A bound decision (TSR 9.6.3): the adjudicator deducts these points (0: a warning).
    bound = models.BooleanField(_("bound decision (TSR 9.6.3)"), default=False)
    deduction = models.PositiveSmallIntegerField(_("points deducted"), null=True, blank=True)

    class Meta:
        verbose_name = _("offence")
        verbose_name_plural = _("offences")
        ordering = ["tournament", "kind", "name"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="offence_name_unique"),
            models.UniqueConstraint(
                fields=["tournament", "code"], condition=~Q(code=""), name="offence_code_unique"
            ),
            models.CheckConstraint(
                condition=(Q(kind="breach") & ~Q(severity="") & Q(bound=False))
                | (Q(kind="unsporting") & Q(severity="")),
                name="offence_severity_for_breaches",
                violation_error_message=_(
                    "A breach of the rules has a severity; unsporting conduct has none."
                ),
            ),
            models.CheckConstraint(
                condition=(Q(bound=True) & Q(deduction__lte=MOST_DEDUCTION))
                | (Q(bound=False) & Q(deduction__isnull=True)),
                name="offence_bound_has_deduction",
                violation_error_message=_(
                    "A bound decision deducts 0 to 12 points (TSR 9.6.2 b, 9.6.3); other "
                    "offences deduct nothing by themselves."
                ),
            ),
        ]

    def __str__(self) -> str:
        return self.label

    @property
    def label(self) -> str:
        """The name in the reader's language: the TSR's words for a standard offence it
        names, else the tournament's own as typed."""
        standard = STANDARD_OFFENCE.get(self.code)
        return gettext(standard.name) if standard else self.name


class Decision(OneQueryChecks):
    """A complaint about a breach in one hand of a table's match, and the ruling on it.

    Open: the complaint is noted. Draft: the ruling is made and its penalty points worked out
    (TSR 9.3-9.5), waiting for initials. Initialled: it counts (TSR 8.2.2). An initialled
    decision is never edited; the arbitration panel supersedes or annuls it (TSR 8.2.1).
    """

    class Status(models.TextChoices):
        OPEN = "open", _("complaint open")
        DRAFT = "draft", _("waiting for initials")
        INITIALLED = "initialled", _("initialled")
        SUPERSEDED = "superseded", _("changed by the arbitration panel")
        ANNULLED = "annulled", _("annulled by the arbitration panel")

    scoresheet = models.ForeignKey(
        Scoresheet, on_delete=models.CASCADE, related_name="decisions", verbose_name=_("scoresheet")
    )
    # The line of the scoresheet the breach happened in; a hand stopped and counted as not
    # played is that line itself (TSR 9.4.3).
    hand_number = models.PositiveSmallIntegerField(_("hand"))
    offender = models.PositiveSmallIntegerField(_("offender (seat)"))
    complainant = models.PositiveSmallIntegerField(_("complaint by (seat)"), null=True, blank=True)
    offence = models.ForeignKey(
        Offence,
        on_delete=models.RESTRICT,
        null=True,
        blank=True,
        related_name="decisions",
        verbose_name=_("standard offence"),
    )
    # Empty when the standard offence says it all (its name is shown then, in the reader's
    # language).
    description = models.TextField(_("what happened"), blank=True)
    severity = models.CharField(
        _("severity"), max_length=16, choices=list(SEVERITY_LABELS.items()), blank=True
    )
    contract = models.CharField(
        _("contract as it stood"),
        max_length=16,
        choices=list(CONTRACT_LABELS.items()),
        default="normal",
    )
    soloist = models.PositiveSmallIntegerField(_("soloist (seat)"), null=True, blank=True)
    solo_type = models.CharField(
        _("solo type"), max_length=16, choices=list(SOLO_TYPE_LABELS.items()), blank=True
    )
    disadvantages_soloist = models.BooleanField(
        _("may disadvantage the soloist (TSR 9.3.3 b1)"), default=False
    )
    announcements = models.PositiveSmallIntegerField(
        _("announcements made by the other side"), default=0
    )
    decided = models.BooleanField(
        _("game already won after announcements (TSR 9.5.1)"), default=False
    )
    # A wedding is penalised as a normal game until it turns into a solo, then as a solo with
    # the holder of both Queens of Clubs as the soloist (TSR 4.4.3 b, 4.4.5).
    wedding_clarified_as_solo = models.BooleanField(
        _("the wedding was already being played as a solo (TSR 4.4.3 b, 4.4.5)"), default=False
    )
    # The penalty points per seat as ruled (negative for the offender), and as the TSR gives
    # them; they differ only with a written reason.
    penalty_1 = models.SmallIntegerField(_("seat 1"), null=True, blank=True)
    penalty_2 = models.SmallIntegerField(_("seat 2"), null=True, blank=True)
    penalty_3 = models.SmallIntegerField(_("seat 3"), null=True, blank=True)
    penalty_4 = models.SmallIntegerField(_("seat 4"), null=True, blank=True)
    penalty_5 = models.SmallIntegerField(_("seat 5"), null=True, blank=True)
    penalty_6 = models.SmallIntegerField(_("seat 6"), null=True, blank=True)  # TSR 10
    penalty_7 = models.SmallIntegerField(_("seat 7"), null=True, blank=True)
    computed = models.JSONField(_("penalty points by the TSR"), null=True, blank=True)
    deviation_reason = models.TextField(_("reason for deviating"), blank=True)
    hand_not_played = models.BooleanField(_("hand counts as not played (TSR 9.4.3)"), default=False)
    # TSR 9.4.4, an opponent's major breach in a solo: the solo counts as played, its line on
    # the sheet has a game value of 0 and no points, and only the penalty points count.
    played_without_game_points = models.BooleanField(
        _("solo counts as played, without game points (TSR 9.4.4)"), default=False
    )
    # The line as the scorekeeper had entered it before the initialled decision put no
    # points on it, for an appeal that changes or annuls the decision; null if the decision
    # put the line on the sheet itself.
    replaced_line = models.JSONField(_("line replaced"), null=True, blank=True)
    # TSR 9.4.3, 9.4.4 on a hand whose line was written already: whether that line is the
    # stopped game itself (replaced) or the game dealt after it (the ruled line goes in
    # before it). Empty when the ruling changes no line or the hand was not written yet.
    written_line = models.CharField(
        _("the written line is"),
        max_length=8,
        choices=[
            (WrittenLine.STOPPED.value, _("the stopped game itself")),
            (WrittenLine.NEXT.value, _("the game dealt after it")),
        ],
        blank=True,
    )
    # Who ruled last (TSR 8.2.1): with whoever initialled, the first instance, who does not
    # decide the appeal against it.
    ruled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("ruled by"),
    )
    # How many lines the sheet had once the initials had put the ruling on it: an appeal is
    # in time only until the table writes another hand (TSR 9.7.7).
    hands_at_initials = models.PositiveSmallIntegerField(
        _("hands on the sheet at the initials"), null=True, blank=True
    )
    rule = models.CharField(_("rule"), max_length=60, blank=True)
    status = models.CharField(_("status"), max_length=16, choices=Status.choices, default="open")
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("recorded by"),
    )
    recorded_at = models.DateTimeField(_("recorded"), auto_now_add=True)
    initialled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("initialled by"),
    )
    initialled_at = models.DateTimeField(_("initialled"), null=True, blank=True)
    # The panel's own decision on an appeal replaces the one appealed against.
    appeal = models.ForeignKey(
        "Appeal",
        on_delete=models.RESTRICT,
        null=True,
        blank=True,
        related_name="replacement",
        verbose_name=_("decided on appeal"),
    )

    class Meta:
        verbose_name = _("decision")
        verbose_name_plural = _("decisions")
        ordering = ["scoresheet", "hand_number", "recorded_at"]
        constraints = [
            models.CheckConstraint(condition=Q(hand_number__gte=1), name="decision_hand_positive"),
            models.CheckConstraint(condition=_seat("offender"), name="decision_offender_seat"),
            models.CheckConstraint(
                condition=Q(complainant__isnull=True) | _seat("complainant"),
                name="decision_complainant_seat",
            ),
            models.CheckConstraint(
                condition=Q(soloist__isnull=True) | _seat("soloist"),
                name="decision_soloist_seat",
            ),
            models.CheckConstraint(
                condition=Q(announcements__lte=MOST_ANNOUNCEMENTS),
                name="decision_announcements_at_most_five",
            ),
            # What happened: said in words, or by the standard offence alone.
            models.CheckConstraint(
                condition=~Q(description="") | Q(offence__isnull=False),
                name="decision_says_what_happened",
            ),
            # Open: nothing ruled yet; every later state has its ruling and points.
            models.CheckConstraint(
                condition=(
                    Q(status="open", severity="", penalty_1__isnull=True, computed__isnull=True)
                )
                | (
                    ~Q(status="open")
                    & ~Q(severity="")
                    & Q(
                        penalty_1__isnull=False,
                        penalty_2__isnull=False,
                        penalty_3__isnull=False,
                        penalty_4__isnull=False,
                        computed__isnull=False,
                    )
                    & ~Q(rule="")
                ),
                name="decision_ruled_has_points",
            ),
            models.CheckConstraint(
                # The stubs' Q.__or__ takes only a Q; Django combines any conditional expression.
                condition=Q(penalty_1__isnull=True) | Exact(_penalty_sum(), Value(0)),  # type: ignore[arg-type]
                name="decision_penalty_sums_to_zero",
                violation_error_message=_(
                    "The penalty points of a decision must add up to zero (TSR 7.3.3.1, 9.3, 9.4)."
                ),
            ),
            # TSR 8.2.2: penalty points count only initialled, with who and when.
            models.CheckConstraint(
                condition=(
                    Q(status__in=["open", "draft"])
                    & Q(initialled_by__isnull=True, initialled_at__isnull=True)
                )
                | (
                    Q(status__in=["initialled", "superseded", "annulled"])
                    & Q(initialled_by__isnull=False, initialled_at__isnull=False)
                ),
                name="decision_initialled_by_someone",
            ),
            models.CheckConstraint(
                condition=Q(hand_not_played=False) | Q(severity="major", decided=False),
                name="decision_not_played_only_major",
            ),
            models.CheckConstraint(
                condition=Q(played_without_game_points=False)
                | Q(severity="major", decided=False, hand_not_played=False),
                name="decision_no_game_points_only_major",
            ),
            models.CheckConstraint(
                condition=Q(replaced_line__isnull=True)
                | Q(played_without_game_points=True)
                | Q(hand_not_played=True, written_line="stopped"),
                name="decision_replaced_line_only_without_game_points",
            ),
            models.CheckConstraint(
                condition=Q(written_line="")
                | Q(hand_not_played=True)
                | Q(played_without_game_points=True),
                name="decision_written_line_only_when_it_changes",
            ),
            # TSR 9.7.7: an initialled decision knows how many hands the sheet had then.
            models.CheckConstraint(
                condition=Q(status__in=["open", "draft"]) | Q(hands_at_initials__isnull=False),
                name="decision_initialled_counts_the_hands",
            ),
            # Only a wedding turns into a solo during the game, and then it has its soloist,
            # the holder of both Queens of Clubs (TSR 4.4.3 b, 4.4.5).
            models.CheckConstraint(
                condition=Q(wedding_clarified_as_solo=False)
                | Q(contract__in=["wedding", "silent_wedding"], soloist__isnull=False),
                name="decision_clarified_only_wedding",
            ),
        ]

    def __str__(self) -> str:
        return _("Hand %(hand)d, seat %(seat)d: %(status)s") % {
            "hand": self.hand_number,
            "seat": self.offender,
            "status": self.get_status_display(),
        }

    @property
    def counts(self) -> bool:
        """Whether its penalty points and its stopping of the hand count: initialled, and
        neither superseded nor annulled on appeal (TSR 8.2.2)."""
        return self.status == self.Status.INITIALLED

    @property
    def penalty(self) -> dict[int, int]:
        """The penalty points by seat, as ruled; empty while the complaint is open."""
        return {
            seat: points
            for seat in SEAT_NUMBERS
            if (points := getattr(self, f"penalty_{seat}")) is not None
        }

    @property
    def deviates(self) -> bool:
        return (
            self.computed is not None
            and {int(seat): points for seat, points in self.computed.items()} != self.penalty
        )


class Appeal(OneQueryChecks):
    """A player's appeal against a decision of the adjudicator (TSR 8.2.1, 9.7.7): a ruling on
    a complaint, or the points of a bound decision he gave alone (TSR 9.6.3); and the
    arbitration panel's final decision on it: uphold, change or annul, with the members and
    their reasons."""

    class Outcome(models.TextChoices):
        UPHOLD = "uphold", _("upheld")
        CHANGE = "change", _("changed")
        ANNUL = "annul", _("annulled")

    decision = models.OneToOneField(
        Decision,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="appealed",
        verbose_name=_("decision"),
    )
    sanction = models.OneToOneField(
        "Sanction",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="appealed",
        verbose_name=_("sanction"),
    )
    appellant = models.PositiveSmallIntegerField(_("appeal by (seat)"))
    grounds = models.TextField(_("grounds of the appeal"), blank=True)
    lodged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("recorded by"),
    )
    lodged_at = models.DateTimeField(_("lodged"), auto_now_add=True)
    outcome = models.CharField(_("outcome"), max_length=16, choices=Outcome.choices, blank=True)
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="+",
        verbose_name=_("members of the arbitration panel"),
    )
    reasons = models.TextField(_("reasons"), blank=True)
    # How long play stood still; the table concerned and those where members play get it back.
    interruption = models.PositiveSmallIntegerField(_("interruption (minutes)"), default=0)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("recorded by"),
    )
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True)

    class Meta:
        verbose_name = _("appeal")
        verbose_name_plural = _("appeals")
        ordering = ["lodged_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(decision__isnull=False, sanction__isnull=True)
                | Q(decision__isnull=True, sanction__isnull=False),
                name="appeal_against_a_decision_or_a_sanction",
            ),
            models.CheckConstraint(condition=_seat("appellant"), name="appeal_appellant_seat"),
            models.CheckConstraint(
                condition=(Q(outcome="") & Q(decided_at__isnull=True, decided_by__isnull=True))
                | (
                    ~Q(outcome="")
                    & ~Q(reasons="")
                    & Q(decided_at__isnull=False, decided_by__isnull=False)
                ),
                name="appeal_decided_with_reasons",
                violation_error_message=_(
                    "The arbitration panel's decision gives its reasons (TSR 8.2.1)."
                ),
            ),
        ]

    def __str__(self) -> str:
        return _("Appeal against %(decision)s") % {"decision": self.decision or self.sanction}


class Sanction(OneQueryChecks):
    """Unsporting conduct (TSR 9.6.2): a warning, a deduction of up to 12 points without credit
    to the other players, or disqualification. Decided by the arbitration panel, naming its
    members, or by the adjudicator alone where the offence is a bound decision (TSR 9.6.3);
    his can be appealed to the panel, which upholds, changes (its own sanction replaces his)
    or annuls it (TSR 8.2.1). Only a sanction in force counts."""

    class Kind(models.TextChoices):
        # The core's kinds (``doko.rules.sanctions.SanctionKind``), with their labels.
        WARNING = sanctions.SanctionKind.WARNING.value, _("warning")
        DEDUCTION = sanctions.SanctionKind.DEDUCTION.value, _("point deduction")
        DISQUALIFICATION = sanctions.SanctionKind.DISQUALIFICATION.value, _("disqualification")

    class Status(models.TextChoices):
        IN_FORCE = "in_force", _("in force")
        SUPERSEDED = "superseded", _("changed by the arbitration panel")
        ANNULLED = "annulled", _("annulled by the arbitration panel")

    entry = models.ForeignKey(
        Entry, on_delete=models.CASCADE, related_name="sanctions", verbose_name=_("player")
    )
    # The round whose match the deduction counts in.
    round = models.ForeignKey(
        Round, on_delete=models.RESTRICT, related_name="sanctions", verbose_name=_("round")
    )
    kind = models.CharField(_("sanction"), max_length=20, choices=Kind.choices)
    points = models.PositiveSmallIntegerField(_("points deducted"), null=True, blank=True)
    offence = models.ForeignKey(
        Offence,
        on_delete=models.RESTRICT,
        null=True,
        blank=True,
        related_name="sanctions",
        verbose_name=_("standard offence"),
    )
    reasons = models.TextField(_("reasons"))
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="+",
        verbose_name=_("members of the arbitration panel"),
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("recorded by"),
    )
    decided_at = models.DateTimeField(_("decided"), auto_now_add=True)
    # A bound decision given alone (TSR 9.6.3): the lines on the player's table's sheet then,
    # for the appeal "nur sofort" (TSR 9.7.7); null for the panel's own and before it was kept.
    hands_at_decision = models.PositiveSmallIntegerField(
        _("hands on the sheet at the decision"), null=True, blank=True
    )
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.IN_FORCE
    )
    # The panel's own sanction on appeal replaces the adjudicator's (TSR 8.2.1).
    appeal = models.ForeignKey(
        Appeal,
        on_delete=models.RESTRICT,
        null=True,
        blank=True,
        related_name="replacement_sanction",
        verbose_name=_("decided on appeal"),
    )

    class Meta:
        verbose_name = _("sanction")
        verbose_name_plural = _("sanctions")
        ordering = ["decided_at"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(kind="deduction") & Q(points__gte=1, points__lte=MOST_DEDUCTION))
                | (~Q(kind="deduction") & Q(points__isnull=True)),
                name="sanction_deduction_1_to_12",
                violation_error_message=_(
                    "A point deduction takes 1 to 12 points (TSR 9.6.2 b); other sanctions "
                    "take none."
                ),
            ),
            models.CheckConstraint(condition=~Q(reasons=""), name="sanction_has_reasons"),
        ]

    def __str__(self) -> str:
        return f"{self.entry.name}: {self.get_kind_display()}"


class Event(models.Model):
    """One line of the tournament's adjudication log: who did what, when. Only appended to."""

    class Action(models.TextChoices):
        COMPLAINT = "complaint", _("complaint recorded")
        RULING = "ruling", _("ruling made")
        INITIALS = "initials", _("decision initialled")
        APPEAL = "appeal", _("appeal lodged")
        PANEL = "panel", _("arbitration panel decided")
        SANCTION = "sanction", _("sanction imposed")
        EXTRA_TIME = "extra_time", _("extra time granted")
        OFFENCE = "offence", _("catalogue changed")
        ROLE = "role", _("role changed")

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="adjudication_events",
        verbose_name=_("tournament"),
    )
    at = models.DateTimeField(_("time"), auto_now_add=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("by"),
    )
    action = models.CharField(_("action"), max_length=16, choices=Action.choices)
    decision = models.ForeignKey(
        Decision, on_delete=models.CASCADE, null=True, blank=True, related_name="events"
    )
    appeal = models.ForeignKey(
        Appeal, on_delete=models.CASCADE, null=True, blank=True, related_name="events"
    )
    sanction = models.ForeignKey(
        Sanction, on_delete=models.CASCADE, null=True, blank=True, related_name="events"
    )
    # As written for whoever did it; ``message`` keeps it untranslated (adjudication.messages)
    # for entries logged since it exists, and ``text`` reads it in the reader's language.
    summary = models.TextField(_("what"))
    message = models.JSONField(_("what, untranslated"), null=True, blank=True, editable=False)
    details = models.JSONField(_("details"), default=dict, blank=True)

    class Meta:
        verbose_name = _("adjudication log entry")
        verbose_name_plural = _("adjudication log")
        ordering = ["tournament", "at", "pk"]
        indexes = [models.Index(fields=["tournament", "at"], name="event_tournament_at")]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.get_action_display()}"

    @property
    def text(self) -> str:
        """What was done, in the reader's language where the entry keeps its message."""
        return words(self.message) if self.message else self.summary


class StaffInvitation(OneQueryChecks):
    """A role offered to an e-mail address (TSR 8.2.1), waiting for its person: no account is
    looked up and none is made until the link is opened and accepted
    (``services.staff_invitation_accept``). An address with an account accepts by logging in
    as that account; a new address chooses a password there and gets its account then. The
    link's key is kept only as its SHA-256 (``key_hash``) and as the seed it is made from
    with the site's secret key (``key_seed``), so that the table alone tells nobody a working
    link."""

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="staff_invitations",
        verbose_name=_("tournament"),
    )
    email = models.EmailField(_("e-mail address"), max_length=254)
    name = models.CharField(_("name"), max_length=150)
    role = models.CharField(_("role"), max_length=16, choices=TournamentRole.Role.choices)
    entry = models.ForeignKey(
        Entry,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("plays as"),
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("invited by"),
    )
    created_at = models.DateTimeField(_("invited at"), default=timezone.now)
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    # What the link's key is made from with the site's secret key (``invitations.
    # invitation_key_of_seed``), so that the staff page can show an open invitation's link
    # again to the organisers; empty for invitations made before it was kept.
    key_seed = models.CharField(max_length=64, blank=True, default="", editable=False)
    expires_at = models.DateTimeField(_("valid until"))
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)
    accepted_at = models.DateTimeField(_("accepted at"), null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("accepted by"),
    )

    class Meta:
        verbose_name = _("staff invitation")
        verbose_name_plural = _("staff invitations")
        ordering = ["tournament", "created_at", "pk"]
        constraints = [
            # One open invitation per tournament, address (in any case) and role: inviting
            # again withdraws the earlier one.
            models.UniqueConstraint(
                "tournament",
                Lower("email"),
                "role",
                condition=Q(accepted_at__isnull=True, withdrawn_at__isnull=True),
                name="staffinvitation_one_open",
            ),
            models.CheckConstraint(
                condition=Q(accepted_at__isnull=True) | Q(withdrawn_at__isnull=True),
                name="staffinvitation_accepted_or_withdrawn",
            ),
            models.CheckConstraint(
                condition=Q(role__in=TournamentRole.Role.values), name="staffinvitation_role"
            ),
            models.CheckConstraint(
                condition=Q(expires_at__gt=F("created_at")),
                name="staffinvitation_expires_after_made",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.email} ({self.role})"


class RoleOffer(Offer):
    """A role offered to an account by its user name (TSR 8.2.1), waiting for its person to
    accept it, logged in, on the page of the roles offered to him: nobody holds a role he has
    not accepted. The organiser's answer is the same whether the name has an account
    (``services.role_offer``): ``user`` is the active account that had the name when it was
    offered, or None, and an offer without one is never accepted and runs out as any other.
    ``username`` is the name as the organiser wrote it, all he is ever shown."""

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="role_offers",
        verbose_name=_("tournament"),
    )
    username = models.CharField(_("user name"), max_length=150)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="role_offers",
        verbose_name=_("account"),
    )
    role = models.CharField(_("role"), max_length=16, choices=TournamentRole.Role.choices)
    entry = models.ForeignKey(
        Entry,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("plays as"),
    )

    class Meta(Offer.Meta):
        verbose_name = _("role offer")
        verbose_name_plural = _("role offers")
        ordering = ["tournament", "created_at", "pk"]
        constraints = [
            *Offer.Meta.constraints,
            # One open offer per tournament, user name (in any case) and role: offering again
            # withdraws the earlier one.
            models.UniqueConstraint(
                "tournament",
                Lower("username"),
                "role",
                condition=OFFER_OPEN,
                name="roleoffer_one_open",
            ),
            models.CheckConstraint(
                condition=Q(role__in=TournamentRole.Role.values), name="roleoffer_role"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.username} ({self.role})"
