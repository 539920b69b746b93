"""When a table's playing time ends (TSR 8.5.1, 10.1.5).

TSR 8.5.1: „Die reine Spielzeit beträgt für alle Tische gleichermaßen 100 Minuten", counted
from the official start („Freigabe durch den Schiedsrichter … für alle Tische gleichzeitig");
„Das Ende der Spielrunde wird durch den Schiedsrichter bekanntgegeben", and a table with extra
time noted on its sheet plays on for it („verlängert sich die offizielle Spielzeit dieses Tisches
um die dort angegebene Nachspielzeit"). TSR 10.1.5: a round at a table of five „ist nach einer
reinen Spielzeit von 125 Minuten zu beenden".

Our reading of „reine Spielzeit" (net playing time): the time from the official start, less the
time a table stood still. The TSR knows no pause of the whole round; a table that stood still
(a complaint, an appeal) gets that time back as its extra time (Nachspielzeit, TSR 8.5.1), so
net playing time is the clock since the start, and extra time comes on top. Hence:

- a table of four plays until the adjudicator announces the end, plus its extra time;
- a table of five plays its 125 minutes from the start plus its extra time, or until the
  announcement plus its extra time if the end is announced later than that: a five never stops
  before a four with the same extra time, and an end announced late gives it no more than a
  four gets.

Before the announcement the clock counts to the start plus the tournament's minutes (100, at a
table of five 125), plus the table's extra time: the time the table expects to end.
"""

import datetime


def playing_time_end(
    *,
    started_at: datetime.datetime | None,
    announced_at: datetime.datetime | None,
    minutes: int,
    five: bool,
    extra_minutes: int = 0,
) -> datetime.datetime | None:
    """When one table's playing time ends (TSR 8.5.1, 10.1.5); None before the round starts.

    ``minutes`` is the net playing time of the table's size (100 at four, 125 at five, or the
    tournament's own); ``announced_at`` when the end was announced, or None.
    """
    if started_at is None:
        return None
    extra = datetime.timedelta(minutes=extra_minutes)
    net_end = started_at + datetime.timedelta(minutes=minutes)
    if announced_at is None:
        end = net_end
    elif five:
        end = max(net_end, announced_at)  # TSR 10.1.5: 125 minutes of net playing time
    else:
        end = announced_at  # TSR 8.5.1: the adjudicator's announcement ends it
    return end + extra
