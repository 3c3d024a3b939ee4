{% load static %}/* The service worker of the referees' and link holders' web app (docs/results.md, "Saving without
 * a connection"), served at /sw.js (scoring.web.views.outbox.service_worker) so that its scope is
 * the whole site. Workbox (static/vendor/workbox-7.4.1, from npm) does the caching:
 *
 * - the entry pages, "My tables" and a link holder's own page: network first, the copy in the
 *   cache when the network fails or takes longer than 4 seconds (only complete 200 pages, never a
 *   redirect to the login page, never an htmx fragment; the query string is not part of the key);
 * - static files: from the cache at once, refreshed in the background.
 *
 * A page opened before this worker controlled it sends the addresses it used (CACHE_URLS,
 * static/js/outbox.js), so that an entry page opened once opens offline. Nothing is ever sent
 * from here: the hands waiting in the outbox are sent by the page (static/js/outbox.js).
 */
importScripts(
  "{% static 'vendor/workbox-7.4.1/workbox-core.prod.js' %}",
  "{% static 'vendor/workbox-7.4.1/workbox-routing.prod.js' %}",
  "{% static 'vendor/workbox-7.4.1/workbox-strategies.prod.js' %}",
  "{% static 'vendor/workbox-7.4.1/workbox-expiration.prod.js' %}",
  "{% static 'vendor/workbox-7.4.1/workbox-cacheable-response.prod.js' %}"
);

(function () {
  "use strict";
  var wb = self.workbox;
  var STATIC_PREFIX = "{% get_static_prefix %}";
  var PAGES = [/^\/t\/[^/]+\/[a-z]+\/\d+\/enter\/$/, /^\/mijn-tafels\/$/, /^\/t\/[^/]+\/mine\/$/];

  self.skipWaiting();
  wb.core.clientsClaim();

  function isPage(url, request) {
    if (url.origin !== self.location.origin || request.headers.get("HX-Request")) { return false; }
    return PAGES.some(function (re) { return re.test(url.pathname); });
  }

  var completePages = {
    cacheKeyWillBeUsed: function (args) {
      var url = new URL(typeof args.request === "string" ? args.request : args.request.url);
      return url.origin + url.pathname;  // ?saved=... and the like: the same page
    },
    cacheWillUpdate: function (args) {
      var r = args.response;
      return r && r.status === 200 && !r.redirected && r.type === "basic" ? r : null;
    }
  };

  var router = new wb.routing.Router();
  router.registerRoute(new wb.routing.Route(function (o) { return isPage(o.url, o.request); },
    new wb.strategies.NetworkFirst({
      cacheName: "nskt-pages-v1",
      networkTimeoutSeconds: 4,
      plugins: [completePages, new wb.expiration.ExpirationPlugin({ maxEntries: 80, maxAgeSeconds: 7 * 24 * 3600 })]
    })));
  router.registerRoute(new wb.routing.Route(function (o) {
    return o.url.origin === self.location.origin && o.url.pathname.indexOf(STATIC_PREFIX) === 0;
  }, new wb.strategies.StaleWhileRevalidate({
    cacheName: "nskt-static-v1",
    plugins: [new wb.cacheableResponse.CacheableResponsePlugin({ statuses: [200] }),
              new wb.expiration.ExpirationPlugin({ maxEntries: 120 })]
  })));
  router.addFetchListener();
  router.addCacheListener();
})();
