/* Live regions (issue 25, docs/operations.md "Live pages").

   A live region is an element with data-live-topics (written by the {% live_attrs %} tag), an
   hx-get that re-reads it and hx-trigger="live-refresh". This script fires live-refresh on it:

   - pushed: the page follows its tournament's server-sent events (data-live-events, one
     EventSource per URL, normally one per page, asking with ?topics= for the topics of the
     regions that follow it, so other events are not sent, and with ?delay= for their least
     delay, so the server sends at most one (merged) event per that many seconds); an event whose topics match the region's
     refreshes it, at most once every data-live-delay seconds (many results confirmed in a busy
     minute make one refresh of the standings, not one each), after a random wait of up to half
     that delay (so that a hall of phones does not ask in the same instant);
   - polled: while there is no open event stream (no data-live-events, no EventSource in the
     browser, the stream failing or reconnecting), every data-live-poll seconds, as before;
   - never while the page is hidden (document.visibilityState): every region is refreshed once
     when the page is shown again, which covers the events that arrived meanwhile.

   A refresh is the region's own conditional GET (htmx): 304 when nothing changed, otherwise the
   region only. After the stream reconnects, the regions are refreshed once (events may have been
   missed meanwhile). */
(function () {
  "use strict";

  var REGION = "[data-live-topics]";
  var REOPEN_MS = 60000;  // a stream the server refused (e.g. 404) is tried again after a minute
  var sources = {};       // events URL -> {es: EventSource, opened: bool}
  var last = {};          // region key -> time of its last refresh (ms)
  var pending = {};       // region key -> timer of a coalesced refresh
  var started = Date.now();

  function regions() {
    return Array.prototype.slice.call(document.querySelectorAll(REGION));
  }

  function key(el) {
    return el.id || el.getAttribute("hx-get") || "";
  }

  function byKey(k) {
    return regions().filter(function (el) { return key(el) === k; })[0];
  }

  function visible() {
    return document.visibilityState !== "hidden";
  }

  function seconds(el, name) {
    var n = parseFloat(el.getAttribute(name) || "0");
    return isNaN(n) ? 0 : n * 1000;
  }

  function matches(el, changed) {
    var own = (el.getAttribute("data-live-topics") || "").split(/\s+/);
    return own.some(function (t) {
      if (!t) return false;
      var prefix = t.charAt(t.length - 1) === "*" ? t.slice(0, -1) : null;
      return changed.some(function (c) { return prefix !== null ? c.indexOf(prefix) === 0 : c === t; });
    });
  }

  function pushed(el) {
    var s = sources[el.getAttribute("data-live-events") || ""];
    return !!(s && s.es && s.es.readyState === 1);
  }

  function refresh(el) {
    if (!window.htmx || !visible()) return;
    last[key(el)] = Date.now();
    window.htmx.trigger(el, "live-refresh");
  }

  function refreshSoon(el) {
    var k = key(el);
    if (pending[k]) return;
    var delay = seconds(el, "data-live-delay");
    // Up to half the delay more, at random: a hall of phones woken by one event does not ask the
    // server in the same instant (a result page, delay 0, refreshes at once).
    var wait = Math.max(0, (last[k] || 0) + delay - Date.now()) + Math.random() * delay / 2;
    if (wait === 0) { refresh(el); return; }
    pending[k] = setTimeout(function () {
      delete pending[k];
      var now = byKey(k);
      if (now) refresh(now);
    }, wait);
  }

  function received(url, event) {
    var data;
    try { data = JSON.parse(event.data); } catch (e) { return; }
    var changed = (data && data.topics) || [];
    regions().forEach(function (el) {
      if (el.getAttribute("data-live-events") !== url || !matches(el, changed)) return;
      if (visible()) refreshSoon(el);  // hidden: the refresh when it is shown again covers it
    });
  }

  function wantedTopics(url) {
    // The topics of every region following this stream, sorted: the stream carries only events
    // naming one of them (?topics=, scoring/live/events.py).
    var all = {};
    regions().forEach(function (el) {
      if (el.getAttribute("data-live-events") !== url) return;
      (el.getAttribute("data-live-topics") || "").split(/\s+/).forEach(function (t) { if (t) all[t] = true; });
    });
    return Object.keys(all).sort().join(" ");
  }

  function leastDelay(url) {
    // The least data-live-delay (seconds) of the regions following this stream: the stream sends
    // at most one event per that many seconds, merging the ones between (?delay=,
    // scoring/live/events.py); none of these regions refreshes more often anyway.
    var least = null;
    regions().forEach(function (el) {
      if (el.getAttribute("data-live-events") !== url) return;
      var d = seconds(el, "data-live-delay") / 1000;
      if (least === null || d < least) least = d;
    });
    return least || 0;
  }

  function streamQuery(url) {
    var topics = wantedTopics(url), delay = leastDelay(url), parts = [];
    if (topics) parts.push("topics=" + encodeURIComponent(topics));
    if (delay > 0) parts.push("delay=" + delay);
    return parts.join("&");
  }

  function open(url) {
    var s = sources[url] = sources[url] || {opened: false};
    s.query = streamQuery(url);
    var es = s.es = new window.EventSource(s.query ? url + "?" + s.query : url);
    es.onmessage = function (event) { received(url, event); };
    es.onopen = function () {
      if (s.opened) {  // reconnected: what changed meanwhile was not sent
        regions().forEach(function (el) {
          if (el.getAttribute("data-live-events") === url) refreshSoon(el);
        });
      }
      s.opened = true;
    };
    es.onerror = function () {
      if (es.readyState === 2) {  // refused for good: poll, and try again later
        setTimeout(function () { if (s.es === es) open(url); }, REOPEN_MS);
      }
    };
  }

  function connect() {
    if (!window.EventSource) return;
    regions().forEach(function (el) {
      var url = el.getAttribute("data-live-events");
      if (!url) return;
      var s = sources[url];
      if (!s) { open(url); return; }
      if (s.es && s.es.readyState !== 2 && streamQuery(url) !== s.query) {
        s.es.close();  // a region with other topics or delay appeared (htmx): one stream for them all
        open(url);
      }
    });
  }

  function tick() {
    if (!visible()) return;
    var now = Date.now();
    regions().forEach(function (el) {
      if (pushed(el)) return;
      var poll = seconds(el, "data-live-poll");
      if (poll > 0 && now - (last[key(el)] || started) >= poll) refresh(el);
    });
  }

  document.addEventListener("visibilitychange", function () {
    if (!visible()) return;
    regions().forEach(refresh);
  });
  document.addEventListener("htmx:load", connect);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", connect);
  } else {
    connect();
  }
  setInterval(tick, 1000);
}());
