"""The online registration (a tournament's public registration page and its waiting list) and
what players sent through it, with their claims to be a person on record.

The models moved here from the tournaments app on their old tables (``db_table``), rows and
constraints untouched; workflows live in ``registration/services/``.
"""

import hashlib
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from doko.names import person_key
from tournaments.constraints import OneQueryChecks
from tournaments.models import Entry, Named, Player, Tournament, new_link_key


class OnlineRegistration(OneQueryChecks):
    """A tournament's public registration page: open from ``opens_at`` to ``closes_at`` unless
    its organiser closed it earlier (``closed_at``), for at most ``capacity`` active players
    (none: no limit), beyond which registrations join the waiting list, or are refused where it
    has none (``services.registrations``)."""

    tournament = models.OneToOneField(
        Tournament,
        on_delete=models.CASCADE,
        related_name="online_registration",
        verbose_name=_("tournament"),
    )
    opens_at = models.DateTimeField(_("opens"))
    closes_at = models.DateTimeField(_("closes"))
    capacity = models.PositiveIntegerField(
        _("places"),
        null=True,
        blank=True,
        help_text=_("How many players can take part; empty: no limit."),
    )
    waiting_list = models.BooleanField(
        _("waiting list"),
        default=True,
        help_text=_(
            "When every place is taken, further players join a waiting list and move up by "
            "themselves, in order, when someone withdraws before the first draw."
        ),
    )
    note = models.TextField(
        _("note for players"),
        max_length=2000,
        blank=True,
        help_text=_("Shown on the registration page, for example the entry fee."),
    )
    closed_at = models.DateTimeField(_("closed by the organiser"), null=True, blank=True)

    class Meta:
        # The table it had in the tournaments app: the move kept every row (migration 0001).
        db_table = "tournaments_onlineregistration"
        verbose_name = _("online registration")
        verbose_name_plural = _("online registrations")
        constraints = [
            models.CheckConstraint(
                condition=Q(closes_at__gt=F("opens_at")),
                name="online_registration_closes_after_opening",
                violation_error_message=_("Registration must close after it opens."),
            ),
            models.CheckConstraint(
                condition=Q(capacity__isnull=True) | Q(capacity__gte=1),
                name="online_registration_capacity_positive",
                violation_error_message=_("A tournament needs at least one place."),
            ),
        ]

    def __str__(self) -> str:
        return str(self.tournament)

    # Times a registration can have: any real tournament's, far from the calendar's edges (a
    # year 84 in Europe/Berlin has a local mean time offset of seconds, which no API client reads).
    YEARS = (2000, 2100)

    def clean(self) -> None:
        errors = {
            name: _("Choose a time between the years %(first)d and %(last)d.")
            % {"first": self.YEARS[0], "last": self.YEARS[1]}
            for name in ("opens_at", "closes_at")
            if (when := getattr(self, name)) is not None
            and not self.YEARS[0] <= when.year <= self.YEARS[1]
        }
        if errors:
            raise ValidationError(errors)

    def is_open(self, now=None) -> bool:
        """Whether players can register now."""
        now = now or timezone.now()
        return self.closed_at is None and self.opens_at <= now < self.closes_at


def registration_person_key(first_name: str, last_name: str, email: str) -> str:
    """What tells one person registered twice (``Registration.person_key``): the name however
    typed (``doko.names.person_key``) and the address in any case, as a SHA-256, so that its
    length is bounded however long a name spells out."""
    typed = f"{person_key(first_name, last_name)}\n{email.strip().casefold()}"
    return hashlib.sha256(typed.encode("utf-8", "surrogatepass")).hexdigest()


