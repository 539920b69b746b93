"""What the TSR check of a sheet says (``doko.rules.sheet.check_sheet``; TSR 7.3.3), as the API
answers it: for a sheet sent to the public rules API (``ScoresheetCheckResponse``) and for a stored
sheet's live check (``LiveCheck``, in every answer with the sheet).

One shape of a problem and one way of filling the answer in (``check_data``). Each answer keeps
the schema component named after its class, with its wording and its fields' order, so that API
clients see the same schema as before."""

from dataclasses import asdict
from typing import Any

from rest_framework import serializers

from doko.rules.sheet import PROBLEM_CODES, SheetCheck
from scoring.api.fields import seat_dict
from tournaments.messages import problems_data

CODES = ", ".join(PROBLEM_CODES) + ", and for a sheet handed in too early: incomplete"


class NextHandSerializer(serializers.Serializer):
    dealer = serializers.IntegerField(
        help_text="Who deals it (TSR 3.3.1, 4.2.5); at a table of five, when only the dealer "
        "still owes the forced solo, the next seat deals it and he plays it"
    )
    must_be_forced_solo = serializers.BooleanField(
        help_text="The compulsory solos owed equal the lines left, or the playing time is over "
        "and solos are owed (TSR 4.2.3, 8.6.1)"
    )
    forced_soloist = serializers.IntegerField(allow_null=True)
    hands_remaining = serializers.IntegerField(
        help_text="Lines still to play of the round's 24 (30), compulsory solos included; after "
        "the playing time, the forced solos still owed (TSR 8.5.1, 8.5.3)"
    )


# A serializer's docstring is its schema component's description: these say why in comments.


# One problem or warning of the TSR check, as ``messages.problems_data`` writes it: the shape the
# rules check and a stored sheet's live check share.
class SheetProblemSerializer(serializers.Serializer):
    hand = serializers.IntegerField(allow_null=True, help_text="1-based position on the sheet")
    code: serializers.Field = serializers.ChoiceField(choices=list(PROBLEM_CODES))
    rule = serializers.CharField()
    message = serializers.CharField(help_text="In the request's language")


# A problem of a stored sheet's live check: the shape of ``SheetProblemSerializer`` (a field
# declared again keeps its place), in the wording of the sheet's answers; its code may also be
# ``incomplete``, for a sheet handed in too early.
class CheckProblemSerializer(SheetProblemSerializer):
    code = serializers.CharField(help_text=f"One of {CODES}")
    rule = serializers.CharField(help_text="The TSR section, e.g. “TSR 7.3.3.1”")
    message = serializers.CharField(help_text="In the request's language (Accept-Language)")


class ScoresheetCheckResponseSerializer(serializers.Serializer):
    ok = serializers.BooleanField(help_text="No problems (warnings do not count)")
    problems = SheetProblemSerializer(many=True)
    warnings = SheetProblemSerializer(
        many=True,
        help_text="Irregular but standing: a hand dealt by another player than the TSR's that "
        "nobody complained of in time (code dealer, TSR 9.7.3); the deal goes on from him",
    )
    totals = serializers.DictField(child=serializers.IntegerField())
    compulsory_played = serializers.DictField(child=serializers.BooleanField())
    next = NextHandSerializer()
    complete = serializers.BooleanField()


class LiveCheckSerializer(serializers.Serializer):
    ok = serializers.BooleanField(help_text="No problems: the sheet may be saved as it is")
    problems = CheckProblemSerializer(many=True)
    warnings = CheckProblemSerializer(
        many=True,
        help_text="Irregular but standing, never blocking: a hand dealt by another player than "
        "the TSR's that nobody complained of in time (code dealer, TSR 9.7.3)",
    )
    next = NextHandSerializer(
        help_text="The next hand: its dealer, and whether it must be a "
        "forced solo by whom (TSR 4.2.3, 8.6.1)"
    )
    compulsory_played = serializers.DictField(child=serializers.BooleanField())
    complete = serializers.BooleanField(
        help_text="Every hand played and every compulsory solo too: the sheet may be handed in"
    )


def check_data(check: SheetCheck, *, totals: bool = True) -> dict[str, Any]:
    """The check as both answers give it, seats keyed as text; the sheet's leaves out the
    ``totals`` (``totals=False``: it gives them beside it)."""
    data = {
        "ok": check.ok,
        "problems": problems_data(check.problems),
        "warnings": problems_data(check.warnings),
        "totals": seat_dict(check.totals),
        "compulsory_played": seat_dict(check.compulsory_played),
        "next": asdict(check.next),
        "complete": check.complete,
    }
    if not totals:
        del data["totals"]
    return data
