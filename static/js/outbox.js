/* The outbox of the referees' and link holders' phones (docs/results.md, "Saving without a
 * connection"), on the entry pages, "My tables" and a link holder's own page; the texts come from
 * the #outbox banner's data attributes (templates/offline/_outbox.html).
 *
 * - A hand saved without a connection (static/js/entry.js calls nsktOutbox.add) is kept in
 *   IndexedDB (idb-keyval, static/vendor) with its form fields: its submission token, the version
 *   its page was based on and the chain of earlier outbox hands of the same table.
 * - The outbox sends by itself, with no tap: when the connection returns (online event), every
 *   15 seconds while hands wait, when a page opens and when it becomes visible again. It first
 *   asks for a fresh CSRF token (the page's may have expired offline), then sends the hands one
 *   at a time in the order they were saved, each only after the one before it is stored; the
 *   server answers with JSON (scoring/web/views/outbox.py). A stored hand (also one stored before
 *   whose answer was lost: the token) leaves the outbox. No connection, a server error or a
 *   login that ran out: the hands wait, nothing is lost. A refusal (someone else changed the
 *   table, the input breaks the rules, the result is confirmed) marks the hand refused with the
 *   server's message, and the later hands of that table are not sent; refused hands stay, shown
 *   with their input, until the referee discards them (after a confirmation).
 * - A hand waits for whoever entered it (its ``entered_as``, the banner's data-owner): a page
 *   opened as someone else (the referee's login ran out and a colleague logged in on the same
 *   phone) does not send it, and the banner says whom it waits for; the server refuses such a
 *   hand too (409 "owner"), and it then stays waiting.
 * - The same hand (its submission token) is kept once, however often Save is tapped.
 * - The banner says "n hands waiting" and lists the refused hands; it is hidden while the outbox
 *   is empty.
 * - It registers the service worker (/sw.js), and a page opened before the worker controlled it
 *   hands the worker its own address and static files to cache, so that it opens offline.
 * - The entry pages a page links with ``data-offline`` ("My tables": the referee's own tables; a
 *   team's own page: its table) are fetched into the worker's cache as well, each at most once per
 *   10 minutes, with the static files an entry page needs (the banner's data-entry-files), so that
 *   they open and save offline without having been opened before.
 */
