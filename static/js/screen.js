// The venue screen shows the list of names one page at a time, turning every 12 seconds; the
// page that is showing survives the refresh of the screen's content every 30 seconds.
(function () {
  "use strict";
  let shown = 0;
  function show() {
    const pages = document.querySelectorAll(".screen-page");
    if (!pages.length) return;
    shown = shown % pages.length;
    pages.forEach(function (page, index) { page.hidden = index !== shown; });
  }
  setInterval(function () { shown += 1; show(); }, 12000);
  document.addEventListener("htmx:afterSwap", show);
})();
