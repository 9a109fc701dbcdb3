// The page's language for its scripts: _("Next word") and ngettext("{n} card", "{n} cards", n)
// look their words up in the catalog the server put in the page (#i18n-catalog), and fill
// the {named} parts from an object. A word missing there stays as written (English).
// formatNumber(-24) writes a number as the page's language does (Intl.NumberFormat with the
// catalog's lang: "4,71" in lt, hu and cs) with the minus sign U+2212, as the server's
// |num filter does (web/i18n.py: number).
(function () {
  "use strict";
  var node = document.getElementById("i18n-catalog");
  var catalog = { lang: "en", words: {} };
  try { if (node) { catalog = JSON.parse(node.textContent); } } catch (e) { /* English */ }

  function fill(text, values) {
    if (!values) { return text; }
    return text.replace(/\{(\w+)\}/g, function (whole, key) {
      return Object.prototype.hasOwnProperty.call(values, key) ? String(values[key]) : whole;
    });
  }

  window._ = function (message, values) {
    var found = catalog.words[message];
    return fill(typeof found === "string" ? found : message, values);
  };

  window.ngettext = function (one, other, count, values) {
    var found = catalog.words[one];
    var text = count === 1 ? one : other;
    if (found && found.forms) {
      var i = found.index[count] !== undefined ? found.index[count] : found.index[found.index.length - 1];
      text = found.forms[i];
    }
    var all = { n: count };
    if (values) { Object.keys(values).forEach(function (k) { all[k] = values[k]; }); }
    return fill(text, all);
  };

  var numbers = null;
  try { numbers = new Intl.NumberFormat(catalog.lang); } catch (e) { /* plain digits */ }
  window.formatNumber = function (value, decimals) {
    var text;
    if (decimals !== undefined && numbers) {
      text = new Intl.NumberFormat(catalog.lang, { minimumFractionDigits: decimals,
        maximumFractionDigits: decimals }).format(value);
    } else {
      text = numbers ? numbers.format(value) : String(value);
    }
    return text.replace(/^[-\u2212]/, "\u2212");
  };

  window.i18nLang = catalog.lang;
}());
