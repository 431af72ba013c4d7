// Progressive enhancement only: every page works without this file.
(function () {
  "use strict";
  var KEY = "companion-scroll";
  // Installable on the home screen: the service worker keeps the static files at hand.
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(function () {});
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

  // Follow the table: another phone's action shows up within two seconds. A scoreboard
  // reloads itself; a scorer's page offers a reload instead (its forms may be half filled).
  var poll = document.body.dataset.poll;
  if (!poll || !window.fetch) return;
  var seen = document.body.dataset.seq;
  var follow = document.body.dataset.follow;
  function check() {
    if (document.hidden) return;
    fetch(poll, { cache: "no-store", credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (news) {
        if (!news || String(news.seq) === seen) return;
        if (follow === "reload") { location.reload(); return; }
        seen = String(news.seq);
        showChanged(news);
      })
      .catch(function () {});
  }
  function showChanged(news) {
    if (document.getElementById("changed")) return;
    var note = document.createElement("p");
    note.id = "changed";
    note.className = "changed";
    note.setAttribute("role", "status");
    note.textContent = news.message + " ";
    var link = document.createElement("a");
    link.href = location.pathname.replace(/\/[a-z_]+$/, "/");
    link.className = "button primary small";
    link.textContent = news.reload;
    note.appendChild(link);
    document.querySelector("main").prepend(note);
  }
  setInterval(check, 1000);
  document.addEventListener("visibilitychange", check);
})();
