/* Organiser forms (templates/tournaments/form.html): the rules preset select shows only the
 * chosen game's presets (their targets in the option text), the slug is filled in from the
 * name until the organiser types one, a change of game draws the form again with that game's
 * options, and the count field shows only for a counted round format. The server validates all. */
(function () {
  "use strict";
  function slugify(text) {
    return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
      .replace(/[^a-z0-9\s-]/g, "").trim().replace(/[\s-]+/g, "-").slice(0, 50).replace(/-+$/, "");
  }
  Array.prototype.forEach.call(document.querySelectorAll("[data-slug-from]"), function (box) {
    var name = document.getElementById(box.getAttribute("data-slug-from"));
    var slug = box.querySelector("input");
    if (!name || !slug || slug.disabled) { return; }
    var auto = !slug.value || slug.value === slugify(name.value);
    slug.addEventListener("input", function () { auto = slug.value === ""; });
    name.addEventListener("input", function () { if (auto) { slug.value = slugify(name.value); } });
  });
  Array.prototype.forEach.call(document.querySelectorAll("select[data-game-select]"), function (select) {
    var game = document.getElementById(select.getAttribute("data-game-select"));
    if (!game) { return; }
    function filter(keep) {
      Array.prototype.forEach.call(select.querySelectorAll("optgroup"), function (group) {
        var mine = group.getAttribute("data-game") === game.value;
        group.hidden = !mine;
        group.disabled = !mine;
      });
      var chosen = select.options[select.selectedIndex];
      if (!keep && (!chosen || chosen.parentNode.tagName !== "OPTGROUP" || chosen.parentNode.disabled)) {
        var def = select.querySelector("optgroup[data-game='" + game.value + "'] option[data-default]");
        select.value = def ? def.value : "";
        if (def) { def.selected = true; }
      }
    }
    game.addEventListener("change", function () { filter(false); });
    filter(true);
  });
  // Another game: the server draws the form again with that game's options (without JavaScript
  // the same happens when the form is saved).
  Array.prototype.forEach.call(document.querySelectorAll("#tournament-form select[name='game']"), function (game) {
    game.addEventListener("change", function () {
      if (game.form.requestSubmit) { game.form.requestSubmit(); } else { game.form.submit(); }
    });
  });
  // The count (hands, deals or wind rounds per round) only for a counted format, its default filled in.
  Array.prototype.forEach.call(document.querySelectorAll("[data-round-format]"), function (box) {
    var counts = {};
    try { counts = JSON.parse(box.getAttribute("data-counts") || "{}"); } catch (e) { counts = {}; }
    var format = box.querySelector("select[name='round_format']");
    var countBox = box.querySelector("[data-count-field]");
    var count = countBox && countBox.querySelector("input");
    if (!format || !countBox || !count) { return; }
    function show(changed) {
      var counted = Object.prototype.hasOwnProperty.call(counts, format.value) && counts[format.value] !== null;
      countBox.hidden = !counted;
      if (counted && changed && counts[format.value]) { count.value = counts[format.value]; }
    }
    format.addEventListener("change", function () { show(true); });
    show(false);
  });
})();
