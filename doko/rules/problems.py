"""How the rules core reports what is wrong, in words a translator can reach.

Messages are English templates with ``{placeholders}``; ``gettext_noop`` marks them for the
translation catalogue (``makemessages`` finds it by name) and the Django layer translates them
when it shows them (``scoring.messages``). The core itself stays free of Django.
"""

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


def gettext_noop(message: str) -> str:
    """Marks a message for extraction into the translation catalogue; translated later."""
    return message


@dataclass(frozen=True)
class FieldError:
    """One inconsistent input: which field, which rule it breaks, and why."""

    field: str
    rule: str
    template: str
    params: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    @property
    def message(self) -> str:
        return self.template.format(**self.params)


class InvalidInput(ValueError):
    """The input cannot describe a hand played by the TSR; ``errors`` lists every reason."""

    def __init__(self, errors: list[FieldError]):
        self.errors = tuple(errors)
        super().__init__("; ".join(f"{error.field}: {error.message}" for error in self.errors))
