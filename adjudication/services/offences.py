"""The tournament's catalogue of standard offences and their bound decisions (TSR 9.6.3)."""

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from adjudication import policies
from adjudication.models import (
    Event,
    Offence,
)
from adjudication.services.common import log_event, save_validated
from doko.rules.penalty import Severity
from tournaments.models import Tournament


def require_offence_of(offence: Offence, tournament: Tournament) -> None:
    if offence.tournament_id != tournament.pk:
        raise ValidationError({"offence": _("The offence is not in this tournament's catalogue.")})


@transaction.atomic
def offence_save(
    *,
    tournament: Tournament,
    name: str,
    kind: Offence.Kind,
    severity: str = "",
    rule: str = "",
    bound: bool = False,
    deduction: int | None = None,
    offence: Offence | None = None,
    by: User,
) -> Offence:
    """Add a standard offence to the tournament's catalogue, or change one (``offence``)."""
    policies.enforce(policies.may_keep_catalogue(tournament=tournament, user=by))
    if offence is None:
        offence = Offence(tournament=tournament)
    else:
        offence = Offence.objects.select_for_update().get(pk=offence.pk)
        require_offence_of(offence, tournament)
    offence.name = name.strip()
    offence.kind = kind
    offence.severity = severity if kind == Offence.Kind.BREACH else ""
    offence.rule = rule.strip()
    offence.bound = bound and kind == Offence.Kind.UNSPORTING
    offence.deduction = deduction if offence.bound else None
    if kind == Offence.Kind.BREACH and not offence.severity:
        raise ValidationError(
            {
                "severity": _(
                    "A breach of the rules has a severity: the one usually ruled (TSR 9.2-9.4)."
                )
            }
        )
    if (
        Offence.objects.filter(tournament=tournament, name=offence.name)
        .exclude(pk=offence.pk)
        .exists()
    ):
        raise ValidationError(
            {"name": _("The catalogue has “%(name)s” already.") % {"name": offence.name}}
        )
    if offence.bound and deduction is None:
        raise ValidationError(
            {
                "deduction": _(
                    "A bound decision says how many points it deducts: 0 (a warning) to 12."
                )
            }
        )
    save_validated(offence)
    log_event(
        tournament,
        by=by,
        action=Event.Action.OFFENCE,
        summary=_("Catalogue: %(name)s") % {"name": offence.name},
        offence=offence.pk,
    )
    return offence


@transaction.atomic
def offence_delete(*, offence: Offence, by: User) -> None:
    """Take an offence out of the catalogue; one that decisions or sanctions name stays."""
    tournament = offence.tournament
    policies.enforce(policies.may_keep_catalogue(tournament=tournament, user=by))
    if offence.decisions.exists() or offence.sanctions.exists():
        raise ValidationError(
            _("“%(name)s” is named in decisions already and stays in the catalogue.")
            % {"name": offence.name}
        )
    log_event(
        tournament,
        by=by,
        action=Event.Action.OFFENCE,
        summary=_("Catalogue: %(name)s taken out") % {"name": offence.name},
    )
    offence.delete()


# The defaults: what the TSR itself names; each tournament edits its own (TSR 9.1.7, 9.6.3).
DEFAULT_OFFENCES = [
    # name, rule, kind, severity, bound, deduction
    (gettext_noop("Not following suit"), "TSR 5.2.2", "breach", Severity.MAJOR, False, None),
    (
        gettext_noop("Leading out of turn"),
        "TSR 5.1.1, 5.3.4",
        "breach",
        Severity.MINOR,
        False,
        None,
    ),
    (gettext_noop("Counting trumps or card points aloud"), "TSR 9.1.4", "unsporting", "", True, 0),
    (
        gettext_noop("Gestures or remarks that reveal cards or influence the game"),
        "TSR 9.1.5",
        "unsporting",
        "",
        False,
        None,
    ),
    (
        gettext_noop("Encouraging a player to break the rules"),
        "TSR 9.1.6",
        "unsporting",
        "",
        False,
        None,
    ),
    (
        gettext_noop("Hand abandoned without the adjudicator's consent"),
        "TSR 9.1.3 (2)",
        "unsporting",
        "",
        False,
        None,
    ),
]


@transaction.atomic
def offences_default(*, tournament: Tournament, by: User) -> list[Offence]:
    """Start the tournament's catalogue with the offences the TSR names, in the language of
    the request; those it has already (by name) are left as they are."""
    policies.enforce(policies.may_keep_catalogue(tournament=tournament, user=by))
    have = set(tournament.offences.values_list("name", flat=True))
    added = [
        save_validated(
            Offence(
                tournament=tournament,
                name=_(name),
                rule=rule,
                kind=kind,
                severity=severity,
                bound=bound,
                deduction=deduction,
            )
        )
        for name, rule, kind, severity, bound, deduction in DEFAULT_OFFENCES
        if _(name) not in have
    ]
    if added:
        log_event(
            tournament,
            by=by,
            action=Event.Action.OFFENCE,
            summary=ngettext(
                "Catalogue: %(count)d standard offence of the TSR added",
                "Catalogue: %(count)d standard offences of the TSR added",
                len(added),
            )
            % {"count": len(added)},
        )
    return added
