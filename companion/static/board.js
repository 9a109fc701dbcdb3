// Keep the live parts of a page current (the leaderboard, the round's hands and bonus to
// beat): every few seconds (data-poll-ms, 3000 by default) ask for each with the ETag of
// what the page shows (data-etag; without it, the first answer is compared with the
// page by its data-version), so a change made between the page being served and the
// first poll is shown too; the server answers 304 until another phone changes the game.
// A part the person is using (a menu open, a box focused) is left alone until they
// leave it. While polls fail (no network, the server away) the part is marked as possibly
// out of date (a note above it, data-stale), until a poll is answered again.
//
// The answer is the same for every phone (a cache in front may share it): what is this
// phone's own is put back here. Its seat (data-my-seat: the seat's data-mine marks
// shown, data-mine-text as a link's words), a note for phones without a form hidden
// (data-form, data-unless-form), buttons of a form of the page shown where that form is
// (data-if-form: the vote buttons, form="vote-form"), the scorekeeper's forms (each data-keep element moved
// into the new copy's data-slot of the same name). And when the page's own forms no
// longer fit (data-watch names the live part's marks they were rendered for: the round
// closed or reopened, scored, challenged), the page loads itself again, once nobody is
// typing in it.
//
// What changed is said once, politely, to a screen reader ("Ben's hand is in.", "Round 2
// is scored.", "The table votes on KIM: is it legal?"): in one visually hidden status
// line of the page (#live-news), never in the parts replaced (a live region whose whole
// content is replaced reads all of it). A sentence due when the page reloads itself is
// kept for the reloaded page to say.
(function () {
  "use strict";
  if (!window.fetch) { return; }
  function each(root, selector, fn) {
    Array.prototype.forEach.call(root.querySelectorAll(selector), fn);
  }
  var parts = document.querySelectorAll("[data-live-url]");
  if (!parts.length) { return; }
  var NEWS_KEY = "quiddler-live-news";
  var news = document.createElement("p");
  news.className = "vh";
  news.id = "live-news";
  news.setAttribute("role", "status");
  document.body.appendChild(news);
  function announce(sentences) {
    if (sentences.length) { news.textContent = sentences.join(" "); }
  }
  try { // said after the reload, once the status line is in place and listened to
    var kept = window.sessionStorage.getItem(NEWS_KEY);
    window.sessionStorage.removeItem(NEWS_KEY);
    if (kept) { window.setTimeout(function () { announce([kept]); }, 500); }
  } catch (e) { /* no storage: nothing kept */ }

  // What a part shows that is worth saying when it changes: the seats whose hand is in
  // (by seat, with the name), whether the round is scored, closed, the closed rounds of
  // the leaderboard, and the table's open votes.
  function facts(root) {
    var seats = {};
    each(root, ".seat-state.in[data-seat]", function (li) {
      var name = li.querySelector(".seat-name");
      seats[li.getAttribute("data-seat")] = name && name.firstChild ? name.firstChild.nodeValue.trim() : "";
    });
    each(root, ".round-score[data-seat]", function (span) { // every hand in: one line of scores
      seats[span.getAttribute("data-seat")] = span.getAttribute("data-name") || "";
    });
    var rounds = [];
    each(root, ".rounds-table tbody th[scope=row]", function (th) { rounds.push(th.textContent.trim()); });
    var votes = []; // the table's open votes, each in the server's words (the page's language)
    each(root, ".vote-call", function (p) { votes.push(p.textContent.trim()); });
    return { seats: seats, scored: !!root.querySelector("#breakdown"),
             closed: !!root.querySelector(".round-standings"), rounds: rounds, votes: votes };
  }
  function sentences(before, after, number) {
    var said = [];
    Object.keys(after.seats).forEach(function (seat) {
      if (!(seat in before.seats) && after.seats[seat]) {
        said.push(_("{name}'s hand is in.", { name: after.seats[seat] }));
      }
    });
    if (number && after.scored && !before.scored) { said.push(_("Round {n} is scored.", { n: number })); }
    after.votes.forEach(function (v) { if (before.votes.indexOf(v) < 0) { said.push(v); } });
    var closed = after.rounds.filter(function (r) { return before.rounds.indexOf(r) < 0; });
    if (number && after.closed && !before.closed) { closed.push(number); }
    closed.forEach(function (n) { said.push(_("Round {n} is closed: the leaderboard is updated.", { n: n })); });
    return said;
  }
  Array.prototype.forEach.call(parts, function (live) {
    var url = live.getAttribute("data-live-url");
    var tag = live.getAttribute("data-etag");
    var every = parseInt(live.getAttribute("data-poll-ms"), 10) || 3000;
    var seat = live.getAttribute("data-my-seat");
    var hasForm = !!live.getAttribute("data-form");
    var watch = (live.getAttribute("data-watch") || "").split(/\s+/).filter(Boolean);
    var number = (/\/rounds\/(\d+)\/live/.exec(url) || [])[1]; // a round's part, not the board
    var rendered = live.querySelector("[data-version]");
    var fits = {};
    watch.forEach(function (name) {
      fits[name] = rendered ? rendered.getAttribute("data-" + name) : null;
    });
    var reloadDue = false;
    var unsaid = ""; // the sentences of the change that makes the page reload itself
    var leaving = false; // a form of the page is being sent: a reload would cancel it
    document.addEventListener("submit", function (ev) {
      if (!ev.defaultPrevented) { leaving = true; }
    });
    window.addEventListener("pageshow", function (ev) { // back to this page (Back button)
      if (ev.persisted) { leaving = false; }
    });

    function busy() {
      return live.contains(document.activeElement) && document.activeElement !== document.body;
    }
    function typing() { // a box of the page's own forms has the focus: its words would be lost
      var el = document.activeElement;
      return !!el && /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName);
    }
    function versionOf(root) {
      var part = root.querySelector("[data-version]");
      return part ? part.getAttribute("data-version") : null;
    }
    function reloadWhenIdle() {
      reloadDue = true;
      if (!typing() && !leaving) {
        try {
          if (unsaid) { window.sessionStorage.setItem(NEWS_KEY, unsaid); }
        } catch (e) { /* no storage: the reloaded page shows it */ }
        window.location.reload();
      }
    }

    function show(html) {
      var kept = Array.prototype.slice.call(live.querySelectorAll("[data-keep]"));
      var before = facts(live);
      live.innerHTML = html;
      var said = sentences(before, facts(live), number);
      announce(said);
      if (seat !== null) {
        each(live, "[data-seat='" + seat + "'] [data-mine]", function (el) { el.hidden = false; });
        each(live, "[data-mine-text]", function (el) {
          el.textContent = el.getAttribute("data-mine-text");
        });
      }
      if (hasForm) { each(live, "[data-unless-form]", function (el) { el.hidden = true; }); }
      each(live, "[data-if-form]", function (el) { // buttons of a form of this page (form=)
        el.hidden = !document.getElementById(el.getAttribute("data-if-form"));
      });
      kept.forEach(function (el) {
        var slot = live.querySelector("[data-slot='" + el.getAttribute("data-keep") + "']");
        if (slot) { slot.appendChild(el); }
      });
      var part = live.querySelector("[data-version]");
      var stale = watch.some(function (name) {
        return !part || part.getAttribute("data-" + name) !== fits[name];
      });
      if (stale) {
        if (said.length) { unsaid = said.join(" "); }
        reloadWhenIdle();
      }
    }

    var staleNote = null;
    function stale(failed) { // mark the part as possibly old while polls fail
      if (failed === live.hasAttribute("data-stale")) { return; }
      if (failed) {
        live.setAttribute("data-stale", "");
        staleNote = document.createElement("p");
        staleNote.className = "stale-note";
        staleNote.setAttribute("role", "status");
        staleNote.textContent = window._("Not updated: this may be out of date. Trying again…");
        live.parentNode.insertBefore(staleNote, live);
      } else {
        live.removeAttribute("data-stale");
        if (staleNote) { staleNote.remove(); staleNote = null; }
      }
    }

    function poll() {
      if (reloadDue) { reloadWhenIdle(); }
      var headers = tag ? { "If-None-Match": tag } : {};
      fetch(url, { headers: headers, cache: "no-cache", credentials: "same-origin" })
        .then(function (response) {
          stale(response.status !== 200 && response.status !== 304);
          if (response.status !== 200) { return null; }
          var next = response.headers.get("ETag");
          return response.text().then(function (html) {
            if (busy()) { return; } // keep the old tag: replaced on a later poll
            var first = tag === null;
            tag = next;
            if (first) { // the page shows this version already: nothing to replace
              var box = document.createElement("div");
              box.innerHTML = html;
              if (versionOf(box) !== null && versionOf(box) === versionOf(live)) { return; }
            }
            show(html);
          });
        })
        .catch(function () { stale(true); /* offline for a moment: try again later */ })
        .then(function () { window.setTimeout(poll, every); });
    }
    poll();
  });
}());
