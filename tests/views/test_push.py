"""An installable site and Web Push over HTTP (games/views/push.py): the manifest, the service
worker, the offline page, a device's subscription and its refusals, the settings page."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse

from games import services
from games.management.commands.webpush_keys import new_pair
from games.models import NotificationSettings, PushDelivery, PushSubscription

pytestmark = pytest.mark.django_db

P256DH = "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM"
AUTH = "tBHItJI5svbpez7KI4CCXg"
ENDPOINT = "https://fcm.googleapis.com/fcm/send/dGhpcyBpcyBhIHRlc3Q"


@pytest.fixture
def keys(settings):
    settings.WEBPUSH_VAPID_PUBLIC_KEY, settings.WEBPUSH_VAPID_PRIVATE_KEY = new_pair()


def subscribe(browser: Client, body: object, **extra: str):
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return browser.post("/push/subscribe/", data, content_type="application/json", **extra)


def subscription(endpoint: str = ENDPOINT) -> dict[str, object]:
    return {"endpoint": endpoint, "keys": {"p256dh": P256DH, "auth": AUTH}}


# -- an installable site -----------------------------------------------------------------------


def test_the_manifest_makes_the_site_installable(client):
    response = client.get("/manifest.webmanifest")

    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert manifest["name"] and manifest["short_name"]
    assert manifest["background_color"] and manifest["theme_color"]
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    assert any(icon.get("purpose") == "maskable" for icon in manifest["icons"])
    for icon in manifest["icons"]:
        found = finders.find(icon["src"].removeprefix("/static/"))
        assert found and Path(found).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_manifest_speaks_the_readers_language(client):
    client.cookies["django_language"] = "te"
    manifest = json.loads(client.get("/manifest.webmanifest").content)
    assert manifest["lang"] == "te" and manifest["name"] != "Yahtzee with friends"


def test_every_page_links_the_manifest_a_theme_colour_and_a_touch_icon(client):
    page = client.get("/").content.decode()

    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert '<meta name="theme-color"' in page and 'rel="apple-touch-icon"' in page
    assert "js/push.js" in page


def test_the_service_worker_is_served_fresh_for_the_whole_site(client):
    response = client.get("/sw.js")
    body = response.content.decode()

    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    assert 'const RELEASE = "' in body and "/static/css/site.css" in body
    assert '"/offline/"' in body and "/static/js/push.js" in body
    assert "/g/" not in body.split("const CACHE")[0]  # no page is kept, only static files


def test_the_service_worker_keeps_no_page_json_or_post(client):
    body = client.get("/sw.js").content.decode()

    assert 'request.method !== "GET"' in body  # a form post goes to the network
    assert 'request.mode === "navigate"' in body and "pageOrOffline" in body
    assert "cache.put(request" not in body  # nothing fetched is ever kept


@pytest.mark.parametrize(("language", "word"), [("en", "offline"), ("uz", "oflayn")])
def test_the_offline_page_is_in_the_language_asked_and_personal_in_nothing(
    alice_client, language, word
):
    response = alice_client.get(f"/offline/?lang={language}")
    page = response.content.decode()

    assert response.status_code == 200 and f'<html lang="{language}">' in page
    assert word in page.lower()
    assert "alice" not in page and "csrfmiddlewaretoken" not in page


def test_an_unknown_language_gets_the_offline_page_in_the_visitors_own(client):
    assert client.get("/offline/?lang=xx%00").status_code == 200


# -- a device's subscription ------------------------------------------------------------------


def test_a_device_is_subscribed_and_unsubscribed(keys, alice, alice_client):
    assert subscribe(alice_client, subscription()).status_code == 204
    assert subscribe(alice_client, subscription()).status_code == 204  # again: one row
    (device,) = PushSubscription.objects.all()
    assert device.user == alice and device.auth == AUTH

    body = json.dumps({"endpoint": ENDPOINT})
    answer = alice_client.post("/push/unsubscribe/", body, content_type="application/json")
    assert answer.status_code == 204 and not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    "endpoint",
    [
        "http://fcm.googleapis.com/fcm/send/abc",
        "https://example.com/push/abc",
        "https://fcm.googleapis.com.example.com/abc",
        "https://user@fcm.googleapis.com/abc",
        "https://fcm.googleapis.com:8443/abc",
        "https://127.0.0.1/abc",
        "https://[::1]/abc",
        "https://10.0.0.1:443/abc",
        "file:///etc/passwd",
        "https://fcm.googleapis.com\\@example.com/abc",
        12,
        None,
    ],
)
def test_an_endpoint_not_on_a_listed_push_service_is_refused_and_stored_nowhere(
    keys, alice_client, endpoint
):
    response = subscribe(alice_client, subscription(endpoint))

    assert response.status_code == 400 and json.loads(response.content)["error"]
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    "body",
    [
        "not json",
        b"\xff\xfe",
        "[]",
        "null",
        {"endpoint": ENDPOINT},
        {"endpoint": ENDPOINT, "keys": "x"},
        {"endpoint": ENDPOINT, "keys": {"p256dh": "short", "auth": AUTH}},
        {"endpoint": ENDPOINT, "keys": {"p256dh": P256DH, "auth": "!!!"}},
        {"endpoint": ENDPOINT, "keys": {"p256dh": P256DH, "auth": AUTH * 3}},
        {"endpoint": ENDPOINT, "keys": {"p256dh": ["x"], "auth": AUTH}},
    ],
)
def test_a_malformed_subscription_is_a_400(keys, alice_client, body):
    assert subscribe(alice_client, body).status_code == 400
    assert not PushSubscription.objects.exists()


def test_a_stranger_can_neither_subscribe_nor_take_away_someone_elses_device(
    keys, client, alice_client, bob_client
):
    assert subscribe(client, subscription()).status_code == 403
    assert subscribe(alice_client, subscription()).status_code == 204

    body = json.dumps({"endpoint": ENDPOINT})
    bob_client.post("/push/unsubscribe/", body, content_type="application/json")
    client.post("/push/unsubscribe/", body, content_type="application/json")
    assert PushSubscription.objects.count() == 1


def test_subscribing_needs_the_csrf_token(keys, alice):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice)
    assert subscribe(browser, subscription()).status_code == 403
    assert not PushSubscription.objects.exists()


def test_without_keys_push_is_not_offered(alice_client):
    assert subscribe(alice_client, subscription()).status_code == 404
    assert alice_client.post("/push/test/").status_code == 404
    page = alice_client.get("/accounts/").content.decode()
    assert "data-push-device" not in page and "Notify me on this device" not in page


def test_the_account_page_offers_this_device(keys, alice_client, settings):
    page = alice_client.get("/accounts/").content.decode()
    assert "Notify me on this device" in page and "Send a test notification" in page
    assert f'data-key="{settings.WEBPUSH_VAPID_PUBLIC_KEY}"' in page


def test_a_test_notification_is_for_the_signed_in_only(keys, client, alice_client):
    assert client.post("/push/test/").status_code == 403
    assert alice_client.post("/push/test/").status_code == 204
    assert alice_client.get("/push/test/").status_code == 405


# -- the notification settings page ------------------------------------------------------------


def test_the_settings_page_shows_the_defaults_and_keeps_a_choice(alice, alice_client):
    page = alice_client.get("/accounts/notifications/").content.decode()
    assert re.search(r'name="your_turn" value="both"[^>]*checked', page)
    assert re.search(r'name="invitation" value="push"[^>]*checked', page)
    assert not re.search(r'name="invitation" value="email"', page)  # e-mail: daily turns only
    assert re.search(r'name="tournament" value="push"[^>]*checked', page)
    assert not re.search(r'name="tournament" value="email"', page)

    choices = {
        "your_turn": "push",
        "last_hour": "email",
        "invitation": "none",
        "friend_request": "push",
        "friend_accepted": "none",
        "tournament": "none",
    }
    response = alice_client.post("/accounts/notifications/", choices)

    assert response.status_code == 302
    saved = NotificationSettings.objects.get(user=alice)
    assert (saved.your_turn, saved.last_hour, saved.invitation) == ("push", "email", "none")
    assert saved.tournament == "none"
    page = alice_client.get("/accounts/notifications/").content.decode()
    assert re.search(r'name="tournament" value="none"[^>]*checked', page)


def test_a_form_from_before_a_kind_existed_keeps_that_kinds_setting(alice, alice_client):
    services.notification_channels_set(user_id=alice.pk, channels={"tournament": "none"})
    older_page = {"your_turn": "push", "last_hour": "none", "invitation": "none"}

    response = alice_client.post("/accounts/notifications/", older_page)

    assert response.status_code == 302
    saved = NotificationSettings.objects.get(user=alice)
    assert (saved.your_turn, saved.invitation, saved.tournament) == ("push", "none", "none")
    assert saved.friend_request == "push"  # the default, untouched


def test_a_bad_choice_is_a_400_and_a_stranger_is_sent_to_log_in(alice_client, client):
    assert alice_client.post("/accounts/notifications/", {"your_turn": "pigeon"}).status_code == 400
    assert client.get("/accounts/notifications/").status_code == 302
    assert not NotificationSettings.objects.exists()


# -- a subscription its push service renewed -------------------------------------------------

NEW_ENDPOINT = "https://updates.push.services.mozilla.com/wpush/v2/renewed-one"
NEW_P256DH = (
    "BLc4xRzKlKORKWlbdgFaBrrPK3ydWAHo4M0gs0i1oEKgPpWC5cW8OCzVrOQRv-1npXRWk8udnW3oYhIO4475rds"
)
NEW_AUTH = "5I2Bu2oKdyy9CwL8QVF0NQ"


def renewal(old_auth: str = AUTH, endpoint: str = NEW_ENDPOINT) -> str:
    return json.dumps(
        {
            "old": {"endpoint": ENDPOINT, "auth": old_auth},
            "endpoint": endpoint,
            "keys": {"p256dh": NEW_P256DH, "auth": NEW_AUTH},
        }
    )


def resubscribe(body: str):
    """Posted as the service worker does: no session cookie, no CSRF token."""
    worker = Client(enforce_csrf_checks=True)
    return worker.post("/push/resubscribe/", body, content_type="application/json")


def test_the_service_worker_moves_a_renewed_device_with_its_waiting_pushes(
    keys, alice, alice_client
):
    subscribe(alice_client, subscription())
    assert alice_client.post("/push/test/").status_code == 204
    (waiting,) = PushDelivery.objects.all()

    assert resubscribe(renewal()).status_code == 204

    (device,) = PushSubscription.objects.all()
    assert (device.user, device.endpoint) == (alice, NEW_ENDPOINT)
    assert (device.p256dh, device.auth) == (NEW_P256DH, NEW_AUTH)
    waiting.refresh_from_db()
    assert waiting.subscription_id == device.pk  # the test push still goes, to the new one


@pytest.mark.parametrize("old_auth", ["AAAAAAAAAAAAAAAAAAAAAA", "", "x" * 500])
def test_a_renewal_without_the_old_secret_is_a_404_and_changes_nothing(
    keys, alice_client, old_auth
):
    subscribe(alice_client, subscription())

    answer = resubscribe(renewal(old_auth=old_auth))

    assert answer.status_code == 404 and answer.json()["error"]
    (device,) = PushSubscription.objects.all()
    assert (device.endpoint, device.auth) == (ENDPOINT, AUTH)


@pytest.mark.parametrize(
    "body",
    [
        renewal(endpoint="https://example.com/push/abc"),
        renewal(endpoint="https://127.0.0.1/abc"),
        "not json",
        json.dumps({"endpoint": NEW_ENDPOINT, "keys": {"p256dh": NEW_P256DH, "auth": NEW_AUTH}}),
        json.dumps({"old": {"endpoint": ENDPOINT, "auth": AUTH}, "endpoint": NEW_ENDPOINT}),
        json.dumps([1, 2]),
    ],
)
def test_a_renewal_to_an_unlisted_address_or_malformed_is_a_400_and_changes_nothing(
    keys, alice_client, body
):
    subscribe(alice_client, subscription())

    answer = resubscribe(body)

    assert answer.status_code == 400 and answer.json()["error"]
    (device,) = PushSubscription.objects.all()
    assert device.endpoint == ENDPOINT


def test_without_keys_a_renewal_is_not_offered(alice):
    assert resubscribe(renewal()).status_code == 404


def test_the_service_worker_renews_through_the_sites_own_address(client):
    body = client.get("/sw.js").content.decode()
    handler = body.split('addEventListener("pushsubscriptionchange"')[1]
    assert f'"{reverse("push_resubscribe")}"' in handler
    assert "oldSubscription" in handler and "keys.auth" in handler
