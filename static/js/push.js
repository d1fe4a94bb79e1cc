// Every page (templates/base.html): the service worker (an installable site, an offline
// page) is registered and told the page's language. On the account page, the buttons of
// "Notify me on this device" (templates/push/device.html) subscribe this browser through
// the Push API and post the subscription to the site, or take it back.

const worker = "serviceWorker" in navigator ? navigator.serviceWorker : null;

function csrfToken() {
  try {
    return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
  } catch (error) {
    return "";
  }
}

function post(url, body) {
  return fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
    body: JSON.stringify(body || {}),
    credentials: "same-origin",
  });
}

function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

async function setUpDevice(panel, registration) {
  const on = panel.querySelector("[data-push-on]");
  const off = panel.querySelector("[data-push-off]");
  const test = panel.querySelector("[data-push-test]");
  const status = panel.querySelector("[data-push-status]");
  const say = (text) => (status.textContent = text);
  if (!("PushManager" in window) || !("Notification" in window)) {
    say(gettext("This browser cannot show notifications from the site."));
    return;
  }
  async function show() {
    const subscription = await registration.pushManager.getSubscription();
    on.hidden = Boolean(subscription);
    off.hidden = test.hidden = !subscription;
    if (Notification.permission === "denied") {
      say(gettext("Notifications are blocked for this site in the browser's settings."));
    } else {
      say(subscription ? gettext("This device is notified.") : "");
    }
  }
  on.addEventListener("click", async function () {
    try {
      if ((await Notification.requestPermission()) !== "granted") return show();
      const subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(panel.dataset.key),
      });
      const answer = await post(panel.dataset.subscribe, subscription.toJSON());
      if (!answer.ok) {
        await subscription.unsubscribe();
        say(((await answer.json().catch(() => ({}))).error) || gettext("That did not work."));
        return;
      }
    } catch (error) {
      say(gettext("That did not work."));
      return;
    }
    show();
  });
  off.addEventListener("click", async function () {
    const subscription = await registration.pushManager.getSubscription();
    if (subscription) {
      await post(panel.dataset.unsubscribe, { endpoint: subscription.endpoint });
      await subscription.unsubscribe();
    }
    show();
  });
  test.addEventListener("click", async function () {
    const answer = await post(panel.dataset.test);
    say(answer.ok ? gettext("A test notification is on its way.") : gettext("That did not work."));
  });
  show();
}

if (worker) {
  worker
    .register("/sw.js", { scope: "/" })
    .then(function () {
      return worker.ready;
    })
    .then(function (registration) {
      const language = document.documentElement.lang;
      if (registration.active) registration.active.postMessage({ language: language });
      const panel = document.querySelector("[data-push-device]");
      if (panel) setUpDevice(panel, registration);
    })
    .catch(function () {}); // no worker (a private window, an http:// site): the site works on
} else {
  const status = document.querySelector("[data-push-status]");
  if (status) status.textContent = gettext("This browser cannot show notifications from the site.");
}
