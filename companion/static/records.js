// A table's records still being worked out (a table never seen before: a few seconds of
// games a request): the page asks again by itself, a second later, until every game is
// counted; never while someone is typing into one of its forms (what they typed stays).
(function () {
  "use strict";
  if (!document.querySelector("[data-records-pending]")) { return; }
  var typed = false;
  document.addEventListener("input", function () { typed = true; });
  function again() {
    var active = document.activeElement;
    var busy = active && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName);
    if (typed || busy || document.hidden) { setTimeout(again, 2000); return; }
    location.reload();
  }
  setTimeout(again, 1000);
})();
