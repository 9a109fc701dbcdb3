// A hand from a photo of its cards (templates/_photo.html, in each hand of the round's
// forms). The picture chosen, or taken with the camera, is shrunk here (at most 1600 px
// on its long side, JPEG: a phone's 4-8 MB photo becomes a few hundred KB, upright as
// the camera held it) and sent to POST /api/v1/cards/read; the cards it answers fill the
// hand (round.js draws them, marking the ones to check), and nothing is saved until Save.
// The shrunk picture replaces the chosen file, so Save sends the small one with the hand.
// What the boxes held before comes back with Undo.
// Loaded before round.js: the buttons take their final place before round.js lays out the
// form (and keeps a refused hand's message where it is on the screen).
(function () {
  "use strict";
  var _ = window._; // static/i18n.js
  var ngettext = window.ngettext;
  var SIDE = 1600;
  var QUALITY = 0.85;
  var THUMB = 160; // the preview's pixels (shown at 64 CSS px: sharp at 2.5x)
  var blocks = Array.prototype.slice.call(document.querySelectorAll(".photo-entry"));
  if (!blocks.length || !window.fetch) { return; }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  // --- the picture, shrunk -------------------------------------------------------------
  function viaImage(file) { // an <img> draws the picture upright in today's browsers (read as
    // a data: address: the pages' Content-Security-Policy allows no blob: image)
    return new Promise(function (resolve, reject) {
      var reader = new FileReader();
      reader.onerror = function () { reject(new Error("unreadable")); };
      reader.onload = function () {
        var img = new Image();
        img.onload = function () {
          resolve({ source: img, width: img.naturalWidth, height: img.naturalHeight, done: function () {} });
        };
        img.onerror = function () { reject(new Error("undecodable")); };
        img.src = reader.result;
      };
      reader.readAsDataURL(file);
    });
  }
  function decode(file) {
    if (!window.createImageBitmap) { return viaImage(file); }
    var bitmap;
    try {
      bitmap = window.createImageBitmap(file, { imageOrientation: "from-image" });
    } catch (err) {
      return viaImage(file);
    }
    return bitmap.then(function (bmp) {
      return { source: bmp, width: bmp.width, height: bmp.height, done: function () { bmp.close(); } };
    }, function () { return viaImage(file); });
  }
  function drawn(pic, side) { // the picture on a canvas, at most `side` px long
    var scale = Math.min(1, side / Math.max(pic.width, pic.height));
    var canvas = document.createElement("canvas");
    canvas.width = Math.max(1, Math.round(pic.width * scale));
    canvas.height = Math.max(1, Math.round(pic.height * scale));
    var ctx = canvas.getContext("2d");
    ctx.fillStyle = "#fff"; // a PNG's transparency: white, not JPEG's black
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(pic.source, 0, 0, canvas.width, canvas.height);
    return canvas;
  }
  // {blob: the JPEG to send, thumb: a data: address of a small copy}; rejected when the
  // browser can't decode the picture
  function shrink(file) {
    return decode(file).then(function (pic) {
      var canvas = drawn(pic, SIDE);
      var thumb = drawn(pic, THUMB).toDataURL("image/jpeg", 0.7);
      pic.done();
      return new Promise(function (resolve, reject) {
        canvas.toBlob(function (blob) {
          if (blob) { resolve({ blob: blob, thumb: thumb }); } else { reject(new Error("not encoded")); }
        }, "image/jpeg", QUALITY);
      });
    });
  }

  // --- the answer, as the hand's words and the cards to check ------------------------------
  // The API's "cards" (each with "sure") come row by row: a row's word, then the cards set
  // apart in that row; "words" has one word a row, "unused" the cards set apart in order.
  // Which of them each card is: the fewest cards set apart before each word.
  function aligned(cards, words, unused) {
    var i = 0;
    var u = 0;
    var out = { words: [], unused: [] };
    function fits(at, w) {
      return at + w.length <= cards.length && w.every(function (c, j) { return cards[at + j].card === c; });
    }
    function apart() { // cards[i] is unused[u]
      if (i >= cards.length || u >= unused.length || cards[i].card !== unused[u]) { return false; }
      out.unused.push(cards[i].sure === false);
      i += 1;
      u += 1;
      return true;
    }
    for (var k = 0; k < words.length; k += 1) {
      while (!fits(i, words[k])) { if (!apart()) { return null; } }
      out.words.push(words[k].map(function (c, j) { return cards[i + j].sure === false; }));
      i += words[k].length;
    }
    while (i < cards.length) { if (!apart()) { return null; } }
    return u === unused.length ? out : null;
  }
  function byName(cards, words, unused) { // should the lists ever differ: by name, in order
    var taken = cards.map(function () { return false; });
    function check(name) {
      for (var i = 0; i < cards.length; i += 1) {
        if (!taken[i] && cards[i].card === name) { taken[i] = true; return cards[i].sure === false; }
      }
      return true; // not among the cards read: to check
    }
    return { words: words.map(function (w) { return w.map(check); }), unused: unused.map(check) };
  }
  function checks(data) {
    var words = data.words || [];
    var unused = data.unused || [];
    var cards = data.cards || [];
    var check = aligned(cards, words, unused) || byName(cards, words, unused);
    var count = unused.length;
    var unsure = check.unused.filter(Boolean).length;
    check.words.forEach(function (w) {
      count += w.length;
      unsure += w.filter(Boolean).length;
    });
    return { words: words, unused: unused, check: check, count: count, unsure: unsure };
  }

  // --- each hand's photo ----------------------------------------------------------------------
  blocks.forEach(function (block) {
    var set = block.closest("fieldset.entry") || block.parentNode;
    var name = block.getAttribute("data-name");
    var url = block.getAttribute("data-read-url");
    var inputs = Array.prototype.slice.call(block.querySelectorAll("input[type=file]"));
    var wordsBox = set.querySelector(".words-input");
    var leftBox = set.querySelector(".unused-input");
    block.classList.add("ready"); // the inputs hide in their labels, styled as buttons
    Array.prototype.forEach.call(block.querySelectorAll(".photo-take"), function (label) { label.hidden = false; });

    var shown = el("div", "photo-read");
    shown.hidden = true;
    var thumb = el("img", "photo-thumb");
    thumb.alt = _("The photo");
    var status = el("p", "photo-status");
    status.setAttribute("role", "status");
    var undo = el("button", "photo-undo small", _("Undo"));
    undo.type = "button";
    undo.setAttribute("aria-label", _("Undo: bring back the cards from before the photo"));
    undo.hidden = true;
    var text = el("div", "photo-text");
    text.appendChild(status);
    text.appendChild(undo);
    shown.appendChild(thumb);
    shown.appendChild(text);
    var warn = el("p", "photo-error");
    warn.setAttribute("role", "alert");
    warn.hidden = true;
    block.appendChild(shown);
    block.appendChild(warn);

    var before = null; // the boxes before the photo filled them, for Undo
    var turn = 0; // a second picture chosen while the first is read: only the last one counts

    // What the page says about the photo is brought into view, above the card keyboard
    // when the keyboard sticks to the bottom of the screen (the seat's form).
    function show(node) {
      if (node.hidden || !node.getBoundingClientRect) { return; }
      var seen = node.getBoundingClientRect();
      var floor = window.innerHeight;
      var pad = set.form ? set.form.querySelector(".cardpad") : null;
      if (pad && !pad.hidden) { floor = Math.min(floor, pad.getBoundingClientRect().top); }
      if (seen.bottom > floor - 8) {
        window.scrollBy(0, Math.max(0, Math.min(seen.bottom - floor + 8, seen.top - 8)));
      } else if (seen.top < 0) {
        window.scrollBy(0, seen.top - 8);
      }
    }
    function fail(message) {
      warn.textContent = message;
      warn.hidden = !message;
      show(warn);
    }
    function setThumb(address) {
      if (address) { thumb.src = address; } else { thumb.removeAttribute("src"); }
      thumb.hidden = !address;
    }
    function forget(input) { // the photo is not kept with the hand
      input.value = "";
      shown.hidden = true;
      setThumb(null);
    }
    function fill(detail) {
      set.dispatchEvent(new CustomEvent("cards:fill", { detail: detail }));
    }

    undo.addEventListener("click", function () {
      if (!before) { return; }
      fill({ text: before });
      before = null;
      undo.hidden = true;
      status.textContent = _("The cards from before the photo are back.");
    });

    inputs.forEach(function (input) {
      input.addEventListener("change", function () {
        var file = input.files && input.files[0];
        if (!file) { return; }
        // the picture goes with the form under the hand's field name, from this input only
        inputs.forEach(function (other) {
          if (other !== input) { other.value = ""; other.removeAttribute("name"); }
        });
        input.name = name;
        var mine = (turn += 1);
        fail("");
        undo.hidden = true;
        status.textContent = _("Reading the cards…");
        shown.hidden = false;
        setThumb(null);
        shown.classList.add("busy");
        show(shown);
        shrink(file).then(function (small) {
          if (mine !== turn) { return null; }
          try { // Save sends the small picture
            var list = new DataTransfer();
            list.items.add(new File([small.blob], "photo.jpg", { type: "image/jpeg" }));
            input.files = list.files;
          } catch (err) { /* an older browser: the picture as chosen goes with Save */ }
          setThumb(small.thumb);
          return small.blob;
        }, function () {
          return file; // not decoded here: the server says what it is
        }).then(function (body) {
          if (!body || mine !== turn) { return null; }
          return fetch(url, {
            method: "POST",
            headers: { "Content-Type": body.type || "application/octet-stream", "Accept": "application/json" },
            body: body,
            credentials: "same-origin"
          }).then(function (r) {
            return r.json().then(function (data) { return { r: r, data: data }; },
                                 function () { return { r: r, data: null }; });
          }, function () { return { r: null, data: null }; });
        }).then(function (answer) {
          if (!answer || mine !== turn) { return; }
          shown.classList.remove("busy");
          var r = answer.r;
          var data = answer.data;
          if (!r) {
            status.textContent = "";
            fail(_("No connection: the photo couldn't be read. Your cards are as they were: try again, or enter them."));
            return;
          }
          if (!r.ok || !data || data.error) {
            status.textContent = "";
            fail(data && data.error ? data.error
              : _("The photo couldn't be read. Your cards are as they were: try again, or enter them."));
            if (r.status !== 429 && r.status < 500) { forget(input); }
            return;
          }
          var read = checks(data);
          if (!read.count) {
            status.textContent = _("No cards found in this photo. Try again with the cards in a row, face up, in good light.");
            show(shown);
            return;
          }
          var was = { words: wordsBox ? wordsBox.value.trim() : "", unused: leftBox ? leftBox.value.trim() : "" };
          before = was.words || was.unused ? was : null;
          fill({ words: read.words, unused: read.unused, check: read.check });
          var said = ngettext("{n} card read.", "{n} cards read.", read.count);
          said += " " + (read.unsure
            ? ngettext("{n} card to check: tap a marked card to change it.",
                       "{n} cards to check: tap a marked card to change it.", read.unsure)
            : _("Check them, then save."));
          status.textContent = said;
          undo.hidden = !before;
          show(shown);
        });
      });
    });
  });
}());
