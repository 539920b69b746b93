"""The one place that puts the rules core's messages into the reader's language (its problems
and field errors, each with the TSR section it rests on), and the messages about the seating
that the services raise and the pages show alike.

The core (``doko.rules``) writes its messages as English templates with ``{placeholders}``,
marked for the catalogue (``doko.rules.problems``); every app below which a page or the API
shows them asks here, the lowest app, so that they read the same everywhere."""

from collections.abc import Iterable, Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from doko import seating, team_seating
from doko.rules.problems import RULE, FieldError, Plural, Template
from doko.rules.sheet import Problem


def translated(template: Template, params: Mapping[str, Any]) -> str:
    """A core message in the active language, in the form its number asks for."""
    if isinstance(template, Plural):
        text = ngettext(template.singular, template.plural, params[template.count])
    else:
        text = _(template)
    return text.format(**params)


def rule_message(template: Template, params: Mapping[str, Any], rule: str) -> str:
    """A core message in the active language, with the TSR section it rests on: where the
    message names its place (``{rule}``), there; else after it, in brackets. A problem of
    the input alone (a number out of range) has no section."""
    text = translated(template, {**params, RULE: rule})
    named = template.singular if isinstance(template, Plural) else template
    return text if not rule or "{" + RULE + "}" in named else f"{text} ({rule})"


def problem_message(problem: Problem) -> str:
    """A problem of the sheet's check (``doko.rules.sheet``), in the reader's language."""
    return rule_message(problem.template, problem.params, problem.rule)


def problems_data(problems: Iterable[Problem]) -> list[dict]:
    """What the TSR check found, as the API returns it: one entry per problem, with its hand,
    code, rule and message in the active language."""
    return [
        {
            "hand": problem.hand,
            "code": problem.code,
            "rule": problem.rule,
            "message": problem_message(problem),
        }
        for problem in problems
    ]


def require_valid(problems: Iterable[FieldError | None]) -> None:
    """The core's problems (None for none) as one ValidationError keyed by field, translated,
    each with its TSR section; nothing if there are none."""
    found = [problem for problem in problems if problem is not None]
    if found:
        raise ValidationError(field_errors(found))


def field_errors(errors: Iterable[FieldError]) -> dict[str, list[str]]:
    """The core's input errors keyed by field, in the reader's language, each with the TSR
    section it rests on: as forms, services and serializers report them."""
    by_field: dict[str, list[str]] = {}
    for error in errors:
        by_field.setdefault(error.field, []).append(
            rule_message(error.template, error.params, error.rule)
        )
    return by_field


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
