"""Translating the rules core's messages into the reader's language."""

from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.translation import gettext, ngettext

from doko.rules.problems import FieldError, Plural, Template
from doko.rules.sheet import Problem


def translated(template: Template, params: Mapping[str, Any]) -> str:
    """A core message in the active language, in the form its number asks for."""
    if isinstance(template, Plural):
        text = ngettext(template.singular, template.plural, params[template.count])
    else:
        text = gettext(template)
    return text.format(**params)


def rule_message(template: Template, params: Mapping[str, Any], rule: str) -> str:
    """A core message in the active language, with the TSR section it rests on."""
    return f"{translated(template, params)} ({rule})"


def problem_message(problem: Problem) -> str:
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


def field_errors(errors: tuple[FieldError, ...]) -> dict[str, list[str]]:
    """The core's input errors keyed by field, as forms and serializers report them."""
    by_field: dict[str, list[str]] = {}
    for error in errors:
        by_field.setdefault(error.field, []).append(
            rule_message(error.template, error.params, error.rule)
        )
    return by_field
