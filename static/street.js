// Street game, progressive enhancement only (the builder works without it): the −/+ steppers of
// an icon's amount, an icon's amount 1 once it is chosen, a new card's project chip keeping what was chosen
// and brought into view whole, the turn's card in view after a tap built or discarded, and the
// cards seen before filtered as one types.
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

  document.addEventListener("change", function (event) {
    var input = event.target;
    if (!input.matches) return;
    // An icon chosen while its amount is blank: 1, the most usual amount (− and + change it).
    if (input.matches(".effect input[type=radio]") && input.value) {
      var amount = input.closest(".effect").querySelector("input[type=number]");
      if (amount && amount.value === "") amount.value = "1";
    }
    // A gift goes on an opponent's street: ticked, it chooses the next player's, unless an
    // opponent's is chosen already.
    if (input.matches("input[name=gift]") && input.checked && input.form) giftStreet(input.form);
  });

  function giftStreet(form) {
    var streets = Array.prototype.slice.call(form.querySelectorAll("input[name=street]"));
    var player = form.querySelector("input[name=player]");
    var chosen = form.querySelector("input[name=street]:checked");
    if (!streets.length || !player || (chosen && chosen.value !== player.value)) return;
    var own = streets.findIndex(function (s) { return s.value === player.value; });
    streets[(own + 1) % streets.length].checked = true;
  }

  // A new card, opened by its project's chip (a fold-out app.js opens in place), and the cards
  // built before again; every card built before, on the builder's own page; and the purchase
  // of a card that fits no site ("To discard a card"): where the card came from and its cost
  // go with the address, and the page opened keeps them, or says why it cannot
  // (`street.chosen`, `street.purchase_chosen`); the new card's chips come into view whole.
  var opening = false;
  var DESCRIBED = /^(project|floor|double|roof|gift|no_gifts|street|(income|prestige)_(each|amount|project)_0)$/;
  document.addEventListener("click", function (event) {
    var link = event.target.closest ?
      event.target.closest(".new-toggle, .new-project, form.builder .all, .discard-card") : null;
    var form = link && (link.form || link.closest("form"));
    if (!form) return;
    var chosen = chosenIn(form);
    var url = new URL(link.dataset.href || link.href, location.href);
    if (chosen.source) url.searchParams.set("source", chosen.source);
    if (chosen.cost !== "") url.searchParams.set("cost", chosen.cost);
    // The whole card builder: with the new card as described so far (`street.described`).
    if (link.name === "whole_card") {
      new FormData(form).forEach(function (value, name) {
        if (DESCRIBED.test(name) && value !== "") url.searchParams.set(name, value);
      });
      url.searchParams.set("describe", "y");
    }
    if (link.dataset.href) link.dataset.href = url.pathname + url.search + url.hash;
    else link.href = url.toString();
    opening = !!link.dataset.href && !link.classList.contains("discard-card");
  }, true);

  // Where the card came from and its cost, as chosen in a builder form.
  function chosenIn(form) {
    var source = form.querySelector("input[name=source]:checked");
    var cost = form.querySelector("input[name=cost]");
    return { source: source ? source.value : null, cost: cost ? cost.value : "" };
  }

  function restore() {
    var form = document.querySelector("form.builder");
    var part = form && form.querySelector(".new-part");
    if (opening && part) intoView(form.querySelector(".known-head"), part);
    opening = false;
  }

  // `part` wholly above the score strip, if it can be with `head` still on the screen.
  function intoView(head, part) {
    var strip = document.querySelector(".score-strip");
    var foot = window.innerHeight - (strip ? strip.offsetHeight : 0);
    var below = part.getBoundingClientRect().bottom - foot;
    if (below > 0) window.scrollBy(0, Math.min(below + 8, head.getBoundingClientRect().top - 4));
  }

  // A tap in the turn's card that recorded something (the table's seq moved on): the next action
  // starts at the top of the turn's card, so that card's top comes back onto the screen.
  var sentAt = null;
  document.addEventListener("submit", function (event) {
    sentAt = event.target.closest && event.target.closest("#turn") ? document.body.dataset.seq : null;
  }, true);
  // Both once an answer is in place, before app.js settles the page (it keeps the thumb's
  // place clear of other actions after these scrolls too).
  document.addEventListener("placed", function () {
    restore();
    var turn = document.getElementById("turn");
    if (sentAt !== null && document.body.dataset.seq !== sentAt && turn &&
        turn.getBoundingClientRect().top < 0) turn.scrollIntoView({ block: "start" });
    sentAt = null;
  });

  document.addEventListener("input", function (event) {
    var box = event.target;
    if (!box.matches || !box.matches("input[data-filter]")) return;
    var words = box.value.trim().toLowerCase();
    document.querySelectorAll(box.dataset.filter).forEach(function (card) {
      var said = card.getAttribute("aria-label");
      card.hidden = words !== "" && said.toLowerCase().indexOf(words) < 0;
    });
  });
})();
