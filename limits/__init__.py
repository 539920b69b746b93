"""Rate limits: fixed windows counted in the cache, below every app.

``windows`` counts events per key and window (``"10/15min"``); ``clients`` says whom a request
counts for (its address, its signed client cookie); ``throttles`` are the DRF throttles of the
public API; ``logins`` decides which failed logins slow a guesser and which lock a pair of user
name and address. Apps (the seats' links, the rules API) and config (the login, the password
reset) import from here; nothing here imports an app.
"""
