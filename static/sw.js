// The service worker, for the scope "/" (served by games/views/push.py, which writes
// RELEASE, PRECACHE, OFFLINE_URL, LANGUAGES and ICON above this line).
//
// It keeps this release's static files and the offline page in each language, in a cache
// named for the release; a new release's worker deletes the old cache when it takes over.
// It never keeps a page, a JSON answer, a form post or a socket: a page comes from the
// network or, offline, the offline page, never a stale table. And it shows Web Push
// notifications, opening (or focusing) the page each names, and moves a device to the
// subscription its push service renewed.

const CACHE = `yahtzee-${RELEASE}`;
const LANGUAGE_KEY = `${OFFLINE_URL}language`;
let language = null;

function offlineFor(code) {
  return `${OFFLINE_URL}?lang=${code}`;
}

self.addEventListener("install", function (event) {
  event.waitUntil(
    (async function () {
      const cache = await caches.open(CACHE);
      await cache.addAll([...PRECACHE, ...LANGUAGES.map(offlineFor)]);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    (async function () {
      for (const name of await caches.keys()) {
        if (name.startsWith("yahtzee-") && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

// A page tells the worker its language, so that the offline page speaks it.
self.addEventListener("message", function (event) {
  const told = event.data && event.data.language;
  if (LANGUAGES.includes(told) && told !== language) {
    language = told;
    event.waitUntil(
      caches.open(CACHE).then((cache) => cache.put(LANGUAGE_KEY, new Response(told))),
    );
  }
});

async function readerLanguage(cache) {
  if (language) return language;
  const kept = await cache.match(LANGUAGE_KEY);
  const told = kept ? await kept.text() : "";
  return LANGUAGES.includes(told) ? told : LANGUAGES[0];
}

async function pageOrOffline(request) {
  try {
    return await fetch(request);
  } catch (error) {
    const cache = await caches.open(CACHE);
    const page = await cache.match(offlineFor(await readerLanguage(cache)));
    return page || Response.error();
  }
}

self.addEventListener("fetch", function (event) {
  const request = event.request;
  if (request.method !== "GET") return; // a form post goes to the network, as it is
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(pageOrOffline(request)); // never from a cache
  } else if (PRECACHE.includes(url.pathname)) {
    event.respondWith(
      caches.open(CACHE).then((cache) =>
        cache.match(request).then((kept) => kept || fetch(request)),
      ),
    );
  } // anything else (JSON, fragments, sockets): the network only
});

self.addEventListener("push", function (event) {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (error) {
    data = {};
  }
  event.waitUntil(
    self.registration.showNotification(data.title || "Yahtzee", {
      body: data.body || "",
      tag: data.tag || undefined,
      icon: ICON,
      data: { url: data.url || "/" },
    }),
  );
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  let target = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  if (target.origin !== self.location.origin) target = new URL("/", self.location.origin);
  event.waitUntil(
    (async function () {
      const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      for (const client of open) {
        if (new URL(client.url).pathname === target.pathname && "focus" in client) {
          return client.focus();
        }
      }
      return self.clients.openWindow(target.href);
    })(),
  );
});

// The push service renewed this browser's subscription: subscribe again with the same
// options and tell the site, which moves the device (its account and waiting pushes) to the
// new one. The old subscription's auth secret proves the device is this browser's.
self.addEventListener("pushsubscriptionchange", function (event) {
  const old = event.oldSubscription;
  if (!old) return; // nothing to prove the device with: the account page subscribes anew
  event.waitUntil(
    (async function () {
      const renewed =
        event.newSubscription || (await self.registration.pushManager.subscribe(old.options));
      await fetch("/push/resubscribe/", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        credentials: "omit",
        body: JSON.stringify({
          old: { endpoint: old.endpoint, auth: old.toJSON().keys.auth },
          ...renewed.toJSON(),
        }),
      });
    })(),
  );
});
