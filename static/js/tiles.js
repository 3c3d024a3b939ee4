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
    });
    return out;
  }

  function winInput() { return target ? scope(target).querySelector("input[data-tiles=win]") : null; }

  function render() {
    handView.textContent = "";
    if (!target || target.getAttribute("data-tiles") !== "hand") { return; }
    var win = winInput();
    tilesOf(target.value).forEach(function (tile) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "t";
      b.textContent = tile;
      b.setAttribute("data-win", tile);
      b.setAttribute("aria-pressed", win && win.value === tile ? "true" : "false");
      handView.appendChild(b);
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
