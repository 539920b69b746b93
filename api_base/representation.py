"""An answer's data made ready for JSON as DRF's serializer fields represent it, without running
a serializer over it: for answers built as plain dicts whose serializer only documents them
(the schema), where running it cost more than building the data (a scoresheet's 24 hands: 1.4
ms against 0.2). A test of each such answer compares the two (``represented``)."""

import datetime
import enum
from typing import Any

from rest_framework import serializers

_DATE_TIME = serializers.DateTimeField()
_DATE = serializers.DateField()


def represented(value: Any) -> Any:
    """``value`` as DRF's fields give it: times in the current time zone as ISO 8601 text (as
    ``DateTimeField``), dates as ISO text, enumerations as their values, containers through."""
    if value is None or type(value) in (str, int, bool, float):
        return value
    if isinstance(value, dict):
        return {key: represented(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [represented(item) for item in value]
    if isinstance(value, datetime.datetime):
        return _DATE_TIME.to_representation(value)
    if isinstance(value, datetime.date):
        return _DATE.to_representation(value)
    if isinstance(value, enum.Enum) and isinstance(value, str):
        return str(value.value)
    if isinstance(value, enum.Enum) and isinstance(value, int):
        return int(value.value)
    if isinstance(value, str):
        return str(value)
    if isinstance(value, int):
        return int(value)
    raise TypeError(f"no JSON representation for {type(value).__name__}")
