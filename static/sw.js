// The service worker: keeps the app's own static files (style, script, icons) on the phone so
// pages open fast on a weak connection. Pages themselves are never cached: they change with
// every action and carry each table's secret link.
"use strict";
var CACHE = "companion-static-v2";
// Every page's own files; a game's stylesheet and script are kept once a page of it loads them.
var ASSETS = ["/static/app.css", "/static/app.js", "/static/icons/icon.svg",
  "/static/icons/icon-192.png", "/static/icons/icon-512.png"];

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.addAll(ASSETS); }));
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k !== CACHE; })
      .map(function (k) { return caches.delete(k); }));
  }));
  self.clients.claim();
});

// Static files: the network first (so a new version shows at once), the cache when offline.
self.addEventListener("fetch", function (event) {
  var url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin ||
      !url.pathname.startsWith("/static/")) return;
  event.respondWith(fetch(event.request).then(function (response) {
    var copy = response.clone();
    caches.open(CACHE).then(function (cache) { cache.put(event.request, copy); });
    return response;
  }).catch(function () { return caches.match(event.request); }));
});
