// Requests of a page that fail (htmx): say so above the page instead of doing nothing. A refusal
// with a message of its own (text/plain, e.g. 429 "too many requests") shows that message; a
// lost connection (the venue's Wi-Fi) or a server error shows the page's own translated text.
// Where the sheet page's offline queue takes a failed request over (static/js/offline-queue.js
// keeps the hand and says so), it cancels the event and nothing is shown here.
(function () {
  "use strict";

  function show(text) {
    const box = document.getElementById("request-error");
    if (!box) {
      return;
    }
    box.querySelector(".message").textContent = text;
    box.hidden = false;
    box.scrollIntoView({ block: "nearest" });
  }

  document.addEventListener("htmx:responseError", function (event) {
    if (event.defaultPrevented) {
      return;
    }
    const xhr = event.detail.xhr;
    const box = document.getElementById("request-error");
    const type = xhr.getResponseHeader("Content-Type") || "";
    if (type.startsWith("text/plain") && xhr.responseText) {
      show(xhr.responseText);
    } else if (box) {
      show(box.dataset.failed);
    }
  });

  document.addEventListener("htmx:sendError", function (event) {
    if (event.defaultPrevented) {
      return;
    }
    const box = document.getElementById("request-error");
    if (box) {
      show(box.dataset.offline);
    }
  });

  // A request that succeeds again clears the warning.
  document.addEventListener("htmx:afterRequest", function (event) {
    const box = document.getElementById("request-error");
    if (box && event.detail.successful) {
      box.hidden = true;
    }
  });

  document.addEventListener("click", function (event) {
    if (event.target.closest("#request-error .btn-close")) {
      document.getElementById("request-error").hidden = true;
    }
  });
})();
