/* Feltguard's broadcast overlay (GET /broadcast/overlay, docs/display.md): the graphics a studio
   lays over its cameras, drawn from the /broadcast namespace's `state` payloads
   (display/payloads.py broadcast_payload, with its `equity` block). The server sends each state
   only the secure delay after it happened, so everything here, odds included, is as late as the
   plain /broadcast page.
   Laid out for a 1920x1080 frame (scaled to fit another size); the page itself is transparent.
   Everything is built with textContent, never innerHTML: player names come from the table. */
(function () {
  "use strict";

  var FRAME_W = 1920, FRAME_H = 1080;
  // shared with the other pages (cards.js); four colours (clubs green, diamonds blue), as
  // television decks have them: a viewer tells the suits apart on a small screen by colour
  var el = window.FeltguardCards.el, clear = window.FeltguardCards.clear;
  var cardFace = function (card) { return window.FeltguardCards.cardFace(card, true); };
  var STREETS = {
    preflop: "Preflop", flop: "Flop", turn: "Turn", river: "River",
    third: "Third street", fourth: "Fourth street", fifth: "Fifth street",
    sixth: "Sixth street", seventh: "Seventh street",
    predraw: "Before the draw", draw1: "Draw 1", draw2: "Draw 2", draw3: "Draw 3",
    showdown: "Showdown", complete: "Hand over"
  };

  // 12345 -> "12,345": a stack read at a glance.
  function chips(n) {
    return String(n || 0).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  }

  // A share as the screen says it: whole points; "<1%" and ">99%" rather than a 0 or 100 that
  // is not quite so (a hand with one out is not dead).
  function percent(x) {
    if (x <= 0) return "0%";
    if (x >= 1) return "100%";
    var p = Math.round(x * 100);
    if (p === 0) return "<1%";
    if (p === 100) return ">99%";
    return p + "%";
  }

  // The connection: a small dot in a corner, never words over the picture.
  function setStatus(state, words) {
    var dot = document.getElementById("status");
    dot.className = state;
    dot.title = words || state;
    dot.setAttribute("aria-label", words || state);
  }

  function family(p) {
    var f = (p.table || {}).family;
    return f === "stud" || f === "draw" || f === "board" ? f : "";
  }

  function renderBug(p) {
    var t = p.table || {}, h = p.hand || {};
    document.getElementById("game").textContent =
      t.name || (t.game ? String(t.game).toUpperCase() : "");
    var stakes = [];
    // stud has no blinds: its ante (the bring-in shows as that seat's bet)
    if (family(p) !== "stud" && (t.small_blind || t.big_blind)) {
      stakes.push("Blinds " + chips(t.small_blind) + "/" + chips(t.big_blind));
    }
    if (t.ante) stakes.push("Ante " + chips(t.ante));
    document.getElementById("stakes").textContent = stakes.join(" \u00b7 ");
    document.getElementById("street").textContent =
      h.number ? (STREETS[h.phase] || h.phase) : "Waiting for a hand";
    document.getElementById("bug").hidden = !(t.name || t.game);
  }

  // The odds of each seat, by seat number (null: no figure for this state).
  function oddsBySeat(p) {
    var eq = p.equity, rows = {};
    if (!eq || !eq.seats) return null;
    eq.seats.forEach(function (row) { rows[row.seat] = row; });
    return rows;
  }

  function seatCards(p, s) {
    var row = el("div", "cards");
    var up = s.up || [], hole = s.hole || [];
    var f = family(p);
    hole.forEach(function (c) {
      var card = cardFace(c);
      // stud: the upcards stand up, the down cards (shown to the viewer only) are tinted
      if (f === "stud") card.classList.add(up.indexOf(c) >= 0 ? "up" : "down");
      row.appendChild(card);
    });
    // a draw under way: places for the cards the seat asked for
    var slots = (p.table && p.table.hole_slots) || 0;
    if (f === "draw" && hole.length) {
      for (var i = hole.length; i < slots; i++) row.appendChild(el("span", "card slot"));
    }
    return row;
  }

  // Draw games: the draw under way, as the table may tell it (the payload's `drawn`, the
  // count asked for, only until the betting after the draw); cards still to come, "Drawing".
  function drawNote(p, s) {
    if (family(p) !== "draw") return "";
    var slots = (p.table && p.table.hole_slots) || 0, held = (s.hole || []).length;
    var drawn = s.drawn || [];
    if (held && held < slots) return "Drawing " + (slots - held);
    if (!drawn.length) return "";
    var n = drawn[drawn.length - 1];
    return n === 0 ? "Stands pat" : "Drew " + n;
  }

  function playerPanel(p, s, odds, shown) {
    var h = p.hand || {};
    var node = el("div", "player");
    node.dataset.seat = String(s.seat);
    if (s.seat === h.to_act) node.classList.add("to-act");
    if (s.all_in) node.classList.add("all-in");

    var head = el("div", "head");
    var name = el("span", "name", s.player || "Seat " + s.seat);
    name.title = s.player || "";
    head.appendChild(name);
    if (s.all_in) head.appendChild(el("span", "tag allin", "ALL IN"));
    else if (s.seat === h.to_act) head.appendChild(el("span", "tag act", "TO ACT"));
    node.appendChild(head);

    node.appendChild(seatCards(p, s));

    // the odds: no figure (null equity), no bar; a figure too rough to show, a neutral bar
    var row = odds ? odds[s.seat] : null;
    if (row) {
      var line = el("div", "odds");
      var bar = el("div", "bar");
      var fill = el("div", "fill");
      bar.appendChild(fill);
      line.appendChild(bar);
      var pct = el("span", "pct", shown ? percent(row.equity) : "\u2026");
      line.appendChild(pct);
      if (shown) {
        fill.style.width = (Math.max(0, Math.min(1, row.equity)) * 100).toFixed(1) + "%";
      } else {
        line.classList.add("pending");
      }
      node.appendChild(line);
      if (shown && p.equity.split && typeof row.high === "number") {
        node.appendChild(el("div", "halves",
          percent(row.high) + " high \u00b7 " + percent(row.low) + " low"));
      }
    }
    var facts = el("div", "facts");
    ((row && row.labels) || []).forEach(function (label) {
      if (label) facts.appendChild(el("div", "label", label));
    });
    var note = drawNote(p, s);
    if (note) facts.appendChild(el("div", "draw", note));
    if (row && typeof row.outs === "number") {
      facts.appendChild(el("div", "outs", row.outs + (row.outs === 1 ? " out" : " outs")));
    }
    node.appendChild(facts);

    var money = el("div", "money");
    if (!s.all_in || s.stack) {  // all in: the tag says it, not a stack of 0
      var stack = el("span", "stack");
      stack.appendChild(el("span", "caption", "Stack"));
      stack.appendChild(el("span", "amount", chips(s.stack)));
      money.appendChild(stack);
    }
    if (s.bet) money.appendChild(el("span", "bet", "Bet " + chips(s.bet)));
    if (money.firstChild) node.appendChild(money);
    return node;
  }

  // The players along the bottom: one row up to five, else two; the cards as large as the
  // widest hand lets them be (stud's seven, draw's five, Omaha's four).
  function renderPlayers(p) {
    var box = document.getElementById("players");
    clear(box);
    var live = (p.seats || []).filter(function (s) { return s.in_hand && !s.folded; });
    if (!(p.hand || {}).number) live = [];
    var odds = oddsBySeat(p);
    var shown = !!(p.equity && p.equity.shown);
    var most = 2;
    live.forEach(function (s) {
      var slots = family(p) === "draw" ? (p.table.hole_slots || 0) : 0;
      most = Math.max(most, (s.hole || []).length, slots);
    });
    var rows = live.length > 5 ? 2 : 1;
    var across = Math.max(1, Math.ceil(live.length / rows));
    // 1920 wide, 48 px margins, 24 px between panels, 28 px of padding in each
    var panel = Math.min(540, (FRAME_W - 96 - (across - 1) * 24) / across);
    var card = Math.floor(Math.min(rows > 1 ? 66 : 84, (panel - 34) / most - 8));
    box.style.setProperty("--card-w", card + "px");
    box.style.setProperty("--panel-w", Math.floor(panel) + "px");
    box.dataset.rows = String(rows);
    live.forEach(function (s) { box.appendChild(playerPanel(p, s, odds, shown)); });
  }

  function renderMiddle(p) {
    var h = p.hand || {};
    var board = document.getElementById("board");
    clear(board);
    if (family(p) === "board") (h.board || []).forEach(function (c) { board.appendChild(cardFace(c)); });
    board.hidden = !board.firstChild;

    var pots = h.pots || [];
    var total = pots.reduce(function (sum, pot) { return sum + (pot.amount || 0); }, 0);
    document.getElementById("pot").textContent = total ? "Pot " + chips(total) : "";
    var parts = document.getElementById("pots");
    parts.textContent = pots.length > 1 ? pots.map(function (pot, i) {
      return (i ? "Side " + (pots.length > 2 ? i + " " : "") : "Main ") + chips(pot.amount);
    }).join(" \u00b7 ") : "";
    document.getElementById("pot-box").hidden = !total;

    var names = {};
    (p.seats || []).forEach(function (s) { names[s.seat] = s.player || "Seat " + s.seat; });
    var results = document.getElementById("results");
    clear(results);
    if (h.phase === "complete") {
      (p.results || []).forEach(function (r) {
        if (r.hand === "uncalled bet returned") return;  // not a pot won (docs/snapshot.md)
        var shares = r.shares || {}, winners = r.winners || [];
        var text = winners.map(function (w) {
          var share = shares[String(w)];
          if (typeof share !== "number" && winners.length === 1) share = r.amount;
          return names[w] + " wins" + (typeof share === "number" ? " " + chips(share) : "");
        }).join(", ") + (r.hand ? " \u00b7 " + r.hand : "");
        results.appendChild(el("div", "result", text));
      });
    }
    results.hidden = !results.firstChild;

    // what the figure assumes of a choice still to come: the draws declared, or (Pineapple
    // before its discard) each hand keeping its best two
    var assumes = document.getElementById("assumes");
    var eq = p.equity || {};
    assumes.textContent = eq.assumes_draws ? "Odds assume the draws declared" :
      eq.assumes_discard ? "Odds assume each player keeps their best two" : "";
    assumes.hidden = !assumes.textContent;
    var middle = document.getElementById("middle");
    middle.hidden = board.hidden && !total && results.hidden;
  }

  function render(p) {
    renderBug(p);
    renderMiddle(p);
    renderPlayers(p);
    document.body.dataset.family = family(p);
    document.body.dataset.game = (p.table || {}).game || "";
    document.body.dataset.lastSeq = p.last_seq === null ? "" : String(p.last_seq);
    document.body.dataset.equity = p.equity ? (p.equity.shown ? "shown" : "rough") : "none";
  }

  // The overlay is drawn for 1920x1080; a source of another size gets it scaled to fit.
  function fit() {
    var scale = Math.min(window.innerWidth / FRAME_W, window.innerHeight / FRAME_H);
    document.getElementById("frame").style.transform = scale === 1 ? "" : "scale(" + scale + ")";
  }
  window.addEventListener("resize", fit);
  fit();

  var socket = io("/broadcast", { reconnectionDelayMax: 2000 });
  socket.on("connect", function () {
    var delay = Number(document.body.dataset.delay);
    setStatus("live", delay > 0 ? "delayed " + delay + " s" : "live");
  });
  socket.on("disconnect", function () { setStatus("offline"); });
  socket.on("connect_error", function () { setStatus("offline"); });
  socket.on("state", render);
})();
