// Nothing a phone typed into a hand is lost. Loaded on every page before round.js; it acts
// on a round form (the seat form, or the scorekeeper's every-hand form) only.
//
// Drafts: what a hand's boxes hold (words, left over, went out; round.js writes the chips
// into the boxes) is kept in localStorage per game, round and seat, with the hand's version
// on the page it was typed on, until the page shows it saved. On the next load (a reload,
// Back, a crashed tab) a draft is put back into the boxes, before round.js reads them, with
// a note and a way to discard it; but when the hand's version on the page moved on since the
// draft was started (saved from elsewhere), the draft is offered, not applied: the person
// sees both and chooses. A page showing the draft's words under a newer version means the
// save landed: the draft goes.
//
// Offline saves: a Save made while the phone is offline (or with a page older than its form's
// token) stays on the phone as "not sent yet" (the outbox, per form) and is sent when the
// connection returns (the `online` event, and on the next load of the form) by the same
// form POST with the version it was typed against, so the server's per-hand check decides
// (a clash is shown as the server answers it). It is marked in flight before it goes and
// cleared by the next page the server answers, so it is never sent twice. The token sent is
// the page's own, fresh on a load. A POST the network failed comes back, through the service
// worker, to the form's page with #not-sent: back in the outbox.
(function () {
  "use strict";
  var _ = window._;
  var form = document.querySelector("form.round-form");
  if (!form) { return; }
  var place = /\/games\/([^/]+)\/rounds\/(\d+)/.exec(new URL(form.action, location.href).pathname);
  if (!place) { return; }
  var DRAFT = "quiddler.draft." + place[1] + "." + place[2] + ".";
  var OUTBOX = "quiddler.outbox." + new URL(form.action, location.href).pathname;
  var KEEP_MS = 3 * 24 * 3600 * 1000; // a draft older than three days is dropped unread
  var script = document.querySelector("script[data-form-max-age]");
  var maxAge = (parseInt(script && script.getAttribute("data-form-max-age"), 10) || 3600) * 1000;
  var loadedAt = Date.now();
  var RETRY_MS = 5000; // the first new try after a Save the network failed

  function load(key) {
    try { return JSON.parse(window.localStorage.getItem(key) || "null"); } catch (err) { return null; }
  }
  function store(key, value) {
    try {
      if (value === null) { window.localStorage.removeItem(key); }
      else { window.localStorage.setItem(key, JSON.stringify(value)); }
    } catch (err) { /* private mode or full: the page still works, without drafts */ }
  }
  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }
  function button(text, cls, onClick) {
    var b = el("button", "secondary " + cls, text);
    b.type = "button";
    b.addEventListener("click", onClick);
    return b;
  }

  // Drafts and saves of other rounds and games, left for days: dropped (a phone plays many).
  try {
    Object.keys(window.localStorage).forEach(function (key) {
      if (!/^quiddler\.(draft|outbox)\./.test(key)) { return; }
      var kept = load(key);
      if (!kept || Date.now() - (kept.t || 0) > KEEP_MS) { window.localStorage.removeItem(key); }
    });
  } catch (err) { /* no storage */ }

  // --- the hands ---------------------------------------------------------------------------
  var hands = [];
  Array.prototype.forEach.call(form.querySelectorAll("fieldset.entry[data-seat]"), function (set) {
    var words = set.querySelector(".words-input");
    var left = set.querySelector(".unused-input");
    if (!words || !left) { return; }
    var version = set.querySelector("input[name$=version]") || form.querySelector("input[name=version]");
    var h = { set: set, words: words, left: left, out: set.querySelector("input[name=went_out]"),
              version: version, key: DRAFT + set.getAttribute("data-seat"), note: null };
    h.shown = content(h); // what the server's page shows for this hand
    h.page = version ? version.value : "";
    hands.push(h);
  });
  if (!hands.length) { return; }

  function content(h) { // the words as typed: a trailing space means the next card starts a word
    return { w: h.words.value.replace(/^\s+/, ""), u: h.left.value.trim(), o: !!(h.out && h.out.checked) };
  }
  function same(a, b) { return a.w.trim() === b.w.trim() && a.u === b.u && a.o === b.o; }
  function put(h, c, announce) { // into the boxes; after load, round.js re-reads them
    h.words.value = c.w;
    h.left.value = c.u;
    if (h.out) {
      if (c.o || h.out.type === "checkbox") { h.out.checked = c.o; }
      else if (h.out.checked) {
        var nobody = form.querySelector("input[name=went_out][value='']");
        if (nobody) { nobody.checked = true; } else { h.out.checked = false; }
      }
    }
    if (announce) {
      h.words.dispatchEvent(new Event("input", { bubbles: true }));
      h.left.dispatchEvent(new Event("input", { bubbles: true }));
      if (h.out) { h.out.dispatchEvent(new Event("change", { bubbles: true })); }
    }
  }
  function words(c) {
    var text = c.w.trim() ? c.w.trim().toUpperCase() : "—";
    if (c.u) { text += " · " + _("left over") + " " + c.u.toUpperCase(); }
    return text;
  }
  function clearNote(h) { if (h.note) { h.note.remove(); h.note = null; } }
  function note(h, text, actions) {
    clearNote(h);
    h.note = el("div", "draft-note");
    h.note.setAttribute("role", "status");
    h.note.appendChild(el("p", "", text));
    var row = el("p", "draft-actions");
    actions.forEach(function (b) { row.appendChild(b); });
    h.note.appendChild(row);
    var legend = h.set.querySelector("legend");
    h.set.insertBefore(h.note, legend ? legend.nextSibling : h.set.firstChild);
  }
  function discard(h) {
    return button(_("Discard it"), "draft-discard", function () {
      store(h.key, null);
      put(h, h.shown, true);
      clearNote(h);
    });
  }

  function saveDraft(h) {
    var now = content(h);
    var old = load(h.key);
    if (same(now, h.shown)) { // back to what is saved: nothing unsaved
      if (old && old.v === h.page) { store(h.key, null); }
      return;
    }
    store(h.key, { w: now.w, u: now.u, o: now.o, v: old && !old.offered ? old.v : h.page, t: Date.now() });
  }

  // Put each hand's draft back (before round.js reads the boxes), or offer it.
  hands.forEach(function (h) {
    var d = load(h.key);
    if (!d || typeof d.w !== "string" || Date.now() - (d.t || 0) > KEEP_MS) { store(h.key, null); return; }
    var c = { w: d.w, u: d.u || "", o: !!d.o };
    var clash = h.set.querySelector("#clash");
    if (same(c, h.shown)) {
      // The page shows the draft: saved (its version moved on), unless this is the server's
      // clash or refusal answer showing what was typed, still unsaved.
      if (d.v !== h.page && !clash) { store(h.key, null); }
      return;
    }
    if (d.v === h.page || clash) {
      put(h, c, false);
      h.set.setAttribute("data-draft", ""); // round.js: the last word stays open, as it was
      note(h, _("Your unsaved hand was brought back."), [discard(h)]);
      return;
    }
    d.offered = true;
    store(h.key, d);
    note(h, _("This hand was saved again from elsewhere after you typed yours. Yours, not saved: {hand}", { hand: words(c) }), [
      button(_("Use mine"), "draft-use", function () {
        put(h, c, true);
        store(h.key, { w: c.w, u: c.u, o: c.o, v: h.page, t: Date.now() });
        note(h, _("Your unsaved hand is back in the boxes."), [discard(h)]);
      }),
      discard(h)
    ]);
  });

  // Keep the draft as the person types and taps (round.js's handlers run first, on the
  // element touched; this listens on the form, after them).
  function later() { window.setTimeout(function () { hands.forEach(saveDraft); }, 0); }
  ["input", "change", "click"].forEach(function (type) { form.addEventListener(type, later); });
  window.addEventListener("pagehide", function () { hands.forEach(saveDraft); });
  var keepSaved = form.querySelector("#keep-saved"); // the clash: "Keep what is saved"
  if (keepSaved) {
    keepSaved.addEventListener("click", function () { hands.forEach(function (h) { store(h.key, null); }); });
  }

  // --- the outbox ---------------------------------------------------------------------------
  var pending = el("p", "outbox-note");
  pending.setAttribute("role", "status");
  pending.hidden = true;
  var submit = form.querySelector("button[type=submit]");
  form.insertBefore(pending, submit || null);
  var replaying = false; // the outbox's own submit, on its way
  var sent = false; // this page's form has gone: a second tap would send it twice
  window.addEventListener("pageshow", function (ev) { if (ev.persisted) { sent = false; replaying = false; } });

  function fields() {
    var list = [];
    Array.prototype.forEach.call(form.elements, function (node) {
      // (a hand's photo can't be kept on the phone: it goes only with a Save that is sent)
      if (!node.name || node.name === "csrf_token" || node.disabled || node.type === "file") { return; }
      if ((node.type === "checkbox" || node.type === "radio") && !node.checked) { return; }
      if (node.tagName === "BUTTON") { return; }
      list.push([node.name, node.type === "text" ? node.value.trim() : node.value]);
    });
    return list;
  }
  function fill(list) {
    Array.prototype.forEach.call(form.elements, function (node) {
      if (!node.name || node.name === "csrf_token" || node.tagName === "BUTTON" || node.type === "file") { return; }
      var given = list.filter(function (pair) { return pair[0] === node.name; });
      if (node.type === "checkbox" || node.type === "radio") {
        node.checked = given.some(function (pair) { return pair[1] === node.value; });
      } else if (given.length) {
        node.value = given[0][1];
      }
    });
  }
  function showPending(entry) {
    pending.hidden = !entry;
    pending.textContent = entry ? _("Not sent yet: your hand will be sent when this phone is back online.") : "";
  }
  function tooOld() { return Date.now() - loadedAt > maxAge - 60 * 1000; }

  function send() {
    var entry = load(OUTBOX);
    if (!entry || entry.state !== "waiting" || sent || navigator.onLine === false) { return; }
    if (tooOld()) { window.location.reload(); return; } // a fresh token first, then it is sent
    entry.state = "sending"; // in flight: the next page the server answers clears it
    store(OUTBOX, entry);
    fill(entry.fields);
    replaying = true;
    pending.textContent = _("Sending your hand…");
    if (form.requestSubmit) { form.requestSubmit(submit || undefined); } else { form.submit(); }
  }

  form.addEventListener("submit", function (ev) {
    if (replaying) { replaying = false; sent = true; return; }
    if (sent) { ev.preventDefault(); return; }
    if (navigator.onLine === false || tooOld()) {
      ev.preventDefault();
      hands.forEach(saveDraft);
      var entry = { state: "waiting", fields: fields(), t: Date.now() };
      store(OUTBOX, entry);
      showPending(entry);
      pending.scrollIntoView({ block: "nearest" });
      if (navigator.onLine !== false) { send(); } // only the token was too old
      return;
    }
    hands.forEach(saveDraft); // kept until the page shows it saved
    sent = true;
    // In flight: the page the server answers clears it; a POST the network failed comes
    // back (through the service worker) with #not-sent and waits here.
    store(OUTBOX, { state: "sending", fields: fields(), t: Date.now() });
  });

  var entry = load(OUTBOX);
  if (entry && entry.state === "sending") { // answered: this is the page the server sent
    if (location.hash === "#not-sent") {
      entry.state = "waiting";
      entry.tries = (entry.tries || 0) + 1;
      store(OUTBOX, entry);
    } else { store(OUTBOX, null); entry = null; }
  }
  var failed = location.hash === "#not-sent";
  if (failed && window.history.replaceState) { // a reload sends it
    window.history.replaceState(null, "", location.pathname + location.search);
  }
  if (entry && entry.state === "waiting") {
    fill(entry.fields);
    showPending(entry);
    // Not at once after a POST the network failed (the network may be coming back, or the
    // server away for a while): again after 5 s, then 10 s, 20 s... up to 5 minutes; or at
    // once on the next load, the `online` event or Save.
    if (failed) {
      window.setTimeout(send, Math.min(RETRY_MS * Math.pow(2, (entry.tries || 1) - 1), 300000));
    } else { send(); }
  }
  window.addEventListener("online", send);
}());
