from __future__ import annotations

import json
from typing import TYPE_CHECKING

from django import template

from scoring.models import CONTRACT_LABELS, CONTRACT_SHORT

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise  # a str or a lazy translation

register = template.Library()


@register.filter
def contract_label(value: str) -> StrOrPromise:
    """The translated name of a contract stored as its key (TSR 4)."""
    return CONTRACT_LABELS.get(value, value)


@register.simple_tag
def contract_labels_json() -> str:
    """Every contract's translated name by its key, as JSON: for the scripts that show a hand
    the server answered (static/js/offline-view.js); escaped as any tag's output."""
    return json.dumps({key: str(label) for key, label in CONTRACT_LABELS.items()})


@register.filter
def contract_short(value: str) -> StrOrPromise:
    """The abbreviation of a contract, for narrow screens."""
    return CONTRACT_SHORT.get(value, value)
