// Dates in the phone's own time zone and language: each <time datetime="...Z" data-local>
// the server wrote in UTC is written again by Intl.DateTimeFormat in the page's language.
// Without Intl (or with a date it can't read) the server's text stays.
(function () {
  "use strict";
  if (typeof Intl === "undefined" || typeof Intl.DateTimeFormat !== "function") { return; }
  var lang = document.documentElement.lang || "en";
  var format;
  try {
    format = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" });
    if (!format.resolvedOptions().dateStyle) {  // an older browser: the same by its parts
      format = new Intl.DateTimeFormat(lang, {
        year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit"
      });
    }
  } catch (e) {
    return;
  }
  var nodes = document.querySelectorAll("time[data-local]");
  for (var i = 0; i < nodes.length; i++) {
    var when = new Date(nodes[i].getAttribute("datetime"));
    if (!isNaN(when.getTime())) {
      nodes[i].textContent = format.format(when);
    }
  }
}());
