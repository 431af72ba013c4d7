// Progressive enhancement only: every page works without this file.
(function () {
  "use strict";
  // Installable on the home screen: the service worker keeps the static files at hand.
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(function () {});

  // Prints in the installed app -------------------------------------------------------------
  // Installed on the home screen, the app has no address bar and no back button: a PDF opened
  // in its window would leave the players no way back to the table. There, a PDF link
  // (type="application/pdf") saves the file instead, which the phone opens in its own viewer,
  // and the app stays on the table. In a browser tab the PDF opens as any link does.
  function installed() {
    return navigator.standalone === true || (!!window.matchMedia &&
      ["standalone", "fullscreen"].some(function (mode) {
        return window.matchMedia("(display-mode: " + mode + ")").matches;
      }));
  }
  document.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest('a[type="application/pdf"]') : null;
    if (link && installed()) link.setAttribute("download", "");
  }, true);

  // Numbers typed over what a field shows ---------------------------------------------------
  // A number field that shows a value (the high bid Alea's chance was worked out for, a count
  // being changed) has it selected when it takes the focus, so what is typed replaces it (found
  // at a table: "1210" typed over a 12); left alone, it stays. Dirk's counts are blank, their 0
  // a placeholder, so that without JavaScript too a count typed is the count.
  document.addEventListener("focusin", function (event) {
    var field = event.target;
    if (field.matches && field.matches('input[inputmode="numeric"]') && field.value !== "") {
      field.select();
    }
  });

  // One tap, one action ---------------------------------------------------------------------
  // An action form (data-action) is sent in place: the tapped button shows it is working and
  // every action ignores taps until the answer; the answer's page replaces <main> with the
  // tapped control kept where the thumb is, and what was recorded is said in the score strip
  // (#recorded) and to a screen reader (#said). A refusal is said under the field or control
  // at fault.
  // A tap is a bounce (the second tap of a double tap) only if it lands before the screen
  // changed: while the answer is on its way, or at the same place within REACT_MS of the answer
  // being painted, sooner than anyone sees a screen change and taps in reply. Any later tap was
  // meant, and is sent: a second purchase 0.7 s after the first answer, Undo three times, each
  // 0.45 s after the answer before. Times are the taps' own (event.timeStamp), so a busy page
  // cannot stretch them. The server keeps its own guard: a form's one-time key sent again gets
  // the first answer, never a second event.
  var REACT_MS = 300;
  var MOVED_MS = 1000;  // the same, after the page moved and put another action there (`settle`)
  var NEAR_PX = 32;
  var TIMEOUT_MS = 20000;
  var busy = false;
  var lastTap = null; // {x, y, shown}: where the last action was tapped, and when its answer was
                      // painted (a tap there until REACT_MS, or bounceMs, later is that same tap)
  var tapPoint = null;
  var answers = 0;
  // How many answers this page has taken in place (the browser tests wait for the next one).
  document.documentElement.dataset.answers = "0";

  // The bounce is ignored on what it would act on: the answer's buttons, a link or a fold-out
  // the answer put there (the score sheet's link where "Score the game" was), and a chip or
  // check box (a label: the yard's "who takes it" chips came where its last purchase was),
  // which is held for REACT_MS only: a tap on one a moment later is meant (a street card's
  // "upper floor only", put under the thumb by its fold-out, was tapped within MOVED_MS and the
  // card was recorded without it), and a check box held says nothing.
  document.addEventListener("click", function (event) {
    var control = event.target.closest ? event.target.closest("button, a, summary, label") : null;
    if (!control) return;
    var acts = !!(control.form && control.form.hasAttribute("data-action"));
    var point = event.detail ? { x: event.clientX, y: event.clientY, at: event.timeStamp } : null;
    var held = control.tagName === "LABEL" ? REACT_MS : lastTap && lastTap.bounceMs || REACT_MS;
    var bounce = point && lastTap && point.at < lastTap.shown + held && near(point, lastTap);
    if (bounce || (acts && busy)) {
      event.preventDefault();
      event.stopPropagation();
      // Another action tapped while the answer is on its way is not sent either (the answer
      // may change what it means): said as late, so the player taps it again (found at a
      // table: a card built right after the upcoins were taken, no word why it was not).
      if (acts && point && lastTap) {
        heldAgain(lastTap, !near(point, lastTap) || point.at >= lastTap.shown + REACT_MS);
      }
      return;
    }
    if (acts) tapPoint = point; // null: a key, not a thumb
  }, true);

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.hasAttribute("data-action") || !window.fetch) return onceOnly(event);
    event.preventDefault();
    if (!busy) send(form, event.submitter || form.querySelector("button"));
  });

  // A second tap on the action just tapped, held as the same tap, is said once the first is
  // recorded (a helper buying two theaters 0.2 s apart saw one recorded and no word why): the
  // player who meant two taps again. Not after a refusal or with no answer: nothing recorded.
  // Said over the strip's line of what was recorded, which the next answer replaces:
  // it covers nothing (a note in the strip's place hid its totals and Undo until a tap).
  // `late`: held only because the page had just moved (MOVED_MS), so it may have been meant for
  // what came there, or a tap on another action while the answer was on its way: said so, with
  // what to do (found at a table: the next player's "passes", tapped 0.9 s after the last
  // one's, was held and said as a double tap).
  // After a fold-out opened, nothing was recorded, but the tap held is said as late all the
  // same (found at a table: "on site 2", tapped 0.8 s after "New: no project" opened the card's
  // chips, was held without a word).
  function heldAgain(tap, late) {
    if (busy) tap.again = tap.again === "late" || late ? "late" : true;
    else if (tap.recorded || tap.opened) {
      var words = document.body.dataset;
      sayHeld(tap.opened ? words.heldOpened : late ? words.heldLate : words.held);
    }
  }

  function sayHeld(words) {
    var line = document.getElementById("recorded");
    if (!line || document.getElementById("held")) return;
    var held = document.createElement("p");
    held.id = "held";
    held.className = "strip-held";
    held.textContent = words;
    line.insertBefore(held, line.firstChild);
    var said = document.getElementById("said");
    if (said) said.textContent = words + " " + said.textContent;
  }

  // The answer is painted with the next frame: from then on, REACT_MS more at that place (or
  // MOVED_MS: no one finds and taps what a moved page put under the thumb any sooner).
  function painted(tap) {
    if (!tap) return;
    requestAnimationFrame(function (frame) {
      if (lastTap === tap) tap.shown = Math.max(frame, performance.now());
    });
  }

  function near(a, b) {
    return Math.abs(a.x - b.x) <= NEAR_PX && Math.abs(a.y - b.y) <= NEAR_PX;
  }

  function send(form, button) {
    busy = true;
    lastTap = tapPoint ? { x: tapPoint.x, y: tapPoint.y, shown: Infinity } : null;
    tapPoint = null;
    dismissRefusal();
    var control = button || form;
    var anchor = anchorOf(form, button);
    var body = withPageFields(new URLSearchParams(new FormData(form)));
    if (button && button.name) body.append(button.name, button.value);
    if (keptFor(tableOf(form.action)).length) {  // after the taps waiting to be sent, in order
      keepTap(form, button, body);
      done(null);
      return sendKept();
    }
    control.classList.add("working");
    control.setAttribute("aria-busy", "true");
    post(keepingOpened(form.action), body)
      .then(function (response) { return putInPlaceOf(response, anchor); })
      .then(function (refusal) {
        if (lastTap) lastTap.recorded = !refusal;
        if (!refusal) return;
        // An outdated screen's refusal (it came with the page as it is now) is about the
        // table, not a field or the control tapped: said in the strip.
        if (refusal.page) refuse(null, refusal.message);
        else refuse(fieldAtFault(form, refusal.field) || control, refusal.message, control);
      }, function () { keepTap(form, button, body); })  // no answer: kept, sent later
      .then(function () { done(control); }, function () { done(control); });
  }

  // Undo and Redo close nothing the players opened: sent with the page's own `?open=...`
  // (a street card's project, where it came from and its cost), their answer keeps the
  // fold-out open as it was (found at a table: a card half described, then Undo tapped for an
  // action said meanwhile, and all of it was gone). Any other action answers with the table.
  function keepingOpened(action) {
    var url = new URL(action, location.href);
    if (!/\/(undo|redo)$/.test(url.pathname) || url.search ||
        !/[?&]open=/.test(location.search)) return action;
    return url.pathname + location.search;
  }

  // An action's answer put in place: the page of what it recorded (resolves with null), or
  // the page an outdated screen's refusal came with, then resolves with the refusal
  // ({message, page, field}).
  function putInPlaceOf(response, anchor) {
    return response.text().then(function (text) {
      var type = response.headers.get("Content-Type") || "";
      if (response.ok && type.indexOf("text/html") === 0) {
        return answered(text, response.headers.get("X-Companion-Page"), anchor)
          .then(function () { return null; });
      }
      var refusal = refusalIn(text, type);
      var shown = refusal.page ? answered(refusal.page, null, anchor) : Promise.resolve();
      return shown.then(function () { return refusal; });
    });
  }

  // An action sent: with the header that asks for an answer in place, given up after
  // TIMEOUT_MS (a tap with no answer by then is kept, and sent again with its one-time key).
  function post(url, body) {
    var stop = window.AbortController ? new AbortController() : null;
    var timer = stop && setTimeout(function () { stop.abort(); }, TIMEOUT_MS);
    return fetch(url, {
      method: "POST", body: body, credentials: "same-origin",
      headers: { "X-Companion": "fetch" }, signal: stop ? stop.signal : undefined
    }).then(function (response) { clearTimeout(timer); return response; },
            function (error) { clearTimeout(timer); throw error; });
  }

  function done(control) {
    if (control) {
      control.classList.remove("working");
      control.removeAttribute("aria-busy");
    }
    painted(lastTap);
    busy = false;
    if (lastTap && lastTap.again) heldAgain(lastTap, lastTap.again === "late");
    counted(lastTap ? lastTap.bounceMs || REACT_MS : 0);
  }

  // One more answer taken in place, and for how long from its paint a tap where the last one
  // landed is that same tap again (the browser tests wait for both).
  function counted(bounceMs) {
    document.documentElement.dataset.bounceMs = String(bounceMs);
    document.documentElement.dataset.answers = String(++answers);
  }

  // A fold-out drawn only when opened (a[data-open], `fold_out` in _macros.html; or a form's
  // button[data-open] with its page in data-href, which without JavaScript sends the form to a
  // route that keeps what was chosen in it, `street.fold`): the page with it open is fetched
  // and shown in place, the fold-out kept where the thumb tapped it (or, if the page has no
  // such link now, the part of the page around it). What the page then marks
  // as the opening's answer (data-into-view="opened": 5th Avenue's "Built N" after a bid chip)
  // comes into view, moving the page the least that shows it.
  document.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest("a[data-open], button[data-open]")
      : null;
    if (!link || !window.fetch || event.defaultPrevented) return;
    // A question's own form (5th Avenue's "Work out Alea's chance", a GET form): its page with
    // what was typed, once the browser finds it filled in (else the browser says what is not).
    var asked = link.tagName === "BUTTON" && !link.dataset.href && !!link.form &&
      link.form.method === "get";
    if (asked && !link.form.checkValidity()) return;
    event.preventDefault();
    tapPoint = null;  // a button's: no action is sent
    if (busy) return;
    busy = true;
    // Where it was tapped, as an action's tap: a tap there before the answer is painted is that
    // same tap again, and an answer that moves the page keeps the point clear (`settle`).
    lastTap = event.detail ? { x: event.clientX, y: event.clientY, shown: Infinity, opened: true }
      : null;
    var top = link.getBoundingClientRect().top;
    var places = [{ id: link.id, top: top }];
    for (var up = link.parentElement; up; up = up.parentElement) {
      if (up.id) places.push({ id: up.id, top: up.getBoundingClientRect().top });
    }
    var anchor = { top: top, form: null, button: null, focused: false,
                   places: places, opened: [], answer: "opened" };
    var target = link.dataset.href ? new URL(link.dataset.href, location.href)
      : asked ? askedIn(link.form) : link;
    var address = target.pathname + target.search;
    var offline = false;
    var seq = document.body.dataset.seq;
    fetch(address, { credentials: "same-origin" })
      .catch(function (error) { offline = true; throw error; })
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.text();
      })
      .then(function (text) { return answered(text, address, anchor); })
      .then(function () {
        // The table moved on meanwhile (found at a table: an auction's winner chip, tapped
        // on a screen another phone had recorded that very auction on, showed the next
        // auction without a word, as if the tap had done it): said, as a refusal is.
        if (seq !== undefined && document.body.dataset.seq !== seq) {
          refuse(null, document.body.dataset.openedLate);
        }
      })
      .catch(function () {
        // No connection: the table stays on the screen, and the strip says so (a fold-out
        // opened is nothing to keep and send later). Any other failure: the link itself.
        if (offline) refuse(null, document.body.dataset.noAnswer);
        else location.href = target.href;
      })
      .then(function () { done(null); });
  });

  // The address a GET form asks with what is typed in it (its fragment kept).
  function askedIn(form) {
    var url = new URL(form.getAttribute("action") || location.href, location.href);
    url.search = new URLSearchParams(new FormData(form)).toString();
    return url;
  }

  // A second submit of an ordinary form (a new table, new links) while the first is on its way.
  function onceOnly(event) {
    var form = event.target;
    if (form.dataset.sent) event.preventDefault();
    else form.dataset.sent = "1";
  }

  // The answer's page in place of this one ----------------------------------------------------
  // In three steps, each a short task of a slow phone rather than one long one (issue 28): the
  // answer is parsed; in the next task the page is changed; in the next frame, before it is
  // painted, it is scrolled so the tapped control stays where it was (the layout that needs is
  // the frame's own, not one more forced right after the change), or where `settle` puts it.
  // Resolves once the answer is in place, before it is painted.
  function answered(html, pageUrl, anchor) {
    var page = new DOMParser().parseFromString(html, "text/html");
    var main = page.querySelector("main");
    if (!main) return Promise.resolve(null);
    return nextTask().then(function () { return shownIn(page, main, pageUrl, anchor); });
  }

  // The page's next task: a message to itself (sooner than a timer, which may wait 4 ms).
  var tasks = new MessageChannel();
  var queued = [];
  tasks.port1.onmessage = function () { queued.shift()(); };
  function nextTask() {
    return new Promise(function (run) { queued.push(run); tasks.port2.postMessage(0); });
  }

  function shownIn(page, main, pageUrl, anchor) {
    var shown = document.querySelector("main");
    var before = window.scrollY;
    var preview = !!shown.querySelector(PAGE_OF_ITS_OWN);
    var kept = !!anchor && /\/(undo|redo)\?/.test(anchor.form);
    var typed = (kept ? parked : []).concat(typedIn(shown, anchor));
    putInPlace(shown, main);
    var left = typedBack(shown, typed, kept);
    parked = kept ? left : [];
    document.title = page.title;
    ["seq", "poll"].forEach(function (name) {
      if (page.body.dataset[name] !== undefined) document.body.dataset[name] = page.body.dataset[name];
    });
    // What was recorded is said in the new page's score strip (it came with <main>); a screen
    // reader hears it from the live region outside <main>.
    var said = document.getElementById("said");
    var news = page.getElementById("said");
    if (said && news) said.textContent = news.textContent;
    var changed = document.getElementById("changed");
    if (changed) changed.remove();
    // The address names the page now shown: the answer's page, without the old query or hash
    // (an Undo's keeps the page's own query: the fold-out it kept open, `answers.shown_at`).
    var here = location.pathname + location.search;
    if (pageUrl && pageUrl !== location.pathname && pageUrl !== here) {
      history.pushState({ companion: true }, "", pageUrl);
    } else if (pageUrl && pageUrl !== here + location.hash) {
      history.replaceState(null, "", pageUrl);
    }
    // The tapped control stays where it was; a game's own script does its part ("placed":
    // street.js); then the page moves if it must (`settle`), to what the answer brings into
    // view if that is shown (not in a closed fold-out).
    return new Promise(function (placed) {
      requestAnimationFrame(function () {
        var kept = keepInPlace(anchor);
        document.dispatchEvent(new CustomEvent("placed"));
        var answer = intoView(shown, anchor);
        var own = shown.querySelector(answer.which);
        // Another page, or the tapped action gone from it (done, or refused as outdated: the
        // next player's "passes" came in place of the last one's, and a second tap 0.8 s later
        // recorded it): what is under the thumb now is another action.
        var another = preview !== !!shown.querySelector(PAGE_OF_ITS_OWN) ||
          !!(anchor && anchor.form && !kept);
        settle(own && own.getClientRects().length ? own : null, kept, before, anchor && lastTap,
               another, answer.least);
        placed();
      });
    });
  }

  // Where the page stands after an answer (`before`: where it stood), the tapped control kept
  // where it was: what the answer brings into view is scrolled to the top (or, `least`, after
  // a fold-out opened, the page moves only as far as it must for it to be in view, and no
  // further: a tap on what that put under the thumb is held as below); and if a button of
  // another action is then under the point the thumb tapped (the tapped one's counterpart may
  // be), the page stands at the nearest place where none is, with the answer still in view (or
  // between where it stood and where it was kept). A page that moves under a thumb puts no
  // other action there for a second tap: after a scoring, the buy rows brought into view put a
  // purchase where "Score now" was, the form kept in place its next scoring, and a tap 0.6 s
  // later acted on either. Where no place is clear, a tap there is held for MOVED_MS as that
  // same tap again. So it is where the answer is `another` page (a change confirmed: the
  // table in place of its preview), which moves everything under the thumb without a scroll,
  // and where the tapped action is gone from the answer (`another` too: what stands there now
  // is another action).
  function settle(own, kept, before, tap, another, least) {
    var at = window.scrollY;
    if (!own && at === before && !another) return;  // nothing moved
    var range = own ? inView(own) : [Math.min(at, before), Math.max(at, before)];
    var from = own && !least ? range[1] : Math.min(Math.max(at, Math.ceil(range[0])), range[1]);
    var clear = clearOfThumb(tap, kept);
    var to = from;
    for (var step = 0; !least && (from - step >= range[0] || from + step <= range[1]); step += 4) {
      if (from - step >= range[0] && clear(from - step)) { to = from - step; break; }
      if (from + step <= range[1] && clear(from + step)) { to = from + step; break; }
    }
    window.scrollTo(0, to);
    if ((window.scrollY !== before || another) && !clear(window.scrollY)) tap.bounceMs = MOVED_MS;
  }

  // The scroll positions [lowest, at its top] at which an element is in view: its top on the
  // screen with the whole of it above the score strip, or, taller than that, its top in the
  // screen's upper quarter (at its top: below its scroll margin, as scrollIntoView puts it);
  // each within the page's scroll (near the page's end, at its top may be out of reach while
  // the lowest is not).
  function inView(element) {
    var box = element.getBoundingClientRect();
    var margin = parseFloat(getComputedStyle(element).scrollMarginTop) || 0;
    var foot = footOfScreen();
    var top = window.scrollY + box.top - margin;
    var lowest = box.height + margin <= foot ? window.scrollY + box.bottom - foot : top - foot / 4;
    var highest = document.documentElement.scrollHeight - window.innerHeight;
    var reach = function (at) { return Math.max(0, Math.min(highest, at)); };
    return [reach(lowest), reach(top)];
  }

  // Whether, at a scroll position, the point last tapped is clear of the buttons of every
  // action but `kept`, by THUMB_PX around (a finger's touch is a patch, not a point). Chips and
  // check boxes are not kept clear (the page would move further than its answer needs: it put
  // Urbanisation's next offer under the strip); a bounce on one is held (above).
  // Always, with no tap to keep clear (a key) or a tap on the score strip, which stays put.
  var THUMB_PX = 24;
  function clearOfThumb(tap, kept) {
    if (!tap || tap.y >= footOfScreen()) return function () { return true; };
    var below = window.scrollY;
    var buttons = Array.from(document.querySelectorAll("main form[data-action] button:enabled"))
      .filter(function (b) { return b !== kept; })
      .map(function (b) { return b.getBoundingClientRect(); })
      .filter(function (r) {
        return r.height && r.left - THUMB_PX <= tap.x && tap.x <= r.right + THUMB_PX;
      })
      .map(function (r) { return [r.top + below - THUMB_PX, r.bottom + below + THUMB_PX]; });
    return function (at) {
      var y = tap.y + at;
      return buttons.every(function (r) { return y < r[0] || y > r[1]; });
    };
  }

  // The foot of what the page shows: the screen's, or the score strip's top.
  function footOfScreen() {
    var strip = document.querySelector(".score-strip");
    return strip ? strip.getBoundingClientRect().top : window.innerHeight;
  }

  // What an answer brings into view (`which`, a selector): a page of its own (a change's
  // preview: data-into-view with no value) always; what the page marks for an answer
  // (data-into-view="answer"), or for an action's ("done"), when the page answers a tap: its
  // strip's line says which (#recorded[data-answer]: "done", or "undone" after an undo); what
  // it marks for a fold-out's opening ("opened", the page moved the `least` that shows it). A
  // page loaded or brought up to date answers none, and moves nothing.
  var PAGE_OF_ITS_OWN = '[data-into-view=""]';
  function intoView(shown, anchor) {
    var line = shown.querySelector("#recorded[data-answer]");
    var which = PAGE_OF_ITS_OWN;
    var answer = line ? line.dataset.answer : "";
    if (answer) which += ', [data-into-view~="answer"], [data-into-view~="' + answer + '"]';
    var opened = !line && anchor && anchor.answer === "opened";
    if (opened) which += ', [data-into-view~="opened"]';
    return { which: which, least: opened };
  }

  // The answer's <main> is put in place of this one by changing only what differs: a text, an
  // attribute, an element of another kind (taken from the answer whole). So the phone styles,
  // lays out and paints again only what changed, not the whole page (issue 28: that took a
  // slow phone 30-110 ms after every tap). What it shows is exactly the answer's page: its
  // elements, attributes and texts, and its fields as a page freshly loaded has them.
  function putInPlace(shown, main) {
    takeOutPageFields(main);
    morph(shown, main);
    freshFields(shown);
    fitFoot();
  }

  // What every action form carries and every answer changes (the table's seq, a fresh one-time
  // key, the CSRF token) is the page's, not the form's: it is taken out of the forms, here at
  // load and in each answer before it is put in place, and put into what a form sends
  // (`withPageFields`). So a form the answer leaves as it was is equal to the one shown, and
  // the morph passes it by, instead of every form on the page changing with every tap (issue
  // 46). The seq is the page's own (<body data-seq>), the key made for each tap (when, and 96
  // random bits, as the server makes them), the token the last one the server wrote. Without
  // JavaScript the forms send them as the server wrote them.
  var csrfToken = null;
  function takeOutPageFields(root) {
    var doc = root.ownerDocument || root;
    var seq = doc.body && doc.body.dataset.seq;
    root.querySelectorAll("form[data-action] input[type=hidden]").forEach(function (field) {
      var value = field.getAttribute("value");
      if (value === null) return;
      if (field.name === "csrf_token") csrfToken = value;
      else if (field.name !== "key" && !(field.name === "seq" && value === seq)) return;
      field.removeAttribute("value");
    });
  }
  if (window.fetch) takeOutPageFields(document); // else the forms are sent as they are

  function withPageFields(body) {
    var fill = { seq: document.body.dataset.seq, csrf_token: csrfToken,
                 key: Date.now().toString(16) + "." + randomWords() };
    Object.keys(fill).forEach(function (name) {
      if (body.has(name) && !body.get(name) && fill[name]) body.set(name, fill[name]);
    });
    return body;
  }
  window.companion = { putInPlace: putInPlace }; // for the phone benchmark (benchmarks/phone.py)

  // A node new in the answer, or gone from it, moves none of its siblings out of step (a form
  // that appears before a list): they are kept and changed where they differ, not taken whole
  // from the answer (a street turn's builder: 100 elements less to style and lay out). Which
  // it is, is told by the nearer element of the same kind on the other side (`stepsTo`).
  var LOOK_AHEAD = 4; // elements
  function morph(old, next) {
    sameAttributes(old, next);
    var mine = old.firstChild;
    for (var theirs = next.firstChild; theirs; ) {
      var following = theirs.nextSibling;
      if (!mine) {
        old.appendChild(document.adoptNode(theirs));
      } else if (alike(mine, theirs)) {
        if (mine.nodeType !== 1) {
          if (mine.nodeValue !== theirs.nodeValue) mine.nodeValue = theirs.nodeValue;
        } else if (!mine.isEqualNode(theirs)) {
          morph(mine, theirs);
        }
        mine = mine.nextSibling;
      } else {
        var ahead = stepsTo(mine, theirs), behind = stepsTo(theirs, mine);
        if (ahead < behind) {
          old.insertBefore(document.adoptNode(theirs), mine); // new in the answer
        } else if (behind < LOOK_AHEAD) {
          var dropped = mine; // not in the answer
          mine = mine.nextSibling;
          old.removeChild(dropped);
          continue;
        } else {
          var replaced = mine;
          mine = mine.nextSibling;
          old.replaceChild(document.adoptNode(theirs), replaced);
        }
      }
      theirs = following;
    }
    while (mine) {
      var gone = mine;
      mine = mine.nextSibling;
      old.removeChild(gone);
    }
  }

  // Two nodes one can become the other: of one kind, and for elements, of one id and type.
  function alike(a, b) {
    return a.nodeName === b.nodeName && a.nodeType === b.nodeType && (a.nodeType !== 1 ||
      (a.id === b.id && a.getAttribute("type") === b.getAttribute("type")));
  }

  // How many elements after `node` (on the other side) the first of the same kind as this
  // element is (alike and of one class): this one is that one, moved along by the nodes put in
  // or taken out before it. LOOK_AHEAD when none is that near.
  function stepsTo(element, node) {
    if (element.nodeType !== 1) return LOOK_AHEAD;
    var other = node.nextElementSibling;
    for (var steps = 0; other && steps < LOOK_AHEAD; steps++, other = other.nextElementSibling) {
      if (alike(element, other) && element.className === other.className) return steps;
    }
    return LOOK_AHEAD;
  }

  function sameAttributes(old, next) {
    var i, attr;
    for (i = old.attributes.length - 1; i >= 0; i--) {
      attr = old.attributes[i];
      if (!next.hasAttributeNS(attr.namespaceURI, attr.localName)) {
        old.removeAttributeNS(attr.namespaceURI, attr.localName);
      }
    }
    for (i = 0; i < next.attributes.length; i++) {
      attr = next.attributes[i];
      if (old.getAttributeNS(attr.namespaceURI, attr.localName) !== attr.value) {
        old.setAttributeNS(attr.namespaceURI, attr.name, attr.value);
      }
    }
  }

  // Every field as a page freshly loaded has it: what was typed or chosen on the screen before
  // the answer is gone, as it was when the answer's page was loaded anew.
  function freshFields(main) {
    main.querySelectorAll("input:not([type=hidden]), textarea, select").forEach(function (field) {
      if (field.nodeName === "SELECT") {
        var chosen = 0;
        for (var i = 0; i < field.options.length; i++) {
          if (field.options[i].defaultSelected) chosen = i;
        }
        if (!field.multiple && field.selectedIndex !== chosen) field.selectedIndex = chosen;
        return;
      }
      if (field.type !== "file" && field.value !== field.defaultValue) {
        field.value = field.defaultValue;
      }
      if (field.checked !== field.defaultChecked) field.checked = field.defaultChecked;
    });
  }

  // What was typed or chosen, and not sent, in a form other than the one the answer came
  // from: kept in the same form of the answer (by `signature`), where it has one (found at a
  // table: Dirk's cards typed, then "Who starts?" tapped, and the cards typed were gone).
  function typedIn(main, anchor) {
    var typed = [];
    main.querySelectorAll("input:not([type=hidden]), select, textarea").forEach(function (field) {
      var box = field.type === "radio" || field.type === "checkbox";
      var changed = box ? field.checked !== field.defaultChecked
        : field.nodeName === "SELECT" ? field.selectedOptions[0] !== shownFirst(field)
        : field.value !== field.defaultValue;
      if (!changed || !field.form || !field.name || field.type === "file") return;
      var form = signature(field.form);
      if (anchor && form === anchor.form) return;
      typed.push({ form: form, kind: kindOf(field.form), name: field.name,
                   value: field.value, box: box, checked: field.checked });
    });
    return typed;
  }

  // What a list showed when its page was loaded: the option marked selected, else the first
  // one that can be chosen (found at a table: an untouched list read as chosen, its first
  // option put back after an answer that no longer let it be chosen).
  function shownFirst(select) {
    var options = Array.from(select.options);
    return options.find(function (o) { return o.defaultSelected; }) ||
      options.find(function (o) { return !o.disabled; });
  }

  // What was typed, put back into the new page's forms; a list's choice only if the new page
  // still offers it. After an Undo or a Redo (`kept`), which keep a fold-out open as it was,
  // a form gone from the page gives what was typed in it to the one form of its kind there,
  // for the same player (found at a table: a street card half described, then Undo of the
  // same player's 1st action, whose builder came in place of the 2nd's, and its icons and
  // amounts were gone); where the page has none (an Undo back to a turn's upcoins, or to
  // another player's action: their builder is not given this one's card), it is `parked` for
  // the next Undo or Redo, which may bring it back. Returns what found no form.
  var parked = [];
  function typedBack(main, typed, kept) {
    if (!typed.length) return [];
    var forms = {}, kinds = {};
    var left = [];
    main.querySelectorAll("form").forEach(function (form) {
      forms[signature(form)] = form;
      var kind = kindOf(form);
      if (kind) kinds[kind] = kinds[kind] === undefined ? form : null;
    });
    typed.forEach(function (t) {
      var form = forms[t.form] || (kept && t.kind && kinds[t.kind]) || null;
      if (!form) { left.push(t); return; }
      Array.from(form.elements).forEach(function (field) {
        if (field.name !== t.name) return;
        if (field.nodeName === "SELECT" && !Array.from(field.options).some(function (o) {
          return o.value === t.value && !o.disabled; })) return;
        if (!t.box) field.value = t.value;
        else if (field.value === t.value) field.checked = t.checked;
      });
    });
    return left;
  }

  // Where the tapped control is: the screen position to keep, and how to find it again in the
  // new page (its form's address and fixed fields, its own name and value), with the sections
  // around it as a fallback.
  function anchorOf(form, button) {
    var element = button || form;
    var places = [];
    for (var up = element.parentElement; up; up = up.parentElement) {
      if (up.id) places.push({ id: up.id, top: up.getBoundingClientRect().top });
    }
    var opened = [];
    for (var d = element.closest("details"); d; d = d.parentElement && d.parentElement.closest("details")) {
      opened.push(summaryOf(d));
    }
    return {
      top: element.getBoundingClientRect().top,
      inStrip: !!element.closest(".score-strip"),
      form: signature(form),
      button: button && button.name ? [button.name, button.value] : null,
      focused: document.activeElement === element,
      places: places,
      opened: opened
    };
  }

  // A form's kind, for what was typed in it (`typedBack`): its class and its player, if any.
  function kindOf(form) {
    var player = form.querySelector("input[type=hidden][name=player]");
    return form.className ? form.className + "|" + (player ? player.value : "") : "";
  }

  function signature(form) {
    var fixed = Array.from(form.querySelectorAll("input[type=hidden]"))
      .filter(function (i) { return ["csrf_token", "seq", "key", "at"].indexOf(i.name) < 0; })
      .map(function (i) { return i.name + "=" + i.value; }).sort();
    return form.getAttribute("action").split("#")[0] + "?" + fixed.join("&");  // not its place
  }

  function summaryOf(details) {
    var summary = details.querySelector("summary");
    return summary ? summary.textContent.trim() : "";
  }

  function keepInPlace(anchor) {
    if (!anchor) return null;
    var main = document.querySelector("main");
    main.querySelectorAll("details").forEach(function (d) {
      if (anchor.opened.indexOf(summaryOf(d)) >= 0) d.open = true;
    });
    var found = counterpart(main, anchor);
    if (found) {
      window.scrollBy(0, found.getBoundingClientRect().top - anchor.top);
      if (anchor.focused) found.focus({ preventScroll: true });
      return found;
    }
    for (var i = 0; i < anchor.places.length; i++) {
      var place = document.getElementById(anchor.places[i].id);
      if (place) {
        window.scrollBy(0, place.getBoundingClientRect().top - anchor.places[i].top);
        return null;
      }
    }
    return null;
  }

  function counterpart(main, anchor) {
    var forms = Array.from(main.querySelectorAll("form[data-action]"));
    for (var i = 0; i < forms.length; i++) {
      // The strip's Undo is not the page's: the strip stays put, the page scrolls.
      if (signature(forms[i]) !== anchor.form ||
          !!forms[i].closest(".score-strip") !== anchor.inStrip) continue;
      if (!anchor.button) return forms[i].querySelector("button") || forms[i];
      var buttons = forms[i].querySelectorAll("button");
      for (var j = 0; j < buttons.length; j++) {
        if (buttons[j].name === anchor.button[0] && buttons[j].value === anchor.button[1]) {
          return buttons[j];
        }
      }
    }
    return null;
  }

  window.addEventListener("popstate", function (event) {
    if (event.state && event.state.companion) location.reload();
  });

  // Refusals: in the score strip, or beside the field at fault --------------------------------

  // {message, page}: the server's words (JSON), or those of an error page (an expired form).
  function refusalIn(text, type) {
    if (type.indexOf("application/json") === 0) {
      try {
        var answer = JSON.parse(text);
        return { message: answer.refused, page: answer.page, field: answer.field };
      } catch (e) { /* an error page after all */ }
    }
    var page = new DOMParser().parseFromString(text, "text/html");
    var said = page.querySelector("main .error, main p");
    return { message: said ? said.textContent.trim() : document.body.dataset.noAnswer };
  }

  // The field the app found wrong (out of range, blank), marked: the refusal is shown beside it.
  // A group of chips (radio buttons) is shown by its fieldset, or else its first chip. Once the
  // field is changed, its mark goes, and so does the refusal said in the strip (stale then:
  // "choose who took the park" under a park chosen); one said beside a typed field stays, so
  // that nothing below it moves while the fix is typed.
  function fieldAtFault(form, name) {
    var named = name && form.elements[name];
    if (named && !named.getBoundingClientRect && named.length) {
      named = named[0].closest("fieldset") || named[0];
    }
    var field = named && named.getBoundingClientRect ? named : null;
    if (!field) return null;
    field.setAttribute("aria-invalid", "true");
    field.addEventListener("input", function () {
      field.removeAttribute("aria-invalid");
      var said = document.querySelector(".score-strip #refusal");
      if (said) said.remove();
    }, { once: true });
    return field;
  }

  // Where a refusal is said, so that nothing on the page moves or is covered (issue 45): a
  // refusal about a field the players typed goes right under that field (its label), in the
  // flow, so it is read where the fix is typed; any other (a tapped button or a chip refused,
  // no answer, what another phone changed) is said in the score strip at the foot, over its
  // own lines (`footNote`), which keeps its size; the chips at fault are outlined in place
  // (`fieldAtFault`). A page without a strip (a change's preview) says it under the tapped
  // control's form, in the flow: nothing above it moves; one that came with the page (an
  // outdated preview worked out again) under its heading, where it is read first
  // (`pageTop`). It stays until the next action is sent.
  var TYPED = "input:not([type=radio]):not([type=checkbox]), textarea";
  function refuse(control, message, tapped) {
    dismissRefusal();
    var field = control && control.matches(TYPED) ? control : null;
    if (!field && footNote(message, "refusal", "alert")) return;
    var thumb = tapped && document.body.contains(tapped) ? tapped.getBoundingClientRect().top
      : null;
    // A field typed in a fold-out closed since is opened, with the words under it (found at a
    // table: Alea's cards typed, the fold-out closed, Draw tapped: the refusal hidden in it).
    for (var d = field && field.closest("details:not([open])"); d;
         d = d.parentElement && d.parentElement.closest("details:not([open])")) {
      d.open = true;
    }
    var note = document.createElement("p");
    note.id = "refusal";
    note.className = "refusal";
    note.setAttribute("role", "alert");
    note.textContent = message;
    var place = !control ? pageTop()
      : field ? field.closest("label") || field
      : control.matches("fieldset") ? control
      : control.form || control.closest("form") || control;
    // Not inside a row of controls (a flex box, or one marked `data-row`: the street's −, amount
    // and + stepper, where it squeezed between them): under the whole row. In a grid of fields
    // it takes a row of its own (app.css).
    while (place.parentElement && place.parentElement !== document.body &&
           (place.parentElement.hasAttribute("data-row") ||
            /flex/.test(getComputedStyle(place.parentElement).display))) {
      place = place.parentElement;
    }
    place.after(note);
    // The tapped button below the words stays under the thumb: the page above it goes up by
    // their height instead, as long as the field they are about stays on the screen; where it
    // would not, they are said in the strip, the field outlined (found at a table: at 320 px
    // the street's site buttons went 158 px down, under the words of a refused amount).
    var moved = thumb === null ? 0 : tapped.getBoundingClientRect().top - thumb;
    if (moved > 0 && field && field.getBoundingClientRect().top - moved >= 0) {
      window.scrollBy(0, moved);
    } else if (moved > 0 && field && footNote(message, "refusal", "alert")) {
      note.remove();
    } else {
      note.scrollIntoView({ block: "nearest" });
    }
  }

  // The top of a page without a strip: its heading, and the hint under it if it has one.
  function pageTop() {
    var main = document.querySelector("main");
    var heading = main.querySelector("h1");
    if (!heading) return main.firstElementChild;
    var hint = heading.nextElementSibling;
    return hint && hint.matches(".hint") ? hint : heading;
  }

  // Words said in the score strip, in place of its lines: the strip keeps its size, so nothing
  // on the page moves and nothing more is covered; a tap on the words puts the strip's lines
  // (and its Undo) back. `kind` is "refusal", "waiting" (taps kept to be sent, with Don't
  // send) or "changed" (another phone's action, with a link that brings the page up to date).
  // False on a page without a strip.
  function footNote(message, kind, role, link) {
    var strip = document.querySelector(".score-strip");
    if (!strip) return false;
    strip.querySelectorAll(".strip-note").forEach(function (old) { old.remove(); });
    var note = document.createElement("p");
    note.id = kind;
    note.className = "strip-note " + kind;
    note.setAttribute("role", role);
    var words = document.createElement("span");
    words.textContent = message;
    note.appendChild(words);
    if (link) note.appendChild(link);
    note.addEventListener("click", function (event) {
      if (!event.target.closest("a")) note.remove();
    });
    strip.appendChild(note);
    return true;
  }

  // The page's foot stays above the score strip however tall the strip is: the page keeps 9rem
  // for it (app.css), the body the rest (found at a table: six long names at 320 px made it 233
  // px tall, over the blank score pad's link). Watched, not measured after each answer, so an
  // answer that leaves the strip's size as it was costs nothing more.
  var footWatch = window.ResizeObserver && new ResizeObserver(function (entries) {
    var tall = entries[entries.length - 1].borderBoxSize[0].blockSize;
    document.body.style.paddingBottom = "max(0px, calc(" + tall + "px + 1rem - 9rem))";
  });
  var watched = null;
  function fitFoot() {
    var strip = document.querySelector(".score-strip:not(.notes)");
    if (!footWatch || strip === watched) return;
    footWatch.disconnect();
    if (strip) footWatch.observe(strip);
    else document.body.style.paddingBottom = "";
    watched = strip;
  }
  fitFoot();

  // The last action's words, cut short in the strip, are read whole with a tap on them, and
  // cut again with another (found at a table: "Clara hat die Karte…" hid that she discarded
  // it). The next answer's strip comes cut as ever.
  document.addEventListener("click", function (event) {
    var line = event.target.closest ? event.target.closest(".strip-last p") : null;
    if (line && !event.target.closest("a, button")) line.classList.toggle("whole");
  });

  function dismissRefusal() {
    var note = document.getElementById("refusal");
    if (note) note.remove();
  }

  // A full page that came with a refusal (no script ran for it): show the refusal.
  window.addEventListener("pageshow", function () {
    var error = document.querySelector(".field-error") || document.querySelector(".error");
    if (error) error.scrollIntoView({ block: "center" });
    document.querySelectorAll("form[data-sent]").forEach(function (f) { delete f.dataset.sent; });
  });

  // Back from another page (History): the browser may show a table page again as it was left,
  // from its back/forward cache, which is much quicker than loading it anew. It is shown (and
  // takes taps) only once its seq is checked: as it was if nothing was recorded since, else it
  // is loaded anew, so an outdated table is never shown (issue 28).
  window.addEventListener("pagehide", function (event) {
    if (event.persisted && document.body.dataset.poll) {
      document.documentElement.style.opacity = "0";
    }
  });
  // So is a page the browser loads again from its own cache on Back or Forward, not from the
  // server (found by an audit: Forward to a table page showed it as it was before this phone's
  // own tap, answered in place, and the next tap was refused).
  function fromHistory() {
    var entries = performance.getEntriesByType ? performance.getEntriesByType("navigation") : [];
    return !!entries.length && entries[0].type === "back_forward";
  }
  window.addEventListener("pageshow", function (event) {
    var poll = document.body.dataset.poll;
    if (!(event.persisted || fromHistory()) || !poll) return;
    if (!window.fetch) return location.reload();
    busy = true;
    fetch(poll, { cache: "no-store", credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (news) {
        if (!news || news.seq !== Number(document.body.dataset.seq)) return location.reload();
        document.documentElement.style.opacity = "";
        busy = false;
      })
      .catch(function () { location.reload(); });
  });

  // Times in the phone's own clock: the page writes them in UTC (and without JavaScript they
  // stay so, said as UTC), as a time of day, or with the date where data-show="date"; here they
  // are written the same way (2026-11-27 14:05, 14:05:09) in the phone's clock. Not with
  // `Intl`: its first use on a page wakes the phone's locale and time zone data, 140-190 ms
  // of a slow phone's main thread (issue 28); the clock's own fields cost about nothing.
  function two(n) { return (n < 10 ? "0" : "") + n; }
  document.querySelectorAll("time[datetime]").forEach(function (time) {
    var when = new Date(time.getAttribute("datetime"));
    if (isNaN(when.getTime())) return;
    var clock = two(when.getHours()) + ":" + two(when.getMinutes());
    var day = when.getFullYear() + "-" + two(when.getMonth() + 1) + "-" + two(when.getDate());
    time.textContent = time.dataset.show === "date" ? day + " " + clock
      : clock + ":" + two(when.getSeconds());
  });

  // Printed sheets and the players pages are written by the server, which has no clock of the
  // phone: the phone's time zone goes with the requests as a cookie (the server checks it).
  // Finding the zone's name wakes `Intl` (above): so it is done just before a link is followed
  // (every sheet and players page is reached by one), and only when the cookie is missing or
  // the clock's offset from UTC changed since (travel, summer time).
  function sendZone() {
    try {
      var offset = String(new Date().getTimezoneOffset());
      if (/(?:^|;\s*)tz=/.test(document.cookie) && localStorage.getItem("tz-offset") === offset) {
        return;
      }
      var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
      if (/^[\w\/+-]{1,64}$/.test(zone || "")) {
        document.cookie = "tz=" + zone + "; path=/; max-age=31536000; samesite=lax";
        localStorage.setItem("tz-offset", offset);
      }
    } catch (ignored) {}
  }
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("a[href]")) sendZone();
  }, true);

  // Taps kept while there is no connection (issue 44) ----------------------------------------
  // A tap that got no answer (no connection, or none within TIMEOUT_MS) is kept on the phone
  // (localStorage, KEPT) with everything its form sent, its one-time key too, so that sending it
  // again can never record it twice (the server gives a key it has seen the first answer). The
  // score strip says what waits, with "Don't send". The taps kept for a table are sent, the
  // oldest first, when a page of that table is shown and the connection is back (the `online`
  // event, a retry every few seconds backing off to RETRY_MAX_MS, the page shown again), each
  // answered as any tap: recorded (after what another phone did meanwhile, if it depends on
  // none of it), or refused with what changed and the page brought up to date. A tap made
  // while others wait is kept after them, so they go in the order tapped. A table deleted or
  // given new links meanwhile drops its kept taps, with words; a tap kept longer than KEEP_MS
  // (a game night) is dropped when next seen.
  var KEPT = "companion-kept";
  var KEEP_MS = 12 * 60 * 60 * 1000;
  var RETRY_MS = 2000, RETRY_MAX_MS = 30000;
  var retryIn = RETRY_MS, retryTimer = null;
  var unsent = []; // what the kept taps sent so far were refused with, said once all are sent
  var thisTable = tableOf(location.pathname);

  // The table an address belongs to: "/yard/<id>/" of "/yard/<id>/buy".
  function tableOf(address) {
    var found = /^(?:https?:\/\/[^\/]+)?(\/[a-z_]+\/[A-Za-z0-9_-]{16,}\/)/.exec(address || "");
    return found ? found[1] : null;
  }

  function keptTaps() {
    try {
      var kept = JSON.parse(localStorage.getItem(KEPT) || "[]");
      return Array.isArray(kept) ? kept : [];
    } catch (e) { return []; }
  }

  // True once kept (false: the phone keeps nothing for pages, private browsing or full).
  function keepAll(kept) {
    try {
      localStorage.setItem(KEPT, JSON.stringify(kept));
      return true;
    } catch (e) { return false; }
  }

  function keptFor(table) {
    return table ? keptTaps().filter(function (t) { return t.table === table; }) : [];
  }

  function keepTap(form, button, body) {
    var kept = keptTaps();
    var pairs = Array.from(body.entries());
    var key = body.get("key");
    if (kept.some(function (t) { return t.key === key; })) {
      // The same form tapped again while its first tap waits: a tap of its own, with a key
      // of its own (a key sent twice is one action).
      key = key.split(".")[0] + "." + randomWords();
      pairs = pairs.map(function (pair) { return pair[0] === "key" ? ["key", key] : pair; });
    }
    kept.push({ table: tableOf(form.action), url: form.action, body: pairs, key: key,
                seq: Number(body.get("seq")), label: tapLabel(form, button), at: Date.now() });
    if (!keepAll(kept)) return refuse(button || form, document.body.dataset.noAnswer);
    sayWaiting();
    retrySoon();
  }

  // 16 characters of the one-time key's alphabet, from 96 random bits.
  function randomWords() {
    var bytes = crypto.getRandomValues(new Uint8Array(12));
    return btoa(String.fromCharCode.apply(null, bytes)).replace(/\+/g, "-").replace(/\//g, "_");
  }

  // A kept tap in the players' words: the tapped button's (without a count it shows, which is
  // the table's, not the tap's), after whose it is (the form's player) or else what it is for
  // (the group or the heading it stands under, without the heading's smaller print).
  function tapLabel(form, button) {
    var words = function (e) { return e ? e.textContent.replace(/\s+/g, " ").trim() : ""; };
    var bare = button && button.cloneNode(true);
    if (bare) bare.querySelectorAll(".count").forEach(function (c) { c.remove(); });
    var said = button ? button.getAttribute("aria-label") || words(bare) : "";
    var player = form.elements.player;
    var who = button && button.name === "player" ? "" : player && player.value;
    if (who) return said.indexOf(who) >= 0 ? said : who + ": " + said;
    for (var place = (button || form).parentElement; place && place !== document.body;
         place = place.parentElement) {
      var heading = place.querySelector("h2, h3, legend, summary");
      var name = place.getAttribute("aria-label") || (heading ? ownWords(heading) : "");
      if (name && name !== said) return said ? name + ": " + said : name;
    }
    return said;
  }

  // An element's own words, not those of the elements in it (a heading's <small> print).
  function ownWords(element) {
    return Array.from(element.childNodes).filter(function (n) { return n.nodeType === 3; })
      .map(function (n) { return n.nodeValue; }).join(" ").replace(/\s+/g, " ").trim();
  }

  function sayWaiting() {
    var waiting = keptFor(thisTable);
    if (!waiting.length) return;
    var cancel = document.createElement("button");
    cancel.type = "button";
    cancel.className = "button small";
    cancel.textContent = document.body.dataset.dontSend;
    cancel.addEventListener("click", function () {
      keepAll(keptTaps().filter(function (t) { return t.table !== thisTable; }));
      footNote(document.body.dataset.notSent.replace("%s", labels(waiting)), "refusal", "alert");
    });
    footNote(document.body.dataset.waiting.replace("%s", labels(waiting)), "waiting", "status",
             cancel);
  }

  function labels(taps) {
    var quoted = document.body.dataset.quoted || "“%s”";
    return taps.map(function (t) { return quoted.replace("%s", t.label); }).join(", ");
  }

  function retrySoon() {
    clearTimeout(retryTimer);
    retryTimer = setTimeout(sendKept, retryIn);
    retryIn = Math.min(retryIn * 2, RETRY_MAX_MS);
  }

  // The oldest tap kept for this page's table, sent; then the next, until none waits or the
  // connection fails again (then again later).
  function sendKept() {
    clearTimeout(retryTimer);
    var now = Date.now();
    var kept = keptTaps();
    var fresh = kept.filter(function (t) { return now - t.at < KEEP_MS; });
    if (fresh.length !== kept.length) keepAll(fresh);
    var tap = keptFor(thisTable)[0];
    if (!tap || busy || !window.fetch) return;
    busy = true;
    var gone = false;
    post(tap.url, new URLSearchParams(tap.body))
      .then(function (response) {
        retryIn = RETRY_MS;
        forgetTap(tap);
        gone = response.status === 404 || response.status === 410;
        return putInPlaceOf(response, null);
      })
      .then(function (refusal) {
        if (!refusal) return rebase(tap);
        var dropped = gone ? keptFor(thisTable) : [];  // the table's other kept taps too
        if (gone) keepAll(keptTaps().filter(function (t) { return t.table !== thisTable; }));
        unsent.push(document.body.dataset.notSent.replace("%s", labels([tap].concat(dropped))) +
                    " " + refusal.message);
      })
      .then(function () {
        busy = false;
        var more = keptFor(thisTable).length > 0;
        if (!more && unsent.length) {  // said once every kept tap has its answer
          refuse(null, unsent.join(" "));
          unsent = [];
        }
        counted(0);
        if (more) sendKept();
      }, function () {
        busy = false;
        sayWaiting();
        retrySoon();
      });
  }

  function forgetTap(tap) {
    keepAll(keptTaps().filter(function (t) { return t.key !== tap.key; }));
  }

  // The taps tapped after this one on the same screen, while it waited, follow it: recorded
  // with nothing else between (the page now shows the next seq), they are sent as taps on
  // that page, not as taps on a screen another phone made outdated.
  function rebase(tap) {
    if (Number(document.body.dataset.seq) !== tap.seq + 1) return;
    keepAll(keptTaps().map(function (t) {
      if (t.table !== tap.table || t.seq !== tap.seq) return t;
      t.seq = tap.seq + 1;
      t.body = t.body.map(function (pair) {
        return pair[0] === "seq" ? ["seq", String(t.seq)] : pair;
      });
      return t;
    }));
  }

  if (thisTable && window.fetch) {
    window.addEventListener("online", sendKept);
    window.addEventListener("pageshow", function () {
      if (keptFor(thisTable).length) { sayWaiting(); sendKept(); }
    });
  }

  // Follow the table ------------------------------------------------------------------------
  // Another phone's action shows up within two seconds. A scoreboard reloads itself; a scorer's
  // page says so in the score strip and offers to bring it up to date (its forms may be half
  // filled). A phone that comes back from sleep (the screen off, another tab) checks at once,
  // and brings the page up to date in place unless something was typed into it.
  if (!document.body.dataset.poll || !window.fetch) return;
  var follow = document.body.dataset.follow;
  function check(woke) {
    if (document.hidden || busy) return;
    fetch(document.body.dataset.poll, { cache: "no-store", credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (news) {
        var seen = Number(document.body.dataset.seq);
        if (!news || busy || news.seq === seen) return;
        if (follow === "reload") location.reload();
        else if (woke === true && !typedInto()) upToDate();
        else if (news.seq > seen) showChanged();
      })
      .catch(function () {});
  }

  // This page as it stands now, in place of the one shown (the page's own address).
  function upToDate() {
    busy = true;
    fetch(location.pathname + location.search, { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (text) { return text && answered(text, null, null); })
      .catch(function () {})
      .then(function () { done(null); });
  }

  // Something typed or chosen on this page that the page as loaded did not have.
  function typedInto() {
    return Array.from(document.querySelectorAll("main input, main textarea, main select"))
      .some(function (field) {
        if (field.nodeName === "SELECT") {
          return Array.from(field.options).some(function (o) {
            return o.selected !== o.defaultSelected;
          });
        }
        return field.value !== field.defaultValue || field.checked !== field.defaultChecked;
      });
  }

  // Said in the score strip, as a refusal is (a page without one gets a strip for it): nothing
  // on the page moves, and the header and the page stay in view.
  function showChanged() {
    if (document.getElementById("changed")) return;
    var words = document.body.dataset;
    var link = document.createElement("a");
    link.href = location.pathname.replace(/\/[a-z_]+$/, "/");
    link.className = "button small";
    link.textContent = words.reload;
    if (!document.querySelector(".score-strip")) {
      var strip = document.createElement("aside");
      strip.className = "score-strip notes";
      strip.setAttribute("aria-label", words.changed);
      document.querySelector("main").appendChild(strip);
    }
    footNote(words.changed, "changed", "status", link);
  }
  setInterval(check, 1000);
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) return;
    check(true);
    if (thisTable) sendKept();
  });
})();
