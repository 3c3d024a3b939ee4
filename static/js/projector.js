/* Projector views (standings, a round's tables): show as many rows as fit the screen without
   scrolling and page through them, cycling, every data-seconds seconds.

   The server renders every row; without this script it hides the rows of other screens (class
   "off") and a <noscript> refresh cycles through them. Here the rows per screen are measured: the
   most rows for which the page does not scroll. The live update (htmx) replaces the table; the
   layout is then measured again and the current screen kept. */
(function () {
  "use strict";

  var screen = 0;
  var perScreen = 0;
  var timer = null;

  function table() {
    return document.querySelector("table.paged");
  }

  function rows(t) {
    return t && t.tBodies.length ? Array.prototype.slice.call(t.tBodies[0].rows) : [];
  }

  function show(all, first, count) {
    all.forEach(function (row, i) {
      row.classList.toggle("off", i < first || i >= first + count);
    });
  }

  function fits() {
    var doc = document.documentElement;
    return doc.scrollHeight <= doc.clientHeight;
  }

  function screens(all) {
    return Math.max(1, Math.ceil(all.length / Math.max(1, perScreen)));
  }

  function label(all) {
    var el = document.querySelector("[data-screen]");
    if (!el) return;
    var n = screens(all);
    el.textContent = n > 1 ? (screen + 1) + "/" + n : "";
  }

  function render() {
    var all = rows(table());
    if (!all.length) return;
    if (screen >= screens(all)) screen = 0;
    show(all, screen * perScreen, perScreen);
    label(all);
  }

  function measure() {
    var all = rows(table());
    if (!all.length) return;
    // The largest count of rows that fits (binary search: a few layouts whatever the field).
    var low = 1;
    var high = all.length;
    while (low < high) {
      var mid = Math.ceil((low + high) / 2);
      show(all, 0, mid);
      if (fits()) {
        low = mid;
      } else {
        high = mid - 1;
      }
    }
    perScreen = low;
    render();
  }

  function start() {
    var t = table();
    if (!t) return;
    var seconds = parseInt(t.getAttribute("data-seconds"), 10) || 20;
    measure();
    if (timer) window.clearInterval(timer);
    timer = window.setInterval(function () {
      screen = (screen + 1) % screens(rows(table()));
      render();
    }, seconds * 1000);
  }

  var resizing = null;
  window.addEventListener("resize", function () {
    window.clearTimeout(resizing);
    resizing = window.setTimeout(measure, 150);
  });
  document.addEventListener("htmx:afterSwap", measure);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
