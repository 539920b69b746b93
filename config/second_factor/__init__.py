"""The second factor of a login: the codes of an authenticator app (TOTP) and backup codes, kept
by django-otp's models (``otp_totp``, ``otp_static``).

Any account sets one up on its own page (``views``); after the password, an account with one
gives a code too (the login page's second step, ``config.login``; the token endpoint's ``otp``).
The administration's accounts must have one when ``OTP_REQUIRED_FOR_ADMINS`` is on
(``policies``): they are led to set it up before anything else, and the administration
(``site``) opens only to a session that gave it. Its owner removes it with a code; for a lost
phone, an administrator removes it (``admin``: the users' list, one action).
"""
