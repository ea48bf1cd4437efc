// The service worker: keeps a copy of the app so it opens without the daemon (offline, or
// while aviator-adsb restarts) and then waits for the feed. Each request goes to the network
// first, so a new daemon's app is used as soon as it is reachable; the copy is the fallback.

const CACHE = "aviator-adsb-app-v5";
const FILES = [
  "./", "index.html", "style.css", "history.css", "app.js", "almanac.js", "angles.js", "card.js", "compass.js",
  "controls.js", "declutter.js", "feed.js", "gestures.js", "history.js", "history-panel.js", "kid.js", "list.js",
  "location.js", "orientation.js", "palette.js", "pinhole.js", "projection.js", "radar.js", "rewind.js", "settings.js",
  "silhouettes.js", "sky.js", "skygrid.js", "skymarkers.js", "skysensors.js", "skyview.js", "words.js",
  "manifest.webmanifest", "icon.svg", "icon-192.png", "icon-512.png",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  // Only the app's own files: the feed and /data are live or nothing.
  if (event.request.method !== "GET" || url.origin !== self.location.origin || url.pathname.startsWith("/data/")
      || url.pathname === "/feed") {
    return;
  }
  event.respondWith(
    fetch(event.request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(event.request, copy)).catch(() => {});
        }
        return response;
      })
      .catch(() => caches.match(event.request, { ignoreSearch: true })
        .then((cached) => cached ?? caches.match("index.html"))
        .then((cached) => cached ?? new Response("offline", { status: 503, headers: { "Content-Type": "text/plain" } }))),
  );
});
