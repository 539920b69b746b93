"""Messages kept in no language and put into words when read.

The adjudication log records what was done for everyone who reads it later, in German or in
English: so each entry keeps its message untranslated (``said``), as JSON, and the pages, the
API and the CSV export translate it for their reader (``words``). A message is the English text
(a message id of the catalogue, marked with ``gettext_noop``, or a plural one marked with
``ngettext_noop``) with its parameters; a parameter is a number or typed text (kept as it is),
another message, a list of them (joined with commas), an offence of the TSR (by its code) or a
label translated lazily (``label_said``).
"""

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext, ngettext

from doko.rules.offences import STANDARD_OFFENCE
from doko.rules.problems import Plural, Template

Said = dict[str, Any]
Param = Said | str | int | None | Sequence["Param"]


def said(text: Template, /, **params: Param) -> Said:
    """A message for later readers: ``text`` (from ``gettext_noop`` or ``ngettext_noop``, whose
    number is the parameter it names) with its parameters."""
    if isinstance(text, Plural):
        return {
            "text": text.singular,
            "plural": text.plural,
            "count": text.count,
            "params": dict(params),
        }
    return {"text": text, "params": dict(params)}


def offence_said(offence: Any) -> Param:
    """An offence of the catalogue: one the TSR names by its code, the tournament's own as
    typed."""
    return {"offence": offence.code} if offence.code else offence.name


def label_said(label: Promise) -> Said:
    """A label translated lazily (a choice's, say), by its English, which is its message id:
    this project's messages are written in English and have no English catalogue."""
    with translation.override("en"):
        return {"text": str(label), "params": {}}


def words(message: Param) -> str:
    """A message in the active language."""
    if isinstance(message, dict):
        if "offence" in message:
            standard = STANDARD_OFFENCE.get(message["offence"])
            return gettext(standard.name) if standard else str(message["offence"])
        params = _params(message.get("params", {}))
        if "plural" in message:
            text = ngettext(message["text"], message["plural"], params[message["count"]])
        else:
            text = gettext(message["text"])
        return text % params if params else text
    if isinstance(message, list | tuple):
        return ", ".join(words(item) for item in message)
    return "" if message is None else str(message)


def _params(params: Mapping[str, Param]) -> dict[str, Any]:
    # Numbers stay numbers, for %(n)d.
    return {
        name: value if isinstance(value, int) else words(value) for name, value in params.items()
    }
