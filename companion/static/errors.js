// A refused form comes back with its message: bring the message into view (on a phone
// it may be far below the fold) and put the cursor in the field it names.
(function () {
  "use strict";
  var message = document.querySelector(".alert[role=alert], .error[role=alert]");
  if (!message) { return; }
  message.scrollIntoView({ block: "center" });
  var field = document.querySelector("[aria-invalid=true]");
  if (field && field.focus) { field.focus({ preventScroll: true }); }
}());
