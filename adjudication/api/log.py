"""The log of everything done in the tournament's adjudication, oldest first: who did what, when,
and the decision, appeal or sanction it concerns, a page at a time.
"""

from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers

from adjudication import selectors
from adjudication.api.common import READ_RESPONSES, TAGS, AdjudicationAPIView, named_choices
from adjudication.models import Event
from api_base.pagination import LimitOffsetPagination

LogActionField = named_choices("LogActionEnum", Event.Action.values)


class EventSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    at = serializers.DateTimeField()
    by = serializers.CharField(source="by.get_username")
    action = LogActionField()
    summary = serializers.CharField(
        source="text",
        help_text="In the reader's language (Accept-Language); entries logged before the log "
        "kept its messages untranslated, in the language of whoever did it",
    )
    details = serializers.JSONField()
    decision = serializers.IntegerField(source="decision_id", allow_null=True)
    appeal = serializers.IntegerField(source="appeal_id", allow_null=True)
    sanction = serializers.IntegerField(source="sanction_id", allow_null=True)


class LogPagination(LimitOffsetPagination):
    default_limit = 100
    max_limit = 1000


class AdjudicationLog(AdjudicationAPIView, generics.ListAPIView):
    """Everything done, oldest first, newest last: who did what, when. `?limit=` (up to
    1000, 100 by default) and `?offset=` page through it."""

    serializer_class = EventSerializer
    pagination_class = LogPagination

    def get_queryset(self):
        return selectors.event_log(tournament=self.tournament())

    @extend_schema(tags=TAGS, responses={200: EventSerializer(many=True), **READ_RESPONSES})
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)
