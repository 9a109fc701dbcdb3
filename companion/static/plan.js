// The round plan of the house rules (new game, score a round): the first and last hand
// boxes only while a short game is chosen (without this script they are always shown, and
// the server reads them only for a short game), and Junior's other rules set as the menu's
// data-junior says, each marked, so the person sees what changed and can still change it.
(function () {
  "use strict";
  var _ = window._; // static/i18n.js, loaded first on every page

  function setRule(prefix, name, value) {
    var box = document.getElementById(prefix + name);
    if (!box) { return false; }
    if (box.type === "checkbox") {
      if (box.checked === value) { return false; }
      box.checked = value;
    } else if (box.tagName === "SELECT") {
      var offered = Array.prototype.some.call(box.options, function (o) { return o.value === value; });
      if (!offered || box.value === value) { return false; } // no such word list here: kept
      box.value = value;
    } else {
      return false;
    }
    var field = box.closest(".field") || box.parentNode;
    field.classList.add("preset-set");
    box.dispatchEvent(new Event("change", { bubbles: true }));
    return true;
  }

  Array.prototype.forEach.call(document.querySelectorAll("select[data-plan]"), function (menu) {
    var prefix = menu.id.slice(0, menu.id.length - menu.name.split("-").pop().length);
    var short = document.getElementById(menu.id + "-short");
    var note = document.getElementById(menu.id + "-note");
    var junior = {};
    try { junior = JSON.parse(menu.getAttribute("data-junior") || "{}"); } catch (e) { junior = {}; }

    function showShort() {
      if (!short) { return; }
      var chosen = menu.value === "short";
      // A refused box stays in sight whatever the menu says.
      short.hidden = !chosen && !short.querySelector(".has-error");
    }
    menu.addEventListener("change", function () {
      showShort();
      if (menu.value !== "junior") { return; }
      var changed = Object.keys(junior).filter(function (name) {
        return setRule(prefix, name, junior[name]);
      });
      if (note) {
        note.textContent = changed.length
          ? _("Junior also set the rules marked below; you can still change them.")
          : _("Junior's other rules are already set below.");
      }
    });
    showShort();
  });
}());
