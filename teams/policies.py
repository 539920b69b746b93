"""Who may do what with a team competition, answered once per action (``Refusal`` and
``enforce`` are the tournaments app's, one shape for every app)."""

from collections.abc import Sequence

from django.contrib.auth.models import AnonymousUser, User
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from teams.models import Competition, MatchDay, OrganiserOffer
from tournaments.policies import Refusal, may_create_tournament


def may_create_competition(*, user: User | AnonymousUser) -> Refusal | None:
    """Create a league season or a team championship (and become its organiser): whoever may
    create tournaments, as its match days are tournaments."""
    refusal = may_create_tournament(user=user)
    if refusal is None:
        return None
    return Refusal(
        _(
            "Only organisers create team competitions; an administrator adds you to the "
            "“Organisers” group."
        )
    )


def organises(*, competition: Competition, user: User | AnonymousUser) -> bool:
    """Whether the user is one of the competition's organisers (or the site's superuser)."""
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    # Asked once per competition as loaded and user (a page asks it for every match day).
    asked = competition.__dict__.setdefault("_organised_by", {})
    if user.pk not in asked:
        asked[user.pk] = competition.organisers.filter(pk=user.pk).exists()
    return asked[user.pk]


def may_manage_competition(
    *, competition: Competition, user: User | AnonymousUser
) -> Refusal | None:
    """Change a competition: its settings, teams and players, match days, groups, line-ups and
    the decisions of knock-out ties. Its organisers only: another club's organiser cannot."""
    if organises(competition=competition, user=user):
        return None
    return Refusal(
        _(
            "Only the organisers of “%(competition)s” change it; ask one of them to add you as "
            "an organiser."
        )
        % {"competition": competition.name}
    )


def may_delete_match_day(
    *, match_day: MatchDay, user: User | AnonymousUser, drawn: Sequence[int]
) -> Refusal | None:
    """Delete a match day with its tournament, groups and line-ups (one made by mistake, or
    for a group that cannot play): whoever may create it, the competition's organisers
    (``may_manage_competition``, which ``services.match_day_create`` asks too), until a round
    of it is drawn (``drawn``: the numbers of those that are)."""
    if refusal := may_manage_competition(competition=match_day.competition, user=user):
        return refusal
    if drawn:
        return Refusal(
            ngettext(
                "Round %(rounds)s of match day %(number)d is drawn: a match day is deleted "
                "only until its first round is drawn. An organiser undoes the draw on the "
                "round's page while it has not started.",
                "Rounds %(rounds)s of match day %(number)d are drawn: a match day is deleted "
                "only until its first round is drawn. An organiser undoes the draws on the "
                "rounds' pages while they have not started.",
                len(drawn),
            )
            % {"rounds": ", ".join(map(str, drawn)), "number": match_day.number},
            field="match_day",
        )
    return None


def may_change_season_plan(
    *,
    competition: Competition,
    user: User | AnonymousUser,
    made: Sequence[int],
    match_day: int | None = None,
) -> Refusal | None:
    """Draw a league's season plan (again), or, with ``match_day``, swap two teams between
    groups of that planned match day: the competition's organisers (``may_manage_competition``).
    The plan is drawn before the first match day is made, and a planned match day changes until
    it is made: then its groups are the match day's own (``made``: the numbers of the
    competition's match days)."""
    if refusal := may_manage_competition(competition=competition, user=user):
        return refusal
    if match_day is None and made:
        return Refusal(
            ngettext(
                "Match day %(numbers)s is made already: a season plan is drawn before the "
                "first match day. Swap teams of a match day not made yet instead, or delete "
                "the match days while no round of theirs is drawn.",
                "Match days %(numbers)s are made already: a season plan is drawn before the "
                "first match day. Swap teams of a match day not made yet instead, or delete "
                "the match days while no round of theirs is drawn.",
                len(made),
            )
            % {"numbers": ", ".join(map(str, made))},
            field="plan",
        )
    if match_day is not None and match_day in made:
        return Refusal(
            _(
                "Match day %(number)d is made already: its groups are its own now and the plan "
                "no longer changes them. An organiser of the competition can delete the match "
                "day while none of its rounds is drawn, and then swap teams in the plan."
            )
            % {"number": match_day},
            field="match_day",
        )
    return None


def may_read_competition(*, competition: Competition, user: User | AnonymousUser) -> Refusal | None:
    """Read a competition's teams, match days, tables and season table: anyone while it is
    public; its organisers always."""
    if competition.is_public or organises(competition=competition, user=user):
        return None
    return Refusal(_("This team competition is not public; only its organisers see it."))


def _offer_ask(offer: OrganiserOffer) -> dict[str, str]:
    by = offer.offered_by
    return {"by": by.get_full_name() or by.get_username(), "competition": offer.competition.name}


def may_answer_organiser_offer(
    *, offer: OrganiserOffer, user: User | AnonymousUser
) -> Refusal | None:
    """Accept or decline an offer to organise a competition, while it is open: only the account
    it was offered to, logged in."""
    if not user.is_authenticated or offer.user_id is None or offer.user_id != user.pk:
        return Refusal(
            _(
                "This offer is for another account: log in as the account it was offered to, "
                "or ask %(by)s, who organises %(competition)s."
            )
            % _offer_ask(offer)
        )
    if offer.accepted_at is not None:
        return Refusal(
            _("This offer has been accepted already: you organise %(competition)s.")
            % _offer_ask(offer),
            field="offer",
        )
    if offer.declined_at is not None or offer.withdrawn_at is not None:
        return Refusal(
            _(
                "This offer has been declined or withdrawn. Ask %(by)s, who organises "
                "%(competition)s, to offer it again."
            )
            % _offer_ask(offer),
            field="offer",
        )
    if offer.expires_at <= timezone.now():
        return Refusal(
            _(
                "This offer has run out. Ask %(by)s, who organises %(competition)s, to offer it "
                "again."
            )
            % _offer_ask(offer),
            field="offer",
        )
    return None


def may_withdraw_organiser_offer(
    *, offer: OrganiserOffer, user: User | AnonymousUser
) -> Refusal | None:
    """Withdraw an offer to organise a competition not yet answered: its organisers."""
    if refusal := may_manage_competition(competition=offer.competition, user=user):
        return refusal
    if offer.answered:
        return Refusal(
            _("This offer has been accepted, declined or withdrawn already."), field="offer"
        )
    return None
