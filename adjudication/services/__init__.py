"""Writes for adjudication (TSR 8.2, 9), one module per sub-domain: complaints and rulings
(``decisions``), appeals to the arbitration panel against a decision or a sanction, one flow for
both (``appeals``), unsporting conduct (``sanctions``), the catalogue of standard offences
(``offences``) and the staff (``staff``, with the invitations of those who have no account yet).
Every service is one transaction, asks ``adjudication.policies`` who may do it, and appends what
it did to the tournament's log (``Event``). The names are gathered here, so that callers can say
``services.decision_rule(...)``.

Who decides what (TSR 8.2.1, 8.2.2, 9.6.2, 9.6.3; see ``policies``): the adjudicator, or a
deputy adjudicator, rules on a complaint in the first instance and initials the penalty points,
unless he plays at that table. Any decision of the adjudicator, a bound decision's points
included, can be appealed to the arbitration panel, whose decision is final; its members
playing at the table do not sit. Unsporting conduct is for the panel, except a bound decision
of the catalogue, which the adjudicator gives with its preset points."""

from adjudication.services.appeals import (
    appeal_decide,
    appeal_lodge,
)
from adjudication.services.decisions import (
    WEDDINGS,
    Ruling,
    complaint_record,
    decision_initial,
    decision_rule,
)
from adjudication.services.offences import (
    offence_delete,
    offence_save,
    offences_default,
)
from adjudication.services.sanctions import (
    SanctionRuling,
    sanction_impose,
)
from adjudication.services.staff import (
    Appointment,
    Invitation,
    role_grant,
    role_offer,
    role_offer_accept,
    role_offer_decline,
    role_offer_withdraw,
    role_revoke,
    staff_appoint,
    staff_invitation_accept,
    staff_invitation_withdraw,
    staff_invite,
    staff_invite_again,
)
from tournaments.mails import mail_leaves_the_server

__all__ = [
    "WEDDINGS",
    "Appointment",
    "Invitation",
    "Ruling",
    "SanctionRuling",
    "appeal_decide",
    "appeal_lodge",
    "complaint_record",
    "decision_initial",
    "decision_rule",
    "mail_leaves_the_server",
    "offence_delete",
    "offence_save",
    "offences_default",
    "role_grant",
    "role_offer",
    "role_offer_accept",
    "role_offer_decline",
    "role_offer_withdraw",
    "role_revoke",
    "sanction_impose",
    "staff_appoint",
    "staff_invitation_accept",
    "staff_invitation_withdraw",
    "staff_invite",
    "staff_invite_again",
]
