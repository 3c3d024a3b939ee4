/* The referee's entry page (templates/results/enter.html), for every game. Everything here is an
 * aid: without JavaScript the form still posts and the server checks everything.
 *
 * - Quick chips fill a number field (Tai Pan card points NS; "±" changes the sign), and the EW
 *   card points are shown live as 100 - NS.
 * - Choosing a double victory clears the card points (a double victory has none).
 * - Offline-safe: what the referee typed is kept in localStorage per result (key from the form's
 *   data-draft-key) with the form's submission token, restored when the page is opened again
 *   before it was saved, and dropped once the page lists a record stored with that token (a
 *   successful save, even one whose answer was lost). The token makes a retry harmless: the server
 *   answers a repeated submission with the record it stored the first time.
 * - After a failed save the focus moves to the first field with an error (the banner at the top
 *   of the form says what is wrong); after a save the page opens at the new record (#record-N).
 * - The save button is disabled while the form is being sent (no double tap).
 * - No connection: a save tapped while the phone is offline (navigator.onLine false), or one whose
 *   request fails or gets no answer within 12 seconds (the new-record form is sent with fetch
 *   first), goes into the phone's outbox (static/js/outbox.js, docs/results.md "Saving without a
 *   connection"): the page says so (#queued-note) and shows the form of the next hand at once,
 *   based on the same version and naming the earlier outbox hands of this table (``chain``), so
 *   the server can tell them from someone else's change. While hands of this table wait, the next
 *   save goes after them into the outbox too. When the outbox has stored them all, the page
 *   reloads (unless something is being typed) to show them; a refused hand reloads it at once (the
 *   form then stands on the table as it is; the input is kept as the draft). Without IndexedDB the page keeps the
 *   referee on the page with a banner (#offline-note) instead, the draft stays in localStorage and
 *   the next tap tries again with the same submission token. A save that arrived (the server
 *   answers with a redirect) opens the entry page at the stored record; any other answer (a form
 *   error, a changed result) is shown by sending the form again the ordinary way (nothing is
 *   stored by such an answer; a save is stored once by its token).
 */
