// Solitaire: tap face-up cards in order to build the word; the pile numbers go into
// the form, and the cards show as they will be read.
(function () {
  "use strict";
  var input = document.getElementById("piles-input");
  if (!input) { return; }
  var preview = document.getElementById("word-preview");
  var tiles = Array.prototype.slice.call(document.querySelectorAll(".pile[data-pile]"));
  var chosen = [];

  function show() {
    input.value = chosen.join(" ");
    tiles.forEach(function (t) {
      var at = chosen.indexOf(t.getAttribute("data-pile"));
      t.classList.toggle("picked", at >= 0);
      t.setAttribute("data-order", at >= 0 ? String(at + 1) : "");
    });
    preview.textContent = chosen.map(function (p) {
      var tile = tiles[parseInt(p, 10) - 1];
      var card = tile.querySelector(".pile-card");
      return card ? card.firstChild.textContent.trim() : "?";
    }).join("·");
  }
  tiles.forEach(function (tile) {
    tile.addEventListener("click", function () {
      var p = tile.getAttribute("data-pile");
      var at = chosen.indexOf(p);
      if (at >= 0) { chosen.splice(at, 1); } else { chosen.push(p); }
      show();
    });
  });
  document.getElementById("clear-word").addEventListener("click", function () { chosen = []; show(); });
  input.addEventListener("input", function () {
    chosen = (input.value.match(/\d+/g) || []).filter(function (p) { return p >= 1 && p <= tiles.length; });
    tiles.forEach(function (t) { t.classList.toggle("picked", chosen.indexOf(t.getAttribute("data-pile")) >= 0); });
  });
}());
