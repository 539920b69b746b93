"""Back up one tournament as a JSON document and restore it into another database.

An app of its own because a backup holds every app's rows (players, rounds, scoresheets,
adjudication): it sits above them all and nothing below imports it.
"""