(function () {
  "use strict";
  // Opened after a save sent with fetch (?saved=token): go to the record stored with that token
  // (also when the form is gone: the save finished the result).
  var savedMatch = /[?&]saved=([0-9a-f]{32})(?:&|$)/.exec(window.location.search);
  if (savedMatch) {
    var clean = window.location.pathname;
    window.history.replaceState(null, "", clean);
    var savedRow = document.querySelector("[data-submission='" + savedMatch[1] + "']");
    if (savedRow && savedRow.id) {
      try { window.localStorage.removeItem("nskt-draft:" + clean); } catch (err) { /* no storage */ }
      window.location.replace(clean + "#" + savedRow.id);
    }
  }

  var form = document.getElementById("entry-form");
  if (!form) { return; }

  function fire(el) {
    el.dispatchEvent(new Event("input", { bubbles: true }));
    el.dispatchEvent(new Event("change", { bubbles: true }));
  }

  // ------------------------------------------------------------------ chips and EW live
  var nsInput = null;
  Array.prototype.forEach.call(form.querySelectorAll("[data-chips-for]"), function (box) {
    var input = document.getElementById(box.getAttribute("data-chips-for"));
    if (!input) { return; }
    nsInput = nsInput || input;
    box.hidden = false;
    box.addEventListener("click", function (e) {
      var chip = e.target.closest("button.chip");
      if (!chip) { return; }
      if (chip.hasAttribute("data-sign")) {
        var v = input.value.trim();
        input.value = v.charAt(0) === "-" ? v.slice(1) : (v ? "-" + v : "-");
      } else {
        input.value = chip.getAttribute("data-value");
      }
      var dv = form.querySelector("input[name=double_victory]:checked");
      if (dv && dv.value) {
        var none = form.querySelector("input[name=double_victory][value='']");
        if (none) { none.checked = true; }
      }
      markChips(box, input);
      fire(input);
    });
    input.addEventListener("input", function () { markChips(box, input); });
    markChips(box, input);
  });

  function markChips(box, input) {
    Array.prototype.forEach.call(box.querySelectorAll("button.chip[data-value]"), function (chip) {
      chip.setAttribute("aria-pressed", chip.getAttribute("data-value") === input.value.trim() ? "true" : "false");
    });
  }

  var ewOut = document.getElementById("cp-ew-live");
  function updateEw() {
    if (!ewOut || !nsInput) { return; }
    var v = parseInt(nsInput.value, 10);
    ewOut.value = isNaN(v) ? "–" : String(100 - v);
  }
  if (nsInput) { nsInput.addEventListener("input", updateEw); updateEw(); }

  form.addEventListener("change", function (e) {
    var el = e.target;
    if (el.name === "double_victory" && el.checked && el.value && nsInput) {
      var ew = form.querySelector("[name=card_points_ew]");
      nsInput.value = "";
      if (ew) { ew.value = ""; }
      updateEw();
      var box = form.querySelector("[data-chips-for]");
      if (box) { markChips(box, nsInput); }
    }
  });

  // ------------------------------------------------------------------ draft in localStorage
  var key = form.getAttribute("data-draft-key");
  var store = null;
  try { store = window.localStorage; store.getItem("nskt-probe"); } catch (err) { store = null; }
  // Never restored from a draft: what the server renders for the table as it is now.
  var SKIP = { csrfmiddlewaretoken: 1, version: 1, record_number: 1, chain: 1 };

  function values() {
    var out = {};
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || SKIP[el.name] || el.disabled || el.type === "submit" || el.type === "button") { return; }
      if ((el.type === "radio" || el.type === "checkbox") && !el.checked) { return; }
      (out[el.name] = out[el.name] || []).push(el.value);
    });
    return out;
  }

  function save() {
    if (!store || !key) { return; }
    try { store.setItem(key, JSON.stringify({ at: Date.now(), values: values() })); } catch (err) { /* full: no draft */ }
  }

  function restore(saved) {
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || SKIP[el.name] || !(el.name in saved)) { return; }
      var list = saved[el.name];
      if (el.type === "radio" || el.type === "checkbox") {
        el.checked = list.indexOf(el.value) !== -1;
      } else if (el.tagName === "SELECT" && el.multiple) {
        Array.prototype.forEach.call(el.options, function (o) { o.selected = list.indexOf(o.value) !== -1; });
      } else {
        el.value = list[0];
      }
    });
  }

  if (store && key) {
    var stored = {};
    Array.prototype.forEach.call(document.querySelectorAll("[data-submission]"), function (el) {
      stored[el.getAttribute("data-submission")] = true;
    });
    var raw = store.getItem(key);
    var draft = null;
    try { draft = raw ? JSON.parse(raw) : null; } catch (err) { draft = null; }
    var token = draft && draft.values && draft.values.submission ? draft.values.submission[0] : "";
    if (draft && token && stored[token]) {
      store.removeItem(key);  // saved: the page lists the record stored with this token
    } else if (draft && form.getAttribute("data-bound") !== "1") {
      restore(draft.values);
      var note = document.getElementById("draft-note");
      if (note) {
        note.hidden = false;
        var discard = note.querySelector("button");
        if (discard) {
          discard.addEventListener("click", function () {
            store.removeItem(key);
            window.location.replace(window.location.pathname);
          });
        }
      }
      updateEw();
      var first = form.querySelector("input, select, textarea");
      if (first) { fire(first); }
    }
    // "Discard my input" after a conflict: the kept input is dropped, not restored on the next page.
    Array.prototype.forEach.call(document.querySelectorAll("[data-discard-draft]"), function (link) {
      link.addEventListener("click", function () { store.removeItem(key); });
    });
    form.addEventListener("input", save);
    form.addEventListener("change", save);
    if (form.getAttribute("data-bound") === "1") { save(); }
  }

  // ------------------------------------------------------------------ submit once, or keep it in the outbox
  var button = form.querySelector("button[type=submit]");
  var offlineNote = document.getElementById("offline-note");
  var busyTimer = null;
  var outbox = key ? window.nsktOutbox : null;  // new records only, where IndexedDB works (static/js/outbox.js)
  var path = form.action ? new URL(form.action, window.location.href).pathname : "";
  var waitingHere = 0;  // this table's hands in the outbox, not yet stored
  var dirty = false;

  function busy(on) {
    if (!button) { return; }
    window.clearTimeout(busyTimer);
    if (on) {
      window.setTimeout(function () { button.disabled = true; button.setAttribute("aria-busy", "true"); }, 0);
      busyTimer = window.setTimeout(function () { busy(false); }, 15000);
    } else {
      button.disabled = false;
      button.removeAttribute("aria-busy");
    }
  }

  function noConnection() {
    busy(false);
    if (!offlineNote) { return; }
    offlineNote.hidden = false;
    offlineNote.focus({ preventScroll: true });
    offlineNote.scrollIntoView({ block: "center" });
  }

  function field(name) { return form.querySelector("input[name=" + name + "]"); }
  function fieldValue(name) { var f = field(name); return f ? f.value : ""; }
  function setField(name, value) { var f = field(name); if (f) { f.value = String(value); } }

  function newToken() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
  }

  /* A label's text with its parts apart: "N" and its side "NS" as "N (NS)", not "NNS". */
  function textOf(node) {
    var parts = [];
    Array.prototype.forEach.call(node.childNodes, function (c) {
      var t = c.textContent.trim();
      if (t) { parts.push(t); }
    });
    return parts.length > 1 ? parts[0] + " (" + parts.slice(1).join(", ") + ")" : (parts[0] || "");
  }

  function labelOf(el) {
    var label = el.id ? form.querySelector("label[for='" + el.id + "']") : null;
    var holder = el.closest("fieldset, .field");
    var legend = holder ? holder.querySelector("legend, label") : null;
    var own = label ? textOf(label) : "";
    var group = legend && legend !== label ? legend.textContent.trim() : "";
    return [group || own, group ? own : el.value];
  }

  /* What was typed, as label and value pairs (shown if the server refuses the hand). */
  function summary() {
    var out = [];
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.type === "hidden" || el.disabled || el.type === "submit" || el.type === "button") { return; }
      if ((el.type === "radio" || el.type === "checkbox") && !el.checked) { return; }
      if (el.type !== "radio" && el.type !== "checkbox" && !String(el.value).trim()) { return; }
      var pair = labelOf(el);
      if (el.tagName === "SELECT") { pair[1] = el.options[el.selectedIndex] ? el.options[el.selectedIndex].text : el.value; }
      pair[0] = String(pair[0]).replace(/\s*:\s*$/, "");  // "Card points EW:" is shown as "Card points EW: 30"
      out.push(pair);
    });
    return out;
  }

  var heading = document.getElementById("entry-heading");
  function showNumber(n) {
    setField("record_number", n);
    if (heading && heading.getAttribute("data-heading")) { heading.textContent = heading.getAttribute("data-heading").replace("{n}", n); }
  }

  /* Continue the chain of ``item`` (the last hand of this table in the outbox): the next form is
   * based on the same version, names the earlier hands, and has the next number. */
  function continueChain(item) {
    setField("version", item.version);
    setField("chain", (item.chain ? item.chain + "," : "") + item.token);
    showNumber(item.number + 1);
  }

  var queuedNote = document.getElementById("queued-note");
  function queue() {
    var fields = [];
    new FormData(form).forEach(function (value, name) { if (name !== "csrfmiddlewaretoken") { fields.push([name, String(value)]); } });
    var title = document.querySelector("h1");
    var item = { url: path, page: path, token: fieldValue("submission"), version: fieldValue("version"),
                 chain: fieldValue("chain"), number: parseInt(fieldValue("record_number"), 10) || 1,
                 title: title ? title.textContent.trim() : "", heading: heading ? heading.textContent.trim() : "",
                 fields: fields, summary: summary(), owner: fieldValue("entered_as"),
                 ownerName: field("entered_as") ? field("entered_as").getAttribute("data-name") || "" : "" };
    return outbox.add(item).then(function (kept) {
      if (kept !== item) { return; }  // the same hand again (a double tap): kept once, the form already moved on
      waitingHere += 1;
      form.reset();
      setField("submission", newToken());
      continueChain(item);
      var preview = document.getElementById("preview");
      if (preview) { preview.textContent = ""; }
      updateEw();
      Array.prototype.forEach.call(form.querySelectorAll("[data-chips-for]"), function (box) {
        var input = document.getElementById(box.getAttribute("data-chips-for"));
        if (input) { markChips(box, input); }
      });
      if (store && key) { store.removeItem(key); }
      if (offlineNote) { offlineNote.hidden = true; }
      busy(false);
      dirty = false;
      if (queuedNote) {
        queuedNote.textContent = queuedNote.getAttribute("data-text").replace("{hand}", item.heading);
        queuedNote.hidden = false;
        queuedNote.focus({ preventScroll: true });
      }
      window.scrollTo(0, 0);
    }, noConnection);
  }

  if (outbox) {
    outbox.pending(path).then(function (items) {
      waitingHere = items.length;
      if (items.length) { continueChain(items[items.length - 1]); }
    });
    form.addEventListener("input", function () { dirty = true; });
    document.addEventListener("nskt-outbox", function (e) {
      var d = e.detail;
      if (d.item.url !== path) { return; }
      // A refused hand (someone else changed the table): open the page afresh, so that the form is
      // based on the table as it is now (the refused hand stays listed for review; what is being
      // typed is kept as the draft and restored).
      if (d.kind === "refused") { waitingHere = 0; window.location.replace(path); return; }
      waitingHere = Math.max(0, waitingHere - 1);
      outbox.pending(path).then(function (items) {
        if (items.length) { return; }
        waitingHere = 0;
        // This table's outbox is empty: show the stored hands (a fresh page) unless something is
        // being typed; then the next save is based on the version right after the last one.
        if (!dirty) { window.location.replace(path); return; }
        if (d.data.version !== null && d.data.version !== undefined) {
          setField("version", d.data.version);
          setField("chain", "");
        }
      });
    });
  }

  var sendAnyway = false;
  form.addEventListener("submit", function (e) {
    save();
    if (sendAnyway) { busy(true); return; }
    if (outbox && (navigator.onLine === false || waitingHere > 0)) {
      // No connection, or earlier hands of this table still wait: this one goes after them.
      e.preventDefault();
      busy(true);
      queue();
      return;
    }
    if (navigator.onLine === false) { e.preventDefault(); noConnection(); return; }
    if (!key || !window.fetch || !window.FormData) { busy(true); return; }
    // The new-record form: sent with fetch, so that a failed request leaves the page as it is.
    e.preventDefault();
    busy(true);
    var token = fieldValue("submission");
    var lost = outbox ? queue : noConnection;  // no answer: into the outbox (the token: stored once)
    var ctrl = window.AbortController ? new AbortController() : null;
    if (ctrl) { window.setTimeout(function () { ctrl.abort(); }, 12000); }
    window.fetch(form.action, { method: "POST", body: new FormData(form), credentials: "same-origin", redirect: "manual",
                                signal: ctrl ? ctrl.signal : undefined })
      .then(function (response) {
        if (response.type === "opaqueredirect") {
          // Stored (or the login is needed): open the entry page, at the stored record if any.
          window.location.assign(form.action.split("#")[0].split("?")[0] + "?saved=" + encodeURIComponent(token));
        } else if (response.status === 502 || response.status === 503 || response.status === 504) {
          lost();  // the server cannot be reached behind its proxy
        } else {
          sendAnyway = true;  // an answer to show (errors): the ordinary way, nothing stored twice
          form.requestSubmit ? form.requestSubmit(button || undefined) : form.submit();
        }
      }, function () { lost(); });
  });

  // ------------------------------------------------------------------ focus after an error / a save
  var errorField = null;
  Array.prototype.some.call(form.querySelectorAll(".field-errors"), function (box) {
    if (!box.querySelector("li")) { return false; }
    var holder = box.closest("fieldset, .field");
    if (!holder) { return false; }
    errorField = holder.querySelector("input:checked:not([type=hidden])") ||
      holder.querySelector("input:not([type=hidden]), select, textarea");
    return !!errorField;
  });
  if (errorField) {
    var details = errorField.closest("details");
    if (details) { details.open = true; }
    errorField.focus({ preventScroll: true });
    errorField.scrollIntoView({ block: "center" });
  } else if (document.getElementById("stale-note")) {
    document.getElementById("stale-note").focus();
  } else if (document.getElementById("entry-errors")) {
    document.getElementById("entry-errors").focus();
  } else if (!window.location.hash) {
    var rows = document.querySelectorAll("[id^=record-]");
    var target = rows.length ? rows[rows.length - 1] : null;
    if (target) { target.scrollIntoView({ block: "start" }); }
  }
})();
