from django import template

from scoring.models import CONTRACT_LABELS

register = template.Library()


@register.filter
def contract_label(value: str) -> str:
    """The translated name of a contract stored as its key (TSR 4)."""
    return CONTRACT_LABELS.get(value, value)
