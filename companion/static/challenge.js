// The scorekeeper's challenge form: the word menu offers only the words of players other
// than the challenger, and the challenger menu only players other than the word's (a
// word is "seat:index"). Both start on "Choose…"; the server refuses a self-challenge
// sent anyway. The form is kept across the live part's refreshes (board.js, data-keep).
(function () {
  "use strict";
  var form = document.querySelector("form.challenge-form");
  if (!form) { return; }
  var by = form.querySelector("select[name=by]");
  var word = form.querySelector("select[name=word]");
  if (!by || !word) { return; }
  function seatOf(option) { return option.value.split(":")[0]; }
  function only(menu, out) { // leave out the options of seat ``out`` ("" leaves none out)
    Array.prototype.forEach.call(menu.options, function (o) {
      var own = out !== "" && o.value !== "" && seatOf(o) === out;
      o.disabled = own;
      o.hidden = own;
    });
    if (menu.selectedIndex >= 0 && menu.options[menu.selectedIndex].disabled) { menu.value = ""; }
  }
  function sync() {
    only(word, by.value);
    only(by, word.value === "" ? "" : seatOf(word.options[word.selectedIndex]));
  }
  by.addEventListener("change", sync);
  word.addEventListener("change", sync);
  sync();
}());
