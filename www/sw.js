// Offline (issue 24): after one visit the page loads and runs with no network (a lecture hall's
// Wi-Fi fails). This service worker is copied to the site root by scripts/build.sh, which fills
// in the list of files and a version; it precaches them all at install and answers network-first
// (an updated site shows when online), falling back to the cache. No SharedArrayBuffer, so no
// COOP/COEP headers: any static host serves it.

const VERSION = 'sgviz-dev';
const FILES = ['./'];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(VERSION).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('sgviz-') && k !== VERSION).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

/** A page navigation (any query, e.g. ?embed=…) falls back to the cached page. */
async function fromCache(request) {
  const cache = await caches.open(VERSION);
  const hit = await cache.match(request, { ignoreSearch: true });
  if (hit) return hit;
  if (request.mode === 'navigate') return cache.match('./');
  return Response.error();
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(fetch(request).catch(() => fromCache(request)));
});