class Registration(Named):
    """What a player sent through the public registration page: admitted (an ``Entry``, which
    then keeps their name, club and address), on the waiting list at ``waiting_position``, or
    cancelled (they left the waiting list). Its ``key`` is the player's personal link from the
    moment they register; the entry made for them takes the same key, so the link they were
    sent keeps working from the waiting list to the last round.

    A registration never makes itself a person on record (issue 44): its entry is made for a
    record of its own, and the person it names (``claimed_person``: by its DDV number, else by
    the same name and club) becomes its person only when an organiser confirms the claim at
    the desk, or the person confirms it from the address on record (``claim``)."""

    # The same person registered twice is the first name's error (where the form starts the
    # name), a DDV number confirmed twice the number's.
    constraint_fields = {
        "registration_person_once": "first_name",
        "registration_ddv_number_confirmed_once": "ddv_number",
    }

    class State(models.TextChoices):
        ADMITTED = "admitted", _("registered")
        WAITING = "waiting", _("on the waiting list")
        CANCELLED = "cancelled", _("cancelled")

    class Claim(models.TextChoices):
        # Nothing to confirm: no DDV number, and nobody on record by this name and club.
        NONE = "none", _("nothing to confirm")
        OPEN = "open", _("not confirmed")
        CONFIRMED = "confirmed", _("confirmed")
        # An organiser decided it is not the person it names: its own record stays.
        SET_ASIDE = "set_aside", _("set aside")

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="registrations",
        verbose_name=_("tournament"),
    )
    email = models.EmailField(_("e-mail address"))
    ddv_number = models.CharField(_("DDV membership number"), max_length=20, blank=True)
    state = models.CharField(_("state"), max_length=16, choices=State.choices)
    waiting_position = models.PositiveIntegerField(
        _("place on the waiting list"), null=True, blank=True
    )
    entry = models.OneToOneField(
        Entry,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="registration",
        verbose_name=_("entry"),
    )
    key = models.CharField(
        _("personal link key"), max_length=32, unique=True, default=new_link_key, editable=False
    )
    # The language the player registered in: the mails that follow (moved up) speak it.
    language = models.CharField(_("language"), max_length=16, blank=True)
    created_at = models.DateTimeField(_("registered"), auto_now_add=True)
    # The same person at the same address however typed (``registration_person_key``), kept by
    # ``save``: the database refuses the second registration (``registration_person_once``).
    person_key = models.CharField(_("person key"), max_length=64, editable=False)
    # The person on record the registration names, found when its entry was made: by its DDV
    # number, else by the same name and club; None where nobody is on record.
    claimed_person = models.ForeignKey(
        Player,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="claims",
        verbose_name=_("person named"),
    )
    claim = models.CharField(_("claim"), max_length=16, choices=Claim.choices, default=Claim.NONE)
    # Who decided the claim, and when: an organiser at the desk, or nobody (the person from
    # the address on record, or a registration bound before claims were confirmed).
    claim_decided_at = models.DateTimeField(_("claim decided"), null=True, blank=True)
    claim_decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("claim decided by"),
    )

    class Meta:
        db_table = "tournaments_registration"
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        ordering = ["tournament", "waiting_position", "created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(state__in=["admitted", "waiting", "cancelled"]),
                name="registration_state_known",
            ),
            models.CheckConstraint(
                condition=Q(state="waiting", waiting_position__isnull=False)
                | (~Q(state="waiting") & Q(waiting_position__isnull=True)),
                name="registration_waiting_has_position",
            ),
            models.CheckConstraint(
                condition=~Q(state="admitted") | Q(entry__isnull=False),
                name="registration_admitted_has_entry",
            ),
            models.CheckConstraint(
                condition=~Q(first_name="") & ~Q(last_name=""),
                name="registration_name_not_empty",
            ),
            models.CheckConstraint(
                condition=~Q(search_key=""), name="registration_search_key_filled"
            ),
            # The same person registers once, in any spelling at the same address; the
            # service says so on the name, the database holds it against two requests at once.
            models.UniqueConstraint(
                fields=["tournament", "person_key"],
                condition=~Q(state="cancelled"),
                name="registration_person_once",
                violation_error_message=_(
                    "This player is already registered for this tournament with this e-mail "
                    "address (the name in any spelling)."
                ),
                violation_error_code="duplicate",
            ),
            models.CheckConstraint(
                condition=~Q(person_key=""), name="registration_person_key_filled"
            ),
            models.CheckConstraint(
                condition=Q(claim__in=["none", "open", "confirmed", "set_aside"]),
                name="registration_claim_known",
            ),
            # A decided claim says when; an open one (or none) was decided by nobody yet.
            models.CheckConstraint(
                condition=(
                    Q(claim__in=["confirmed", "set_aside"], claim_decided_at__isnull=False)
                    | (
                        Q(claim__in=["none", "open"])
                        & Q(claim_decided_at__isnull=True, claim_decided_by__isnull=True)
                    )
                ),
                name="registration_claim_decided",
            ),
            # Two registrations may name one DDV number (the person's own is never refused for
            # another's claim); only one of them is confirmed as its person.
            models.UniqueConstraint(
                fields=["tournament", "ddv_number"],
                condition=Q(claim="confirmed") & ~Q(state="cancelled") & ~Q(ddv_number=""),
                name="registration_ddv_number_confirmed_once",
                violation_error_message=_(
                    "Another registration with this DDV membership number is confirmed already."
                ),
                violation_error_code="unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_state_display()})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        update_fields = kwargs.get("update_fields")
        if update_fields is None or {"first_name", "last_name", "email"} & set(update_fields):
            self.person_key = registration_person_key(self.first_name, self.last_name, self.email)
            if update_fields is not None:
                kwargs["update_fields"] = {*update_fields, "person_key"}
        super().save(*args, **kwargs)

    def clean(self) -> None:
        super().clean()
        # Before ``full_clean`` checks the constraints, which want the key filled.
        self.person_key = registration_person_key(self.first_name, self.last_name, self.email)
