"""Fields and small pieces every API of scoring that reads hands stands on (and adjudication's
above it): seats keyed by number, the kind of hand, the bounds of a sheet, and what is wrong with
the seats of one hand row (TSR 8.4.1, 10.1)."""

from collections.abc import Mapping

from django.utils.translation import gettext
from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from rest_framework import serializers

from doko.rules.contracts import Contract
from doko.rules.deal import TABLE_OF_SEVEN, playing_seats

SEATS = tuple(range(1, TABLE_OF_SEVEN + 1))  # TSR 8.4, 10
MOST_POINTS = 1000  # input bound; the check refuses more than the TSR allows (TSR 7.2)
MOST_HANDS = 120  # 30 hands at a table of five, with room for stopped hands and typing slips


def seat_dict(values: Mapping[int, object] | list) -> dict[str, object]:
    """Per seat, keyed by the seat number as a string, from a mapping or a list of seats 1..n."""
    if isinstance(values, list):
        values = dict(enumerate(values, start=1))
    return {str(seat): value for seat, value in sorted(values.items())}


def soloist_field() -> serializers.IntegerField:
    """The soloist's seat, for the rules API's hands and a sheet's."""
    return serializers.IntegerField(
        min_value=1,
        max_value=TABLE_OF_SEVEN,
        allow_null=True,
        default=None,
        help_text="Every solo and the silent wedding; a wedding whose holder took the first "
        "three tricks (settled as a solo)",
    )


class SeatsField(serializers.DictField):
    """``{"1": n, "2": n, ...}``: numbers per seat; keys are seat numbers, 1 to 7, or to the
    table's size where the serializer's context knows it (``table_size``)."""

    child = serializers.IntegerField(min_value=-MOST_POINTS, max_value=MOST_POINTS)

    def to_internal_value(self, data):
        values = super().to_internal_value(data)
        size = (
            self.context.get("table_size")
            if self.context.get("table_size") in SEATS
            else TABLE_OF_SEVEN
        )
        seats = {}
        for key, value in values.items():
            key = str(key)
            if not (key.isascii() and key.isdecimal()) or int(key) not in SEATS[:size]:
                raise serializers.ValidationError(
                    gettext("“{key}” is not a seat; seats are numbered 1 to {size}.").format(
                        key=key[:10], size=size
                    )
                )
            seats[int(key)] = value
        return seats


CONTRACTS = [contract.value for contract in Contract]


class ContractField(serializers.ChoiceField):
    """The kind of hand (TSR 2.3.3, 4): a schema component of its own, ``Contract``, since other
    endpoints name other choices ``contract`` (the game of the value API, normal or solo)."""

    def __init__(self, **kwargs):
        super().__init__(choices=CONTRACTS, **kwargs)


class ContractScheme(OpenApiSerializerFieldExtension):
    target_class = ContractField

    def get_name(self):
        return "Contract"

    def map_serializer_field(self, auto_schema, direction):
        return {"type": "string", "enum": CONTRACTS}


def hand_seat_problems(
    *, dealer: int, soloist: int | None, seats: Mapping[str, Mapping[int, int] | None], size: int
) -> dict[str, list[str]]:
    """What is wrong with the seats of one hand row at a table of ``size``, by field: a dealer,
    soloist or seat of ``seats`` (points, penalty) beyond the table, else a seat that played the
    hand without points (TSR 8.4.1, 10.1). Every API that takes hands asks here."""
    problems = {}
    if dealer > size:
        problems["dealer"] = [not_a_seat(dealer, size)]
    if soloist is not None and soloist > size:
        problems["soloist"] = [not_a_seat(soloist, size)]
    for field, values in seats.items():
        extra = sorted(seat for seat in values or {} if seat > size)
        if extra:
            problems[field] = [not_a_seat(extra[0], size)]
    if not problems:
        missing = sorted(
            set(playing_seats(dealer=dealer, table_size=size)) - set(seats["points"] or {})
        )
        if missing:
            problems["points"] = [
                gettext("Give the points of seat {seat}, who played this hand.").format(
                    seat=missing[0]
                )
            ]
    return problems


def not_a_seat(seat: int, size: int) -> str:
    """The message for a seat number beyond the table (TSR 8.4.1, 10.1)."""
    return gettext(
        "Seat {seat} is not at this table: seats are numbered 1 to {size} (TSR 8.4.1, 10.1)."
    ).format(seat=seat, size=size)
