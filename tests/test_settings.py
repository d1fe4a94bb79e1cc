"""The one settings file switches deployments by environment variables alone."""

import os
import secrets
import subprocess
import sys
import threading
from pathlib import Path

import pytest

# Imported as the server does, at start-up (with DEBUG as the settings have it), not
# inside a test, where pytest-django has switched DEBUG off.
from yahtzee_site.asgi import application

ROOT = Path(__file__).resolve().parent.parent


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    environment.pop("DATABASE_URL", None)
    environment.pop("REDIS_URL", None)
    environment.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def settings_value(expression: str, **env: str) -> str:
    code = f"from django.conf import settings; print({expression})"
    result = run_manage("shell", "--no-imports", "-c", code, **env)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()[-1]


def production(static_root: Path) -> dict[str, str]:
    return {
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "yahtzee.example.com",
        "DJANGO_STATIC_ROOT": str(static_root),
    }


def test_production_settings_pass_the_deployment_checklist(tmp_path):
    env = production(tmp_path / "static")
    collected = run_manage("collectstatic", "--noinput", **env)
    assert collected.returncode == 0, collected.stdout + collected.stderr
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", **env)
    assert result.returncode == 0, result.stdout + result.stderr


def test_production_check_refuses_a_start_without_collected_static_files(tmp_path):
    # Without the manifest every page would answer 500 ("Missing staticfiles manifest entry").
    result = run_manage("check", "--deploy", **production(tmp_path / "never-collected"))
    assert result.returncode != 0
    assert "yahtzee_site.E001" in result.stderr
    assert str(tmp_path / "never-collected" / "staticfiles.json") in result.stderr
    assert "collectstatic" in result.stderr


