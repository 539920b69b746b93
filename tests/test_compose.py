"""docker-compose.yml's two Redis servers (docs/operations.md): the cache's has a memory
limit and evicts the least recently used values, the broker's never evicts a queued task; the
web and worker containers use each for its job. The servers' own settings are checked against a
real redis-server started with the file's command (the `--postgres` pass)."""

import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest
import redis
import yaml

from tests.plugins.servers import REQUIRED_BECAUSE, SERVERS_REQUIRED
from tools import servers

COMPOSE = Path(__file__).resolve().parent.parent / "docker-compose.yml"


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load(COMPOSE.read_text())


def _expanded(word: str, environment: dict[str, str]) -> str:
    """A word of the file as Compose reads it: ``${NAME:-default}`` from ``environment``."""
    return re.sub(
        r"\$\{(\w+):-([^}]*)\}", lambda match: environment.get(match[1]) or match[2], word
    )


def _command(compose: dict, service: str, **environment: str) -> list[str]:
    command = compose["services"][service]["command"]
    return [_expanded(str(word), environment) for word in command]


def _option(command: list[str], name: str) -> str | None:
    return command[command.index(name) + 1] if name in command else None


def test_the_cache_has_a_memory_limit_and_evicts_the_least_recently_used(compose):
    command = _command(compose, "redis")
    assert command[0] == "redis-server"
    assert _option(command, "--maxmemory") == "256mb"
    assert _option(command, "--maxmemory-policy") == "allkeys-lru"
    assert _option(command, "--appendonly") == "no"  # made again from the database
    assert "volumes" not in compose["services"]["redis"]
    assert _option(_command(compose, "redis", CACHE_MAXMEMORY="1gb"), "--maxmemory") == "1gb"


def test_the_broker_is_a_redis_of_its_own_that_never_evicts_a_task(compose):
    broker = compose["services"]["broker"]
    command = _command(compose, "broker")
    assert command[0] == "redis-server"
    assert _option(command, "--maxmemory-policy") == "noeviction"
    assert _option(command, "--appendonly") == "yes"
    assert broker["volumes"] == ["brokerdata:/data"]
    assert "brokerdata" in compose["volumes"]


@pytest.mark.parametrize("service", ["web", "worker", "beat"])
def test_web_and_worker_use_the_cache_and_the_broker_each_for_its_job(compose, service):
    app = compose["services"][service]
    assert app["environment"]["REDIS_URL"] == "redis://redis:6379/0"
    assert app["environment"]["CELERY_BROKER_URL"] == "redis://broker:6379/0"
    assert app["depends_on"]["redis"] == {"condition": "service_healthy"}
    assert app["depends_on"]["broker"] == {"condition": "service_healthy"}


def test_beat_sends_the_one_recovery_every_minute(compose):
    """Lost print jobs and lost standings' rebuilds are recovered by one task, which the
    shipped deployment's beat sends every minute (docs/operations.md)."""
    from django.conf import settings

    from config.celery import app
    from printing.tasks import recover_task

    beat = compose["services"]["beat"]
    assert beat["command"][:4] == ["celery", "-A", "config", "beat"]
    assert "deploy" not in beat  # one beat, or the recovery would be sent twice
    (entry,) = settings.CELERY_BEAT_SCHEDULE.values()
    assert entry == {"task": recover_task.name, "schedule": 60.0}
    assert app.conf.beat_schedule == settings.CELERY_BEAT_SCHEDULE


def _redis_binary() -> str:
    binary = servers.find_redis_server()
    if binary is None:
        reason = "redis-server not found (install it, e.g. apt-get install redis-server)"
        if SERVERS_REQUIRED:
            pytest.fail(f"{reason}, {REQUIRED_BECAUSE}: the tests that need it must run.")
        pytest.skip(reason)
    return binary


def _started(command: list[str], directory: Path) -> tuple[subprocess.Popen, redis.Redis]:
    """redis-server with the file's command, on a free loopback port in ``directory``."""
    port = servers.free_port()
    process = subprocess.Popen(
        [*command, "--bind", "127.0.0.1", "--port", str(port), "--dir", str(directory)],
        cwd=directory,
        stdout=subprocess.DEVNULL,
        **servers.child_options(),
    )
    client = redis.Redis(host="127.0.0.1", port=port, socket_timeout=2)
    deadline = time.monotonic() + servers.START_TIMEOUT
    while process.poll() is None and time.monotonic() < deadline:
        try:
            client.ping()
            return process, client
        except redis.ConnectionError:
            time.sleep(0.02)
    client.close()
    servers.stop_process(process)
    pytest.fail(f"redis-server did not start with {command}")


