// The service worker of the entry pages, served at /sw.js (scoring.views.offline.service_worker) so that
// its scope is the whole site: the staff's sheet pages and the seats' links alike. It keeps only
// what an entry page asks it to keep (static/js/sw-register.js):
//
// - the page itself (its address without a query): fetched from the network first on every
//   visit and after every change of its sheet, and served from its last copy only when the
//   network fails, as on a reload while the hall's Wi-Fi is down;
// - the static files those pages load: from the network first too, from the copy when offline.
//
// Never a POST, never another page, never an answer that was redirected (a login page). A staff
// page names its user, so every page kept is forgotten whenever a session ends on this device:
//
// - a logout or a login, on the site or in the administration (a POST to one of the addresses
//   the page names: ?forget=), which another person's login on a shared device is too;
// - the session's end, which the page's answer names (X-Kept-Until, in ms since 1970): past it a
//   copy is not shown, online or not;
// - an answer that says the session no longer opens a page kept (a redirect to the login, 401,
//   403, 404, 410).
//
// The hands waiting in the browser's IndexedDB are not the worker's: it never touches them. Each
// carries who typed it, and the page sends none as anybody else (static/js/offline-queue.js).
//
// Its own address carries the static files' prefix and the addresses that end a session
// (?static=&forget=, the latter separated by spaces), as the page registers it.

const PAGES = "doko-pages-v2";
const STATIC = "doko-static-v1";
const params = new URL(self.location.href).searchParams;
const STATIC_PREFIX = params.get("static") || "/static/";
const FORGET = new Set(
  (params.get("forget") || "/accounts/logout/ /accounts/login/ /admin/logout/ /admin/login/")
    .split(" ")
    .filter(Boolean)
);
const KEPT_UNTIL = "X-Kept-Until";
// Answers that say the session no longer opens a page (besides a redirect, to the login).
const GONE = new Set([401, 403, 404, 410]);
// Where entry pages live: a seat's private link, and a page directly under a table's address.
const ENTRY_PAGE = /^\/(s\/[^/]+|tournaments\/[^/]+\/rounds\/\d+\/tables\/\d+\/[^/]+)\/$/;

self.addEventListener("install", function () {
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches
      .keys()
      .then(function (names) {
        return Promise.all(
          names
            .filter(function (name) {
              return name.startsWith("doko-") && name !== PAGES && name !== STATIC;
            })
            .map(function (name) {
              return caches.delete(name);
            })
        );
      })
      .then(function () {
        return self.clients.claim();
      })
  );
});

function pageKey(url) {
  const parsed = new URL(url);
  return parsed.origin + parsed.pathname;
}

function keepable(response) {
  const type = response.headers.get("Content-Type") || "";
  return response.ok && response.type === "basic" && !response.redirected && type.startsWith("text/html");
}

// Whether a copy may still be shown: not past the end of the session it was kept for.
function current(kept) {
  const until = Number(kept.headers.get(KEPT_UNTIL));
  return !until || Date.now() < until;
}

// Every page kept, forgotten: a session ended on this device.
function forget() {
  return caches.delete(PAGES);
}

// The answer to a page kept says the session no longer opens it.
function refused(response) {
  return response.type === "opaqueredirect" || response.redirected || GONE.has(response.status);
}

async function keepPage(url) {
  const response = await fetch(url, { credentials: "same-origin", cache: "no-store" });
  if (keepable(response)) {
    const cache = await caches.open(PAGES);
    await cache.put(url, response);
  }
}

// The pages are fetched and stored one after the other, so that an older copy never lands after
// a newer one (the first "keep" of a page and the "refresh" after its first hand, say).
let queued = Promise.resolve();

function inTurn(work) {
  queued = queued.then(work).catch(function () {});
  return queued;
}

async function keepAssets(urls) {
  const cache = await caches.open(STATIC);
  await Promise.all(
    urls.map(async function (url) {
      const parsed = new URL(url);
      if (parsed.origin !== self.location.origin || !parsed.pathname.startsWith(STATIC_PREFIX)) {
        return;
      }
      if (await cache.match(url)) {
        return;
      }
      const response = await fetch(url, { credentials: "same-origin" });
      if (response.ok && response.type === "basic") {
        await cache.put(url, response);
      }
    })
  );
}

// "keep": the page that asks (never another), with its static files; "refresh": that page
// again after its sheet changed, if it is kept.
self.addEventListener("message", function (event) {
  const client = event.source;
  if (!client || !client.url || !event.data) {
    return;
  }
  const url = pageKey(client.url);
  if (new URL(url).origin !== self.location.origin || !ENTRY_PAGE.test(new URL(url).pathname)) {
    return;
  }
  const keep = event.data.type === "keep";
  if (!keep && event.data.type !== "refresh") {
    return;
  }
  // A page kept already was fetched afresh when it was opened (``page``): asked to keep it,
  // only its static files are new; asked to refresh it, it is fetched again.
  event.waitUntil(
    Promise.all([
      inTurn(async function () {
        const cache = await caches.open(PAGES);
        let kept = await cache.match(url, { ignoreVary: true });
        if (kept && !current(kept)) {
          await forget();
          kept = undefined;
        }
        if (keep ? !kept : kept) {
          await keepPage(url);
        }
      }),
      keep ? keepAssets(event.data.assets || []).catch(function () {}) : null,
    ])
  );
});

async function page(request) {
  const key = pageKey(request.url);
  const cache = await caches.open(PAGES);
  const kept = await cache.match(key, { ignoreVary: true });
  if (!kept) {
    return fetch(request);
  }
  if (!current(kept)) {
    await forget(); // the session it was kept for has ended
    return fetch(request);
  }
  let response;
  try {
    response = await fetch(request);
  } catch (error) {
    return kept; // offline: the page as last loaded, with its hands waiting in the browser
  }
  if (refused(response)) {
    await forget();
  } else if (keepable(response) && new URL(request.url).search === "") {
    await cache.put(key, response.clone());
  }
  return response;
}

async function asset(request) {
  const cache = await caches.open(STATIC);
  try {
    const response = await fetch(request);
    if (response.ok && response.type === "basic" && (await cache.match(request))) {
      await cache.put(request, response.clone());
    }
    return response;
  } catch (error) {
    const kept = await cache.match(request, { ignoreVary: true });
    if (kept) {
      return kept;
    }
    throw error;
  }
}

self.addEventListener("fetch", function (event) {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) {
    return;
  }
  if (request.method === "POST" && FORGET.has(url.pathname)) {
    event.waitUntil(forget()); // the request itself goes on as it would
    return;
  }
  if (request.method !== "GET") {
    return;
  }
  if (request.mode === "navigate" && ENTRY_PAGE.test(url.pathname)) {
    event.respondWith(page(request));
  } else if (url.pathname.startsWith(STATIC_PREFIX)) {
    event.respondWith(asset(request));
  }
});
