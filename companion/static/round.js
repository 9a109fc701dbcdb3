// The round form: a card keyboard for the focused box, a running card count per
// player, the deck limit checked across players, and the card spellings offered
// when typed letters could be laid down more than one way (QU, IN, ER, CL, TH).
(function () {
  "use strict";
  var form = document.getElementById("round-form");
  if (!form) { return; }
  var hand = parseInt(form.getAttribute("data-hand"), 10);
  var spellUrl = form.getAttribute("data-spell-url");
  var csrf = form.querySelector("input[name=csrf_token]");
  var keys = Array.prototype.slice.call(document.querySelectorAll(".key[data-card]"));
  var copies = {};
  keys.forEach(function (k) { copies[k.getAttribute("data-card")] = parseInt(k.getAttribute("data-copies"), 10); });
  var doubles = ["qu", "in", "er", "cl", "th"];
  var target = null;
  var targetLabel = document.getElementById("keyboard-target");

  // The cards a box holds: a token with dashes is card names, else one letter per card;
  // leftovers are card names separated by spaces.
  function cardsOf(input) {
    var text = input.value.trim().toLowerCase();
    if (!text) { return []; }
    var out = [];
    text.split(/[\s,;]+/).forEach(function (token) {
      if (!token) { return; }
      if (input.classList.contains("unused-input")) {
        token.split("-").forEach(function (c) { if (c) { out.push(c); } });
      } else if (token.indexOf("-") >= 0) {
        token.split("-").forEach(function (c) { if (c) { out.push(c); } });
      } else {
        token.split("").forEach(function (c) { out.push(c); });
      }
    });
    return out;
  }

  function update() {
    var total = {};
    form.querySelectorAll("fieldset.entry").forEach(function (set) {
      var n = 0;
      set.querySelectorAll(".card-input").forEach(function (input) {
        cardsOf(input).forEach(function (c) { n += 1; total[c] = (total[c] || 0) + 1; });
      });
      var count = set.querySelector(".count");
      count.textContent = n + " / " + hand + " cards";
      count.className = "count " + (n === hand ? "ok" : (n > hand ? "over" : "short"));
    });
    var over = Object.keys(total).filter(function (c) { return copies[c] !== undefined && total[c] > copies[c]; });
    var warning = document.getElementById("deck-warning");
    if (over.length) {
      warning.textContent = over.map(function (c) {
        return "The deck has only " + copies[c] + " " + c.toUpperCase() + " cards; " + total[c] + " are entered.";
      }).join(" ");
      warning.hidden = false;
    } else {
      warning.hidden = true;
    }
    keys.forEach(function (k) {
      var c = k.getAttribute("data-card");
      k.classList.toggle("used-up", (total[c] || 0) >= copies[c]);
    });
  }

  // Offer the card spellings of the word being typed, when there is more than one.
  var pending = null;
  function offer(input) {
    var box = input.parentNode.querySelector(".spellings-offer");
    var tokens = input.value.split(/\s+/);
    var last = (tokens[tokens.length - 1] || "").toLowerCase();
    box.innerHTML = "";
    if (!/^[a-z]{2,22}$/.test(last) || !doubles.some(function (d) { return last.indexOf(d) >= 0; })) { return; }
    if (pending) { window.clearTimeout(pending); }
    pending = window.setTimeout(function () {
      fetch(spellUrl, { method: "POST", headers: { "Content-Type": "application/json", "X-CSRFToken": csrf ? csrf.value : "" },
                        body: JSON.stringify({ letters: last }) })
        .then(function (r) { return r.ok ? r.json() : { spellings: [] }; })
        .then(function (data) {
          if (data.spellings.length < 2) { return; }
          box.innerHTML = "";
          var label = document.createElement("span");
          label.className = "offer-label";
          label.textContent = "Which cards?";
          box.appendChild(label);
          data.spellings.forEach(function (s) {
            var b = document.createElement("button");
            b.type = "button";
            b.className = "offer";
            b.textContent = s.cards.map(function (c) { return c.toUpperCase(); }).join("·") + " " + s.value;
            b.addEventListener("click", function () {
              var words = input.value.replace(/\s+$/, "").split(/\s+/);
              words[words.length - 1] = s.cards.join("-");
              input.value = words.join(" ") + " ";
              box.innerHTML = "";
              update();
              input.focus();
            });
            box.appendChild(b);
          });
        })
        .catch(function () {});
    }, 250);
  }

  form.querySelectorAll(".card-input").forEach(function (input) {
    input.addEventListener("focus", function () {
      target = input;
      var who = input.closest("fieldset").querySelector("legend").firstChild.textContent.trim();
      targetLabel.textContent = "Typing into: " + who + ", " + (input.classList.contains("unused-input") ? "left over" : "words");
    });
    input.addEventListener("input", function () { update(); if (input.classList.contains("words-input")) { offer(input); } });
  });

  keys.concat(Array.prototype.slice.call(document.querySelectorAll(".key[data-action]"))).forEach(function (key) {
    key.addEventListener("mousedown", function (e) { e.preventDefault(); }); // keep the box focused
    key.addEventListener("click", function () {
      if (!target) { target = form.querySelector(".words-input"); }
      var value = target.value;
      var action = key.getAttribute("data-action");
      if (action === "space") {
        target.value = value.replace(/\s+$/, "") + " ";
      } else if (action === "back") {
        target.value = value.replace(/\s+$/, "").replace(/-?[a-z]+$/i, function (m) {
          return m.indexOf("-") === 0 || m.length <= 2 ? "" : m.slice(0, -1);
        });
      } else {
        var card = key.getAttribute("data-card");
        var sep = target.classList.contains("unused-input") ? " " : "-";
        target.value = (value === "" || /\s$/.test(value)) ? value + card : value + sep + card;
      }
      update();
    });
  });
  update();
}());
