// Construction-yard game, progressive enhancement only (issue 26): the buy rows follow the turns,
// the next player's first, so after a purchase the buy area stays where it was on the screen,
// not the row tapped (app.js keeps the tapped button in place; this runs after it).
(function () {
  "use strict";
  var top = null;
  document.addEventListener("submit", function (event) {
    var area = event.target.closest ? event.target.closest("#buy") : null;
    top = area ? area.getBoundingClientRect().top : null;
  }, true);
  new MutationObserver(function () {
    var area = document.getElementById("buy");
    if (top !== null && area) window.scrollBy(0, area.getBoundingClientRect().top - top);
    top = null;
  }).observe(document.documentElement, { attributes: true, attributeFilter: ["data-answers"] });
})();
