"""Translating the rules core's problems into the reader's language."""

from django.utils.translation import gettext

from scoring.rules.sheet import Problem


def problem_message(problem: Problem) -> str:
    """The problem in the active language, with the TSR section it rests on."""
    return f"{gettext(problem.template).format(**problem.params)} ({problem.rule})"
