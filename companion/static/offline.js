// On every page: a banner while the phone is offline, the service worker registered (the
// app shell and the last pages of each game kept for when the network is gone, sw.js), and
// on a game's pages (those with a live part: the game, its rounds, the leaderboard) the
// screen kept on while the page is visible and in use.
(function () {
  "use strict";
  var _ = window._;
  var script = document.currentScript || document.querySelector("script[data-sw]");

  // --- the offline banner -----------------------------------------------------------------
  var banner = document.createElement("div");
  banner.className = "offline-banner";
  banner.id = "offline-banner";
  banner.setAttribute("role", "status");
  banner.hidden = true;
  var header = document.querySelector("header.bar");
  document.body.insertBefore(banner, header ? header.nextSibling : document.body.firstChild);
  function network() {
    var offline = navigator.onLine === false;
    banner.textContent = offline ? _("You are offline: what you see may be old.") : "";
    banner.hidden = !offline;
  }
  window.addEventListener("online", network);
  window.addEventListener("offline", network);
  network();

  // --- the service worker -------------------------------------------------------------------
  var worker = script && script.getAttribute("data-sw");
  if (worker && "serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register(worker, { scope: "/" }).catch(function () { /* works without */ });
  }

  // --- the screen kept on -------------------------------------------------------------------
  // Asked for on a game's page when it loads and whenever it is shown again; let go after
  // IDLE_MS without a touch, a key or a scroll (a phone forgotten on the table goes dark as
  // usual), asked for again at the next touch. "Keep the screen on" (remembered by the phone)
  // turns it off.
  var IDLE_MS = 10 * 60 * 1000;
  var PREF = "quiddler.wakelock";
  if (!document.querySelector("[data-live-url]") || !navigator.wakeLock) { return; }
  var main = document.querySelector("main");
  var lock = null;
  var asking = false;
  var last = Date.now();
  function wanted() {
    try { return window.localStorage.getItem(PREF) !== "off"; } catch (err) { return true; }
  }
  function ask() {
    if (lock || asking || !wanted() || document.visibilityState !== "visible") { return; }
    if (Date.now() - last > IDLE_MS) { return; }
    asking = true;
    navigator.wakeLock.request("screen").then(function (sentinel) {
      asking = false;
      if (!wanted() || document.visibilityState !== "visible") { sentinel.release(); return; }
      lock = sentinel;
      sentinel.addEventListener("release", function () { if (lock === sentinel) { lock = null; } });
    }, function () { asking = false; /* refused (battery saver...): the screen behaves as usual */ });
  }
  function letGo() {
    if (lock) { var held = lock; lock = null; held.release().catch(function () {}); }
  }
  ["pointerdown", "touchstart", "keydown", "scroll", "wheel"].forEach(function (type) {
    window.addEventListener(type, function () { last = Date.now(); ask(); }, { passive: true });
  });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { last = Date.now(); ask(); } else { letGo(); }
  });
  window.setInterval(function () { if (Date.now() - last > IDLE_MS) { letGo(); } }, 30 * 1000);

  var row = document.createElement("p");
  row.className = "field check wake-toggle";
  var box = document.createElement("input");
  box.type = "checkbox";
  box.id = "wake-toggle";
  box.checked = wanted();
  var label = document.createElement("label");
  label.htmlFor = "wake-toggle";
  label.textContent = _("Keep the screen on while this page is open");
  row.appendChild(box);
  row.appendChild(document.createTextNode(" "));
  row.appendChild(label);
  if (main) { main.appendChild(row); }
  box.addEventListener("change", function () {
    try { window.localStorage.setItem(PREF, box.checked ? "on" : "off"); } catch (err) { /* private mode */ }
    if (box.checked) { last = Date.now(); ask(); } else { letGo(); }
  });
  ask();
}());
