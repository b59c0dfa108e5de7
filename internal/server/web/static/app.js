// Parley's dashboard script: the live view of a debate follows its event
// stream. Streamed text is appended as text (never as HTML); everything
// else re-fetches the panel, which the server renders from the log.
"use strict";
(function () {
  // New-debate form: show the chosen format's options only.
  var format = document.getElementById("format");
  if (format) {
    var show = function () {
      document.querySelectorAll("fieldset[data-format]").forEach(function (fs) {
        var on = fs.dataset.format === format.value;
        fs.hidden = !on;
        fs.disabled = !on;
      });
    };
    format.addEventListener("change", show);
    show();
  }
  // A slider shows its value in the output it names.
  document.querySelectorAll("input[type=range][data-output]").forEach(function (r) {
    r.addEventListener("input", function () {
      var out = document.getElementById(r.dataset.output);
      if (out) out.textContent = r.value;
    });
  });

  // The list's "Show more": the page after is fetched and its rows (the
  // server's HTML, as if the link were followed) are appended to the
  // table, its own "Show more" replacing this one; the reader keeps their
  // place. Without the script the link opens that page.
  document.addEventListener("click", function (ev) {
    var a = ev.target.closest ? ev.target.closest("#list-more a[data-more]") : null;
    if (!a || ev.button !== 0 || ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
    ev.preventDefault();
    if (a.dataset.loading) return;
    a.dataset.loading = "1";
    a.setAttribute("aria-busy", "true");
    fetch(a.href, { credentials: "same-origin" }).then(function (r) {
      if (!r.ok) throw new Error("status " + r.status);
      return r.text();
    }).then(function (html) {
      var doc = new DOMParser().parseFromString(html, "text/html");
      var rows = doc.getElementById("debate-rows");
      var tbody = document.getElementById("debate-rows");
      if (!rows || !tbody) throw new Error("no rows");
      Array.prototype.slice.call(rows.children).forEach(function (tr) {
        tbody.appendChild(document.adoptNode(tr));
      });
      var next = doc.getElementById("list-more");
      var here = document.getElementById("list-more");
      if (next) here.replaceWith(document.adoptNode(next));
      else here.remove();
    }).catch(function () {
      window.location.href = a.href; // the page itself says what went wrong
    });
  });

  var root = document.getElementById("debate");
  if (!root) return;
  var id = root.dataset.id;
  var panelEl = document.getElementById("panel");
  var seq = Number(root.dataset.seq) || 0;
  var loading = false, again = false, timer = null, buffered = [];

  // inert shows streamed model output as the server's pages show it
  // (textsafe.Clean): control characters as their pictures, C1 controls,
  // bidi overrides and invisible characters by code point (the tags of a
  // subdivision flag kept), so that a reply cannot reorder or hide text
  // while it streams, before the panel is drawn again.
  var controls = /[\u0000-\u0008\u000b-\u001f\u007f]/g;
  // The same characters as textsafe.Clean's (coded, tag).
  var coded = /(\ud83c\udff4(?:\udb40[\udc20-\udc7e])+\udb40\udc7f)|[\u0080-\u009f\u00ad\u034f\u115f\u1160\u17b4\u17b5\u180e\u200b\u202a-\u202e\u2060-\u206f\u3164\ufeff\uffa0\ufff0-\ufffb]|\ud82f[\udca0-\udca3]|\ud834[\udd73-\udd7a]|\udb40[\udc00-\udc7f]/g;
  // A variation selector after another chooses nothing, and a run of them
  // carries bytes unseen (textsafe's smuggled): those after the first show.
  // (A run split between two deltas shows when the panel is drawn again.)
  var selector = /[\ufe00-\ufe0f]|\udb40[\udd00-\uddef]/g;
  var selectors = /((?:[\ufe00-\ufe0f]|\udb40[\udd00-\uddef]))((?:[\ufe00-\ufe0f]|\udb40[\udd00-\uddef])+)/g;
  function codePoint(c) {
    return "\u27e8U+" + c.codePointAt(0).toString(16).toUpperCase().padStart(4, "0") + "\u27e9";
  }
  function inert(s) {
    return s.replace(/\r\n/g, "\n").replace(controls, function (c) {
      return c === "\u007f" ? "\u2421" : String.fromCharCode(0x2400 + c.charCodeAt(0));
    }).replace(coded, function (c, flag) {
      if (flag) return flag;
      return codePoint(c);
    }).replace(selectors, function (m, first, rest) {
      return first + rest.replace(selector, codePoint);
    });
  }

  function deltaTo(ev) {
    if (ev.seq <= seq) return;
    var turn = panelEl.querySelector('article[data-turn="' + CSS.escape(ev.data.turn) + '"] pre.stream');
    if (!turn) { refresh(); return; }
    turn.textContent += inert(ev.data.text);
    seq = ev.seq;
  }

  function refresh() {
    if (timer) return;
    timer = setTimeout(load, 120);
  }

  function load() {
    timer = null;
    if (loading) { again = true; return; }
    loading = true;
    // Keep what the user is typing in the panel's forms, and what they
    // chose: the hint's target is a select, which the new panel would reset
    // to its first agent, and the hint would go to another agent.
    var active = document.activeElement, typed = {}, chosen = {};
    panelEl.querySelectorAll("textarea, input[type=text]").forEach(function (el) {
      if (el.value) typed[el.name] = el.value;
    });
    panelEl.querySelectorAll("select").forEach(function (el) {
      chosen[el.name] = el.value;
    });
    fetch("/debates/" + encodeURIComponent(id) + "/panel", { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
      .then(function (html) {
        var tpl = document.createElement("template");
        tpl.innerHTML = html; // server-rendered, escaped HTML
        var next = tpl.content.querySelector(".panel");
        var nextSeq = next ? Number(next.dataset.seq) : seq;
        panelEl.replaceChildren(tpl.content);
        Object.keys(typed).forEach(function (name) {
          var el = panelEl.querySelector('[name="' + CSS.escape(name) + '"]');
          if (el && !el.value) el.value = typed[name];
        });
        Object.keys(chosen).forEach(function (name) {
          var el = panelEl.querySelector('select[name="' + CSS.escape(name) + '"]');
          // Only a choice the new panel still offers (the agents are
          // known once the debate has started).
          if (el && [].some.call(el.options, function (o) { return o.value === chosen[name]; })) el.value = chosen[name];
        });
        if (active && active.name) {
          var el = panelEl.querySelector('[name="' + CSS.escape(active.name) + '"]');
          if (el) el.focus();
        }
        seq = Math.max(seq, nextSeq);
        var pending = buffered; buffered = [];
        pending.forEach(deltaTo);
      })
      .catch(function () {})
      .finally(function () {
        loading = false;
        if (again) { again = false; refresh(); }
      });
  }

  // The event stream. The browser reconnects by itself after a network
  // error (the stream's retry: field), but gives up on an answer that is
  // not a stream: a 503 when the server holds as many streams as it takes,
  // a 204 once the debate has ended. The page then asks what the answer
  // was (an EventSource is not told): a busy server is retried after its
  // Retry-After, longer each time (with jitter, so that the pages it
  // refused together do not come back together), the page saying its live
  // updates are paused and re-fetching the panel at each attempt; an ended
  // or deleted debate is not retried.
  var es = null, attempt = 0, countdown = null;
  var live = document.getElementById("live");
  function eventsURL() {
    return "/api/debates/" + encodeURIComponent(id) + "/events?after=" + seq;
  }
  function showPaused(until) {
    if (!live) return;
    clearInterval(countdown);
    var tick = function () {
      var s = Math.max(0, Math.ceil((until - Date.now()) / 1000));
      live.textContent = "Live updates paused: the server is busy. Retrying in " + s + " s\u2026";
    };
    tick();
    countdown = setInterval(tick, 1000);
    live.hidden = false;
  }
  function hidePaused() {
    clearInterval(countdown);
    if (live) live.hidden = true;
  }
  function retryLater(retryAfter) {
    attempt++;
    var backoff = Math.min(300, Math.pow(2, attempt - 1)); // 1, 2, 4 … 300 s
    var wait = Math.max(retryAfter || 0, backoff) * (1 + Math.random() / 2) * 1000;
    showPaused(Date.now() + wait);
    setTimeout(function () { refresh(); connect(); }, wait);
  }
  function gaveUp() {
    es = null;
    // A debate shown ended has nothing more to stream (the server's 204):
    // nothing to ask or draw again.
    var shown = panelEl.querySelector(".panel");
    if (shown && (shown.dataset.status === "completed" || shown.dataset.status === "failed")) {
      hidePaused();
      return;
    }
    var ctl = new AbortController();
    fetch(eventsURL(), { credentials: "same-origin", cache: "no-store", signal: ctl.signal })
      .then(function (r) {
        ctl.abort(); // only the status was wanted: the stream's place is given back
        if (r.status === 503 || r.status === 429) {
          retryLater(Number(r.headers.get("Retry-After")) || 0);
        } else if (r.ok && r.status !== 204) {
          attempt = 0;
          connect(); // a place came free meanwhile
        } else {
          // Ended (204), deleted, or refused for good: the panel says so.
          hidePaused();
          refresh();
        }
      })
      .catch(function () { retryLater(0); }); // the server is unreachable
  }
  function connect() {
    es = new EventSource(eventsURL());
    es.onopen = function () {
      if (attempt > 0) refresh(); // what happened while paused
      attempt = 0;
      hidePaused();
    };
    es.onerror = function () {
      if (es && es.readyState === EventSource.CLOSED) gaveUp();
    };
    es.onmessage = function (m) {
      var ev;
      try { ev = JSON.parse(m.data); } catch (e) { return; }
      if (ev.type === "turn.delta") {
        if (loading || timer) buffered.push(ev); else deltaTo(ev);
        return;
      }
      refresh();
      if (ev.type === "debate.completed" || ev.type === "debate.failed") { es.close(); es = null; }
    };
  }
  connect();
})();
