"""How work set off by a write reaches a Celery worker. The bottom of the services: every service
module and task module may import it, and it imports none of them."""

import logging

from kombu.exceptions import OperationalError

logger = logging.getLogger(__name__)


def send_or_run(task, *args) -> None:
    """Send ``task`` to a worker; if the broker cannot be reached, run it here and now, so that
    what a write set off is never lost to a Redis outage (the settings give up sending after
    about a second)."""
    try:
        task.delay(*args)
    except OperationalError:
        logger.warning("Broker unreachable; running %s in-process.", task.name)
        task(*args)
