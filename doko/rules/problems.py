"""How the rules core reports what is wrong, in words a translator can reach.

Messages are English templates with ``{placeholders}``; ``gettext_noop`` marks them for the
translation catalogue (``makemessages`` finds it by name) and the Django layer translates them
when it shows them (``tournaments.messages``), with the TSR section it rests on: after the
message in brackets, or where the message names it, ``{rule}``. A message with a number of things in it is a
``Plural`` (``ngettext_noop``), whose form the Django layer picks by that number in the reader's
language (``tournaments/management/commands/makemessages.py`` teaches the extraction its name).
The core itself stays free of Django.
"""

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


def gettext_noop(message: str) -> str:
    """Marks a message for extraction into the translation catalogue; translated later."""
    return message


@dataclass(frozen=True)
class Plural:
    """A message whose words follow a number: its English singular and plural, and the
    placeholder that holds the number."""

    singular: str
    plural: str
    count: str

    def format(self, **params: Any) -> str:
        """The English message, in the form the number asks for."""
        return (self.singular if params[self.count] == 1 else self.plural).format(**params)


def ngettext_noop(singular: str, plural: str, *, count: str = "count") -> Plural:
    """Marks a plural message for the translation catalogue; its form is picked later, by the
    number in the placeholder ``count``."""
    return Plural(singular, plural, count)


# What a message is: one text, or a text whose words follow a number.
Template = str | Plural

# The placeholder a message may name its TSR section with, to place it inside the sentence.
RULE = "rule"


def with_rule(template: Template, params: Mapping[str, Any], rule: str) -> str:
    """The English message, its ``{rule}`` (if it names one) the TSR section."""
    return template.format(**{**params, RULE: rule})


@dataclass(frozen=True)
class FieldError:
    """One inconsistent input: which field, which rule it breaks, and why. A problem of the
    input alone, no rule of the TSR (a number out of range), has the rule ``""``."""

    field: str
    rule: str
    template: Template
    params: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    @property
    def message(self) -> str:
        return with_rule(self.template, self.params, self.rule)


class InvalidInput(ValueError):
    """The input cannot describe a hand played by the TSR; ``errors`` lists every reason."""

    def __init__(self, errors: list[FieldError]):
        self.errors = tuple(errors)
        super().__init__("; ".join(f"{error.field}: {error.message}" for error in self.errors))
