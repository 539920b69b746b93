"""The adjudication API (TSR 8.2, 9), one module per resource: complaints and the decisions on them,
rulings and initials (``decisions``), appeals and the arbitration panel's decisions (``appeals``),
sanctions for unsporting conduct (``sanctions``), the catalogue of standard offences (``offences``),
the staff (``staff``) and the log of everything done (``log``). What a ruling is (``rulings``) and
what the views share (``common``) sit below them. The views are gathered here, so that the URLs can
say ``api.DecisionList``.

Thin views over ``adjudication.services``, which ask ``adjudication.policies`` who may do what: the
adjudicator or a deputy adjudicator records, rules and initials, unless he plays at that table; only
the panel decides an appeal, against a ruling or against a bound decision the adjudicator gave
alone, its members not playing at the table; sanctions are the panel's except the catalogue's bound
decisions; the organiser appoints the staff.
"""

from adjudication.api.appeals import AppealDecide, AppealList
from adjudication.api.decisions import (
    DecisionAppeal,
    DecisionDetail,
    DecisionInitial,
    DecisionList,
    DecisionRuling,
)
from adjudication.api.log import AdjudicationLog
from adjudication.api.offences import OffenceDefaults, OffenceDetail, OffenceList
from adjudication.api.sanctions import SanctionAppeal, SanctionList
from adjudication.api.staff import (
    StaffDetail,
    StaffInvitationAgain,
    StaffInvitationDetail,
    StaffInvitationList,
    StaffList,
    StaffOfferDetail,
    StaffOfferList,
)

__all__ = [
    "AdjudicationLog",
    "AppealDecide",
    "AppealList",
    "DecisionAppeal",
    "DecisionDetail",
    "DecisionInitial",
    "DecisionList",
    "DecisionRuling",
    "OffenceDefaults",
    "OffenceDetail",
    "OffenceList",
    "SanctionAppeal",
    "SanctionList",
    "StaffDetail",
    "StaffInvitationAgain",
    "StaffInvitationDetail",
    "StaffInvitationList",
    "StaffList",
    "StaffOfferDetail",
    "StaffOfferList",
]
