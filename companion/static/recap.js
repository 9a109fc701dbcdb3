// The recap's share card: "Share" hands the picture to the phone's share sheet (the Web
// Share API, with the PNG as a file where the browser can share files, else its address);
// "Print" prints the page. Each button is shown only where the browser can do it: the
// download link works everywhere, without JavaScript too.
(function () {
  "use strict";
  var share = document.getElementById("share-card");
  var print = document.getElementById("print-recap");
  if (print && window.print) {
    print.hidden = false;
    print.addEventListener("click", function () { window.print(); });
  }
  if (!share || !navigator.share || !window.fetch) { return; }
  share.hidden = false;
  var address = new URL(share.getAttribute("data-png"), location.href).href;
  var title = share.getAttribute("data-title");
  var file = null;
  // Fetched ahead: a share sheet must open in the tap's own turn, not after a download.
  fetch(address, { credentials: "same-origin" })
    .then(function (answer) { return answer.ok ? answer.blob() : null; })
    .then(function (blob) {
      if (!blob || !window.File) { return; }
      var named = new File([blob], "quiddler.png", { type: "image/png" });
      if (navigator.canShare && navigator.canShare({ files: [named] })) { file = named; }
    })
    .catch(function () { file = null; });
  share.addEventListener("click", function () {
    var data = file ? { files: [file], title: title } : { title: title, url: address };
    navigator.share(data).catch(function () { /* closed without sharing: nothing to do */ });
  });
})();
