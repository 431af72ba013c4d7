// Street game, progressive enhancement only (the builder works without it): the −/+ steppers of
// an icon's amount, and the card library filtered as one types.
(function () {
  "use strict";
  document.documentElement.classList.add("street-js");

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("button[data-step]") : null;
    if (!button) return;
    event.preventDefault();
    var input = document.getElementById(button.dataset.for);
    var now = input.value === "" ? 0 : Number(input.value);
    var next = Math.max(Number(input.min), Math.min(Number(input.max), now + Number(button.dataset.step)));
    input.value = String(next);
  });

  document.addEventListener("input", function (event) {
    var box = event.target;
    if (!box.matches || !box.matches("input[data-filter]")) return;
    var words = box.value.trim().toLowerCase();
    document.querySelectorAll(box.dataset.filter).forEach(function (card) {
      var said = (card.dataset.words ? card : card.querySelector("[data-words]")).dataset.words;
      card.hidden = words !== "" && said.toLowerCase().indexOf(words) < 0;
    });
  });
})();
