from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING

from django import template
from django.template.loader import render_to_string
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.text import Truncator
from django.utils.translation import get_language

from scoring import policies
from scoring.models import CONTRACT_LABELS, CONTRACT_SHORT
from scoring.rulings import SheetAdjudication, initials
from tournaments.permissions import roles_of

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


@register.simple_tag
def next_hand_texts() -> str:
    """The attributes that give the offline form the next hand's line in words, with its
    numbers to fill in (``partials/next_hand_texts.html``): the same on every answer in one
    language, so rendered once per language."""
    return _next_hand_texts(get_language())


@functools.cache
def _next_hand_texts(language: str | None) -> str:
    return mark_safe(render_to_string("scoring/partials/next_hand_texts.html"))  # our own template


@register.filter
def short_name(value: str) -> str:
    """A name cut to ten characters as ``truncatechars:10`` cuts it, for a sheet's column
    headings: the same few hundred names on every answer of a round, so cut once each."""
    return _short_name(str(value))


@functools.lru_cache(maxsize=4096)
def _short_name(value: str) -> str:
    return Truncator(value).chars(10)


@register.filter
def contract_short(value: str) -> StrOrPromise:
    """The abbreviation of a contract, for narrow screens."""
    return CONTRACT_SHORT.get(value, value)


@register.filter
def hand_initials(adjudication: SheetAdjudication, number: int) -> str:
    """Who initialled the penalty points of hand ``number`` (TSR 8.2.2), as on paper."""
    return ", ".join(
        initials(decision.initialled_by)
        for decision in adjudication.counting
        if decision.hand_number == number
    )


@register.simple_tag(takes_context=True)
def may_read_desk(context, round) -> bool:
    """Whether whoever reads the page may open the desk's view of ``round``
    (``policies.may_read_desk``), with his roles as the request looked them up."""
    request = context.get("request")
    if request is None or not request.user.is_authenticated:
        return False
    return policies.may_read_desk(round=round, roles=roles_of(request, round.tournament)) is None


@register.filter
def seats_where(value: Mapping[int, bool], wanted: bool) -> list[int]:
    """The seats of a seat → yes/no mapping whose answer is ``wanted``: the seats that played
    their compulsory solo, or not yet (a phone has no tooltip to tell the badges apart)."""
    return [seat for seat, answer in value.items() if bool(answer) is bool(wanted)]


@register.simple_tag
def choice_options(field, as_text: bool = False) -> str:
    """A choice field's ``<option>`` elements, the one it holds selected: as the template's
    loop over ``field.field.choices`` wrote them, with the field's value asked once rather than
    once an option (the entry row's selects, on every save's answer). ``as_text``: compared as
    text (a seat's number typed or chosen)."""
    current = field.value()
    if as_text:
        current = str(current)
    parts = []
    for value, label in field.field.choices:
        chosen = (str(value) if as_text else value) == current
        parts.append(
            f'<option value="{conditional_escape(value)}" {"selected" if chosen else ""}>'
            f"{conditional_escape(label)}</option>"
        )
    return mark_safe("".join(parts))  # every value and label escaped above
