// Keep the live parts of a page current (the leaderboard, the round's hands and bonus to
// beat): every few seconds (data-poll-ms, 3000 by default) ask for each with the ETag we
// hold; the server answers 304 (nothing to do) until another phone changes the game. A
// part the person is using (a menu open, a box focused) is left alone until they leave it.
(function () {
  "use strict";
  if (!window.fetch) { return; }
  var parts = document.querySelectorAll("[data-live-url]");
  Array.prototype.forEach.call(parts, function (live) {
    var url = live.getAttribute("data-live-url");
    var tag = null;
    var every = parseInt(live.getAttribute("data-poll-ms"), 10) || 3000;

    function busy() {
      return live.contains(document.activeElement) && document.activeElement !== document.body;
    }

    function poll() {
      var headers = tag ? { "If-None-Match": tag } : {};
      fetch(url, { headers: headers, cache: "no-cache", credentials: "same-origin" })
        .then(function (response) {
          if (response.status !== 200) { return null; }
          var first = tag === null;
          var next = response.headers.get("ETag");
          return response.text().then(function (html) {
            if (first) { tag = next; return; }
            if (busy()) { return; } // keep the old tag: replaced on a later poll
            tag = next;
            live.innerHTML = html;
            // The forms of the page no longer fit (the round was closed, reopened, or can
            // be entered now): load the page again rather than show a stale form.
            var part = live.querySelector("[data-form]");
            if (part && live.hasAttribute("data-form") &&
                part.getAttribute("data-form") !== live.getAttribute("data-form")) {
              window.location.reload();
            }
          });
        })
        .catch(function () { /* offline for a moment: try again later */ })
        .then(function () { window.setTimeout(poll, every); });
    }
    poll();
  });
}());
