// The service worker (/sw.js, static/js/sw.js) for the pages that enter hands, so that a reload
// while the connection is down shows the page as last loaded, with the hands that wait in the
// browser (static/js/offline-queue.js). The page asks the worker to keep it (its address and the
// static files it loaded) and, after each change of the sheet, to fetch it again, so that the
// copy is the latest. The markup: an element [data-sw="<worker's address>"] with
// data-sw-static (the static files' prefix), data-sw-forget (the addresses of the logins and
// logouts, separated by spaces: a POST to any of them forgets the pages kept) and
// data-sw-refresh (a selector of the part whose swaps change the page).
// Without service workers (an old browser, or plain http other than on localhost: browsers allow
// them on secure pages only) nothing happens, and the hands still wait in the browser.

const marker = document.querySelector("[data-sw]");

function assets(prefix) {
  const here = window.location.origin;
  const urls = performance.getEntriesByType("resource").map(function (entry) {
    return entry.name;
  });
  document.querySelectorAll("script[src], link[rel=stylesheet][href], link[rel=icon][href]").forEach(
    function (element) {
      urls.push(element.src || element.href);
    }
  );
  return Array.from(
    new Set(
      urls.filter(function (url) {
        const parsed = new URL(url, here);
        return parsed.origin === here && parsed.pathname.startsWith(prefix);
      })
    )
  );
}

async function start() {
  const address = new URL(marker.dataset.sw, window.location.href);
  address.searchParams.set("static", marker.dataset.swStatic);
  address.searchParams.set("forget", marker.dataset.swForget);
  await navigator.serviceWorker.register(address.pathname + address.search, { scope: "/" });
  const registration = await navigator.serviceWorker.ready;

  function tell(type) {
    const worker = registration.active;
    if (worker) {
      worker.postMessage({ type: type, assets: type === "keep" ? assets(marker.dataset.swStatic) : [] });
    }
  }

  tell("keep");
  let timer = null;
  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.target.matches && event.target.matches(marker.dataset.swRefresh)) {
      window.clearTimeout(timer);
      timer = window.setTimeout(function () {
        tell("refresh");
      }, 300);
    }
  });
}

if (marker && "serviceWorker" in navigator && window.isSecureContext) {
  start().catch(function () {
    // No worker (refused, or storage full): the page works as without it.
  });
}
