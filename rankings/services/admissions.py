"""Writes for the keeping of the ranking lists: maintainers, and the admission of tournaments.

A tournament counts for a list only once a maintainer of the list has admitted it: its organiser
asks (``ranking_admission_request``), a maintainer who is none of its staff admits or declines
(``ranking_admission_admit``, ``ranking_admission_decline``), after checking the list's criteria
(``doko.rankings.unmet``). The results admitted are stored (``RankingAdmission.snapshot``), so
that the maintainers see what changed since; admitting again stores the new ones. Every step is
logged (``RankingLogEntry``) and rebuilds the lists after commit.
"""

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from doko import rankings
from rankings import policies, selectors
from rankings.models import RankingAdmission, RankingList, RankingLogEntry
from rankings.services.lists import ranking_schedule
from tournaments.models import Tournament
from tournaments.policies import enforce
from tournaments.selectors.tournaments import user_roles

# A reason as long as a maintainer writes one.
MOST_REASON = 2000


def _who(user: User | None) -> str:
    if user is None:
        return ""
    return user.get_full_name() or user.get_username()


def _log(
    *,
    ranking_list: RankingList,
    kind: RankingLogEntry.Kind,
    by: User,
    tournament: Tournament | None = None,
    reason: str = "",
    maintainer: str = "",
) -> RankingLogEntry:
    return RankingLogEntry.objects.create(
        ranking_list=ranking_list,
        tournament=tournament,
        tournament_name=tournament.name if tournament is not None else "",
        kind=kind,
        by=by,
        by_name=_who(by),
        at=timezone.now(),
        reason=reason,
        maintainer=maintainer,
    )


def _list_locked(ranking_list: RankingList) -> RankingList:
    """The list's row locked: its maintainers and admissions change one at a time."""
    return RankingList.objects.select_for_update().get(pk=ranking_list.pk)


# Maintainers ----------------------------------------------------------------------------------


def _account(who: str) -> User:
    """The account named by its user name or e-mail address (case aside); asked only once
    the asker may appoint, so that nobody else learns whether an account exists."""
    who = who.strip()
    if not who:
        raise ValidationError({"user": _("Name the account: its user name or e-mail address.")})
    found = list(User.objects.filter(username__iexact=who, is_active=True)[:2])
    if not found and "@" in who:
        found = list(User.objects.filter(email__iexact=who, is_active=True)[:2])
    if not found:
        raise ValidationError({"user": _("No account has this user name or e-mail address.")})
    if len(found) > 1:
        raise ValidationError(
            {"user": _("Several accounts have this e-mail address: name the user name.")}
        )
    return found[0]


@transaction.atomic
def ranking_maintainer_add(
    *, ranking_list: RankingList, who: str | User, by: User | AnonymousUser
) -> User:
    """Appoint a maintainer of the list, named by user name or e-mail address (or the
    account itself, from the administration); logged. Returns the account."""
    enforce(policies.may_change_maintainers(ranking_list=ranking_list, user=by))
    assert isinstance(by, User)
    locked = _list_locked(ranking_list)
    user = who if isinstance(who, User) else _account(who)
    if locked.maintainers.filter(pk=user.pk).exists():
        raise ValidationError(
            {"user": _("%(user)s maintains this list already.") % {"user": user.get_username()}}
        )
    locked.maintainers.add(user)
    _log(
        ranking_list=locked,
        kind=RankingLogEntry.Kind.MAINTAINER_ADDED,
        by=by,
        maintainer=user.get_username(),
    )
    return user


@transaction.atomic
def ranking_maintainer_remove(
    *, ranking_list: RankingList, user: User, by: User | AnonymousUser
) -> None:
    """Remove a maintainer (himself too); logged. A list keeps at least one maintainer once it
    has any: nobody would be left to admit a tournament or appoint another."""
    enforce(policies.may_change_maintainers(ranking_list=ranking_list, user=by))
    assert isinstance(by, User)
    locked = _list_locked(ranking_list)
    maintainers = set(locked.maintainers.values_list("pk", flat=True))
    if user.pk not in maintainers:
        raise ValidationError(
            {"user": _("%(user)s does not maintain this list.") % {"user": user.get_username()}}
        )
    if maintainers == {user.pk}:
        raise ValidationError(
            {
                "user": _(
                    "A ranking list keeps at least one maintainer: appoint another before "
                    "removing the last."
                )
            }
        )
    locked.maintainers.remove(user)
    _log(
        ranking_list=locked,
        kind=RankingLogEntry.Kind.MAINTAINER_REMOVED,
        by=by,
        maintainer=user.get_username(),
    )


