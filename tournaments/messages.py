"""Messages about the seating, and the rules core's settings errors, that the services raise and
the pages show alike."""

from collections.abc import Iterable, Mapping

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from doko import seating, team_seating
from doko.rules.problems import FieldError, Plural


def fives_would_seat(players: int) -> bool:
    """Would tables of five (TSR 10) seat this many players where tables of four do not?"""
    try:
        seating.table_sizes(players, tables_of_five=True)
    except seating.SeatingError:
        return False
    return True


def large_tables_would_seat(players: int) -> bool:
    """Would tables of five, six and seven (TSR 10) seat this many players?"""
    try:
        seating.table_sizes(players, tables_of_five=True, large_tables=True)
    except seating.SeatingError:
        return False
    return True


def seating_error_message(error: seating.SeatingError, *, official: bool = False) -> str:
    """Why the active players cannot be seated, with the numbers and what to do: register
    more or withdraw some, or, at tables of four only (TSR 8.3.1), allow tables of five
    (TSR 10) where that would seat them, or else, but for an ``official`` tournament (TSR
    8.3.1), tables of six and seven."""
    if error.tables_of_five:
        problem = ngettext(
            "%(players)d active player cannot be seated at tables of four and five "
            "(TSR 8.3.1, 10.1)",
            "%(players)d active players cannot be seated at tables of four and five "
            "(TSR 8.3.1, 10.1)",
            error.players,
        ) % {"players": error.players}
    else:
        problem = ngettext(
            "%(players)d active player does not divide into tables of four (TSR 8.3.1)",
            "%(players)d active players do not divide into tables of four (TSR 8.3.1)",
            error.players,
        ) % {"players": error.players}
    parts = {
        "problem": problem,
        "register": ngettext("register %(count)d more", "register %(count)d more", error.missing)
        % {"count": error.missing},
    }
    if error.extra:
        parts["withdraw"] = ngettext("withdraw %(count)d", "withdraw %(count)d", error.extra) % {
            "count": error.extra
        }
    if not error.tables_of_five and fives_would_seat(error.players):
        parts["fives"] = _("allow tables of five (TSR 10)")
        if error.extra:
            return _("%(problem)s: %(register)s or %(withdraw)s, or %(fives)s.") % parts
        return _("%(problem)s: %(register)s, or %(fives)s.") % parts
    if not official and not error.large_tables and large_tables_would_seat(error.players):
        # A club evening of 6, 7 or 11 (TSR 10); never an official tournament (TSR 8.3.1).
        parts["large"] = _("allow tables of six and seven (TSR 10)")
        if error.extra:
            return _("%(problem)s: %(register)s or %(withdraw)s, or %(large)s.") % parts
        return _("%(problem)s: %(register)s, or %(large)s.") % parts
    if error.extra:
        return _("%(problem)s: %(register)s or %(withdraw)s.") % parts
    return _("%(problem)s: %(register)s.") % parts


def team_seating_error_message(
    error: team_seating.TeamSeatingError, *, names: Mapping[int, str]
) -> str:
    """Why a team match day's line-ups cannot be seated with four different teams at every
    table, naming the team (``names``: team id to name) and what to do."""
    team = names.get(error.team or 0, "")
    if error.reason == "too_few_teams":
        return _(
            "A group needs at least four teams: every table seats one player of each of four "
            "different teams. Put more teams into the group."
        )
    if error.reason == "empty_team":
        return _("%(team)s has nobody in its line-up: name its players first.") % {"team": team}
    if error.reason == "player_twice":
        return _("A player is named in two line-ups or twice in one: each plays one place.")
    return ngettext(
        "%(team)s has %(players)d players in its line-up but the group plays at %(tables)d "
        "table: team-mates would share a table.",
        "%(team)s has %(players)d players in its line-up but the group plays at %(tables)d "
        "tables: team-mates would share a table.",
        error.tables,
    ) % {"team": team, "players": error.players, "tables": error.tables}


def field_errors(errors: Iterable[FieldError]) -> dict[str, list[str]]:
    """The rules core's errors in a tournament's settings (``doko.rules.official``) keyed by
    field, in the reader's language, each with the TSR section it rests on."""
    by_field: dict[str, list[str]] = {}
    for error in errors:
        template = error.template
        if isinstance(template, Plural):
            text = ngettext(template.singular, template.plural, error.params[template.count])
        else:
            text = _(template)
        by_field.setdefault(error.field, []).append(f"{text.format(**error.params)} ({error.rule})")
    return by_field
