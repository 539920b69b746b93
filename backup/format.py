"""The backup document: its name, version and the fields written of each kind of row.

The document is written field by field, so that it stays readable and stable across changes
of the models. Rows refer to each other by keys that count from 1 within each kind, in the
order the rows were made: database ids never leave the database, and an import makes new ones.
Users are named by their username; players carry their DDV number, by which (with their
names) an import finds them again. The seats' results and the standings are not in it: they are rebuilt from the
sheets and the adjudication after an import.

An entry's ``first_name``, ``last_name`` and ``club`` (added later) are the name and club the
tournament registered the player under; a file written before has them only on the player, and
the entry takes the player's.

The tournament's ``archived_at`` (added later) is when its organiser archived it, or null; a
file written before has none, and the tournament comes back current.

A sheet's ``scan`` (added later; a file written before has none, as one exported with
``--without-scans``) is the photo or scan of the signed paper sheet: its type, size, SHA-256,
who attached it and when, and the file itself in base64, byte for byte as stored (stripped of
its metadata when it was attached). Each makes the document larger by 4/3 of its size (at most
10 MB each); the commands hold the whole document in memory.
"""

from teams.models import COMPETITION_SETTINGS

FORMAT = "doko-tournament"
VERSION = 1

TOURNAMENT_FIELDS = [
    "name",
    "slug",
    "venue",
    "status",
    "planned_rounds",
    "hands_per_match",
    "match_minutes",
    "allow_tables_of_five",
    "hands_per_match_five",
    "match_minutes_five",
    "seating_method",
    "is_public",
    "standings_public",
    "tiebreaks",
    "counts_for_ranking",
]
# Added later: a file written before them lacks them, and the model's defaults fill in.
# ``is_match_day``: the tournament is a team competition's match day (restored with its
# competition, ``COMPETITION_FORMAT``); ``club_ranking_players``: its club ranking, or null;
# ``official``: played by the TSR (TSR 8.1.1), a file written before it comes back a club evening;
# ``allow_tables_of_six_and_seven`` (TSR 10): a file written before it has none, nor a Springer
# (``springer``; his second seat is the seat's ``second``, false where a file lacks it).
TOURNAMENT_FIELDS_LATER = [
    "sheet_keeping",
    "double_entry",
    "is_match_day",
    "club_ranking_players",
    "official",
    "allow_tables_of_six_and_seven",
    "springer",
]
# The entry's own name and club, added later: a file written before takes the player's.
ENTRY_FIELDS_LATER = ["first_name", "last_name", "club"]
HAND_FIELDS = [
    "number",
    "section",
    "dealer",
    "contract",
    "solo_type",
    "soloist",
    "game_value",
    "points_1",
    "points_2",
    "points_3",
    "points_4",
    "points_5",
    "not_played",
]
# Added later: a file written before it lacks it, and the model's default fills in.
HAND_FIELDS_LATER = ["replay", "points_6", "points_7"]  # seats 6 and 7: TSR 10
DECISION_FIELDS = [
    "hand_number",
    "offender",
    "complainant",
    "description",
    "severity",
    "contract",
    "soloist",
    "solo_type",
    "disadvantages_soloist",
    "announcements",
    "decided",
    "penalty_1",
    "penalty_2",
    "penalty_3",
    "penalty_4",
    "penalty_5",
    "computed",
    "deviation_reason",
    "hand_not_played",
    "rule",
    "status",
]
# Added later: a file written before them lacks them, and the model's defaults fill in.
DECISION_FIELDS_LATER = [
    "wedding_clarified_as_solo",
    "played_without_game_points",
    "replaced_line",
    "written_line",
    "penalty_6",
    "penalty_7",
]

# A team competition (``backup.selectors.competition_export``): the competition, its organisers
# (usernames), its players and teams with their members, and each match day with its groups,
# its line-ups and its tournament as the document above (whole, under "tournament"). A match
# day's "players" maps the keys of its tournament's players to the competition's, so that an
# import makes each person once; its line-ups name the tournament's entries by their keys. A
# league's "season_plan" (or null; absent in older backups) lists its planned places as
# [match day, group, team key]; a match day's "double" (absent: false) marks a double match day.
COMPETITION_FORMAT = "doko-competition"
COMPETITION_VERSION = 1
COMPETITION_FIELDS = ["slug", *COMPETITION_SETTINGS]
