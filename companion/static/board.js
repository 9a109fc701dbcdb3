// Keep the leaderboard current: every few seconds (data-poll-ms, 3000 by default) ask for
// it with the ETag we hold; the server answers 304 (nothing to do) until another phone
// changes the game.
(function () {
  "use strict";
  var live = document.getElementById("board-live");
  if (!live || !window.fetch) { return; }
  var url = live.getAttribute("data-board-url");
  var tag = null;
  var every = parseInt(live.getAttribute("data-poll-ms"), 10) || 3000;

  function poll() {
    var headers = tag ? { "If-None-Match": tag } : {};
    fetch(url, { headers: headers, cache: "no-cache", credentials: "same-origin" })
      .then(function (response) {
        if (response.status === 200) {
          var first = tag === null;
          tag = response.headers.get("ETag");
          return response.text().then(function (html) { if (!first) { live.innerHTML = html; } });
        }
        return null;
      })
      .catch(function () { /* offline for a moment: try again later */ })
      .then(function () { window.setTimeout(poll, every); });
  }
  poll();
}());
