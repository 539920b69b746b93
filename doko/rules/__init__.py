"""The rules of Doppelkopf by the DDV Tournament Rules (TSR), in plain Python: no Django import.

Dataclasses and enums in, dataclasses out. ``contracts`` names the kinds of hand, ``deal`` who deals
and who must play a forced solo, ``settlement`` the points per seat, ``sheet`` the scoresheet check.
"""
