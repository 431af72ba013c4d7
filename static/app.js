// Progressive enhancement only: every page works without this file.
(function () {
  "use strict";
  var KEY = "companion-scroll";
  // Stay at the same place on the page after an action (post/redirect/get reloads it).
  document.addEventListener("submit", function (event) {
    sessionStorage.setItem(KEY, JSON.stringify({ path: location.pathname, y: window.scrollY }));
    // One tap, one action: a second tap while the first is on its way does nothing.
    var form = event.target;
    if (form.dataset.sent) { event.preventDefault(); return; }
    form.dataset.sent = "1";
  });
  window.addEventListener("pageshow", function () {
    var saved = JSON.parse(sessionStorage.getItem(KEY) || "null");
    sessionStorage.removeItem(KEY);
    var error = document.querySelector(".error");
    // A refusal is said at the top: show it rather than the place the tap came from.
    if (error) error.scrollIntoView({ block: "center" });
    else if (saved && saved.path === location.pathname && !location.hash) window.scrollTo(0, saved.y);
    document.querySelectorAll("form[data-sent]").forEach(function (f) { delete f.dataset.sent; });
  });
})();
