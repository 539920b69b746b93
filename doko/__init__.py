"""The game of Doppelkopf by the DDV Tournament Rules (TSR), in plain Python: no Django import.

Dataclasses and enums in, dataclasses out; the Django apps read rows into them, ask, and store
what comes back (as Tabbycat's draw manager binds its generator).

- ``rules``: the hands and the scoresheet (TSR 3, 4, 7, 8, 9): contracts, dealing, game value,
  settlement, penalty points, the sheet check;
- ``seating``: the draw of a round's tables (TSR 5);
- ``team_seating``, ``team_scoring``: the DDV's team competitions (league, team championship),
  which the TSR does not cover: the draw by teams, match points and the season table;
- ``standings``: the standings of a tournament and the ranking list (TSR 10);
- ``simulation``: legal matches played at random, for tests, the demo and benchmarks.
- ``sample_sheets``: the same lines every time (a normal game, a solo, a whole correct match),
  for tests and benchmarks.
"""
