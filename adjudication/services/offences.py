"""The tournament's catalogue of standard offences and their bound decisions (TSR 9.6.3).

An offence the TSR names is stored by its code (doko.rules.offences) and shown in the reader's
language; typing its name, in any of the site's languages, names it too. Every other offence is
the tournament's own and reads as typed."""

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from adjudication import policies
from adjudication.messages import offence_said, said
from adjudication.models import (
    Event,
    Offence,
)
from adjudication.services.common import log_event
from doko.rules.offences import STANDARD_OFFENCES, StandardOffence
from doko.rules.problems import ngettext_noop
from tournaments.models import Tournament
from tournaments.services.common import save_validated


def standard_offence_named(name: str) -> StandardOffence | None:
    """The offence of the TSR that ``name`` names, in any of the site's languages."""
    wanted = " ".join(name.split()).casefold()
    for offence in STANDARD_OFFENCES:
        names = {offence.name}
        for language, _name in settings.LANGUAGES:
            with translation.override(language):
                names.add(_(offence.name))
        if wanted in {each.casefold() for each in names}:
            return offence
    return None


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
    standard = standard_offence_named(name)
    offence.code = standard.code if standard else ""
    offence.name = standard.name if standard else name.strip()
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
    same = Q(code=offence.code) if offence.code else Q(name=offence.name)
    if Offence.objects.filter(same, tournament=tournament).exclude(pk=offence.pk).exists():
        raise ValidationError(
            {"name": _("The catalogue has “%(name)s” already.") % {"name": offence.label}}
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
        summary=said(gettext_noop("Catalogue: %(name)s"), name=offence_said(offence)),
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
            % {"name": offence.label}
        )
    log_event(
        tournament,
        by=by,
        action=Event.Action.OFFENCE,
        summary=said(gettext_noop("Catalogue: %(name)s taken out"), name=offence_said(offence)),
    )
    offence.delete()


@transaction.atomic
def offences_default(*, tournament: Tournament, by: User) -> list[Offence]:
    """Start the tournament's catalogue with the offences the TSR names (TSR 9.1, 9.6.3), each
    with this system's default outcome, not the TSR's (their annex of outcomes is not part of
    the text); those it has already are left as they are."""
    policies.enforce(policies.may_keep_catalogue(tournament=tournament, user=by))
    have = set(tournament.offences.exclude(code="").values_list("code", flat=True))
    added = [
        save_validated(
            Offence(
                tournament=tournament,
                code=standard.code,
                name=standard.name,
                rule=standard.rule,
                kind=standard.kind,
                severity=standard.severity or "",
                bound=standard.bound,
                deduction=standard.deduction,
            )
        )
        for standard in STANDARD_OFFENCES
        if standard.code not in have
    ]
    if added:
        log_event(
            tournament,
            by=by,
            action=Event.Action.OFFENCE,
            summary=said(
                ngettext_noop(
                    "Catalogue: %(count)d standard offence of the TSR added",
                    "Catalogue: %(count)d standard offences of the TSR added",
                ),
                count=len(added),
            ),
        )
    return added
