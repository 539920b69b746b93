// The round clock: counts down to data-ends-at, corrected by the server's time (data-now) so
// that a phone whose own clock is wrong still shows the right time left.
(function () {
  "use strict";
  function format(seconds) {
    const h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    const mm = String(m).padStart(2, "0"), ss = String(s).padStart(2, "0");
    return h ? h + ":" + mm + ":" + ss : mm + ":" + ss;
  }
  function tick() {
    document.querySelectorAll("[data-ends-at]").forEach(function (el) {
      if (!el.dataset.offset) {
        el.dataset.offset = String(Date.parse(el.dataset.now) - Date.now());
      }
      const now = Date.now() + Number(el.dataset.offset);
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
