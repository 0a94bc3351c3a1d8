/* Feltguard surveillance review (review.html): lists the journal's hands from /review/api/hands,
   opens one from /review/api/hand/N and steps through its events, shows the findings timeline
   from /review/api/findings. Everything is built with textContent, never innerHTML: player
   names and finding texts come from the table. The session cookie (HttpOnly) travels with each
   fetch; this script holds no secret. */
(function () {
  "use strict";

  var PAGE_SIZE = 50;
  var state = { hand: null, step: 0, offset: 0, query: "" };

  function $(id) { return document.getElementById(id); }

  // shared with the other pages (cards.js)
  var el = window.FeltguardCards.el, clear = window.FeltguardCards.clear;
  var cardFace = function (card) { return window.FeltguardCards.cardFace(card, false); };

  function when(ts) {
    if (typeof ts !== "number") return "";
    return new Date(ts).toISOString().replace("T", " ").replace(/\.\d+Z$/, "Z");
  }

  // An amount of chips as the words of the server write it: 1,216.
  function amount(n) {
    return typeof n === "number" ? n.toLocaleString("en-US") : (n === null ? "" : String(n));
  }

  // A seat's cards; those lying face up (stud's upcards, an exposed card) are marked.
  function cards(list, up) {
    var box = el("span", "cards");
    (list || []).forEach(function (c) {
      var face = cardFace(c);
      if (up && up.indexOf(c) >= 0) {
        face.classList.add("up");
        face.title = "face up";
      }
      box.appendChild(face);
    });
    return box;
  }

  function showError(text) {
    var node = $("error");
    node.textContent = text || "";
    node.hidden = !text;
  }

  function setStatus(text) {
    var node = $("status");
    node.textContent = text;
    node.className = "status " + (text === "ready" ? "live" : text === "error" ? "offline" : "");
  }

  // Where this review lives: /review at a table, /t/TABLE/review in the cardroom's service
  // (docs/cardroom.md); every address below is relative to it.
  var BASE = location.pathname.replace(/\/+$/, "");

  // A JSON answer, or an error with the server's one line. A login form instead of JSON means
  // the session ended: offer the way back.
  function getJSON(url) {
    return fetch(url, { credentials: "same-origin", cache: "no-store" }).then(function (r) {
      var type = r.headers.get("Content-Type") || "";
      if (type.indexOf("application/json") < 0) {
        $("relogin").href = BASE;
        $("relogin").hidden = false;
        throw new Error(r.status === 403 ? "Your role may not review hands."
                                         : "Your session has ended: log in again.");
      }
      return r.json().then(function (body) {
        if (!r.ok) throw new Error(body.error || ("error " + r.status));
        return body;
      });
    });
  }

  function fail(err) {
    setStatus("error");
    showError(err.message || String(err));
  }

  // --- the search and the hand list ---------------------------------------------------------

  function queryString() {
    var params = new URLSearchParams();
    ["since", "until"].forEach(function (name) {
      var value = $("q-" + name).value;
      // the times shown are UTC, so the times typed are too
      if (value) params.set(name, String(new Date(value + "Z").getTime()));
    });
    ["seat", "player", "code", "game"].forEach(function (name) {
      var value = $("q-" + name).value.trim();
      if (value) params.set(name, value);
    });
    return params.toString();
  }

  function codeTag(code) { return el("span", "code", code); }

  function loadHands(append) {
    if (!append) state.offset = 0;
    var q = state.query ? state.query + "&" : "";
    return getJSON(BASE + "/api/hands?" + q + "limit=" + PAGE_SIZE + "&offset=" + state.offset)
      .then(function (data) {
        var body = $("hands").tBodies[0];
        if (!append) clear(body);
        data.hands.forEach(function (h) { body.appendChild(handRow(h)); });
        state.offset += data.hands.length;
        $("hands-count").textContent = data.total + (data.total === 1 ? " hand" : " hands") +
          (state.query ? " match" : "") + "; showing " + state.offset;
        $("more").hidden = state.offset >= data.total;
        $("journal-info").textContent = "journal up to seq " + data.last_seq;
        setStatus("ready");
        showError("");
      }).catch(fail);
  }

  // A cell that says what it is (its data-label) where the table is laid out as blocks.
  // A seat's odds in words: "62.1% (win 60.3%, tie 3.6%) · 9 outs · Two pair, kings and
  // sevens"; split games "high 28% · low 53%"; a Monte Carlo figure with its margin.
  function oddsText(all, o) {
    if (!all || !o) return "";
    var pct = function (x) { return (100 * x).toFixed(1) + "%"; };
    var parts = [pct(o.equity) + " (win " + pct(o.win) + ", tie " + pct(o.tie) + ")"];
    if (all.split) parts.push("high " + pct(o.high) + " \u00b7 low " + pct(o.low));
    if (o.outs !== null && o.outs !== undefined) parts.push(o.outs + (o.outs === 1 ? " out" : " outs"));
    (o.labels || []).forEach(function (l) { if (l) parts.push(l); });
    if (all.margin) parts.push("\u00b1" + (100 * all.margin).toFixed(1) + " pts");
    if (all.assumes_draws) parts.push("assumes the draws declared");
    return parts.join(" \u00b7 ");
  }

  function cell(column, label, text) {
    var td = el("td", "col-" + column, text);
    if (label) td.dataset.label = label;
    return td;
  }

  function handRow(h) {
    var tr = el("tr");
    tr.dataset.hand = h.number;
    tr.appendChild(cell("num", "", h.number));
    tr.appendChild(cell("when", "", when(h.start_ts)));
    tr.appendChild(cell("game", "", h.game_name));
    tr.appendChild(cell("players", "Players",
      h.seats.map(function (s) { return s.player; }).join(", ")));
    var codes = cell("codes", "Findings");
    h.codes.forEach(function (c) { codes.appendChild(codeTag(c)); });
    tr.appendChild(codes);
    // each seat's take whole on its line: the parts wrap between them, not inside
    var result = cell("result", "Result");
    h.result.split("; ").forEach(function (part, k) {
      if (k) result.appendChild(document.createTextNode("; "));
      result.appendChild(el("span", "part", part));
    });
    tr.appendChild(result);
    tr.addEventListener("click", function () { openHand(h.number); });
    return tr;
  }

  // --- one hand ------------------------------------------------------------------------------

  function openHand(number, atSeq) {
    return getJSON(BASE + "/api/hand/" + number).then(function (data) {
      state.hand = data;
      $("hand-view").hidden = false;
      Array.prototype.forEach.call($("hands").tBodies[0].rows, function (row) {
        row.classList.toggle("selected", row.dataset.hand === String(number));
      });
      var h = data.hand;
      $("hand-title").textContent = "Hand " + h.number;
      $("hand-meta").textContent = h.game_name + " \u00b7 " + when(h.start_ts) + " to " +
        when(h.end_ts) + " \u00b7 seq " + h.first_seq + "\u2013" + h.last_seq;
      $("hand-result").textContent = "Result: " + h.result;
      var pots = $("hand-pots");
      clear(pots);
      (h.pot_lines || []).forEach(function (p) { pots.appendChild(el("li", "", p.text)); });
      $("export-phh").href = BASE + "/hand/" + h.number + ".phh";
      $("export-jsonl").href = BASE + "/hand/" + h.number + ".jsonl";
      $("step-range").max = String(data.steps.length - 1);
      renderHandFindings();
      var at = 0;
      if (atSeq !== undefined) {
        data.steps.forEach(function (s, i) { if (s.seq === atSeq) at = i; });
      }
      show(at);
      $("hand-view").scrollIntoView({ block: "start" });
    }).catch(fail);
  }

  function findingByKey(key) {
    var found = null;
    state.hand.findings.forEach(function (f) {
      if (f.code + " (seq " + f.seq + ")" === key) found = f;
    });
    return found;
  }

  // The finding's status as the journal ends; at an event before the remedy or the ruling,
  // it was still open there.
  function statusBadge(f, atSeq) {
    if (f.status !== "open" && atSeq !== undefined && atSeq < f.status_seq) {
      return el("span", "status-badge open", "open here \u00b7 " + f.status + " at seq " +
        f.status_seq);
    }
    var text = f.status;
    if (f.status !== "open") text += " at seq " + f.status_seq;
    return el("span", "status-badge " + f.status, text);
  }

  function findingItem(f, atSeq) {
    var li = el("li", "finding " + f.severity);
    li.dataset.code = f.code;
    var head = el("div", "finding-head");
    head.appendChild(el("span", "severity", f.severity));
    head.appendChild(codeTag(f.code));
    head.appendChild(el("span", "title", f.title));
    head.appendChild(statusBadge(f, atSeq));
    li.appendChild(head);
    li.appendChild(el("div", "seats", "hand " + f.hand + " \u00b7 seq " + f.seq + " \u00b7 " +
      when(f.ts) + (f.seats.length ? " \u00b7 seats " + f.seats.join(", ") : "") +
      (f.cards.length ? " \u00b7 cards " + f.cards.join(" ") : "")));
    li.appendChild(el("p", "message", f.message));
    var r = f.rule || {};
    li.appendChild(el("p", "rule", "Rule: " + r.file + ", " + r.section + ", rule " + r.rule +
      (r.text ? ": \u201c" + r.text + "\u201d" : "")));
    var remedy = el("ol", "remedy");
    remedy.setAttribute("aria-label", "remedy");
    (f.remedy || []).forEach(function (s) { remedy.appendChild(el("li", "", s)); });
    li.appendChild(remedy);
    if (f.status === "ruled") {
      li.appendChild(el("p", "ruling", "Floor ruling (" + f.outcome + "): " + f.ruling));
    }
    if (f.remedy_not_followed_seq) {
      li.appendChild(el("p", "ruling", "Remedy not followed at seq " +
        f.remedy_not_followed_seq));
    }
    return li;
  }

  function renderHandFindings() {
    var list = $("hand-findings");
    clear(list);
    state.hand.findings.forEach(function (f) {
      var li = findingItem(f);
      var go = el("button", "", "Go to seq " + f.raised_seq);
      go.type = "button";
      go.addEventListener("click", function () { showSeq(f.raised_seq); });
      li.appendChild(go);
      list.appendChild(li);
    });
    if (!state.hand.findings.length) list.appendChild(el("li", "none", "No findings."));
    state.hand.rulings.forEach(function (r) {
      list.appendChild(el("li", "ruling", "Floor ruling at seq " + r.seq + (r.code ? " on " +
        r.code : "") + " (" + r.outcome + "): " + r.text));
    });
  }

  function showSeq(seq) {
    state.hand.steps.forEach(function (s, i) { if (s.seq === seq) show(i); });
  }

  function show(i) {
    var steps = state.hand.steps;
    i = Math.max(0, Math.min(steps.length - 1, i));
    state.step = i;
    var s = steps[i];
    $("step-range").value = String(i);
    $("step-pos").textContent = "event " + (i + 1) + " of " + steps.length;
    $("step-first").disabled = $("step-prev").disabled = i === 0;
    $("step-last").disabled = $("step-next").disabled = i === steps.length - 1;
    $("step-finding").disabled = nextFinding(i) < 0;

    // the event in words; the journal's own JSON stays one click away
    var ev = $("event");
    $("event-where").textContent = "seq " + s.seq + " \u00b7 " + when(s.ts) + " \u00b7";
    $("event-words").textContent = s.text || s.type;
    $("event-json").textContent = JSON.stringify(s.event);
    ev.classList.toggle("raised", s.raised.length > 0);

    var h = s.hand;
    $("phase").textContent = h.phase + (h.to_act ? " \u00b7 seat " + h.to_act + " to act" : "");
    var board = $("board");
    clear(board);
    (h.board || []).forEach(function (c) { board.appendChild(cardFace(c)); });
    var live = h.pots || [];  // the main pot first, then the side pots
    $("pots").textContent = live.map(function (p, k) {
      return (live.length === 1 ? "pot" : k ? "side pot " + k : "main pot") + ": " +
        amount(p.amount);
    }).join(" \u00b7 ") +
      // the bet nobody can call goes back to its owner: never drawn as a pot (issue 26)
      (h.uncalled ? " \u00b7 uncalled " + amount(h.uncalled.amount) + " back to seat " +
        h.uncalled.seat : "") +
      (h.burns ? "  (" + h.burns + " burned)" : "");
    $("expect").textContent = h.expect || "";

    var body = $("seat-table").tBodies[0];
    clear(body);
    var anyUp = false;
    var odds = {};  // each live seat's figure at this step (controller/poker/odds.py)
    ((s.equity || {}).seats || []).forEach(function (o) { odds[o.seat] = o; });
    s.seats.forEach(function (seat) {
      var tr = el("tr");
      tr.dataset.seat = seat.seat;
      if (seat.folded) tr.classList.add("folded");
      if (h.to_act === seat.seat) tr.classList.add("to-act");
      tr.appendChild(cell("seat", "Seat", seat.seat + (h.button === seat.seat ? " (D)" : "")));
      tr.appendChild(cell("player", "", seat.player));
      var td = cell("cards", "");
      td.appendChild(cards(seat.hole, seat.up));
      tr.appendChild(td);
      tr.appendChild(cell("stack", "stack", amount(seat.stack)));
      tr.appendChild(cell("bet", "bet", seat.bet ? amount(seat.bet) : ""));
      tr.appendChild(cell("status", "", seat.folded ? "folded" : seat.all_in ? "all in" :
        String(seat.status || "").replace(/_/g, " ")));
      tr.appendChild(cell("odds", "odds", oddsText(s.equity, odds[seat.seat])));
      body.appendChild(tr);
      anyUp = anyUp || (seat.up || []).length > 0;
    });
    $("seats-note").textContent = anyUp ? "outlined cards lie face up" : "";

    var here = $("step-findings");
    clear(here);
    s.raised.forEach(function (key) {
      var f = findingByKey(key);
      if (f) here.appendChild(findingItem(f, s.seq));
    });
    if (!s.raised.length) here.appendChild(el("li", "none", "None raised at this event."));

    var due = $("remedy-due");
    clear(due);
    s.findings.forEach(function (f) {
      (f.remedy_due || []).forEach(function (move) {
        due.appendChild(el("li", "", f.code + " (seq " + f.seq + "): " + move));
      });
    });
    if (!due.firstChild) due.appendChild(el("li", "none", "Nothing due."));

    var health = $("health");
    clear(health);
    s.devices.forEach(function (d) {
      health.appendChild(el("li", "device" + (d.state === "ok" ? "" : " bad"),
        (d.name || "reader") + " " + d.reader + ": " + d.state +
        (d.detail ? " (" + d.detail + ")" : "") + " since seq " + d.since_seq));
    });
    Object.keys(s.chips || {}).forEach(function (zone) {
      health.appendChild(el("li", "device", "chips " + zone + ": " + s.chips[zone].total));
    });
    if (!health.firstChild) health.appendChild(el("li", "none", "No reader has reported."));

    var trail = $("cards").tBodies[0];
    clear(trail);
    state.hand.cards.forEach(function (c) {
      if (c.moves[0].seq > s.seq) return;
      var tr = el("tr");
      var name = el("td");
      name.appendChild(cardFace(c.card));
      tr.appendChild(name);
      var moves = el("td");
      c.moves.forEach(function (m) {
        moves.appendChild(el("span", "trail-move" + (m.seq > s.seq ? " later" : ""),
          (m.zone === "shoe" ? m.how : m.how + " " + m.zone.replace(":", " ")) +
          (m.face_up ? " face up" : "") +
          " (seq " + m.seq + ", " + when(m.ts) + ")"));
      });
      tr.appendChild(moves);
      trail.appendChild(tr);
    });
  }

  function nextFinding(i) {
    var steps = state.hand.steps;
    for (var k = i + 1; k < steps.length; k++) if (steps[k].raised.length) return k;
    return -1;
  }

  // --- the findings timeline ----------------------------------------------------------------

  function loadTimeline() {
    return getJSON(BASE + "/api/findings?" + (state.query ? state.query + "&" : "") +
                   "limit=200").then(function (data) {
      var list = $("timeline");
      clear(list);
      var codes = {};
      data.findings.forEach(function (f) {
        codes[f.code] = true;
        var li = el("li");
        li.appendChild(el("span", "muted", when(f.ts)));
        var link = el("a", "", "hand " + f.hand);
        link.href = "#hand-" + f.hand;
        link.addEventListener("click", function (e) {
          e.preventDefault();
          if (f.hand) openHand(f.hand, f.raised_seq);
        });
        li.appendChild(link);
        li.appendChild(codeTag(f.code));
        li.appendChild(el("span", "", f.title));
        li.appendChild(statusBadge(f));
        if (f.ruling) li.appendChild(el("span", "muted", "\u201c" + f.ruling + "\u201d"));
        list.appendChild(li);
      });
      if (!data.findings.length) list.appendChild(el("li", "none", "No findings."));
      var datalist = $("codes");
      if (!datalist.firstChild) {
        Object.keys(codes).sort().forEach(function (c) {
          var o = el("option");
          o.value = c;
          datalist.appendChild(o);
        });
      }
    }).catch(fail);
  }

  // --- wiring --------------------------------------------------------------------------------

  $("search").addEventListener("submit", function (e) {
    e.preventDefault();
    state.query = queryString();
    loadHands(false);
    loadTimeline();
  });
  $("search").addEventListener("reset", function () {
    state.query = "";
    setTimeout(function () { loadHands(false); loadTimeline(); }, 0);
  });
  $("more").addEventListener("click", function () { loadHands(true); });
  $("step-first").addEventListener("click", function () { show(0); });
  $("step-prev").addEventListener("click", function () { show(state.step - 1); });
  $("step-next").addEventListener("click", function () { show(state.step + 1); });
  $("step-last").addEventListener("click", function () {
    show(state.hand.steps.length - 1);
  });
  $("step-finding").addEventListener("click", function () {
    var k = nextFinding(state.step);
    if (k >= 0) show(k);
  });
  $("step-range").addEventListener("input", function () {
    show(parseInt($("step-range").value, 10) || 0);
  });
  document.addEventListener("keydown", function (e) {
    if (!state.hand || e.target.tagName === "INPUT") return;
    if (e.key === "ArrowRight") show(state.step + 1);
    if (e.key === "ArrowLeft") show(state.step - 1);
  });

  loadHands(false);
  loadTimeline();
})();
