// A button that asks before it sends its form: data-confirm="<question>" on the button (or on
// its form). Only for what can be taken back: without JavaScript the form is sent at once. What
// cannot be taken back asks on a page of its own instead (the round's ?ask=).
(function () {
  "use strict";
  // Capturing, so that the question comes before htmx or anything else sees the submit.
  document.addEventListener(
    "submit",
    function (event) {
      const button = event.submitter;
      const question = (button && button.dataset.confirm) || event.target.dataset.confirm;
      if (question && !window.confirm(question)) {
        event.preventDefault();
        event.stopPropagation();
      }
    },
    true
  );
})();