@pytest.mark.services
def test_a_real_redis_reads_the_cache_and_broker_commands_as_meant(compose, tmp_path):
    binary = _redis_binary()
    for service, expected in [
        ("redis", {"maxmemory": "268435456", "maxmemory-policy": "allkeys-lru"}),
        ("broker", {"maxmemory-policy": "noeviction", "appendonly": "yes"}),
    ]:
        command = [binary, *_command(compose, service)[1:]]
        directory = tmp_path / service
        directory.mkdir()
        process, client = _started(command, directory)
        try:
            for name, value in expected.items():
                assert client.config_get(name) == {name: value}, service
        finally:
            client.close()
            servers.stop_process(process)


@pytest.mark.services
def test_a_full_cache_forgets_old_values_instead_of_growing_or_refusing(compose, tmp_path):
    """The cache's command with a limit of 4 MB, sent 20 MB: every write succeeds, and the
    server stays within its limit."""
    command = [_redis_binary(), *_command(compose, "redis", CACHE_MAXMEMORY="4mb")[1:]]
    process, client = _started(command, tmp_path)
    try:
        value = b"x" * 64 * 1024
        for number in range(320):
            client.set(f"standings-json:1:1:{number}:10", value)
        memory = client.info("memory")
        assert memory["used_memory"] <= 4 * 1024 * 1024 * 1.1
        assert client.info("stats")["evicted_keys"] > 0
        assert client.get("standings-json:1:1:319:10") == value  # the newest is kept
    finally:
        client.close()
        servers.stop_process(process)


# The web service behind the proxy (issue 45: two servers as one) -----------------------------

HAPROXY_CFG = COMPOSE.parent / "docker" / "haproxy.cfg"


def test_web_can_be_scaled_behind_the_proxy_which_publishes_the_site(compose):
    """`docker compose up --scale web=3`: no replica takes a host port of its own; the proxy
    publishes WEB_PORT and hands every request to the web replicas."""
    web, proxy = compose["services"]["web"], compose["services"]["proxy"]
    assert "ports" not in web
    assert web["expose"] == ["8000"]
    assert "container_name" not in web
    assert proxy["ports"] == ["${WEB_PORT:-8000}:8000"]
    assert proxy["image"].startswith("haproxy:")
    assert "./docker/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro" in proxy["volumes"]
    assert "web" in proxy["depends_on"]
    # The rate limits count the client's address, which the proxy appends to X-Forwarded-For.
    assert web["environment"]["NUM_PROXIES"] == "${NUM_PROXIES:-1}"


@pytest.mark.parametrize("service", ["web", "worker"])
def test_the_replicas_and_the_worker_share_one_media_volume(compose, service):
    """The signed sheets' scans and the printouts go through Django's storage API, under
    MEDIA_ROOT: one named volume for every replica (on several machines, an object store)."""
    app = compose["services"][service]
    assert "media:/data/media" in app["volumes"]
    assert app["environment"]["MEDIA_ROOT"] == "/data/media"
    assert "media" in compose["volumes"]


def _haproxy_sections() -> dict[str, list[str]]:
    sections: dict[str, list[str]] = {}
    current = ""
    for raw in HAPROXY_CFG.read_text().splitlines():
        line = raw.split("#", 1)[0].rstrip()
        if not line:
            continue
        if not line[0].isspace():
            current = line.strip()
            sections[current] = []
        else:
            sections[current].append(" ".join(line.split()))
    return sections


def test_the_proxy_hands_requests_round_robin_to_every_web_replica_by_dns():
    sections = _haproxy_sections()
    assert sections["frontend site"] == ["bind :8000", "default_backend web"]
    backend = sections["backend web"]
    assert "balance roundrobin" in backend
    (template,) = [line for line in backend if line.startswith("server-template ")]
    assert " web:8000 " in template  # the service's name, as Docker's DNS answers it
    assert "resolvers docker" in template
    assert "init-addr none" in template
    assert "nameserver dns 127.0.0.11:53" in sections["resolvers docker"]
    assert "option forwardfor" in sections["defaults"]


def test_haproxy_accepts_the_proxy_configuration(tmp_path):
    """HAProxy's own check of docker/haproxy.cfg, with the distribution's haproxy (`make test`
    and `make bench SUITES=day2` install it)."""
    binary = shutil.which("haproxy") or (
        "/usr/sbin/haproxy" if Path("/usr/sbin/haproxy").exists() else None
    )
    if binary is None:
        reason = "haproxy not found (install it, e.g. apt-get install haproxy)"
        if SERVERS_REQUIRED:
            pytest.fail(f"{reason}, {REQUIRED_BECAUSE}: the tests that need it must run.")
        pytest.skip(reason)
    result = subprocess.run(
        [binary, "-c", "-f", str(HAPROXY_CFG)],
        capture_output=True,
        text=True,
        timeout=servers.HANG_SECONDS,
    )
    assert result.returncode == 0, result.stdout + result.stderr
