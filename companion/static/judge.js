// The word judge's verdict fills the screen, then clears itself after 10 seconds
// (or at a tap), leaving an empty box for the next play.
(function () {
  "use strict";
  var screen = document.getElementById("judge-screen");
  if (!screen) { return; }
  var left = parseInt(screen.getAttribute("data-seconds"), 10) || 10;
  var countdown = document.getElementById("judge-countdown");
  var words = document.getElementById("words");
  if (words) { words.value = ""; }
  screen.focus();

  function clear() {
    window.clearInterval(timer);
    screen.remove();
    if (window.history.replaceState) { window.history.replaceState(null, "", window.location.pathname); }
    if (words) { words.focus(); }
  }
  var timer = window.setInterval(function () {
    left -= 1;
    if (countdown) { countdown.textContent = String(Math.max(left, 0)); }
    if (left <= 0) { clear(); }
  }, 1000);
  screen.addEventListener("click", clear);
}());
