// The scoresheet's entry row: show the inputs of the chosen way of entering a hand, and the
// soloist and solo only for contracts that have one. The page works without this script too.
(function () {
  "use strict";

  const SOLOS = new Set(["voluntary_solo", "compulsory_solo", "forced_solo"]);
  const WEDDINGS = new Set(["wedding", "silent_wedding"]);

  function firstInput(form, mode) {
    return form.querySelector(".m-" + mode + " input");
  }

  // A choice that does not belong to the hand is not sent (a disabled field is not): a normal
  // game has no soloist; a wedding played alone is a diamonds solo, and whether it was played
  // alone, and by whom, the plus seats or the Re seats say; only typed as points does it name
  // its soloist. A soloist left over from a solo before never turns a wedding into one.
  function used(form) {
    const contract = form.dataset.contract;
    const solo = SOLOS.has(contract);
    const fields = {
      solo_type: solo,
      soloist: solo || (WEDDINGS.has(contract) && form.dataset.mode === "raw"),
    };
    Object.keys(fields).forEach(function (name) {
      const field = form.elements.namedItem(name);
      if (field) {
        field.disabled = !fields[name];
      }
    });
    // At a table of five the dealer sits out and scores nothing (TSR 10.1.1), at six and
    // seven the players to his left with him (TSR 10): their points are not asked for,
    // whoever the row names as the dealer.
    const dealer = form.elements.namedItem("dealer");
    form.querySelectorAll("input[data-sits-out]").forEach(function (input) {
      const size = parseInt(input.dataset.size, 10);
      const after = (parseInt(input.dataset.seat, 10) - parseInt(dealer && dealer.value, 10) + size) % size;
      const out = dealer !== null && after < size - 4;
      if (out && !input.disabled) {
        input.value = "";
      }
      input.disabled = out;
      input.placeholder = out ? input.dataset.sitsOut : "";
    });
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
    used(form);
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

  // The row reset or filled in by the offline queue (static/js/offline-form.js).
  document.addEventListener("entry-row:changed", function (event) {
    const form = event.target.closest ? event.target.closest("form.entry") : null;
    if (form) {
      used(form);
    }
  });

  // A row swapped in after a save takes the focus to its first field (htmx may have put it back
  // on the field of the same name). On the page's first load the browser has done so already
  // (autofocus), and whoever has begun to type in a field of the row keeps it: this script may
  // run after the first keys, and taking the focus back would mix two fields' keys into one.
  // htmx registered its own start on DOMContentLoaded before this script (base.html loads it
  // first), so the row's triggers are in place when this runs.
  function setUp(root, loading) {
    root.querySelectorAll("form.entry").forEach(function (form) {
      sync(form, false);
      const focused = form.querySelector("[autofocus]");
      const typing = loading && form.contains(document.activeElement);
      if (focused && !typing && document.activeElement !== focused) {
        focused.focus();
      }
      if (typing) {
        // Keys typed before htmx had loaded asked for no live check: ask for it now.
        form.dispatchEvent(new Event("change", { bubbles: true }));
      }
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    setUp(document, true);
  });

  // A new hand's answer (scoring/views/saved.py) leaves the rest of the sheet as it was: the
  // forms below it name the version the answer says, as a whole sheet's answer would.
  document.addEventListener("htmx:afterSwap", function (event) {
    const xhr = event.detail.xhr;
    const version = xhr && xhr.getResponseHeader("X-Sheet-Version");
    if (!version) {
      return;
    }
    document.querySelectorAll("#sheet-body input[name=version]").forEach(function (input) {
      input.value = version;
    });
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    setUp(event.target, false);
  });
})();
