"""``represented``: data made ready for JSON exactly as DRF's serializer fields make it."""

import datetime
import zoneinfo

import pytest
from django.db import models
from rest_framework import serializers

from api_base.representation import represented


class Colour(models.TextChoices):
    RED = "red", "Red"


class Size(models.IntegerChoices):
    SMALL = 1, "Small"


class Inner(serializers.Serializer):
    at = serializers.DateTimeField()
    day = serializers.DateField()


class Outer(serializers.Serializer):
    name = serializers.CharField()
    colour = serializers.CharField()
    size = serializers.IntegerField()
    flag = serializers.BooleanField()
    nothing = serializers.CharField(allow_null=True)
    inner = Inner()
    many = Inner(many=True)
    points = serializers.DictField(child=serializers.IntegerField())


BERLIN = zoneinfo.ZoneInfo("Europe/Berlin")


@pytest.mark.parametrize(
    "at",
    [
        datetime.datetime(2026, 11, 29, 5, 4, 3, 210, tzinfo=datetime.UTC),
        datetime.datetime(2026, 7, 1, 23, 59, tzinfo=BERLIN),  # summer time
    ],
)
def test_the_same_as_the_serializer_gives(at):
    data = {
        "name": "Jörg",
        "colour": Colour.RED,
        "size": Size.SMALL,
        "flag": True,
        "nothing": None,
        "inner": {"at": at, "day": at.date()},
        "many": [{"at": at, "day": at.date()}, {"at": at, "day": datetime.date(2027, 1, 1)}],
        "points": {"1": 3, "2": -3},
    }
    assert represented(data) == Outer(data).data


def test_what_has_no_json_is_refused():
    with pytest.raises(TypeError, match="no JSON representation for object"):
        represented({"x": object()})
