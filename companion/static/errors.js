// Messages where the person is looking.
// A confirmation (flash) comes at the top of the page, but a page reached at a place (its
// address's #fragment, or the element marked data-landing) is looked at there: the
// messages move to just before that place and, for a #fragment, onto the screen (inside
// a live part, board.js's next new copy, after another phone's change, drops them: they
// were shown and announced); a folded <details> at that place opens. Still announced
// (role=status or alert, as rendered).
// A refused form comes back with its message: bring the message into view (on a phone
// it may be far below the fold) and put the cursor in the field it names.
(function () {
  "use strict";
  var flashes = Array.prototype.slice.call(document.querySelectorAll("main > .flash"));
  var id = window.location.hash ? decodeURIComponent(window.location.hash.slice(1)) : "";
  var place = (id && document.getElementById(id)) || document.querySelector("[data-landing]");
  if (place) {
    var fold = place.tagName === "DETAILS" ? place : null;
    if (fold) { fold.open = true; }
    flashes.forEach(function (f) { place.parentNode.insertBefore(f, place); });
    if (id && flashes.length) {
      var land = function () { flashes[0].scrollIntoView({ block: "start" }); };
      land();
      window.addEventListener("load", function () { window.setTimeout(land, 0); });
    }
  }
  var message = document.querySelector(".alert[role=alert], .error[role=alert]");
  if (!message) { return; }
  message.scrollIntoView({ block: "center" });
  var field = document.querySelector("[aria-invalid=true]");
  if (field && field.focus) { field.focus({ preventScroll: true }); }
}());
