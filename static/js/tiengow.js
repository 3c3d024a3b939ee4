/* Tien Gow quick entry (templates/games/tiengow/entry.html). The columns keypad: a digit fills the
 * chosen seat's box (the first empty one when none is chosen) and moves on to the next empty box;
 * when three boxes are filled the fourth gets what is left of the eight columns (every tile played
 * is one column of someone, the Tien Gow rule text), and follows when another box is changed
 * (until it is typed in itself). ⌫ empties the chosen box. With the keypad the boxes
 * open no phone keyboard (inputmode none); they can still be typed in on a computer. The summary of
 * "won with" follows the choice. Without JavaScript the boxes are typed. */
(function () {
  "use strict";
  var root = document.querySelector("[data-tiengow]");
  if (!root) { return; }
  var pad = root.querySelector(".tg-keypad");
  var hint = root.querySelector(".tg-hint");
  var boxes = Array.prototype.slice.call(root.querySelectorAll("input[data-columns]"));
  if (!pad || boxes.length !== 4 || boxes[0].disabled || root.closest("fieldset[disabled]")) { return; }
  pad.hidden = false;
  if (hint) { hint.hidden = false; }
  var active = null;
  var auto = null;  // the box filled with what was left (kept up to date until typed in)

  function fire(el) {
    el.dispatchEvent(new Event("input", { bubbles: true }));
    el.dispatchEvent(new Event("change", { bubbles: true }));
  }
  function choose(box) {
    active = box;
    boxes.forEach(function (b) { b.closest(".tg-cell").classList.toggle("active", b === box); });
  }
  function firstEmpty(after) {
    var start = after ? boxes.indexOf(after) + 1 : 0;
    for (var k = 0; k < 4; k++) {
      var b = boxes[(start + k) % 4];
      if (b.value === "" && b !== after) { return b; }
    }
    return null;
  }
  function rest(box) {
    return 8 - boxes.reduce(function (s, b) { return s + (b === box || b.value === "" ? 0 : parseInt(b.value, 10) || 0); }, 0);
  }
  function fillLast() {
    if (auto && auto.value !== "") {
      var left = rest(auto);
      if (left >= 0 && String(left) !== auto.value) { auto.value = String(left); fire(auto); }
      return;
    }
    var empty = boxes.filter(function (b) { return b.value === ""; });
    if (empty.length !== 1 || rest(empty[0]) < 0) { return; }
    auto = empty[0];
    auto.value = String(rest(auto));
    fire(auto);
  }

  boxes.forEach(function (b) {
    b.setAttribute("inputmode", "none");
    b.addEventListener("focus", function () { choose(b); });
    b.addEventListener("click", function () { choose(b); });
    b.addEventListener("input", function (e) {  // typed on a keyboard
      if (!e.isTrusted) { return; }
      if (b === auto) { auto = null; } else { fillLast(); }
    });
  });
  pad.addEventListener("click", function (e) {
    var key = e.target.closest("button[data-digit]");
    if (!key) { return; }
    var box = active || firstEmpty(null);
    if (!box) { return; }
    if (box === auto) { auto = null; }
    box.value = key.getAttribute("data-digit");
    fire(box);
    if (box.value === "") { choose(box); return; }
    fillLast();
    choose(firstEmpty(box));
  });

  var summary = root.querySelector(".tg-group-now");
  root.addEventListener("change", function (e) {
    if (summary && e.target.type === "radio" && /-last_group$/.test(e.target.name)) {
      var label = root.querySelector("label[for='" + e.target.id + "']");
      summary.textContent = label ? label.textContent : "";
    }
  });
  choose(firstEmpty(null));
})();
