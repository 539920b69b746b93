// The scoresheet's entry row: show the inputs of the chosen way of entering a hand, and the
// soloist and solo only for contracts that have one. The page works without this script too.
(function () {
  "use strict";

  function firstInput(form, mode) {
    return form.querySelector(".m-" + mode + " input");
  }

  function sync(form, focus) {
    const mode = form.querySelector("input[name=mode]:checked");
    const contract = form.querySelector("select[name=contract]");
    if (mode) {
      form.dataset.mode = mode.value;
    }
    if (contract) {
      form.dataset.contract = contract.value;
    }
    if (focus && mode) {
      const input = firstInput(form, mode.value);
      if (input) {
        input.focus();
      }
    }
  }

  document.addEventListener("change", function (event) {
    const form = event.target.closest("form.entry");
    if (form) {
      sync(form, event.target.name === "mode");
    }
  });

  // Keyboard first: Enter saves the row from a drop-down too, as it does from a text field.
  document.addEventListener("keydown", function (event) {
    const form = event.target.closest("form.entry");
    if (form && event.key === "Enter" && event.target.tagName === "SELECT") {
      event.preventDefault();
      form.requestSubmit();
    }
  });

  function setUp(root) {
    root.querySelectorAll("form.entry").forEach(function (form) {
      sync(form, false);
      const focused = form.querySelector("[autofocus]");
      if (focused && document.activeElement !== focused) {
        focused.focus();
      }
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    setUp(document);
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    setUp(event.target);
  });
})();
