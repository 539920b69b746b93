// The desk: "/" anywhere but in a field puts the cursor back in "Table number", as in a search
// box; Enter there opens that table's sheet (a plain GET form, without this script too).
(function () {
  "use strict";
  document.addEventListener("keydown", function (event) {
    if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target instanceof Element && target.closest("input, textarea, select, [contenteditable]")) return;
    const field = document.getElementById("desk-table");
    if (!field) return;
    event.preventDefault();
    field.focus();
    field.select();
  });
})();
