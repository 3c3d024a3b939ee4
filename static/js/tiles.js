/* The mahjong tile picker of the entry page (templates/games/mahjong/_tile_pad.html). Never an
 * overlay: it is moved into the page right under the tile field it fills (the last one touched,
 * or the hand of the player just chosen as winner). A button adds a whole group in MPSZ ("123" in
 * the dots tab adds "123p"); in a melds field a pung, chow or kong becomes "pung 555z claimed" etc.
 * The tiles of the hand are shown as buttons: tapping one makes it the winning tile. Choosing a
 * winner makes the event a win; the void suit is filled in when exactly one suit is missing. */
(function () {
  "use strict";
  var picker = document.getElementById("tile-picker");
  var form = document.getElementById("entry-form");
  if (!picker || !form) { return; }
  picker.hidden = false;
  var handView = document.getElementById("hand-view");
  var targetLabel = document.getElementById("picker-target-label");
  var suit = (picker.querySelector("[data-suit]") || {}).getAttribute ? picker.querySelector("[data-suit]").getAttribute("data-suit") : "m";
  var target = null;

  function fire(el) {
    el.dispatchEvent(new Event("input", { bubbles: true }));
    el.dispatchEvent(new Event("change", { bubbles: true }));
  }
  function scope(el) { return el.closest("fieldset.event") || form; }
  function labelOf(input) {
    var label = form.querySelector("label[for='" + input.id + "']");
    var legend = input.closest("fieldset.event");
    var text = label ? label.textContent.replace(/:\s*$/, "") : "";
    if (legend && legend.querySelector("legend")) { text = legend.querySelector("legend").textContent + " · " + text; }
    return text;
  }

  function setTarget(input) {
    if (!input) { return; }
    target = input;
    var holder = input.closest(".field") || input;
    holder.parentNode.insertBefore(picker, holder.nextSibling);
    targetLabel.textContent = "→ " + labelOf(input);
    var details = picker.parentNode.closest("details");
    if (details) { details.open = true; }
    render();
  }

  function tilesOf(text) {
    var out = [];
    (text || "").split(/[\s,;]+/).forEach(function (chunk) {
      var m = /^(\d+)([mpsz])$/.exec(chunk);
      if (m) { m[1].split("").forEach(function (d) { out.push(d + m[2]); }); }
      else if (/^(fl|se)[1-4]$/.test(chunk)) { out.push(chunk); }
    });
    return out;
  }

  // Tile faces (no images): the number (or the honour's letter) large in the suit's colour, the
  // suit's letter (MPSZ) under it; the tile's name (the picker keys' titles) is what a screen reader says.
  var names = {};
  Array.prototype.forEach.call(picker.querySelectorAll("[data-tile]"), function (b) { names[b.getAttribute("data-tile")] = b.getAttribute("title"); });
  var HONOURS = { "1z": ["E", "wind"], "2z": ["S", "wind"], "3z": ["W", "wind"], "4z": ["N", "wind"], "5z": ["\u25a2", "white"], "6z": ["\u25c6", "green"], "7z": ["\u25c6", "red"] };
  var MARKS = { m: "m", p: "p", s: "s" };
  function face(el, tile) {
    var suit = tile.slice(-1), top = tile.charAt(0), mark = MARKS[suit] || "", kind = suit;
    if (suit === "z") { top = HONOURS[tile][0]; mark = ""; kind = "z " + HONOURS[tile][1]; }
    if (/^(fl|se)/.test(tile)) { top = tile.slice(2); mark = tile.slice(0, 2) === "fl" ? "\u273f" : "\u2600"; kind = "f"; }
    el.className = (el.className ? el.className + " " : "") + "tf " + kind;
    var n = document.createElement("span"); n.className = "tf-n"; n.textContent = top; el.appendChild(n);
    if (mark) { var k = document.createElement("span"); k.className = "tf-s"; k.textContent = mark; k.setAttribute("aria-hidden", "true"); el.appendChild(k); }
    el.setAttribute("aria-label", names[tile] || tile);
    el.title = names[tile] || tile;
    return el;
  }

  function winInput() { return target ? scope(target).querySelector("input[data-tiles=win]") : null; }

  // The tiles being typed as a row of tile faces: the hand's tiles are buttons (tapping one makes
  // it the winning tile); melds, flowers and a single tile are shown, not tapped.
  function render() {
    handView.textContent = "";
    if (!target) { return; }
    var kind = target.getAttribute("data-tiles");
    var win = winInput();
    var text = kind === "melds" ? target.value.replace(/\b(pung|chow|kong|claimed|exposed|concealed|added)\b/g, " ") : target.value;
    tilesOf(text).forEach(function (tile) {
      var el;
      if (kind === "hand") {
        el = document.createElement("button");
        el.type = "button";
        el.className = "t";
        el.setAttribute("data-win", tile);
        el.setAttribute("aria-pressed", win && win.value === tile ? "true" : "false");
      } else {
        el = document.createElement("span");
        el.className = "t";
        el.setAttribute("role", "img");
      }
      handView.appendChild(face(el, tile));
    });
  }

  function meld(group, s) {
    var same = /^(\d)\1+$/.test(group);
    if (same && group.length === 4) { return "kong " + group + s + " exposed"; }
    if (same && group.length === 3) { return "pung " + group + s + " claimed"; }
    if (!same && group.length === 3) { return "chow " + group + s + " claimed"; }
    return null;
  }

  function fillVoid(row) {
    var hand = row.querySelector("input[data-tiles=hand]");
    var melds = row.querySelector("input[data-tiles=melds]");
    var radios = row.querySelectorAll("input[type=radio][name$='-void']");
    if (!hand || !radios.length || row.querySelector("input[name$='-void']:checked")) { return; }
    var present = {};
    tilesOf((hand.value || "") + " " + (melds ? melds.value.replace(/[a-z]+ /g, " ") : "")).forEach(function (t) { present[t.slice(-1)] = true; });
    var missing = ["m", "p", "s"].filter(function (x) { return !present[x]; });
    if (missing.length === 1) {
      var radio = row.querySelector("input[name$='-void'][value='" + missing[0] + "']");
      if (radio) { radio.checked = true; fire(radio); }
    }
  }

  picker.addEventListener("click", function (e) {
    var b = e.target.closest("button");
    if (!b) { return; }
    if (b.hasAttribute("data-suit")) {
      suit = b.getAttribute("data-suit");
      Array.prototype.forEach.call(picker.querySelectorAll("[data-suit]"), function (x) { x.setAttribute("aria-pressed", x === b ? "true" : "false"); });
      Array.prototype.forEach.call(picker.querySelectorAll("[data-panel]"), function (p) { p.hidden = p.getAttribute("data-panel") !== suit; });
      return;
    }
    if (b.hasAttribute("data-win")) {
      var win = winInput();
      if (win) { win.value = b.getAttribute("data-win"); fire(win); render(); }
      return;
    }
    if (!target) { setTarget(form.querySelector("input[data-tiles=hand]")); }
    if (!target) { return; }
    var kind = target.getAttribute("data-tiles");
    var value = target.value.trim();
    if (b.hasAttribute("data-tool")) {
      if (b.getAttribute("data-tool") === "clear") { target.value = ""; }
      else { target.value = value.replace(/(^|[\s,;]+)(?:(?:pung|chow|kong) )?\S+(?: (?:claimed|exposed|concealed|added))?$/, ""); }
    } else {
      var group = b.getAttribute("data-group");
      var piece = b.hasAttribute("data-whole") ? group : group + suit;
      if (kind === "melds") {
        var m = meld(group, suit);
        if (m) { target.value = value ? value + ", " + m : m; }
      } else if (kind === "tile" || kind === "win") {
        target.value = group.charAt(0) + suit;
      } else {
        target.value = value ? value + " " + piece : piece;
      }
    }
    fire(target);
    if (kind === "hand") { fillVoid(scope(target)); }
    render();
  });

  form.addEventListener("focusin", function (e) {
    if (e.target.matches && e.target.matches("input[data-tiles]") && !picker.contains(e.target)) { setTarget(e.target); }
  });
  form.addEventListener("input", function (e) { if (e.target === target) { render(); } });

  // Choosing a winner (Sichuan: the event's player; Taiwanese: the winner) makes the event a win
  // and points the picker at that player's hand.
  form.addEventListener("change", function (e) {
    var el = e.target;
    if (el.type !== "radio" || !/(-player|-winner)$/.test(el.name)) { return; }
    var row = scope(el);
    var type = row.querySelector("input[type=radio][name$='-type']:checked");
    if (type !== null && type.value === "kong") { return; }
    var win = row.querySelector("input[type=radio][name$='-type'][value=win]");
    if (win && !win.checked) { win.checked = true; fire(win); }
    var hand = row.querySelector("input[data-tiles=hand]");
    if (hand && el.value !== "draw") { setTarget(hand); }
  });

  setTarget(form.querySelector("input[data-tiles=hand]"));
})();
