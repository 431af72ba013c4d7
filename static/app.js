// Progressive enhancement only: every page works without this file.
(function () {
  "use strict";
  var KEY = "companion-scroll:" + location.pathname;
  // Stay at the same place on the page after an action (post/redirect/get reloads it).
  document.addEventListener("submit", function (event) {
    sessionStorage.setItem(KEY, String(window.scrollY));
    // One tap, one action: a second tap while the first is on its way does nothing.
    var form = event.target;
    if (form.dataset.sent) { event.preventDefault(); return; }
    form.dataset.sent = "1";
  });
  window.addEventListener("pageshow", function () {
    var y = sessionStorage.getItem(KEY);
    if (y !== null) { sessionStorage.removeItem(KEY); window.scrollTo(0, Number(y)); }
    document.querySelectorAll("form[data-sent]").forEach(function (f) { delete f.dataset.sent; });
  });
})();
