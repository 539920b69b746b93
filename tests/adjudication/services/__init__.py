"""Tests of adjudication's services, one module per module of ``adjudication/services/``."""
