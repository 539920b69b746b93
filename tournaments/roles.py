"""Every set of tournament roles, in one place: who is meant by "staff", "the clock", "the
first instance" (TSR 8.2.1, 8.5.1). The policies (``<app>/policies.py``) decide with these sets;
nothing else names roles in sets of its own.
"""

from tournaments.models import TournamentRole

Role = TournamentRole.Role

# The organiser (the tournament's management) decides how it is played: settings, tables of
# five (TSR 8.3.1, 10), players and rounds.
ORGANISER = frozenset({Role.ORGANISER})
# Who sees a round's seating before it is published, and all standings even when hidden.
STAFF = frozenset({Role.ORGANISER, Role.ADJUDICATOR, Role.DEPUTY, Role.PANEL})
# Who runs the clock: TSR 8.5.1, the adjudicator starts the match, announces its end and grants
# extra time; the organiser may do it for him.
CLOCK = frozenset({Role.ORGANISER, Role.ADJUDICATOR})
# TSR 8.5.1: the adjudicator announces the end of the round; the tournament's management (the
# organiser), whom he may charge with the rest, may announce it for him.
ENDS_PLAYING_TIME = CLOCK
# TSR 8.2.1: the adjudicator decides complaints in the first instance and initials penalty
# points, and so does a deputy appointed for it (a panel member only as deputy).
FIRST_INSTANCE = frozenset({Role.ADJUDICATOR, Role.DEPUTY})
# TSR 8.5.1: extra time for one table ("darf der Schiedsrichter für einzelne Tische hiervon
# abweichen"; "bei einer Reklamation ... um die Zeit der Unterbrechung verlängern"): whoever
# may rule there, the adjudicator or a deputy; and the organiser, who runs the clock for him
# (CLOCK). Never at his own table (``policies.may_grant_extra_time``).
EXTRA_TIME = FIRST_INSTANCE | ORGANISER
# Appeals and unsporting conduct are the arbitration panel's (TSR 8.2.1, 9.6.2).
PANEL = frozenset({Role.PANEL})
# Who reads the adjudication pages: those who decide, and the organiser, who reads along.
ADJUDICATION_READERS = FIRST_INSTANCE | PANEL | ORGANISER
# The catalogue of standard offences is the tournament's: its organiser and adjudicators.
CATALOGUE = STAFF
# Who may fill and hand in any table's scoresheet besides its scorekeeper (TSR 8.4.1).
SHEET_STAFF = frozenset({Role.ORGANISER, Role.ADJUDICATOR, Role.SCOREKEEPER})
# Who reads any table's sheet: the sheet staff, and everyone who sees the unpublished seating;
# a round's sheets name its seating, so the others only once it is published
# (``policies.may_read_seating``).
SHEET_READERS = SHEET_STAFF | STAFF
# TSR 3.1.1, 8.4.1: by agreement at the table another player keeps the sheet; staff who run the
# round note it, so that the links follow.
HANDS_OVER_SHEET = CLOCK
# Who is shown the private links of a round's scoresheets: the staff and the scorekeepers.
SEES_SHEET_LINKS = STAFF | {Role.SCOREKEEPER}
# Who reads every seat's private link of a table (a slip lost, a phone changed), page and API:
# the tournament's management and its adjudicator, who are at the venue to hand one out again.
# Whoever holds a link acts as that seat, so nobody else, a scorekeeper account included.
READS_SEAT_LINKS = frozenset({Role.ORGANISER, Role.ADJUDICATOR})
# Who checks players in at the door (TSR 8.3: the draw takes those present): the tournament's
# management, and the desk's accounts (scorekeepers), who tick the names off.
CHECKS_IN = ORGANISER | {Role.SCOREKEEPER}
