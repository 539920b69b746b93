// The round clock: counts down to data-ends-at every second, corrected by the server's time
// (data-now) so that a phone whose own clock is wrong still shows the right time left. The page
// refreshes the clock only to learn of a new end (htmx, every 30 s): while the end stands the
// server answers 304, and the browser hands over the clock it kept, rendered back then; so the
// difference between the server's clock and the phone's is taken once, from the first clock
// the page shows, not again from every one swapped in.
(function () {
  "use strict";
  let offset = null;
  function format(seconds) {
    const h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    const mm = String(m).padStart(2, "0"), ss = String(s).padStart(2, "0");
    return h ? h + ":" + mm + ":" + ss : mm + ":" + ss;
  }
  function tick() {
    document.querySelectorAll("[data-ends-at]").forEach(function (el) {
      if (offset === null) {
        const serverNow = Date.parse(el.dataset.now);
        offset = Number.isNaN(serverNow) ? 0 : serverNow - Date.now();
      }
      const now = Date.now() + offset;
      const left = Math.max(0, Math.round((Date.parse(el.dataset.endsAt) - now) / 1000));
      el.textContent = format(left);
      el.classList.toggle("time-up", left === 0);
      el.classList.toggle("time-short", left > 0 && left <= 600);
    });
  }
  setInterval(tick, 1000);
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSwap", tick);
})();