(function () {
  "use strict";
  var root = document.getElementById("outbox");
  var kv = window.idbKeyval;
  var store = null;
  try { if (kv && window.indexedDB) { store = kv.createStore("nskt-outbox", "hands"); } } catch (err) { store = null; }
  var RETRY_MS = 15000;
  var TIMEOUT_MS = 15000;
  var seq = 0;
  var running = false;
  var timer = null;
  var loginMessage = "";
  var stopped = false;
  var owner = root ? root.getAttribute("data-owner") || "" : "";

  function text(name) { return root ? root.getAttribute("data-text-" + name) || "" : ""; }

  function all() {
    if (!store) { return Promise.resolve([]); }
    return kv.entries(store).then(function (list) {
      list.sort(function (a, b) { return a[0] < b[0] ? -1 : (a[0] > b[0] ? 1 : 0); });
      return list.map(function (e) { return e[1]; });
    });
  }
  function put(item) { return kv.set(item.key, item, store); }
  function drop(item) { return kv.del(item.key, store); }
  function tell(kind, item, data) {
    document.dispatchEvent(new CustomEvent("nskt-outbox", { detail: { kind: kind, item: item, data: data || {} } }));
  }

  /* Whether this page may send ``item``: it waits, and it was entered as whoever this page is
   * opened as (hands kept before owners were recorded: by anyone). */
  function sendable(item) {
    return item.state === "waiting" && (!item.owner || item.owner === owner);
  }

  /* Keep a hand (the fields entry.js collected); resolves with the stored item (the one already
   * kept when the same hand, its token, was saved before: a double tap). */
  var adding = {};
  function add(item) {
    if (!adding[item.token]) {
      adding[item.token] = all().then(function (items) {
        var same = items.filter(function (i) { return i.token === item.token; })[0];
        return same || keep(item);
      }).catch(function (err) { delete adding[item.token]; throw err; });  // not kept: a later tap tries again
    }
    return adding[item.token];
  }
  function keep(item) {
    item.key = String(Date.now()).padStart(15, "0") + "-" + String(seq++).padStart(4, "0") + "-" + item.token;
    item.state = "waiting";
    item.message = "";
    item.errors = [];
    return put(item).then(function () { render(); schedule(0); return item; });
  }

  /* The waiting hands of the entry page ``url`` (its path) that this page sends (entered as whoever
   * it is opened as: the next hand's form continues after them), in order. */
  function pending(url) {
    return all().then(function (items) {
      return items.filter(function (i) { return i.url === url && sendable(i); });
    });
  }

  function timed(url, options) {
    if (window.AbortController) {
      var ctrl = new AbortController();
      options.signal = ctrl.signal;
      window.setTimeout(function () { ctrl.abort(); }, TIMEOUT_MS);
    }
    options.credentials = "same-origin";
    return window.fetch(url, options);
  }

  function freshToken() {
    return timed(root.getAttribute("data-csrf-url"), { cache: "no-store", headers: { Accept: "application/json" } })
      .then(function (r) { if (!r.ok) { throw new Error("csrf " + r.status); } return r.json(); })
      .then(function (d) { return d.token; });
  }

  function send(item, token) {
    var body = new FormData();
    item.fields.forEach(function (f) { body.append(f[0], f[1]); });
    return timed(item.url, { method: "POST", body: body, redirect: "manual",
                             headers: { Accept: "application/json", "X-CSRFToken": token } })
      .then(function (r) {
        var json = (r.headers.get("Content-Type") || "").indexOf("application/json") === 0;
        return (json ? r.json() : Promise.resolve(null)).then(function (data) { return { status: r.status, data: data }; });
      });
  }

  /* Send the waiting hands in order; resolves when done or stopped (no connection). */
  function sendAll(items, token) {
    var blocked = {};
    var held = {};
    var stop = false;
    stopped = false;
    var chain = Promise.resolve();
    items.forEach(function (i) { if (i.state === "refused") { blocked[i.url] = true; } });
    items.forEach(function (item) {
      chain = chain.then(function () {
        if (stop || item.state !== "waiting") { return null; }
        if (held[item.url] || !sendable(item)) { held[item.url] = true; return null; }  // someone else's
        if (blocked[item.url]) { item.state = "refused"; item.message = text("blocked"); return put(item); }
        return send(item, token).then(function (res) {
          var data = res.data;
          if (data && data.ok) { loginMessage = ""; return drop(item).then(function () { tell("stored", item, data); }); }
          if (res.status === 401 && data) { loginMessage = data.message || ""; stop = true; return null; }
          if (res.status === 409 && data && data.code === "owner") { held[item.url] = true; stop = true; return null; }
          if (!data || res.status >= 500) { stop = true; return null; }  // a proxy's page, the CSRF page: later
          item.state = "refused";
          item.message = data.message || "";
          item.errors = data.errors || [];
          blocked[item.url] = true;
          return put(item).then(function () { tell("refused", item, data); });
        }, function () { stop = true; });
      });
    });
    return chain.then(function () { stopped = stop; });
  }

  function flushNow() {
    return all().then(function (items) {
      if (!items.some(sendable)) { return null; }
      return freshToken().then(function (token) { return sendAll(items, token); });
    }).catch(function () { stopped = true; /* no connection: the next try */ });
  }

  /* Send what waits (one run at a time, also across this phone's tabs). */
  function flush() {
    if (running || !store || !root) { return Promise.resolve(); }
    running = true;
    var run = navigator.locks ? navigator.locks.request("nskt-outbox", flushNow) : flushNow();
    return run.then(function () { running = false; render(); schedule(stopped ? RETRY_MS : 0); },
                    function () { running = false; schedule(); });
  }

  function schedule(delay) {
    window.clearTimeout(timer);
    all().then(function (items) {
      if (items.some(sendable)) {
        timer = window.setTimeout(flush, delay === undefined ? RETRY_MS : delay);
      }
    });
  }

  // ------------------------------------------------------------------ the banner
  function el(tag, cls, content) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (content) { node.textContent = content; }
    return node;
  }

  function refusedEntry(item) {
    var li = el("li", "outbox-item");
    li.setAttribute("data-key", item.key);
    var head = el("p");
    head.appendChild(el("strong", "", item.title + " · " + item.heading));
    li.appendChild(head);
    li.appendChild(el("p", "outbox-message", item.message));
    if (item.errors && item.errors.length) {
      var errs = el("ul", "errorlist");
      item.errors.forEach(function (e) { errs.appendChild(el("li", "", e)); });
      li.appendChild(errs);
    }
    li.appendChild(el("p", "muted", text("input")));
    var input = el("ul", "outbox-input");
    (item.summary || []).forEach(function (pair) { input.appendChild(el("li", "", pair[0] + ": " + pair[1])); });
    li.appendChild(input);
    var actions = el("p", "actions");
    var open = el("a", "btn secondary", text("open"));
    open.href = item.page;
    var discard = el("button", "btn secondary outbox-discard", text("discard"));
    discard.type = "button";
    discard.addEventListener("click", function () {
      if (window.confirm(text("confirm"))) { drop(item).then(render); }
    });
    actions.appendChild(open);
    actions.appendChild(document.createTextNode(" "));
    actions.appendChild(discard);
    li.appendChild(actions);
    return li;
  }

  function render() {
    if (!root) { return Promise.resolve(); }
    return all().then(function (items) {
      var waiting = items.filter(function (i) { return i.state === "waiting"; }).length;
      var refused = items.filter(function (i) { return i.state === "refused"; });
      document.getElementById("outbox-count").textContent =
        (waiting === 1 ? text("one") : text("other")).replace("{n}", String(waiting));
      document.getElementById("outbox-waiting").hidden = !waiting;
      var login = document.getElementById("outbox-login");
      login.hidden = !(waiting && loginMessage);
      login.querySelector("strong").textContent = loginMessage;
      var owners = document.getElementById("outbox-owners");
      var names = [];
      items.forEach(function (i) {
        if (i.state === "waiting" && !sendable(i) && names.indexOf(i.ownerName || "?") < 0) { names.push(i.ownerName || "?"); }
      });
      owners.textContent = "";
      names.forEach(function (name) { owners.appendChild(el("li", "", text("owner").split("{name}").join(name))); });
      owners.hidden = !names.length;
      var list = document.getElementById("outbox-refused-list");
      list.textContent = "";
      refused.forEach(function (item) { list.appendChild(refusedEntry(item)); });
      document.getElementById("outbox-refused").hidden = !refused.length;
      root.hidden = !waiting && !refused.length;
    });
  }

  // ------------------------------------------------------------------ the service worker
  var PRECACHE_MS = 10 * 60 * 1000;

  /* Hand the worker the entry pages this page links with data-offline, those not fetched for it in
   * the last PRECACHE_MS (remembered in localStorage). */
  function cacheLinked(worker) {
    var now = Date.now();
    var urls = [];
    Array.prototype.forEach.call(document.querySelectorAll("a[data-offline][href]"), function (a) {
      var url = a.pathname;
      var seen = 0;
      try { seen = parseInt(window.localStorage.getItem("nskt-offline:" + url), 10) || 0; } catch (err) { seen = now; }
      if (urls.indexOf(url) < 0 && now - seen > PRECACHE_MS) {
        urls.push(url);
        try { window.localStorage.setItem("nskt-offline:" + url, String(now)); } catch (err) { /* private mode */ }
      }
    });
    if (!urls.length) { return; }
    // and the files of an entry page that this page does not use itself (its script, the tile picker)
    (root.getAttribute("data-entry-files") || "").split(" ").forEach(function (f) { if (f) { urls.push(f); } });
    worker.postMessage({ type: "CACHE_URLS", payload: { urlsToCache: urls } });
  }

  function registerWorker() {
    if (!root || !("serviceWorker" in navigator)) { return; }
    var controlled = !!navigator.serviceWorker.controller;
    navigator.serviceWorker.register(root.getAttribute("data-sw-url"), { scope: "/" })
      .then(function () { return navigator.serviceWorker.ready; })
      .then(function (reg) {
        if (!reg.active) { return; }
        cacheLinked(reg.active);
        if (controlled) { return; }
        var prefix = window.location.origin + root.getAttribute("data-static");
        var urls = [window.location.pathname];
        (performance.getEntriesByType ? performance.getEntriesByType("resource") : []).forEach(function (e) {
          if (e.name.indexOf(prefix) === 0) { urls.push(e.name); }
        });
        reg.active.postMessage({ type: "CACHE_URLS", payload: { urlsToCache: urls } });
      })
      .catch(function () { /* no worker: the pages work online as before */ });
  }

  if (root) {
    Array.prototype.forEach.call(root.querySelectorAll("[data-text]"), function (node) {
      node.textContent = text(node.getAttribute("data-text"));
    });
  }
  window.nsktOutbox = store && root ? { add: add, pending: pending, flush: flush, render: render } : null;
  if (!root) { return; }
  registerWorker();
  if (!store) { return; }
  window.addEventListener("online", function () { flush(); });
  document.addEventListener("visibilitychange", function () { if (document.visibilityState === "visible") { flush(); } });
  render();
  flush();
})();
