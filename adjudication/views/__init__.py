"""The adjudicators' pages (TSR 8.2, 9), one module per sub-domain, as the API and the services
are cut: the dashboard for the phone, complaints and the decisions on them (``decisions``),
appeals to the arbitration panel (``appeals``), sanctions for unsporting conduct
(``sanctions``), the catalogue of standard offences (``offences``), the staff (``staff``) and
the log (``log``); what they share sits in ``common``. Thin views: forms parse, services
decide, selectors read."""
