"""How a breach is judged (TSR 9.2-9.5), as the adjudicator rules on a complaint and as the
arbitration panel rules anew when it changes a decision on appeal: the penalty points follow by the
TSR, or deviate from them with a written reason.
"""

from rest_framework import serializers

from adjudication import services
from adjudication.api.common import MOST_TEXT, SEVERITIES, SOLO_TYPES
from doko.rules.contracts import Contract
from doko.rules.deal import TABLE_OF_SEVEN
from doko.rules.penalty import MOST_ANNOUNCEMENTS
from doko.rules.procedure import WrittenLine
from scoring.api.fields import ContractField, SeatsField


class RulingSerializer(serializers.Serializer):
    """How a breach is judged; the penalty points follow by the TSR (TSR 9.2-9.5)."""

    severity = serializers.ChoiceField(
        choices=SEVERITIES, help_text="insignificant (TSR 9.2), minor (9.3) or major (9.4)"
    )
    contract = ContractField(
        default=Contract.NORMAL.value, help_text="As the hand stood when the breach happened"
    )
    soloist = serializers.IntegerField(
        min_value=1, max_value=TABLE_OF_SEVEN, allow_null=True, default=None
    )
    solo_type = serializers.ChoiceField(choices=SOLO_TYPES, allow_null=True, default=None)
    disadvantages_soloist = serializers.BooleanField(
        default=False, help_text="A minor breach that may disadvantage the soloist (TSR 9.3.3 b1)"
    )
    announcements = serializers.IntegerField(
        min_value=0,
        max_value=MOST_ANNOUNCEMENTS,
        default=0,
        help_text="Made by the other side up to the breach (TSR 9.4.3)",
    )
    decided = serializers.BooleanField(
        default=False, help_text="The game was already won after the announcements (TSR 9.5.1)"
    )
    wedding_clarified_as_solo = serializers.BooleanField(
        default=False,
        help_text="For contract `wedding` or `silent_wedding`: the wedding was already being "
        "played as a solo when the breach happened (an announced wedding after its "
        "clarification trick, the holder having taken the first three tricks, TSR 4.4.3 b; a "
        "silent wedding once the second Queen of Clubs was played, TSR 4.4.5), so it is "
        "penalised as a solo with the holder of both Queens of Clubs as `soloist`; before "
        "that, as a normal game. A silent wedding always names its holder as `soloist`.",
    )
    penalty = SeatsField(
        allow_null=True,
        default=None,
        help_text='Penalty points per seat, where they deviate from the TSR\'s: {"1": 3, '
        '"2": -3, "3": 0, "4": 0}; with a deviation_reason',
    )
    deviation_reason = serializers.CharField(max_length=MOST_TEXT, allow_blank=True, default="")
    written_line = serializers.ChoiceField(
        choices=[line.value for line in WrittenLine],
        allow_null=True,
        default=None,
        help_text="Only for a ruling that stops the hand (TSR 9.4.3) or counts a solo as "
        "played without game points (TSR 9.4.4) on a hand whose line is already written, and "
        "then required: `stopped`, that line is the stopped game itself (its line is replaced: "
        'by the line "not played", the replay following; or by the solo without game points); '
        "`next`, that line is the game dealt after it (the stopped game's line goes in before "
        "it). Missing when needed, or given for a hand not written yet: 400.",
    )

    @staticmethod
    def ruling(data: dict) -> services.Ruling:
        return services.Ruling.from_values(data, penalty=data["penalty"])


RULING_FIELDS = frozenset(RulingSerializer().fields)
