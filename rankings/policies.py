"""Who may keep the ranking lists: their maintainers admit tournaments and appoint each other;
the tournament's organiser asks (the shape of an answer: ``tournaments.policies.Refusal``)."""

from collections.abc import Collection

from django.contrib.auth.models import AnonymousUser, User
from django.utils.translation import gettext as _

from doko.four_eyes import Account, Deed, Done, Step, disqualifying
from rankings.models import RankingAdmission, RankingList
from tournaments.models import Tournament
from tournaments.policies import Refusal
from tournaments.roles import ORGANISER
from tournaments.roles_history import held_roles

# Ranking lists: their maintainers admit tournaments and appoint each other; the tournament's
# organiser asks. Nobody decides on a tournament he runs: a list counts nothing that only one
# person vouched for.

# Who may appoint a list's maintainers in the administration besides them: whoever may change
# ranking lists there (an administrator; superusers hold it).
CHANGE_RANKING_LIST_PERMISSION = "rankings.change_rankinglist"


def maintains(*, ranking_list: RankingList, user: User | AnonymousUser) -> bool:
    """Whether the user is one of the list's maintainers (a superuser only if appointed)."""
    if not user.is_authenticated:
        return False
    known = getattr(ranking_list, "maintainer_ids", None)  # read with the list (selectors)
    if known is not None:
        return user.pk in known
    return ranking_list.maintainers.filter(pk=user.pk).exists()


def may_change_maintainers(
    *, ranking_list: RankingList, user: User | AnonymousUser
) -> Refusal | None:
    """Appoint or remove a list's maintainers: its maintainers, and in the administration
    whoever may change ranking lists there (the first maintainers come from there)."""
    if maintains(ranking_list=ranking_list, user=user):
        return None
    if user.is_authenticated and user.has_perm(CHANGE_RANKING_LIST_PERMISSION):
        return None
    return Refusal(
        _(
            "Only a maintainer of this ranking list appoints or removes its maintainers; an "
            "administrator appoints the first."
        )
    )


def may_read_admission_requests(
    *, ranking_list: RankingList, user: User | AnonymousUser
) -> Refusal | None:
    """Read a list's pending requests, the changes since admission and the whole log: its
    maintainers, who decide on them."""
    if maintains(ranking_list=ranking_list, user=user):
        return None
    return Refusal(_("Only the maintainers of this ranking list read its pending requests."))


def may_request_admission(*, tournament: Tournament, roles: Collection[str]) -> Refusal | None:
    """Ask a ranking list to admit the tournament, or withdraw the request: its organisers."""
    if set(roles) & ORGANISER:
        return None
    return Refusal(_("Only an organiser of the tournament asks a ranking list to admit it."))


def may_withdraw_request(*, admission: RankingAdmission, roles: Collection[str]) -> Refusal | None:
    """Withdraw a request not yet decided: the tournament's organisers, who made it."""
    if refusal := may_request_admission(tournament=admission.tournament, roles=roles):
        return refusal
    if admission.status != RankingAdmission.Status.REQUESTED:
        return Refusal(
            _("Only a request not yet decided is withdrawn; this one is %(status)s.")
            % {"status": admission.get_status_display()},
            field="status",
        )
    return None


def may_decide_admission(
    *,
    admission: RankingAdmission,
    user: User | AnonymousUser,
    held_role: bool | None = None,
) -> Refusal | None:
    """Admit a tournament to a ranking list (again, with its changed results), or decline it:
    a maintainer of the list who is a second person to the tournament (``doko.four_eyes``,
    ``Step.ADMIT``): he never held a role in it, a role taken away since included, a
    superuser's implied roles aside, and did not ask himself. Requested or admitted only.
    ``held_role``: whether the user holds or held a role in the tournament, if read already (a
    page of many admissions); else it is read here."""
    if not maintains(ranking_list=admission.ranking_list, user=user):
        return Refusal(
            _("Only a maintainer of the ranking list “%(list)s” admits or declines tournaments.")
            % {"list": admission.ranking_list.name}
        )
    if held_role is None:
        held_role = bool(held_roles(tournament_ids=[admission.tournament_id], user_id=user.pk))
    record = (
        [Done(Deed.ASKED, Account(admission.requested_by_id))] if admission.requested_by_id else []
    )
    if held_role and user.pk is not None:
        record.append(Done(Deed.HELD_ROLE, Account(user.pk)))
    deeds = disqualifying(step=Step.ADMIT, record=record, actor={Account(user.pk or 0)})
    if Deed.HELD_ROLE in deeds:
        return Refusal(
            _(
                "You are or were on the staff of this tournament (a role taken away still "
                "counts): another maintainer of the list decides."
            )
        )
    if Deed.ASKED in deeds:
        return Refusal(
            _("You asked for this admission yourself: another maintainer of the list decides.")
        )
    if admission.status not in {
        RankingAdmission.Status.REQUESTED,
        RankingAdmission.Status.ADMITTED,
    }:
        return Refusal(
            _(
                "Only a pending request or an admitted tournament is decided; this one is %(status)s."
            )
            % {"status": admission.get_status_display()},
            field="status",
        )
    return None
