// New game: move names (with their handicaps) up and down the seating order, remove a
// seat, show a seat's handicap box once it has a name, and show the house rules that
// matter only at some table sizes (the two-player bonus) only then.
(function () {
  "use strict";
  var _ = window._; // static/i18n.js, loaded first on every page
  var rows = Array.prototype.slice.call(document.querySelectorAll(".seat-row"));
  if (!rows.length) { return; }
  var inputs = rows.map(function (r) { return r.querySelector("input[type=text]"); });
  var starts = rows.map(function (r) { return r.querySelector(".handicap input"); });
  // House rules that matter only at a table of a given size (data-only-with="2").
  var sized = Array.prototype.filter.call(document.querySelectorAll("[data-only-with]"),
    function (el) { return el.getAttribute("data-only-with") !== ""; });

  var dealer = document.getElementById("first_dealer");

  function named() { return inputs.filter(function (i) { return i.value.trim() !== ""; }).length; }
  // Two-player bonus only with two players; the first-dealer menu shows the names typed.
  function refresh() {
    rows.forEach(function (row, i) {
      var box = row.querySelector(".handicap");
      if (box && starts[i]) {
        // An empty seat needs no handicap (unless one was typed, or refused, there).
        box.hidden = inputs[i].value.trim() === "" && starts[i].value === "" &&
          !row.classList.contains("has-error");
      }
    });
    sized.forEach(function (el) {
      el.hidden = named() !== parseInt(el.getAttribute("data-only-with"), 10);
    });
    if (dealer) {
      Array.prototype.forEach.call(dealer.options, function (opt) {
        var typed = inputs[parseInt(opt.value, 10) - 1].value.trim();
        opt.textContent = typed || _("Seat {n} (empty)", { n: opt.value });
      });
    }
  }
  function swap(a, b) {
    if (b < 0 || b >= inputs.length) { return; }
    var v = inputs[a].value; inputs[a].value = inputs[b].value; inputs[b].value = v;
    if (starts[a] && starts[b]) {
      var h = starts[a].value; starts[a].value = starts[b].value; starts[b].value = h;
    }
    inputs[b].focus();
    refresh();
  }
  rows.forEach(function (row, i) {
    row.querySelector(".move-up").addEventListener("click", function () { swap(i, i - 1); });
    row.querySelector(".move-down").addEventListener("click", function () { swap(i, i + 1); });
    row.querySelector(".remove").addEventListener("click", function () {
      for (var k = i; k < inputs.length - 1; k += 1) {
        inputs[k].value = inputs[k + 1].value;
        if (starts[k]) { starts[k].value = starts[k + 1].value; }
      }
      inputs[inputs.length - 1].value = "";
      if (starts[inputs.length - 1]) { starts[inputs.length - 1].value = ""; }
      refresh();
    });
    inputs[i].addEventListener("input", refresh);
  });
  refresh();
}());
