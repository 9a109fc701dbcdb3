// The service worker, written by hand (no build step). Served at /sw.js (the site's root
// scope) by pages/install.py, which puts before this file the build it belongs to (BUILD)
// and the app shell's addresses (SHELL: styles, scripts, icons with their ?v= build, and the
// rules page). A deploy changes the build, so the worker's bytes: the browser installs the
// new one, which takes over at once and deletes the caches of every other build.
//
// What it answers:
// - the shell's static files: from its cache (their addresses carry the build);
// - a game's pages and the rules (GET navigations): always from the network while there is
//   one, kept as they were last seen, and shown only when the network fails;
// - a hand's Save (the round's forms' POST) the network failed: sent back to the page it came
//   from, with #not-sent, where the phone keeps it to send later (static/drafts.js).
// Nothing else is touched: no POST is kept, nor the API, nor the live parts the pages poll.
/* global BUILD, SHELL */
"use strict";
var CACHE = "quiddler-" + BUILD;
var HAND_SAVE = /^\/games\/[^/]+\/rounds\/\d+(\/seats\/\d+)?$/;
var KEPT_PAGE = /^\/(rules$|games\/(?!new$)[^/]+(\/rounds\/\d+)?\/?$)/;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.addAll(SHELL); })
    .then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) { return name !== CACHE; })
      .map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

function pageFromNetwork(request, url) {
  return fetch(request).then(function (response) {
    if (response.ok && response.type === "basic" && KEPT_PAGE.test(url.pathname)) {
      var copy = response.clone();
      caches.open(CACHE).then(function (cache) { return cache.put(url.pathname + url.search, copy); });
    }
    return response;
  }, function (failure) {
    return caches.open(CACHE).then(function (cache) {
      return cache.match(url.pathname + url.search);
    }).then(function (kept) {
      if (kept) { return kept; }
      throw failure;
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.indexOf("/api/") === 0) { return; }
  if (request.method === "POST") {
    if (request.mode !== "navigate" || !request.referrer || !HAND_SAVE.test(url.pathname)) { return; }
    var back = new URL(request.referrer);
    event.respondWith(fetch(request).catch(function () {
      return Response.redirect(back.origin + back.pathname + back.search + "#not-sent", 303);
    }));
    return;
  }
  if (request.method !== "GET") { return; }
  if (request.mode === "navigate") { // other pages: the browser's own way, untouched
    if (KEPT_PAGE.test(url.pathname)) { event.respondWith(pageFromNetwork(request, url)); }
    return;
  }
  if (url.pathname.indexOf("/static/") === 0 || url.pathname === "/favicon.ico") {
    event.respondWith(caches.open(CACHE).then(function (cache) {
      return cache.match(request).then(function (kept) { return kept || fetch(request); });
    }));
  }
});
