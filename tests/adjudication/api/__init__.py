"""Tests of the adjudication API, one module per module of ``adjudication/api/``, and
who may read and write, the queries and the schema across them."""
