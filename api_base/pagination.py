"""The API's pagination: DRF's ``?limit=`` and ``?offset=``, kept within what a database can be
asked for. An offset or limit beyond 64 bits went into the SQL as it was typed, and PostgreSQL
answered "bigint out of range" (a 500); capped, it asks for the rows past the end: none."""

from rest_framework import pagination

from api_base.parsers import LARGEST


class LimitOffsetPagination(pagination.LimitOffsetPagination):
    def get_limit(self, request):
        limit = super().get_limit(request)
        return None if limit is None else min(limit, LARGEST)

    def get_offset(self, request):
        return min(super().get_offset(request), LARGEST)