def test_development_settings_need_no_collected_static_files(tmp_path):
    result = run_manage(
        "check", "--deploy", "--tag", "staticfiles", DJANGO_STATIC_ROOT=str(tmp_path)
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_production_refuses_to_start_without_a_secret_key():
    result = run_manage("check", DJANGO_DEBUG="0")
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr


def test_embedded_default_is_sqlite_in_wal_with_immediate_transactions(tmp_path):
    path = tmp_path / "games.sqlite3"
    options = settings_value('settings.DATABASES["default"]["OPTIONS"]', SQLITE_PATH=str(path))
    assert "'transaction_mode': 'IMMEDIATE'" in options
    assert "journal_mode=WAL" in options
    layer = settings_value('settings.CHANNEL_LAYERS["default"]["BACKEND"]')
    assert layer == "yahtzee_site.channel_layers.ThrottledInMemoryChannelLayer"


@pytest.mark.parametrize(
    ("variable", "value", "expression", "expected"),
    [
        (
            "DATABASE_URL",
            "postgres://player@db.internal:5432/yahtzee",
            'settings.DATABASES["default"]["ENGINE"]',
            "django.db.backends.postgresql",
        ),
        (
            "REDIS_URL",
            "redis://cache.internal:6379/0",
            'settings.CHANNEL_LAYERS["default"]["BACKEND"]',
            "channels_redis.pubsub.RedisPubSubChannelLayer",
        ),
    ],
)
def test_environment_switches_to_the_scale_out_services(variable, value, expression, expected):
    assert settings_value(expression, **{variable: value}) == expected


def test_a_pages_socket_message_rate_is_set_by_the_environment():
    rate = "(settings.WS_MESSAGES_PER_SECOND, settings.WS_MESSAGE_BURST)"
    assert settings_value(rate) == "(5.0, 10)"
    assert settings_value(rate, WS_MESSAGES_PER_SECOND="2.5", WS_MESSAGE_BURST="20") == "(2.5, 20)"


def test_every_requests_cache_shares_one_redis_client_and_leaves_no_cyclic_garbage():
    """Under ASGI each request gets a cache object of its own; none opens new connections
    or builds a new redis client. A client is some thirty objects in reference cycles: made
    for every request, they piled up until a full garbage collection, which pauses every
    table on the process, freed them."""
    code = (
        "import gc; from django.core.cache import caches; "
        "first, second = (caches.create_connection('default') for _ in range(2)); "
        "client = lambda cache: cache.client.get_client(write=True); "
        "print(first is not second, client(first) is client(second)); "
        "del first, second; gc.collect(); "
        "[client(caches.create_connection('default')) for _ in range(50)]; "
        "print(gc.collect())"
    )
    result = run_manage(
        "shell", "--no-imports", "-c", code, REDIS_URL="redis://cache.internal:6379/0"
    )
    assert result.returncode == 0, result.stderr
    separate_objects, same_client, cyclic_garbage = result.stdout.split()
    assert (separate_objects, same_client) == ("True", "True")
    assert int(cyclic_garbage) == 0


def test_sqlite_connection_really_runs_in_wal_mode(tmp_path):
    path = tmp_path / "games.sqlite3"
    code = (
        "from django.db import connection; c = connection.cursor(); "
        "c.execute('PRAGMA journal_mode'); print(c.fetchone()[0])"
    )
    result = run_manage("shell", "--no-imports", "-c", code, SQLITE_PATH=str(path))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "wal"


@pytest.mark.django_db
def test_a_busy_site_still_reads_every_session_from_memory(django_assert_num_queries):
    """A thousand visitors (250 four-seat tables) and the first one's session is still cached."""
    from django.contrib.sessions.backends.cached_db import SessionStore

    keys = []
    for number in range(1000):
        session = SessionStore()
        session["guest_name"] = f"Player {number}"
        session.create()
        keys.append(session.session_key)
    with django_assert_num_queries(0):
        assert SessionStore(session_key=keys[0])["guest_name"] == "Player 0"


def load_the_application(**env: str) -> str:
    """Load the ASGI application in a new process as a server does; what it prints is how
    many times loading it asked for the background thread (games/jobs/)."""
    code = (
        "import os, django; "
        "os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'yahtzee_site.settings'); "
        "django.setup(); "
        "from games import jobs; asked = []; "
        "jobs.ensure_running = lambda: asked.append(1); "
        "import yahtzee_site.asgi; print(len(asked))"
    )
    environment = {
        k: v for k, v in os.environ.items() if not k.startswith("DJANGO_") and k != "PYTEST_VERSION"
    }
    environment.update(env)
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=environment, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.split()[-1]


def test_a_server_process_looks_for_due_work_from_its_start_not_its_first_visitor():
    # A restarted process nobody visits still fires the deadlines, e-mails and reviews due.
    assert load_the_application() == "1"
    assert load_the_application(JOBS_START_WITH_APPLICATION="0") == "0"


def test_the_tests_import_the_application_without_starting_its_background_thread():
    assert application is not None  # loaded at the top of this module
    assert "games.jobs" not in {thread.name for thread in threading.enumerate()}


def test_the_server_keeps_the_garbage_collectors_full_pauses_few_and_short():
    code = (
        "import gc, yahtzee_site.asgi; "
        "from django.template import engines; "
        "room = engines['django'].engine.template_loaders[0].get_template('games/room.html'); "
        "print(gc.get_freeze_count(), any(o is room.nodelist for o in gc.get_objects()), "
        "gc.get_threshold()[2])"
    )
    environment = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=environment, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    frozen, room_still_scanned, full_collection_every = result.stdout.split()
    assert int(frozen) > 10_000
    assert room_still_scanned == "False"  # the room's compiled template was loaded first
    # Full collections (a pause for every table on the process) come ten times rarer.
    assert int(full_collection_every) == 100


def test_a_mail_server_that_stops_answering_is_given_up_on_within_the_lease():
    """A hung SMTP send must end before another process may take the game over and send the
    same e-mail again."""
    from django.conf import settings

    from games import jobs

    assert 0 < settings.EMAIL_TIMEOUT < jobs.LEASE.total_seconds() / 2