# Admission ------------------------------------------------------------------------------------


@transaction.atomic
def ranking_admission_request(
    *, ranking_list: RankingList, tournament: Tournament, by: User | AnonymousUser
) -> RankingAdmission:
    """The tournament's organiser asks the list to admit it (again, after a decline or his
    withdrawal); logged. The maintainers decide once it has finished. A list of official
    tournaments only refuses a tournament not marked official at once (TSR 8.1.1)."""
    enforce(
        policies.may_request_admission(
            tournament=tournament, roles=user_roles(user=by, tournament=tournament)
        )
    )
    assert isinstance(by, User)
    locked = _list_locked(ranking_list)
    if locked.tournament_official_only and not tournament.official:
        # Known before it is played: said now rather than at the maintainers' decision.
        raise ValidationError(
            unmet_messages([rankings.Unmet(rankings.Criterion.OFFICIAL)], tournament=tournament)
        )
    admission = (
        RankingAdmission.objects.select_for_update()
        .filter(ranking_list=locked, tournament=tournament)
        .first()
    )
    if admission is not None and admission.status in {
        RankingAdmission.Status.REQUESTED,
        RankingAdmission.Status.ADMITTED,
    }:
        raise ValidationError(
            {
                "list": _("The tournament is %(status)s for this list already.")
                % {"status": admission.get_status_display()}
            }
        )
    admission = admission or RankingAdmission(ranking_list=locked, tournament=tournament)
    admission.status = RankingAdmission.Status.REQUESTED
    admission.requested_by = by
    admission.requested_at = timezone.now()
    admission.decided_by = None
    admission.decided_at = None
    admission.reason = ""
    admission.save()
    _log(ranking_list=locked, kind=RankingLogEntry.Kind.REQUESTED, by=by, tournament=tournament)
    return admission


@transaction.atomic
def ranking_admission_withdraw(
    *, admission: RankingAdmission, by: User | AnonymousUser
) -> RankingAdmission:
    """The organiser withdraws his request before it is decided; logged."""
    _list_locked(admission.ranking_list)
    admission = RankingAdmission.objects.select_related("tournament", "ranking_list").get(
        pk=admission.pk
    )
    roles = user_roles(user=by, tournament=admission.tournament)
    enforce(policies.may_withdraw_request(admission=admission, roles=roles))
    assert isinstance(by, User)
    admission.status = RankingAdmission.Status.WITHDRAWN
    admission.save(update_fields=["status"])
    _log(
        ranking_list=admission.ranking_list,
        kind=RankingLogEntry.Kind.WITHDRAWN,
        by=by,
        tournament=admission.tournament,
    )
    return admission


def _reason(reason: str, *, required: bool) -> str:
    reason = reason.strip()
    if required and not reason:
        raise ValidationError({"reason": _("Say why the tournament is declined.")})
    if len(reason) > MOST_REASON:
        raise ValidationError(
            {
                "reason": _("At most %(most)d characters, please.") % {"most": MOST_REASON},
            }
        )
    return reason


