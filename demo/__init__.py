"""Demo tournaments for trying the system out (``make run``, ``manage.py demo``).

An app of its own because the demo plays through every app's services (registration, seating,
scoresheets, adjudication): it sits above them all and nothing below imports it.
"""
