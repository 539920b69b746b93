"""What every app's API stands on, below the apps: the JSON parser that refuses what no field can
hold (and, for the public endpoints, bodies too large to read), and the pagination kept within
what a database can be asked for. Plain Python over DRF; it imports no app."""
