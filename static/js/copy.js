// Copy buttons: a button with data-copy="<id>" copies the value of that field (an invitation
// link) and then says data-copied. The buttons are hidden until this script shows them; without
// it the field can still be selected and copied by hand.
(function () {
  "use strict";
  function copy(button) {
    const field = document.getElementById(button.dataset.copy);
    if (!field) return;
    const done = function () { button.textContent = button.dataset.copied; };
    const byHand = function () {
      field.select();
      if (document.execCommand("copy")) done();
    };
    // The clipboard API needs a secure context, which a venue's plain-http address is not.
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(done, byHand);
    } else {
      byHand();
    }
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-copy]").forEach(function (button) {
      button.hidden = false;
      button.addEventListener("click", function () { copy(button); });
    });
  });
})();