def unmet_messages(unmet: list[rankings.Unmet], *, tournament: Tournament) -> dict[str, str]:
    """Each unmet criterion's message, keyed by the criterion's field: what a 400 says."""
    messages = {}
    for problem in unmet:
        criterion, needed, actual = problem.criterion, problem.needed, problem.actual
        C = rankings.Criterion
        if criterion == C.FINISHED:
            text = _("The tournament has not finished: its last round is not closed.")
        elif criterion == C.PUBLIC:
            text = _("The tournament is not public.")
        elif criterion == C.STANDINGS_PUBLIC:
            text = _("The tournament's standings are hidden.")
        elif criterion == C.RECENT:
            text = ngettext(
                "The list counts the tournaments of the last month; this one ended before.",
                "The list counts the tournaments of the last %(months)d months; this one ended "
                "before.",
                int(needed or 0),
            ) % {"months": needed}
        elif criterion == C.PLAYERS:
            text = ngettext(
                "The list admits tournaments of at least %(needed)d active player; this one "
                "has %(actual)d.",
                "The list admits tournaments of at least %(needed)d active players; this one "
                "has %(actual)d.",
                int(needed or 0),
            ) % {"needed": needed, "actual": actual}
        elif criterion == C.ROUNDS:
            text = ngettext(
                "The list admits tournaments of at least %(needed)d round played; this one "
                "closed %(actual)d.",
                "The list admits tournaments of at least %(needed)d rounds played; this one "
                "closed %(actual)d.",
                int(needed or 0),
            ) % {"needed": needed, "actual": actual}
        elif criterion == C.OFFICIAL:
            text = _(
                "The list admits official tournaments only, played by the TSR (TSR 8.1.1); "
                "%(tournament)s is not marked official. Its organiser marks it so in its "
                "settings, before its first round begins."
            ) % {"tournament": tournament.name}
        else:
            text = _(
                "The list admits tournaments played at tables of four only (TSR 8.3.1); this "
                "one had a table of five."
            )
        messages[str(criterion)] = text
    return messages


@transaction.atomic
def ranking_admission_admit(
    *, admission: RankingAdmission, by: User | AnonymousUser, reason: str = ""
) -> RankingAdmission:
    """A maintainer admits the tournament to the list, or admits it again with the results
    changed since (a new snapshot): if it meets the list's criteria, each unmet one named
    otherwise. Logged; the lists are rebuilt after commit."""
    _list_locked(admission.ranking_list)
    admission = RankingAdmission.objects.select_related("tournament", "ranking_list").get(
        pk=admission.pk
    )
    enforce(policies.may_decide_admission(admission=admission, user=by))
    assert isinstance(by, User)
    reason = _reason(reason, required=False)
    tournament = admission.tournament
    if unmet := rankings.unmet(
        criteria=selectors.ranking_criteria(admission.ranking_list),
        facts=selectors.admission_facts(tournament=tournament),
        today=timezone.localdate(),
    ):
        raise ValidationError(unmet_messages(unmet, tournament=tournament))
    again = admission.status == RankingAdmission.Status.ADMITTED
    counted = selectors.counted_results(tournament_ids=[tournament.pk])[tournament.pk]
    admission.status = RankingAdmission.Status.ADMITTED
    admission.decided_by = by
    admission.decided_at = timezone.now()
    admission.reason = reason
    admission.snapshot = rankings.snapshot(counted)
    admission.save()
    _log(
        ranking_list=admission.ranking_list,
        kind=RankingLogEntry.Kind.READMITTED if again else RankingLogEntry.Kind.ADMITTED,
        by=by,
        tournament=tournament,
        reason=reason,
    )
    ranking_schedule()
    return admission


@transaction.atomic
def ranking_admission_decline(
    *, admission: RankingAdmission, by: User | AnonymousUser, reason: str
) -> RankingAdmission:
    """A maintainer declines a request, or takes an admitted tournament out of the list, with
    the reason (required); logged. The organiser may ask again."""
    _list_locked(admission.ranking_list)
    admission = RankingAdmission.objects.select_related("tournament", "ranking_list").get(
        pk=admission.pk
    )
    enforce(policies.may_decide_admission(admission=admission, user=by))
    assert isinstance(by, User)
    reason = _reason(reason, required=True)
    was_admitted = admission.status == RankingAdmission.Status.ADMITTED
    admission.status = RankingAdmission.Status.DECLINED
    admission.decided_by = by
    admission.decided_at = timezone.now()
    admission.reason = reason
    admission.save()
    _log(
        ranking_list=admission.ranking_list,
        kind=RankingLogEntry.Kind.DECLINED,
        by=by,
        tournament=admission.tournament,
        reason=reason,
    )
    if was_admitted:
        ranking_schedule()
    return admission
