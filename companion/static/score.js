// Progressive enhancement of the score form: show player rows as needed and
// label the challenge seat menus with the names typed so far.
(function () {
  "use strict";
  var _ = window._; // static/i18n.js, loaded first on every page
  var rows = Array.prototype.slice.call(document.querySelectorAll(".player-row"));
  var addButton = document.getElementById("add-player");
  if (!rows.length || !addButton) { return; }

  function filled(row) {
    return Array.prototype.some.call(row.querySelectorAll("input[type=text]"), function (i) {
      return i.value.trim() !== "";
    }) || row.classList.contains("has-error");
  }

  // Keep every filled row, and at least three, visible; hide the blank rest.
  var last = 2;
  rows.forEach(function (row, i) { if (filled(row)) { last = Math.max(last, i); } });
  rows.forEach(function (row, i) { row.hidden = i > last; });
  addButton.hidden = last >= rows.length - 1;
  addButton.addEventListener("click", function () {
    var next = rows.filter(function (r) { return r.hidden; })[0];
    if (next) { next.hidden = false; next.querySelector("input").focus(); }
    addButton.hidden = !rows.some(function (r) { return r.hidden; });
  });

  function relabel() {
    document.querySelectorAll(".seat-select select").forEach(function (select) {
      Array.prototype.forEach.call(select.options, function (opt) {
        if (!opt.value) { return; }
        var name = document.getElementById("players-" + (opt.value - 1) + "-name");
        var typed = name && name.value.trim();
        opt.textContent = typed ? typed : _("Player {n}", { n: opt.value });
      });
    });
  }
  document.querySelectorAll(".player-row .name input").forEach(function (input) {
    input.addEventListener("input", relabel);
  });
  relabel();
}());
