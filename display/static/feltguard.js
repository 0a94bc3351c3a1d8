/* Feltguard live table view: connects to the namespace named by <body data-role> ("table",
   "broadcast" or "dealer") and redraws the felt from each `state` payload (display/payloads.py).
   Everything is built with textContent, never innerHTML: player names and finding texts come
   from the table and must not be able to inject markup.
   The dealer page holds no secret: the server admits its socket by the session cookie the login
   form set (HttpOnly, so this script cannot read it either). */
(function () {
  "use strict";

  var ROLES = { dealer: "dealer", broadcast: "broadcast" };
  var role = ROLES[document.body.dataset.role] || "table";
  // shared with the other pages (cards.js)
  var el = window.FeltguardCards.el, clear = window.FeltguardCards.clear;
  var cardFace = function (card) { return window.FeltguardCards.cardFace(card, false); };

  function cardBack() {
    var node = el("span", "card back");
    node.setAttribute("aria-label", "face-down card");
    return node;
  }

  // The connection badge: its state as a class, and the words it shows (the state's name
  // unless told otherwise).
  function setStatus(state, text) {
    var status = document.getElementById("status");
    status.textContent = text || state;
    status.className = "status " + state;
  }

  // "30 s", "30 min": how late the broadcast runs.
  function delayText(s) {
    return s >= 60 && s % 60 === 0 ? s / 60 + " min" : s + " s";
  }

  var connected = false;

  // Connected: the broadcast's badge says how late it runs, never "live" (the table is live,
  // the broadcast is not); at delay 0 (a table that is not public) it is live.
  function showConnected() {
    var delay = Number(document.body.dataset.delay);
    if (role === "broadcast" && delay > 0) setStatus("delayed", "delayed " + delayText(delay));
    else setStatus("live");
  }

  // Seat k of n sits on an oval clockwise from the dealer, who sits at the top centre. The oval
  // is the felt's own, shrunk by the largest seat box, so that every seat lies on the felt
  // (never off screen) however small it is; on a wide felt no further out than the rail.
  function placeSeats() {
    var felt = document.getElementById("felt"), box = document.getElementById("seats");
    var seats = Array.prototype.slice.call(box.children);
    // a narrow screen stacks the seats in a grid (feltguard.css): nothing to place
    if (!seats.length || getComputedStyle(seats[0]).position !== "absolute") return;
    var n = Number(box.dataset.places) || 2;
    var width = felt.clientWidth, height = felt.clientHeight, w = 0, h = 0;
    seats.forEach(function (node) {
      w = Math.max(w, node.offsetWidth);
      h = Math.max(h, node.offsetHeight);
    });
    var rx = Math.max(0, Math.min(width * (n > 6 ? 0.43 : 0.4), (width - w) / 2));
    var ry = Math.max(0, Math.min(height * (n > 6 ? 0.42 : 0.4), (height - h) / 2));
    var angles = ovalAngles(n + 1, rx / Math.max(w, 1), ry / Math.max(h, 1));
    seats.forEach(function (node) {
      var angle = angles[Number(node.dataset.seat) % (n + 1)];
      node.style.left = (width / 2 + rx * Math.cos(angle)).toFixed(1) + "px";
      node.style.top = (height / 2 + ry * Math.sin(angle)).toFixed(1) + "px";
    });
  }

  // The angles of `places` places spaced evenly round an oval of radii a and b, measured in
  // seat boxes (a box's width across, its height up and down), from the top clockwise. Even
  // angles would crowd the boxes at the ends of a wide oval, where it runs up and down; two
  // boxes clear each other when they are a box's width apart across or a height up or down,
  // so the oval's length is counted in the larger of the two.
  function ovalAngles(places, a, b) {
    var steps = 720, total = 0, along = [0], i;
    for (i = 1; i <= steps; i++) {
      var t = -Math.PI / 2 + (2 * Math.PI * (i - 0.5)) / steps;
      total += Math.max(a * Math.abs(Math.sin(t)), b * Math.abs(Math.cos(t)));
      along.push(total);
    }
    var angles = [], j = 0;
    for (var k = 0; k < places; k++) {
      var goal = (total * k) / places;
      while (j < steps && along[j + 1] < goal) j++;
      var part = along[j + 1] > along[j] ? (goal - along[j]) / (along[j + 1] - along[j]) : 0;
      angles.push(-Math.PI / 2 + (2 * Math.PI * (j + part)) / steps);
    }
    return angles;
  }

  // Street names for people (hand.phase: docs/snapshot.md).
  var PHASES = {
    third: "third street", fourth: "fourth street", fifth: "fifth street",
    sixth: "sixth street", seventh: "seventh street",
    predraw: "before the draw", draw1: "draw 1", draw2: "draw 2", draw3: "draw 3"
  };

  function family(p) {
    var f = (p.table || {}).family;
    return f === "stud" || f === "draw" || f === "board" ? f : "";
  }

  function renderHeader(p) {
    var t = p.table || {};
    document.getElementById("game").textContent =
      t.name || (t.game ? String(t.game).toUpperCase() : "");
    var stakes = [];
    // Stud has no blinds: antes and the bring-in (the bring-in shows as that seat's bet).
    if (family(p) !== "stud" && (t.small_blind || t.big_blind)) {
      stakes.push(t.small_blind + "/" + t.big_blind);
    }
    if (t.ante) stakes.push("ante " + t.ante);
    document.getElementById("stakes").textContent = stakes.join(" ");
    var h = p.hand || {};
    document.getElementById("hand-info").textContent =
      h.number ? "Hand " + h.number + " \u00b7 " + (PHASES[h.phase] || h.phase)
               : "waiting for a hand";
    document.body.dataset.family = family(p);
    document.body.dataset.game = t.game || "";
  }

  // A row of cards: faces for `cards`, then `backs` face-down cards, then empty places up to
  // `slots` (cards still to come). More than three in a row (Omaha, draw games) are drawn
  // smaller; a stud seat's two rows (at most four cards each) keep hold'em's size.
  function cardRow(className, label, cards, backs, slots) {
    var row = el("div", "cards " + className);
    row.setAttribute("aria-label", label);
    cards.forEach(function (c) { row.appendChild(cardFace(c)); });
    for (var i = 0; i < backs; i++) row.appendChild(cardBack());
    for (var j = cards.length + backs; j < slots; j++) row.appendChild(el("span", "slot"));
    if (row.childNodes.length > 3 && className.indexOf("held") === 0) row.classList.add("small");
    return row;
  }

  // The seat's cards as they lie on the felt, family by family.
  function seatCards(p, s) {
    var hole = el("div", "hole");
    var live = s.in_hand && !s.folded;
    var cards = s.hole || [];
    var up = s.up || [];
    var f = family(p);
    if (f === "stud") {
      // Down cards (backs on the public page until the hand is tabled), then the upcards.
      var down = cards.filter(function (c) { return up.indexOf(c) < 0; });
      var downBacks = cards.length ? 0 : (live ? (s.down_count || 0) : 0);
      if (cards.length || live) {
        hole.appendChild(cardRow("down", "down cards", down, downBacks, 0));
        hole.appendChild(cardRow("up", "upcards", up, 0, 0));
      }
    } else if (cards.length) {
      hole.appendChild(cardRow("held", "hole cards", cards, 0, 0));
    } else if (live) {
      var slots = (p.table && p.table.hole_slots) || 0;
      hole.appendChild(cardRow("held", "hole cards", [], s.hole_count || 0, slots));
    }
    return hole;
  }

  // Draw games: what each seat asked for on each draw (announced at the table, public).
  function seatDraws(s) {
    var box = el("div", "draws");
    if ((s.drawn || []).length) box.appendChild(el("span", "draws-label", "drew"));
    (s.drawn || []).forEach(function (n, i) {
      var d = el("span", "draw", n ? String(n) : "pat");
      d.dataset.draw = String(i + 1);
      d.dataset.count = String(n);
      d.title = "draw " + (i + 1) + ": " + (n ? n + (n === 1 ? " card" : " cards") : "stood pat");
      box.appendChild(d);
    });
    return box;
  }

  // {"25": 1, "5": 2} -> "1\u00d725 2\u00d75", largest denomination first; "" for none.
  function chipCounts(counts) {
    return Object.keys(counts || {}).filter(function (d) { return counts[d] > 0; })
      .sort(function (a, b) { return Number(b) - Number(a); })
      .map(function (d) { return counts[d] + "\u00d7" + d; }).join(" ");
  }

  // Dealer page: the antennas' pot zone and the counting tray (docs/display.md).
  function renderChipZones(p) {
    var box = document.getElementById("chip-zones");
    if (!box) return;
    clear(box);
    var pot = (p.chips || {}).pot, tray = p.tray_counts;
    if (pot) {
      var line = el("div", "chip-zone pot-zone", "Pot chips " + pot.total);
      line.title = chipCounts(pot.counts);
      box.appendChild(line);
    }
    if (tray) {
      var t = el("div", "chip-zone tray-zone", "Tray " + tray.total);
      t.title = chipCounts(tray.counts);
      box.appendChild(t);
    }
    box.hidden = !box.firstChild;
  }

  function renderSeats(p) {
    var box = document.getElementById("seats");
    clear(box);
    var h = p.hand || {};
    var seats = p.seats || [];
    var n = (p.table && p.table.seats) || 0;
    seats.forEach(function (s) { if (s.seat > n) n = s.seat; });
    box.classList.toggle("many", n > 6);
    box.dataset.places = String(Math.max(n, 2));
    // Four or more cards a seat: wider seat boxes (Omaha, draw games, stud).
    var slots = (p.table && p.table.hole_slots) || 0;
    box.classList.toggle("wide", family(p) === "stud" || slots > 3);
    seats.forEach(function (s) {
      var node = el("div", "seat");
      node.dataset.seat = s.seat;
      if (s.seat === h.to_act) node.classList.add("to-act");
      if (s.folded) node.classList.add("folded");
      if (s.all_in) node.classList.add("all-in");
      if (!s.in_hand) node.classList.add("out");

      var head = el("div", "seat-head");
      head.appendChild(el("span", "seat-no", s.seat));
      var player = el("span", "player", s.player || "empty");
      player.title = s.player || "";
      head.appendChild(player);
      var markers = el("span", "markers");
      if (s.seat === h.button) markers.appendChild(el("span", "marker button", "D"));
      if (s.seat === h.small_blind) markers.appendChild(el("span", "marker sb", "SB"));
      if (s.seat === h.big_blind) markers.appendChild(el("span", "marker bb", "BB"));
      head.appendChild(markers);
      node.appendChild(head);

      node.appendChild(seatCards(p, s));
      if (family(p) === "draw") node.appendChild(seatDraws(s));

      var money = el("div", "money");
      money.appendChild(el("span", "stack", s.stack));
      if (s.bet) money.appendChild(el("span", "bet", s.bet));
      // The chips the antennas read in front of the seat (its bet zone): a stack badge.
      if (typeof s.chips_in_front === "number") {
        var front = el("span", "chips-front", s.chips_in_front);
        front.title = "chips in front: " + s.chips_in_front;
        money.appendChild(front);
      }
      if (s.all_in) money.appendChild(el("span", "tag allin", "all in"));
      if (s.folded) money.appendChild(el("span", "tag fold", "folded"));
      node.appendChild(money);
      // Dealer page: the denominations in front, spelt out (a touch screen has no hover).
      var counts = chipCounts(s.chip_counts);
      if (counts) node.appendChild(el("div", "chip-counts", counts));
      box.appendChild(node);
    });
    placeSeats();
  }

  function renderCenter(p) {
    var h = p.hand || {};
    var board = document.getElementById("board");
    clear(board);
    // Board games: the board and its empty places. Stud and draw have no board; a stud common
    // card (dealer page only: docs/display.md) shows alone.
    (h.board || []).forEach(function (c) { board.appendChild(cardFace(c)); });
    if (family(p) === "board") {
      for (var i = (h.board || []).length; i < 5; i++) board.appendChild(el("span", "slot"));
    }
    board.hidden = !board.firstChild;

    var names = {};
    (p.seats || []).forEach(function (s) { names[s.seat] = s.player; });
    function who(seat) { return names[seat] || "seat " + seat; }

    var pots = document.getElementById("pots");
    clear(pots);
    var potList = h.pots || [];
    potList.forEach(function (pot, i) {
      var name = i > 0 ? "Side pot " + i : potList.length > 1 ? "Main pot" : "Pot";
      var line = el("div", "pot", name + ": " + pot.amount);
      line.title = "seats " + (pot.eligible || []).join(", ");
      pots.appendChild(line);
    });
    // The part of a bet nobody can call any more goes back to its owner: never a pot.
    var back = h.uncalled;
    if (back && typeof back.amount === "number") {
      var owner = names[back.seat] ? " (" + names[back.seat] + ")" : "";
      var returned = el("div", "uncalled",
        "Uncalled " + back.amount + " \u2192 back to seat " + back.seat + owner);
      returned.dataset.seat = String(back.seat);
      pots.appendChild(returned);
    }

    var results = document.getElementById("results");
    clear(results);
    if (h.phase === "complete") {
      (p.results || []).forEach(function (r) {
        var winners = r.winners || [], shares = r.shares || {};
        var text;
        if (r.hand === "uncalled bet returned") {  // the core's name for it (docs/snapshot.md)
          text = r.amount + " returned to " + winners.map(who).join(", ") + " (uncalled)";
        } else {
          text = winners.map(function (w) {
            var share = shares[String(w)];
            if (typeof share !== "number" && winners.length === 1) share = r.amount;
            return who(w) + " wins" + (typeof share === "number" ? " " + share : "");
          }).join(", ") + (r.hand ? " \u00b7 " + r.hand : "");
        }
        results.appendChild(el("div", "result", text));
      });
    }

    var expect = document.getElementById("expect");
    if (expect) expect.textContent = h.expect ? "Next: " + h.expect : "";
  }

  function renderFindings(p) {
    var list = document.getElementById("findings");
    if (!list) return;  // a broadcast with the findings off air has no list
    // and a payload without them (the server keeps them off air) shows no panel
    document.getElementById("panel").hidden = !("findings" in p);
    clear(list);
    var findings = (p.findings || []).slice().reverse();  // most recent first
    findings.forEach(function (f) {
      var item = el("li", "finding " + (f.severity || ""));
      item.dataset.code = f.code;
      var head = el("div", "finding-head");
      head.appendChild(el("span", "severity", f.severity));
      head.appendChild(el("span", "title", f.title || f.code));
      if (f.seats && f.seats.length) head.appendChild(el("span", "seats", "seat " + f.seats.join(", ")));
      item.appendChild(head);
      if (role === "dealer") {
        if (f.message) item.appendChild(el("p", "message", f.message));
        var r = f.rule || {};
        if (r.file) {
          item.appendChild(el("p", "rule", r.file + ", " + r.section + ", rule " + r.rule));
        }
        if (f.remedy && f.remedy.length) {
          var steps = el("ol", "remedy");
          f.remedy.forEach(function (step) { steps.appendChild(el("li", "", step)); });
          item.appendChild(steps);
        }
      }
      list.appendChild(item);
    });
    if (!findings.length) list.appendChild(el("li", "none", "none this hand"));
  }

  // A reader that is not ok: one banner line each, "SHOE READER OFFLINE", "CHIP READER OFFLINE",
  // "COUNTING TRAY OFFLINE" (a tray is no reader: the core's naming, controller/rules/table/devices.py).
  function renderDevices(p) {
    var box = document.getElementById("devices");
    if (!box) return;
    clear(box);
    var bad = (p.devices || []).filter(function (d) { return d.state !== "ok"; });
    bad.forEach(function (d) {
      var name = (d.name === "counting tray" ? d.name
        : d.name ? d.name + " reader" : "reader " + d.reader).toUpperCase();
      var line = el("p", "device " + d.state, name + " " + d.state.toUpperCase());
      line.dataset.reader = String(d.reader);
      if (d.detail) line.appendChild(el("small", "", " " + d.detail));
      box.appendChild(line);
    });
    box.hidden = !bad.length;
  }

  // Broadcast page: how far behind the table it is (the server holds every state back). The
  // page knows it from the start (body[data-delay]); each state says it again.
  function renderDelay(p) {
    if (role !== "broadcast" || typeof p.delay_s !== "number") return;
    document.body.dataset.delay = String(p.delay_s);
    if (connected) showConnected();
  }

  function render(p) {
    renderDelay(p);
    renderDevices(p);
    renderHeader(p);
    renderSeats(p);
    renderCenter(p);
    renderChipZones(p);
    renderFindings(p);
    document.body.dataset.lastSeq = p.last_seq === null ? "" : String(p.last_seq);
  }

  function signedOut() {
    // No login, an expired one, or a logout elsewhere: the way back is the login form.
    setStatus("unauthorized");
    var relogin = document.getElementById("relogin");
    if (relogin) relogin.hidden = false;
  }

  var options = { reconnectionDelayMax: 2000 };
  // The dealer socket goes straight to WebSocket: long-polling would put the Engine.IO session
  // id, which lets its holder pull this client's packets, into a URL on every request.
  if (role === "dealer") options.transports = ["websocket"];
  var socket = io("/" + role, options);
  socket.on("connect", function () {
    connected = true;
    showConnected();
    document.body.dataset.transport = socket.io.engine.transport.name;
    socket.io.engine.on("upgrade", function (t) { document.body.dataset.transport = t.name; });
  });
  socket.on("disconnect", function (reason) {
    connected = false;
    // The server only ever closes a dealer socket when its login ended (expiry or logout).
    if (role === "dealer" && reason === "io server disconnect") signedOut();
    else setStatus("offline");
  });
  socket.on("connect_error", function (err) {
    connected = false;
    if (err && err.message === "unauthorized") signedOut();
    else setStatus("offline");
  });
  socket.on("state", render);
  // the oval follows the felt's size (a rotated tablet, a resized window)
  if (window.ResizeObserver) new ResizeObserver(placeSeats).observe(document.getElementById("felt"));
})();
