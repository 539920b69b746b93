"""`manage.py seating_plan`: plans for checking from outside."""

import itertools
import json
from collections import Counter

import pytest
from django.core.management import CommandError, call_command


def run(*arguments) -> str:
    from io import StringIO

    out = StringIO()
    call_command("seating_plan", *arguments, stdout=out)
    return out.getvalue()


def test_json_plan_lists_rounds_of_tables_in_seat_order():
    data = json.loads(
        run(
            "--players", "16", "--rounds", "5", "--method", "ddv", "--seed", "3", "--format", "json"
        )
    )
    assert len(data["rounds"]) == 5
    pairs = Counter()
    for round_ in data["rounds"]:
        assert sorted(p for table in round_["tables"] for p in table) == list(range(1, 17))
        for table in round_["tables"]:
            pairs.update(itertools.combinations(sorted(table), 2))
    assert max(pairs.values()) == 1
    assert data["quality"]["repeat_meetings"] == 0


@pytest.mark.parametrize("method", ["ddv", "random", "standings"])
def test_every_method_with_tables_of_five(method):
    data = json.loads(
        run(
            "--players",
            "23",
            "--rounds",
            "3",
            "--method",
            method,
            "--five-tables",
            "--format",
            "json",
        )
    )
    for round_ in data["rounds"]:
        assert sorted(len(table) for table in round_["tables"]) == [4, 4, 5, 5, 5]


def test_same_seed_same_plan():
    arguments = ("--players", "40", "--rounds", "4", "--seed", "9", "--format", "json")
    assert run(*arguments) == run(*arguments)


def test_text_format_shows_the_quality_report():
    text = run("--players", "8", "--rounds", "2")
    assert "table   1" in text
    assert "repeat_meetings" in text


def test_impossible_numbers_say_what_is_missing():
    with pytest.raises(CommandError, match="2 more or 2 fewer"):
        run("--players", "10")
