"""What of a tournament's settings can still change once play has begun: one answer for the
settings page (which shows each locked setting with its reason), the API and the service (which
refuses a locked change)."""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments import play
from tournaments.models import Round, Seat, SeatingMethod, Tournament

# Every setting an organiser sets, in the order the pages show them. Not the short name for
# links, which has a policy of its own (``policies.may_change_slug``): links and QR codes are
# printed with it.
SETTINGS = (
    "name",
    "starts_on",
    "ends_on",
    "venue",
    "official",
    "planned_rounds",
    "seating_method",
    "hands_per_match",
    "match_minutes",
    "allow_tables_of_five",
    "hands_per_match_five",
    "match_minutes_five",
    "allow_tables_of_six_and_seven",
    "springer",
    "sheet_keeping",
    "double_entry",
    "tiebreaks",
    "counts_for_ranking",
    "is_public",
    "standings_public",
    "club_ranking_players",
)


@dataclass(frozen=True)
class SettingsLocks:
    """The settings that can no longer change, each with the reason, and the fewest rounds the
    tournament can plan: the rounds that exist."""

    locked: Mapping[str, str] = field(default_factory=dict)
    rounds: int = 0

    def refusals(self, *, tournament: Tournament, changes: Mapping[str, Any]) -> dict[str, str]:
        """Why each of ``changes`` that differs from the tournament's setting cannot be made,
        by field; empty when all can."""
        problems = {}
        for name, value in changes.items():
            if getattr(tournament, name) == value:
                continue
            if name in self.locked:
                problems[name] = self.locked[name]
            elif name == "planned_rounds" and value < self.rounds:
                problems[name] = ngettext(
                    "Round %(count)d exists already: plan at least %(count)d round.",
                    "Round %(count)d exists already: plan at least %(count)d rounds.",
                    self.rounds,
                ) % {"count": self.rounds}
        return problems


def settings_locks(*, tournament: Tournament) -> SettingsLocks:
    """Which settings would break what was drawn or played if they changed now, and why; in at
    most three queries.

    - the seating draw, once a round is drawn: the draws so far followed it (TSR 8.3);
    - the planned rounds, once the tournament is finished, or once the DDV draw seated them all
      in advance; never below the rounds that exist;
    - tables of five, once a table of five is seated (they cannot be switched off under it),
      or once the tournament is finished (no round is drawn any more); tables of six and
      seven likewise, and the Springer once one is seated (his rounds are counted as his);
    - the hands per round, once a hand is written: the sheets are checked against them;
    - the playing time, while a round is being played: its clock runs by it (TSR 8.5.1, 10.1.5);
    - whether it is official, once a round has begun: its rounds were played as one or the
      other, and a ranking list of official tournaments only trusts that (TSR 8.1.1).
    """
    rounds = list(tournament.rounds.order_by("number").only("pk", "number", "status"))
    drawn = [r for r in rounds if r.status != Round.Status.PLANNED]
    playing = [r for r in rounds if r.status in {Round.Status.RUNNING, Round.Status.FINISHED}]
    begun = [r for r in rounds if r.status not in {Round.Status.PLANNED, Round.Status.SEATED}]
    finished = tournament.status == Tournament.Status.FINISHED
    locked: dict[str, str] = {}
    if finished:
        locked["planned_rounds"] = _("The tournament is finished: its last round is closed.")
    elif drawn and tournament.seating_method == SeatingMethod.DDV:
        locked["planned_rounds"] = _(
            "The DDV draw seated every planned round in advance; their number stays as drawn."
        )
    if drawn:
        locked["seating_method"] = _(
            "Round %(number)d is drawn; the seating draw stays the one it was drawn by."
        ) % {"number": drawn[0].number}
    # The tables a setting allows, once seated, keep it on: the seats that show it, and why.
    seated = {
        "allow_tables_of_five": (
            Q(position=5),
            _("A table of five is seated (TSR 10.1); tables of five stay allowed."),
        ),
        "allow_tables_of_six_and_seven": (
            Q(position=6),
            _("A table of six or seven is seated (TSR 10); they stay allowed."),
        ),
        "springer": (
            Q(second=True),
            _(
                "A Springer is seated at two tables (TSR 10); his rounds count as the mean of "
                "the two, so the Springer stays allowed."
            ),
        ),
    }
    for name, (shown, why) in seated.items():
        if finished:
            locked[name] = _("The tournament is finished; no round is drawn any more (TSR 10).")
        elif (
            drawn
            and getattr(tournament, name)
            and Seat.objects.filter(shown, round__tournament=tournament).exists()
        ):
            locked[name] = why
    if drawn and play.recorded().hands_written(rounds=drawn):
        reason = _("Hands are written already; every sheet is checked against this number.")
        locked["hands_per_match"] = locked["hands_per_match_five"] = reason
    if playing:
        reason = _(
            "Round %(number)d is being played; its clock runs by this playing time (TSR 8.5.1)."
        ) % {"number": playing[0].number}
        locked["match_minutes"] = locked["match_minutes_five"] = reason
    if begun:
        locked["official"] = (
            _(
                "Round %(number)d has begun as an official tournament's; it stays official "
                "(TSR 8.1.1)."
            )
            if tournament.official
            else _(
                "Round %(number)d has begun with the tournament's own settings; it cannot "
                "become official now (TSR 8.1.1)."
            )
        ) % {"number": begun[0].number}
    return SettingsLocks(locked=locked, rounds=len(rounds))
