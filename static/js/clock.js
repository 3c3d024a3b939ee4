/* The round clock of the hall bar (docs/hall.md): the server's time is the truth.

   Each element [data-hall-clock] reads its clock from data-url (clock.json: the state, the seconds
   left and the server's time in milliseconds). The phone's clock may be off: the offset is the
   server's time minus the middle of the request, so the end of a running clock is the same moment
   on every phone and the projector. The clock is read again every 30 seconds, when the phone comes
   back online, when the page is shown again and when the announcements poll (htmx) brings a new
   clock version. Without this script the page shows the minutes left when it was rendered. */
(function () {
  "use strict";

  var SYNC_MS = 30000;

  function format(seconds) {
    var s = Math.max(0, Math.ceil(seconds));
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
    var mm = (h ? String(m).padStart(2, "0") : String(m)) + ":" + String(r).padStart(2, "0");
    return h ? h + ":" + mm : mm;
  }

  function Clock(el) {
    this.el = el;
    this.time = el.querySelector("[data-time]");
    this.state = el.querySelector("[data-state]");
    this.data = null;
    this.endLocal = null; // the phone's Date.now() when time is up (running clocks)
    this.busy = false;
  }

  Clock.prototype.sync = function () {
    var self = this;
    if (self.busy) { return; }
    self.busy = true;
    var sent = Date.now();
    fetch(self.el.getAttribute("data-url"), { cache: "no-store", credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (r) { if (!r.ok) { throw new Error(r.status); } return r.json(); })
      .then(function (d) {
        var received = Date.now();
        var offset = d.server_ms - (sent + received) / 2; // server minus phone
        self.data = d;
        self.endLocal = d.status === "running" ? d.server_ms + d.remaining * 1000 - offset : null;
        self.el.setAttribute("data-version", d.version === null ? "" : d.version);
        self.el.setAttribute("data-status", d.status);
        self.el.setAttribute("data-offset", Math.round(offset));
        self.render();
      })
      .catch(function () { /* keep counting from what we had; the next sync tries again */ })
      .then(function () { self.busy = false; });
  };

  Clock.prototype.remaining = function () {
    var d = this.data;
    if (!d) { return null; }
    if (d.status === "running") { return Math.max(0, (this.endLocal - Date.now()) / 1000); }
    return Math.max(0, d.remaining);
  };

  Clock.prototype.render = function () {
    var d = this.data, el = this.el;
    if (!d) { return; }
    if (d.status === "none") { el.hidden = true; return; }
    el.hidden = false;
    var left = this.remaining();
    var started = d.status !== "idle";
    var up = started && left <= 0;
    var warn = started && !up && left <= d.warning;
    el.classList.toggle("up", up);
    el.classList.toggle("warn", warn);
    el.classList.toggle("paused", d.status === "paused");
    el.setAttribute("data-remaining", left.toFixed(3));
    this.time.textContent = up ? el.getAttribute("data-text-up") : format(left);
    var label = "";
    if (!up) {
      if (d.status === "paused") { label = el.getAttribute("data-text-paused"); }
      else if (d.status === "idle") { label = el.getAttribute("data-text-idle"); }
      else if (warn) { label = el.getAttribute("data-text-warn"); }
    }
    if (this.state.textContent !== label) { this.state.textContent = label; }
  };

  var clocks = [];

  function start() {
    document.querySelectorAll("[data-hall-clock]").forEach(function (el) {
      var c = new Clock(el);
      clocks.push(c);
      c.sync();
    });
    if (!clocks.length) { return; }
    setInterval(function () { clocks.forEach(function (c) { c.render(); }); }, 250);
    setInterval(function () { clocks.forEach(function (c) { c.sync(); }); }, SYNC_MS);
    window.addEventListener("online", function () { clocks.forEach(function (c) { c.sync(); }); });
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") { clocks.forEach(function (c) { c.sync(); }); }
    });
    // The announcements' poll carries the clock's version: read the clock again when it changed.
    document.body.addEventListener("htmx:afterSettle", function () {
      clocks.forEach(function (c) {
        var bar = c.el.closest(".hall-bar");
        var news = bar ? bar.querySelector(".hall-news") : null;
        var fresh = news ? news.getAttribute("data-clock-version") : "";
        if (fresh && fresh !== c.el.getAttribute("data-version")) { c.sync(); }
      });
    });
  }

  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
}());
