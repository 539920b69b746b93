// The venue screen shows the list of names one page at a time, turning every 12 seconds; the
// page that is showing survives the refresh of the screen's content every 30 seconds. When the
// refresh brings other content (the round is over: the next round's seating or the standings),
// it starts again at its first page.
(function () {
  "use strict";
  let shown = 0;
  function kind() {
    const first = document.querySelector(".screen-page");
    const title = document.querySelector("#screen .h3");
    return (first ? first.className : "") + "|" + (title ? title.textContent : "");
  }
  let showing = kind();  // deferred: the page is parsed
  function show() {
    const now = kind();
    if (now !== showing) {
      shown = 0;
      showing = now;
    }
    const pages = document.querySelectorAll(".screen-page");
    if (!pages.length) return;
    shown = shown % pages.length;
    pages.forEach(function (page, index) { page.hidden = index !== shown; });
  }
  setInterval(function () { shown += 1; show(); }, 12000);
  document.addEventListener("htmx:afterSwap", show);
})();
