from django import template

from scoring.models import CONTRACT_LABELS, CONTRACT_SHORT

register = template.Library()


@register.filter
def contract_label(value: str) -> str:
    """The translated name of a contract stored as its key (TSR 4)."""
    return CONTRACT_LABELS.get(value, value)


@register.filter
def contract_short(value: str) -> str:
    """The abbreviation of a contract, for narrow screens."""
    return CONTRACT_SHORT.get(value, value)
