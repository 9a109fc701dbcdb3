// The round form. Each hand is built from the card keyboard a word at a time, shown as
// card chips; the text boxes stay the form (the server reads only them, and they work
// without JavaScript): the chips are drawn from the boxes and written back to them.
// Also: a running card count per hand, the deck's copies checked across the form, the
// card spellings offered for typed letters (QU, IN, ER, CL, TH), and a warning for a
// hand marked as going out that still holds cards. Everything is found by class, so
// the same script serves a form with every hand and a form with one hand.
// A hand read from a photo (static/photo.js sends the fieldset a "cards:fill" event) has
// the cards the server was unsure of marked; a tap on a card, then on a key, changes it.
(function () {
  "use strict";
  var _ = window._; // static/i18n.js, loaded first on every page
  var ngettext = window.ngettext;
  var form = document.querySelector("form.round-form");
  if (!form) { return; }
  var hand = parseInt(form.getAttribute("data-hand"), 10) || 0;
  var spellUrl = form.getAttribute("data-spell-url");
  var csrf = form.querySelector("input[name=csrf_token]");
  var pad = form.querySelector(".cardpad");
  var FOLDED = "quiddler.cardpad.folded";
  var single = form.classList.contains("seat-form");
  // The scorekeeper's every-hand form folds once every hand is in (Close comes up the
  // screen); opened by hand, or landed at (#every-hand, after a reopen), it stays open on
  // this round's page in this tab, through the reloads of a challenge or a save.
  var everyHand = form.parentNode && form.parentNode.closest ? form.parentNode.closest("details.every-hand") : null;
  if (everyHand) {
    var OPENED = "quiddler.every-hand." + window.location.pathname;
    var remember = function (open) {
      try { window.sessionStorage.setItem(OPENED, open ? "1" : "0"); } catch (err) { /* private mode */ }
    };
    if (window.location.hash === "#every-hand") { remember(true); }
    try { if (window.sessionStorage.getItem(OPENED) === "1") { everyHand.open = true; } } catch (err) { /* private mode */ }
    everyHand.querySelector("summary").addEventListener("click", function () { remember(!everyHand.open); });
  }
  var DOUBLES = ["qu", "in", "er", "cl", "th"];
  var SEP_WORDS = /[\s,;]+/;
  var SEP_CARDS = /[\s,;\-·.]+/;

  function toArray(list) { return Array.prototype.slice.call(list); }
  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }
  function setText(node, text) { if (node.textContent !== text) { node.textContent = text; } }
  function reveal(node) {
    if (!node || !node.scrollIntoView) { return; }
    try { node.scrollIntoView({ block: "nearest" }); } catch (err) { node.scrollIntoView(false); }
  }

  var keys = pad ? toArray(pad.querySelectorAll(".key[data-card]")) : [];
  var copies = {};
  var values = {};
  keys.forEach(function (k) {
    var c = k.getAttribute("data-card");
    copies[c] = parseInt(k.getAttribute("data-copies"), 10);
    var sub = k.querySelector("sub");
    if (sub) { values[c] = sub.textContent; }
  });

  // --- the boxes as cards -------------------------------------------------------------
  // Words: separated by spaces; a token with dashes is card names (qu-i-z, in-), else one
  // letter per card (top). Left over: card names separated by spaces (or dashes).
  function parseWords(text) {
    var lower = text.toLowerCase();
    var words = [];
    lower.trim().split(SEP_WORDS).forEach(function (token) {
      if (!token) { return; }
      var cards = token.indexOf("-") >= 0 ? token.replace(/^-+|-+$/g, "").split("-") : token.split("");
      cards = cards.filter(function (c) { return c !== ""; });
      if (cards.length) { words.push(cards); }
    });
    return { words: words, open: words.length > 0 && !/[\s,;]$/.test(lower) };
  }
  function parseCards(text) {
    return text.toLowerCase().trim().split(SEP_CARDS).filter(function (c) { return c !== ""; });
  }
  function wordText(cards) { // the box's spelling of a word: c-a-t, and in- for a lone IN
    if (cards.length === 1) { return cards[0].length > 1 ? cards[0] + "-" : cards[0]; }
    return cards.join("-");
  }
  function shown(cards) { return cards.join("").toUpperCase(); }

  // --- the hands ------------------------------------------------------------------------
  function nameOf(set) {
    var legend = set.querySelector("legend");
    if (!legend) { return _("This hand"); }
    var text = "";
    for (var node = legend.firstChild; node; node = node.nextSibling) {
      if (node.nodeType === 1 && node.classList.contains("count")) { break; }
      text += node.textContent;
    }
    return text.trim() || _("This hand");
  }

  var entries = [];
  toArray(form.querySelectorAll("fieldset.entry")).forEach(function (set) {
    var words = set.querySelector(".words-input");
    var left = set.querySelector(".unused-input");
    if (!words || !left) { return; }
    var legend = set.querySelector("legend");
    var count = set.querySelector(".count");
    if (!count) {
      count = el("span", "count");
      count.setAttribute("aria-live", "polite");
      if (legend) { legend.appendChild(count); }
    }
    var offer = words.parentNode.querySelector(".spellings-offer");
    if (!offer) {
      offer = el("div", "spellings-offer");
      offer.setAttribute("aria-live", "polite");
      words.parentNode.insertBefore(offer, words.nextSibling);
    }
    var chips = el("div", "hand-chips");
    var notes = el("div", "entry-notes");
    var pickNote = el("p", "pick-note");
    pickNote.setAttribute("role", "status");
    pickNote.hidden = true;
    notes.appendChild(pickNote);
    var wentOutNote = el("p", "went-out-warning");
    wentOutNote.setAttribute("role", "alert");
    wentOutNote.hidden = true;
    notes.appendChild(wentOutNote);
    var after = legend ? legend.nextSibling : set.firstChild;
    set.insertBefore(chips, after);
    set.insertBefore(notes, chips.nextSibling);
    entries.push({
      set: set, words: words, left: left, count: count, offer: offer, chips: chips,
      notes: notes, wentOutNote: wentOutNote, wentOut: set.querySelector("input[name=went_out]"),
      name: nameOf(set), cards: [], leftover: [], editing: 0, mode: "words", chosen: null,
      // the cards to check (read from a photo): a word's marks hold while it is as read
      // ({cards: "qu-i-z", check: [false, true, false]} by word), a left-over card's while
      // that card is where it was ({card: "m"} by place); the card tapped to change
      pickNote: pickNote, wordMarks: [], leftMarks: [], picked: null
    });
  });
  if (!entries.length) { return; }

  function read(e, typed) { // the boxes -> the chips; a saved hand starts with its words closed
    var p = parseWords(e.words.value);
    e.cards = p.words;
    e.editing = typed && p.open ? p.words.length - 1 : p.words.length;
    e.leftover = parseCards(e.left.value);
    e.chosen = null;
    e.picked = null;
  }
  function write(e) { // the chips -> the boxes; a trailing space: the next card starts a word
    var text = e.cards.map(wordText).join(" ");
    if (text && e.mode === "words" && e.editing >= e.cards.length) { text += " "; }
    e.words.value = text;
    e.left.value = e.leftover.join(" ");
  }
  function cardCount(e) {
    return e.cards.reduce(function (n, w) { return n + w.length; }, 0) + e.leftover.length;
  }

  // --- the cards to check ---------------------------------------------------------------
  function wordMark(e, i) { // word i's marks while it is as read, else none (and forgotten)
    var m = e.wordMarks[i];
    if (m && e.cards[i] && m.cards === e.cards[i].join("-")) { return m; }
    e.wordMarks[i] = null;
    return null;
  }
  function marksOf(e, kind, index) { // which of the group's cards are to check
    if (kind === "left") {
      return e.leftover.map(function (c, j) {
        var m = e.leftMarks[j];
        if (m && m.card !== c) { e.leftMarks[j] = null; return false; }
        return !!m;
      });
    }
    var w = wordMark(e, index);
    return e.cards[index].map(function (c, j) { return !!(w && w.check[j]); });
  }
  function say(e, text) { setText(e.pickNote, text); e.pickNote.hidden = !text; }
  function picks(e, kind, index, j) {
    var p = e.picked;
    return !!p && p.kind === kind && p.index === index && p.card === j;
  }
  function unpick() { // a tap anywhere but on a card of a hand or a key: no card is being changed
    entries.forEach(function (e) {
      if (e.picked) { e.picked = null; say(e, ""); render(e); }
    });
  }

  // --- the keyboard's state ---------------------------------------------------------------
  var active = null;
  var typing = false;
  var folded = false;
  try { folded = window.localStorage.getItem(FOLDED) === "1"; } catch (err) { folded = false; }
  var deckNote = form.querySelector(".deck-warning");
  if (!deckNote) {
    deckNote = el("p", "deck-warning");
    deckNote.setAttribute("role", "alert");
    deckNote.hidden = true;
  }
  var inputs = [];
  entries.forEach(function (e) { inputs.push(e.words, e.left); });

  function padOpen() { return pad && !pad.hidden && !folded; }
  function applyInputMode() {
    var mode = padOpen() && !typing ? "none" : "text";
    inputs.forEach(function (input) { input.setAttribute("inputmode", mode); });
  }

  // --- drawing the chips --------------------------------------------------------------------
  // A card of a chip, drawn by the style sheet from its data (no text of its own): the
  // chip's visible words, and so its name, are the word under the cards (WCAG 2.5.3).
  // A card to check has a "?" on it; the card tapped to be changed is lit.
  function cardChip(name, check, picked) {
    var known = copies[name] !== undefined;
    var chip = el("span", "card" + (known ? "" : " bad") + (check ? " check" : "") + (picked ? " picked" : ""));
    chip.setAttribute("data-face", name.toUpperCase());
    if (known && values[name] !== undefined) { chip.setAttribute("data-value", values[name]); }
    if (check) { chip.appendChild(el("span", "check-badge", "?")); }
    return chip;
  }
  function group(e, cards, kind, index) {
    var isOpen = e === active && padOpen() &&
      (kind === "left" ? e.mode === "left" : e.mode === "words" && e.editing === index);
    var b = el("button", "word-chip" + (kind === "left" ? " leftover" : "") + (isOpen ? " open" : ""));
    b.type = "button";
    var chosen = e.chosen === (kind === "left" ? "left" : index);
    b.setAttribute("aria-expanded", chosen ? "true" : "false");
    var row = el("span", "chip-cards");
    row.setAttribute("aria-hidden", "true");
    var marks = marksOf(e, kind, index);
    var checks = [];
    cards.forEach(function (c, j) {
      var card = cardChip(c, marks[j], picks(e, kind, kind === "left" ? 0 : index, j));
      card.setAttribute("data-i", String(j));
      row.appendChild(card);
      if (marks[j]) { checks.push(c.toUpperCase()); }
    });
    b.appendChild(row);
    var label = kind === "left" ? _("left over") : shown(cards);
    b.appendChild(el("span", "chip-text", label));
    var named = { cards: cards.map(function (c) { return c.toUpperCase(); }).join(" "), word: label };
    var n = cards.length;
    var spoken;
    if (kind === "left") {
      spoken = isOpen
        ? ngettext("Left over: {cards}, {n} card, being entered. Edit or remove",
                   "Left over: {cards}, {n} cards, being entered. Edit or remove", n, named)
        : ngettext("Left over: {cards}, {n} card. Edit or remove",
                   "Left over: {cards}, {n} cards. Edit or remove", n, named);
    } else {
      spoken = isOpen
        ? ngettext("{word}, {n} card, being entered. Edit or remove",
                   "{word}, {n} cards, being entered. Edit or remove", n, named)
        : ngettext("{word}, {n} card. Edit or remove", "{word}, {n} cards. Edit or remove", n, named);
    }
    if (checks.length) { // read from a photo, unsure: said first
      spoken = ngettext("Check the card {cards}.", "Check the cards {cards}.", checks.length,
        { cards: checks.join(" ") }) + " " + spoken;
      b.classList.add("has-check");
    }
    b.setAttribute("aria-label", spoken);
    b.setAttribute("data-chip", kind === "left" ? "left" : String(index));
    b.addEventListener("click", function (ev) {
      // A card of the chip tapped, when it is one to check (or the chip's menu is open, or
      // a card of the hand is being changed): the next key changes that card. Anywhere
      // else on the chip, and on a card otherwise, the tap opens or closes its menu.
      var card = ev.target && ev.target.closest ? ev.target.closest(".card") : null;
      if (card && b.contains(card) && (chosen || e.picked || card.classList.contains("check"))) {
        pickCard(e, kind === "left" ? "left" : "word", kind === "left" ? 0 : index,
          parseInt(card.getAttribute("data-i"), 10), b);
        return;
      }
      activate(e, b);
      e.chosen = chosen ? null : (kind === "left" ? "left" : index);
      render(e);
      focusChip(e, kind === "left" ? "left" : String(index));
    });
    return b;
  }
  function menu(e, kind, index, cards) {
    var box = el("span", "chip-menu");
    box.setAttribute("role", "group");
    var word = { word: shown(cards) };
    box.setAttribute("aria-label", kind === "left" ? _("the cards left over") : word.word);
    var edit = el("button", "chip-action", kind === "left" ? _("Add cards") : _("Edit"));
    edit.type = "button";
    edit.setAttribute("aria-label", kind === "left" ? _("Add cards to the cards left over") : _("Edit {word}", word));
    edit.addEventListener("click", function () {
      activate(e, edit);
      if (kind === "left") { closeWord(e); e.mode = "left"; } else { e.mode = "words"; e.editing = index; }
      e.chosen = null;
      commit(e);
    });
    var remove = el("button", "chip-action remove", kind === "left" ? _("Clear") : _("Remove"));
    remove.type = "button";
    remove.setAttribute("aria-label", kind === "left" ? _("Clear the cards left over") : _("Remove {word}", word));
    remove.addEventListener("click", function () {
      if (kind === "left") {
        e.leftover = [];
      } else {
        e.cards.splice(index, 1);
        e.wordMarks.splice(index, 1);
        if (e.editing > index) { e.editing -= 1; } else if (e.editing === index) { e.editing = e.cards.length; }
      }
      e.chosen = null;
      commit(e);
    });
    box.appendChild(edit);
    box.appendChild(remove);
    return box;
  }
  function focusChip(e, which) {
    var b = e.chips.querySelector("[data-chip='" + which + "']");
    if (b) { b.focus(); }
  }
  function render(e) {
    var box = e.chips;
    box.innerHTML = "";
    e.cards.forEach(function (cards, i) {
      box.appendChild(group(e, cards, "word", i));
      if (e.chosen === i) { box.appendChild(menu(e, "word", i, cards)); }
    });
    var here = e === active && padOpen();
    if (here && e.mode === "words" && e.editing >= e.cards.length) {
      box.appendChild(el("span", "word-chip open empty", e.cards.length ? _("next word…") : _("first word…")));
    }
    if (e.leftover.length) {
      box.appendChild(group(e, e.leftover, "left"));
      if (e.chosen === "left") { box.appendChild(menu(e, "left", 0, e.leftover)); }
    } else if (here && e.mode === "left") {
      box.appendChild(el("span", "word-chip leftover open empty", _("left over…")));
    }
    if (!here && pad && !pad.hidden) {
      var pick = el("button", "chip-pick", e.cards.length || e.leftover.length
        ? _("✎ Cards") : _("Tap to enter {name}'s cards", { name: e.name }));
      pick.type = "button"; // named by its words, in the hand's group (its legend: the name)
      pick.addEventListener("click", function () {
        activate(e, pick);
        if (folded) { setFolded(false, true); }
      });
      box.appendChild(pick);
    }
  }

  // --- counts and warnings --------------------------------------------------------------------
  function update() {
    var total = {};
    entries.forEach(function (e) {
      var n = cardCount(e);
      e.cards.forEach(function (w) { w.forEach(function (c) { total[c] = (total[c] || 0) + 1; }); });
      e.leftover.forEach(function (c) { total[c] = (total[c] || 0) + 1; });
      var state = n === hand ? "ok" : (n > hand ? "over" : "short");
      setText(e.count, ngettext("{entered} / {n} card", "{entered} / {n} cards", hand, { entered: n }));
      e.count.className = "count " + state;
      if (e === active && pad) {
        var mirror = pad.querySelector(".cardpad-count");
        setText(mirror, n + " / " + hand);
        mirror.className = "cardpad-count " + state;
      }
      var out = e.wentOut && e.wentOut.checked && e.leftover.length > 0;
      var text = out ? ngettext("{name} is marked as going out but still has {n} card left over.",
        "{name} is marked as going out but still has {n} cards left over.", e.leftover.length,
        { name: e.name }) : "";
      var appeared = out && e.wentOutNote.hidden;
      setText(e.wentOutNote, text);
      e.wentOutNote.hidden = !out;
      if (appeared) { reveal(e.wentOutNote); }
    });
    var over = Object.keys(total).filter(function (c) { return copies[c] !== undefined && total[c] > copies[c]; });
    var wasHidden = deckNote.hidden;
    if (over.length) {
      setText(deckNote, over.map(function (c) {
        return ngettext("The deck has only {n} {card} card; {entered} are entered.",
          "The deck has only {n} {card} cards; {entered} are entered.", copies[c],
          { card: c.toUpperCase(), entered: total[c] });
      }).join(" "));
      deckNote.hidden = false;
      if (wasHidden) { reveal(deckNote); }
    } else {
      deckNote.hidden = true;
    }
    keys.forEach(function (k) {
      var c = k.getAttribute("data-card");
      var gone = (total[c] || 0) >= copies[c];
      k.classList.toggle("used-up", gone);
      // Its name is its words ("A2, 2 points"), and says so once every copy is entered.
      if (gone) {
        k.setAttribute("aria-label", _("{key} (all entered)", { key: k.textContent }));
      } else {
        k.removeAttribute("aria-label");
      }
    });
  }

  function padLabel() {
    if (!pad || !active) { return; }
    setText(pad.querySelector(".cardpad-who"), active.name);
    pad.setAttribute("aria-label", _("Card keyboard for {name}", { name: active.name }));
    var sw = pad.querySelector("[data-action=left]");
    sw.setAttribute("aria-checked", active.mode === "left" ? "true" : "false");
  }

  function commit(e) { write(e); render(e); update(); padLabel(); }

  // One tap on a card of a hand: the next key changes it (a tap on it again keeps it).
  function pickCard(e, kind, index, j, anchor) {
    var again = picks(e, kind, index, j);
    activate(e, anchor);
    e.chosen = null;
    e.picked = again ? null : { kind: kind, index: index, card: j };
    var cards = kind === "left" ? e.leftover : e.cards[index];
    if (again) {
      say(e, "");
    } else {
      var named = { card: cards[j].toUpperCase(), word: shown(cards) };
      say(e, kind === "left"
        ? _("Changing the {card} left over: tap the right card on the keyboard, or tap the {card} again to keep it.", named)
        : _("Changing {card} in {word}: tap the right card on the keyboard, or tap the {card} again to keep it.", named));
      if (folded) { setFolded(false, false); }
    }
    render(e);
    focusChip(e, kind === "left" ? "left" : String(index));
  }
  function changePicked(e, card) { // the key tapped for the card picked: it replaces it
    var p = e.picked;
    e.picked = null;
    var cards = p.kind === "left" ? e.leftover : e.cards[p.index];
    if (!cards || p.card >= cards.length) { say(e, ""); return false; }
    var old = cards[p.card];
    var mark = p.kind === "left" ? null : wordMark(e, p.index);
    cards[p.card] = card;
    if (p.kind === "left") {
      e.leftMarks[p.card] = null;
    } else if (mark) { // its other cards stay to check
      mark.cards = cards.join("-");
      mark.check[p.card] = false;
    }
    commit(e);
    say(e, _("{old} changed to {new}.", { old: old.toUpperCase(), new: card.toUpperCase() }));
    return true;
  }
  function closeWord(e) { if (e.mode === "words") { e.editing = e.cards.length; } }

  // The keyboard goes right below the hand being filled, in the page's flow (never over
  // it); the element the person touched stays where it was on the screen.
  function activate(e, anchor) {
    if (active === e) { return; }
    var before = anchor ? anchor.getBoundingClientRect().top : null;
    var old = active;
    active = e;
    if (pad) { e.set.parentNode.insertBefore(pad, e.set.nextSibling); }
    e.notes.appendChild(deckNote);
    if (old) { old.chosen = null; render(old); }
    render(e);
    update();
    padLabel();
    if (before !== null && anchor.isConnected) {
      var shift = anchor.getBoundingClientRect().top - before;
      if (shift) { window.scrollBy(0, shift); }
      if (padOpen()) { // show the keys too, keeping the touched element on the screen
        var bottom = pad.getBoundingClientRect().bottom - window.innerHeight;
        var room = anchor.getBoundingClientRect().top - 8;
        if (bottom > 0 && room > 0) { window.scrollBy(0, Math.min(bottom, room)); }
      }
    }
  }

  function setFolded(value, remember) {
    folded = value;
    if (remember) {
      try { window.localStorage.setItem(FOLDED, folded ? "1" : "0"); } catch (err) { /* private mode */ }
    }
    if (!pad) { return; }
    pad.classList.toggle("folded", folded);
    var fold = pad.querySelector("[data-action=fold]");
    fold.setAttribute("aria-expanded", folded ? "false" : "true");
    fold.textContent = folded ? _("▴ Cards") : "▾";
    if (folded) { // named by its words; unfolded, its arrow alone says nothing
      fold.removeAttribute("aria-label");
    } else {
      fold.setAttribute("aria-label", _("Card keyboard"));
    }
    fold.title = folded ? _("Show the card keyboard") : _("Fold the card keyboard away");
    pad.querySelector(".keys").hidden = folded;
    if (folded) { setTyping(false); }
    applyInputMode();
    entries.forEach(render);
    padLabel();
  }
  function setTyping(value) {
    typing = value;
    if (pad) { pad.querySelector("[data-action=type]").setAttribute("aria-pressed", typing ? "true" : "false"); }
    form.classList.toggle("typing", typing); // the phone's keyboard is up: the card keyboard stops sticking
    applyInputMode();
  }

  // --- the card spellings of typed letters -------------------------------------------------------
  function usesDouble(s) { return s.cards.some(function (c) { return c.length > 1; }); }
  var pending = null;
  function offer(e) {
    var box = e.offer;
    var input = e.words;
    var tokens = input.value.split(/\s+/);
    var last = (tokens[tokens.length - 1] || "").toLowerCase();
    box.innerHTML = "";
    if (pending) { window.clearTimeout(pending); pending = null; }
    if (!/^[a-z]{2,22}$/.test(last) || !DOUBLES.some(function (d) { return last.indexOf(d) >= 0; })) { return; }
    pending = window.setTimeout(function () {
      pending = null;
      fetch(spellUrl, { method: "POST", headers: { "Content-Type": "application/json", "X-CSRFToken": csrf ? csrf.value : "" },
                        body: JSON.stringify({ letters: last }) })
        .then(function (r) { return r.ok ? r.json() : { spellings: [] }; })
        .then(function (data) {
          var list = (data.spellings || []).map(function (s, i) { return { s: s, i: i }; });
          if (list.length < 2) { return; }
          // A spelling with a double-letter card first (fewer cards first), whatever the order sent.
          list.sort(function (a, b) {
            return ((usesDouble(b.s) ? 1 : 0) - (usesDouble(a.s) ? 1 : 0)) ||
              (a.s.cards.length - b.s.cards.length) || (a.i - b.i);
          });
          box.innerHTML = "";
          box.appendChild(el("span", "offer-label", _("Which cards?")));
          list.forEach(function (item) {
            var s = item.s;
            var b = el("button", "offer");
            b.type = "button";
            b.appendChild(el("span", "offer-cards", s.cards.map(function (c) { return c.toUpperCase(); }).join("·")));
            b.appendChild(document.createTextNode(" "));
            b.appendChild(el("span", "offer-meta", ngettext("{n} card · {points} pts", "{n} cards · {points} pts",
              s.cards.length, { points: window.formatNumber(s.value) })));
            b.addEventListener("click", function () {
              var words = input.value.replace(/\s+$/, "").split(/\s+/);
              words[words.length - 1] = wordText(s.cards);
              input.value = words.join(" ") + " ";
              box.innerHTML = "";
              read(e, true);
              render(e);
              update();
              input.focus();
            });
            box.appendChild(b);
          });
          reveal(box);
        })
        .catch(function () {});
    }, 250);
  }

  // --- wiring -------------------------------------------------------------------------------------
  entries.forEach(function (e) {
    [e.words, e.left].forEach(function (input) {
      var mode = input === e.left ? "left" : "words";
      function pick() {
        activate(e, input);
        if (e.mode !== mode) {
          if (mode === "left") { closeWord(e); }
          e.mode = mode;
          render(e);
          padLabel();
        }
      }
      input.addEventListener("focus", pick);
      input.addEventListener("click", pick);
      input.addEventListener("input", function () {
        say(e, "");
        read(e, true);
        render(e);
        update();
        if (input === e.words) { offer(e); }
      });
    });
    read(e, e.set.hasAttribute("data-draft")); // a draft brought back (drafts.js): as it was left
    // A hand read from a photo (static/photo.js): {words: [["qu", "i", "z"]], unused: ["m"],
    // check: {words: [[false, true, false]], unused: [false]}}; or the boxes as they were
    // before it ({text: {words: "...", unused: "..."}}: its Undo).
    e.set.addEventListener("cards:fill", function (ev) {
      var d = ev.detail || {};
      activate(e, null);
      if (d.text) {
        e.words.value = d.text.words;
        e.left.value = d.text.unused;
        read(e, false);
        e.wordMarks = [];
        e.leftMarks = [];
      } else {
        var check = d.check || { words: [], unused: [] };
        e.cards = (d.words || []).map(function (w) { return w.slice(); });
        e.leftover = (d.unused || []).slice();
        e.wordMarks = e.cards.map(function (w, i) {
          var c = check.words[i] || [];
          return c.some(Boolean) ? { cards: w.join("-"), check: w.map(function (x, j) { return !!c[j]; }) } : null;
        });
        e.leftMarks = e.leftover.map(function (c, j) { return check.unused[j] ? { card: c } : null; });
        e.editing = e.cards.length;
        e.mode = "words";
        e.chosen = null;
        e.picked = null;
      }
      say(e, "");
      e.offer.innerHTML = "";
      commit(e);
    });
  });
  // A card picked to be changed stays picked only for a key of the keyboard (or another card).
  document.addEventListener("click", function (ev) {
    var t = ev.target;
    if (t && t.closest && (t.closest(".cardpad .key[data-card]") || t.closest(".hand-chips .card"))) { return; }
    unpick();
  }, true);
  form.addEventListener("change", function (ev) {
    if (ev.target && ev.target.name === "went_out") { update(); }
  });
  form.addEventListener("submit", function () {
    inputs.forEach(function (input) { input.value = input.value.trim(); });
  });

  if (pad) {
    pad.hidden = false;
    toArray(pad.querySelectorAll("button")).forEach(function (b) {
      b.addEventListener("mousedown", function (ev) { ev.preventDefault(); }); // keep the box focused
    });
    keys.forEach(function (k) {
      k.addEventListener("click", function () {
        var e = active;
        var card = k.getAttribute("data-card");
        e.chosen = null;
        if (e.picked && changePicked(e, card)) { return; }
        if (e.mode === "left") {
          e.leftover.push(card);
        } else {
          if (e.editing >= e.cards.length) { e.cards.push([]); e.editing = e.cards.length - 1; }
          e.cards[e.editing].push(card);
        }
        commit(e);
      });
    });
    pad.querySelector("[data-action=space]").addEventListener("click", function () {
      var e = active;
      e.mode = "words";
      e.editing = e.cards.length;
      e.chosen = null;
      commit(e);
    });
    pad.querySelector("[data-action=back]").addEventListener("click", function () {
      var e = active;
      e.chosen = null;
      if (e.mode === "left") {
        e.leftover.pop();
      } else if (e.cards.length) {
        if (e.editing >= e.cards.length) { e.editing = e.cards.length - 1; }
        var w = e.cards[e.editing];
        w.pop();
        if (!w.length) { e.cards.splice(e.editing, 1); e.wordMarks.splice(e.editing, 1); e.editing = e.cards.length; }
      }
      commit(e);
    });
    pad.querySelector("[data-action=left]").addEventListener("click", function () {
      var e = active;
      if (e.mode === "left") { e.mode = "words"; } else { closeWord(e); e.mode = "left"; }
      e.chosen = null;
      commit(e);
    });
    pad.querySelector("[data-action=type]").addEventListener("click", function () {
      setTyping(!typing);
      var target = active.mode === "left" ? active.left : active.words;
      if (typing) {
        target.focus();
        var end = target.value.length;
        try { target.setSelectionRange(end, end); } catch (err) { /* not a text box */ }
      } else if (document.activeElement === target) {
        target.blur();
      }
    });
    pad.querySelector("[data-action=fold]").addEventListener("click", function () { setFolded(!folded, true); });
    form.classList.add("has-cardpad");
    // One hand on this phone: Save goes with the keyboard (kept at the bottom of the screen
    // by cardpad.css), so the keys, whose hand and Save are all within the thumb's reach.
    var save = form.querySelector(".sticky-save");
    if (single && save) { pad.appendChild(save); }
  }
  // A refused form comes back with a message by the hand at fault (errors.js scrolled to
  // it): start at that hand, keeping the message where it is on the screen.
  var message = form.querySelector("fieldset.entry .error[role=alert]");
  var focused = document.activeElement;
  function holding(node) { return entries.filter(function (e) { return node && e.set.contains(node); })[0]; }
  var first = holding(focused) || holding(message) || entries[0];
  activate(first, window.pageYOffset > 0 && message ? message : null);
  if (focused === first.left || (message && message.parentNode.contains(first.left))) { first.mode = "left"; }
  setFolded(folded, false);
  // The seat's page, opened (not at a place of its own, nothing refused): when the hand's
  // chips would be under the keyboard, the page starts at the form (and the messages just
  // above it, static/errors.js), so each tapped card shows above the keys.
  // Refused: the message (the page's, else the hand's) is never left under the keyboard.
  var refusal = document.querySelector(".alert[role=alert], .error[role=alert]");
  if (single && pad && refusal) {
    var seen = refusal.getBoundingClientRect();
    if (seen.bottom > pad.getBoundingClientRect().top) { window.scrollBy(0, seen.top - 8); }
  }
  if (single && pad && !message && !refusal && !window.location.hash && window.pageYOffset === 0) {
    var padTop = pad.getBoundingClientRect().top;
    if (first.chips.getBoundingClientRect().bottom > padTop) {
      var start = form;
      while (start.previousElementSibling && start.previousElementSibling.classList.contains("flash")) {
        start = start.previousElementSibling;
      }
      window.scrollBy(0, start.getBoundingClientRect().top - 8);
    }
  }
}());
