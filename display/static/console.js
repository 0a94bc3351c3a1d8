/* Feltguard dealer's touch console: the hand as the dealer sees it (the /dealer namespace's
   `state` payloads, display/payloads.py) and one table event per tap, sent as the `input`
   Socket.IO event (a JSON body, docs/events.md) with the daemon's answer as its acknowledgement.
   Every amount shown (to call, minimum, maximum, all in, the post due) is the rules core's: this
   script computes no limit; the server validates every input again.
   Built with textContent only: names and finding texts come from the table. */
(function () {
  "use strict";

  var p = null;          // the latest payload
  var picked = null;     // a seat the dealer tapped (null: the seat to act)
  var amount = "";       // the keypad's digits
  var chosen = null;     // the card the card keys act on ("As", or "last")
  var acks = 0;

  function $(id) { return document.getElementById(id); }

  // shared with the other pages (cards.js)
  var el = window.FeltguardCards.el, clear = window.FeltguardCards.clear;
  var cardLabel = window.FeltguardCards.cardText;

  function hand() { return (p && p.hand) || {}; }

  // the seat a tap acts for: the one tapped, else the seat to act, else the seat due to draw
  function actingSeat() {
    var h = hand();
    if (picked !== null) return picked;
    return h.to_act !== null && h.to_act !== undefined ? h.to_act : h.to_draw;
  }

  // --- sending -------------------------------------------------------------------------------

  function showAck(kind, text) {
    var ack = $("ack");
    ack.className = kind;
    ack.textContent = text;
    acks += 1;
    document.body.dataset.acks = String(acks);
  }

  function answered(what) {
    return function (reply) {
      if (!reply || !reply.ok) {
        showAck("refused", "Refused: " + ((reply && reply.reason) || "no answer"));
        return;
      }
      var found = reply.findings || [];
      if (found.length) {
        showAck("finding", found.map(function (f) {
          return f.code + ": " + (f.message || f.title);
        }).join(" \u2022 "));
      } else {
        showAck("ok", what + " \u2713");
      }
    };
  }

  function send(body, what, floor) {
    var data = JSON.stringify(body);
    socket.emit("input", floor ? { body: data, floor: floor } : data, answered(what));
    picked = null;  // the next tap acts for whoever is to act then
  }

  // The floor's login for one floor input (a ruling, a tournament entry): the floor's own name
  // and password (per-user accounts), or the floor token of a table without accounts; the
  // server takes whichever it uses. The secret is emptied: each entry asks for it again.
  function floorLogin() {
    var secret = $("floor-token").value;
    $("floor-token").value = "";
    return { user: $("floor-user").value.trim(), password: secret, token: secret };
  }

  // A tournament entry (`field` of the event `type`) from a number field, with the floor's login.
  function tournamentEntry(type, field, input, what) {
    var value = $(input).value;
    if (value === "") {
      showAck("refused", "Refused: type the " + what + " first");
      return;
    }
    var body = { type: type };
    body[field] = Number(value);  // a malformed number is the server's to refuse, with its reason
    $(input).value = "";
    send(body, what + " " + value, floorLogin());
  }

  function action(kind, extra) {
    var seat = actingSeat();
    if (seat === null || seat === undefined) {
      showAck("refused", "Refused: no seat is to act; tap a seat first");
      return;
    }
    var body = { type: "action", seat: seat, kind: kind };
    Object.keys(extra || {}).forEach(function (k) { body[k] = extra[k]; });
    send(body, "seat " + seat + " " + kind + (body.amount !== undefined ? " " + body.amount : ""));
  }

  function wager(kind) {
    if (amount === "") {
      showAck("refused", "Refused: type the amount (the seat's total on this street) first");
      return;
    }
    action(kind, { amount: parseInt(amount, 10) });
    setAmount("");
  }

  function cardKey(type, withBy) {
    if (!chosen) {
      showAck("refused", "Refused: tap a card (or Last card) first");
      return;
    }
    var body = { type: type, card: chosen };
    if (withBy) body.by = $("by-player").checked ? "player" : "dealer";
    send(body, type + " " + chosen);
  }

  // --- the keypad and the card choice -----------------------------------------------------

  function setAmount(value) {
    amount = String(value).replace(/^0+(?=\d)/, "").slice(0, 7);
    $("amount").textContent = amount === "" ? "0" : amount;
  }

  function choose(card) {
    chosen = chosen === card ? null : card;
    // the hardware exposed/boxed keys act on the chosen card too: the server keeps it
    socket.emit("choose", { card: chosen });
    renderCards();
  }

  // --- rendering -----------------------------------------------------------------------------

  function renderHeader() {
    var t = p.table || {}, h = hand();
    $("game").textContent = (t.name || t.game || "") +
      (t.small_blind || t.big_blind ? "  " + t.small_blind + "/" + t.big_blind : "");
    $("hand-info").textContent = h.number ? "hand " + h.number + " \u00b7 " + h.phase : "no hand";
    var answer = h.draw_answer;
    $("expect").textContent = (h.expect || "") +
      (answer ? " \u00b7 seat " + answer.seat + " drew " + answer.drawn : "");
  }

  function seatButton(s, h) {
    var b = el("button", "key seat", String(s.seat));
    b.type = "button";
    b.dataset.seat = String(s.seat);
    b.setAttribute("role", "radio");
    var on = actingSeat() === s.seat;
    b.setAttribute("aria-checked", on ? "true" : "false");
    if (on) b.classList.add("on");
    if (h.to_act === s.seat || h.to_draw === s.seat) b.classList.add("to-act");
    if (s.folded) b.classList.add("folded");
    b.appendChild(el("small", "", s.player + " " + s.stack + (s.bet ? " (" + s.bet + ")" : "")));
    b.addEventListener("click", function () { picked = s.seat; renderPlay(); });
    return b;
  }

  // Beside the call amount: the chips the antennas read in front of the acting seat.
  function renderInFront(h) {
    var seat = actingSeat(), line = $("in-front");
    var s = (p.seats || []).filter(function (x) { return x.seat === seat; })[0];
    line.hidden = !s;
    if (!s) return;
    var counts = Object.keys(s.chip_counts || {}).filter(function (d) { return s.chip_counts[d] > 0; })
      .sort(function (a, b) { return Number(b) - Number(a); })
      .map(function (d) { return s.chip_counts[d] + "\u00d7" + d; }).join(" ");
    line.textContent = "Seat " + s.seat + " in front: " +
      (typeof s.chips_in_front === "number" ? s.chips_in_front : "not read") +
      (counts ? " (" + counts + ")" : "") + " \u00b7 to call " + (h.to_call || 0);
  }

  function renderPlay() {
    var h = hand(), seats = p.seats || [];
    var pick = $("seat-pick");
    clear(pick);
    seats.filter(function (s) { return s.in_hand; }).forEach(function (s) {
      pick.appendChild(seatButton(s, h));
    });
    var post = h.post_due;
    $("post").hidden = !post;
    if (post) {
      $("post").textContent = "Post: seat " + post.seat + " " + post.kind.replace(/_/g, " ") +
        " " + post.amount;
    }
    var open = h.to_act !== null && h.to_act !== undefined;
    $("call").textContent = "Call " + (h.to_call || 0);
    $("call").disabled = !open || !h.to_call;
    renderInFront(h);
    $("check").disabled = !open || !!h.to_call;
    $("fold").disabled = !open;
    $("allin").textContent = "All in " + (h.all_in_to || 0);
    $("allin").disabled = !open;
    $("set-min").textContent = "Min " + (h.min_raise_to || 0);
    $("set-max").textContent = "Max " + (h.max_raise_to || 0);
    $("set-allin").textContent = "All in " + (h.all_in_to || 0);
    ["set-min", "set-max", "bet", "raise"].forEach(function (id) {
      $(id).disabled = !open || !h.can_raise;
    });
    $("set-allin").disabled = !open;
    $("bet").disabled = $("bet").disabled || (h.current_bet || 0) > 0;
    $("raise").disabled = $("raise").disabled || !(h.current_bet > 0);
    var draw = (p.table || {}).family === "draw";
    $("draw").hidden = !draw;
  }

  function cardButton(card) {
    var b = el("button", "card key", cardLabel(card));
    b.type = "button";
    b.dataset.card = card;
    var suit = card.charAt(1);
    if (suit === "h" || suit === "d") b.classList.add("red");
    if (chosen === card) b.classList.add("chosen");
    b.addEventListener("click", function () { choose(card); });
    return b;
  }

  function renderCards() {
    if (!p) return;
    var box = $("card-seats");
    clear(box);
    (p.seats || []).forEach(function (s) {
      if (!s.hole || !s.hole.length) return;
      var row = el("div", "card-row");
      row.dataset.seat = String(s.seat);
      row.appendChild(el("span", "who", "Seat " + s.seat));
      s.hole.forEach(function (c) { row.appendChild(cardButton(c)); });
      box.appendChild(row);
    });
    var board = $("card-board");
    clear(board);
    var cards = hand().board || [];
    if (cards.length) {
      board.appendChild(el("span", "who", "Board"));
      cards.forEach(function (c) { board.appendChild(cardButton(c)); });
    }
    $("chosen").textContent = chosen ? "chosen: " + (chosen === "last" ? "the last card drawn"
      : cardLabel(chosen)) : "no card chosen";
    $("last").classList.toggle("chosen", chosen === "last");
  }

  function renderFindings() {
    var list = $("findings"), h = hand();
    clear(list);
    var now = h.remedy_now;
    var codes = $("ruling-code"), keep = codes.value;
    clear(codes);
    codes.appendChild(el("option", "", "no finding")).value = "";
    (p.findings || []).slice().reverse().forEach(function (f) {
      var item = el("li", "finding " + (f.severity || ""));
      item.dataset.code = f.code;
      item.dataset.seq = String(f.seq);
      var head = el("div", "finding-head");
      head.appendChild(el("span", "severity", f.severity));
      head.appendChild(el("span", "title", f.title || f.code));
      head.appendChild(el("span", "code", f.code));
      item.appendChild(head);
      if (f.message) item.appendChild(el("p", "message", f.message));
      var r = f.rule || {};
      if (r.file) item.appendChild(el("p", "rule", r.file + ", " + r.section + ", rule " + r.rule));
      if (f.remedy && f.remedy.length) {
        var steps = el("ol", "remedy");
        f.remedy.forEach(function (s) { steps.appendChild(el("li", "", s)); });
        item.appendChild(steps);
      }
      // the moves the monitor still waits for; the one expected now is highlighted, and a move
      // made leaves the list, so the highlight advances
      var due = f.remedy_due || [];
      if (due.length) {
        item.appendChild(el("p", "due-head", "Still to do"));
        var moves = el("ol", "due");
        var mine = now && now.after === f.code + " (seq " + f.seq + ")";
        due.forEach(function (m, i) {
          var li = el("li", mine && i === 0 ? "move now" : "move", m);
          if (mine && i === 0) li.setAttribute("aria-current", "step");
          moves.appendChild(li);
        });
        item.appendChild(moves);
      }
      list.appendChild(item);
      var opt = el("option", "", f.code + " (seq " + f.seq + ")");
      opt.value = f.code;
      codes.appendChild(opt);
    });
    codes.value = keep;
    if (codes.value !== keep) codes.value = "";
    if (!(p.findings || []).length) list.appendChild(el("li", "none", "none this hand"));
  }

  // Tournament: shown only where the table has a level (null at a cash table).
  function renderTournament() {
    var h = hand(), known = typeof h.level === "number";
    $("tournament").hidden = !known;
    var now = $("tournament-now");
    now.dataset.level = known ? String(h.level) : "";
    now.dataset.playersLeft = typeof h.players_left === "number" ? String(h.players_left) : "";
    now.textContent = !known ? "" : "level " + h.level + " \u00b7 " +
      (typeof h.players_left === "number" ? h.players_left + " players left"
        : "players left not told");
  }

  function render(payload) {
    p = payload;
    renderHeader();
    renderPlay();
    renderCards();
    renderFindings();
    renderTournament();
    document.body.dataset.lastSeq = p.last_seq === null ? "" : String(p.last_seq);
  }

  function setStatus(text) {
    $("status").textContent = text;
    $("status").className = "status " + text;
  }

  // --- wiring -------------------------------------------------------------------------------

  function on(id, fn) { $(id).addEventListener("click", fn); }

  on("fold", function () { action("fold"); });
  on("check", function () { action("check"); });
  on("call", function () { action("call"); });
  on("allin", function () { action("allin"); });
  on("bet", function () { wager("bet"); });
  on("raise", function () { wager("raise"); });
  on("set-min", function () { setAmount(hand().min_raise_to || 0); });
  on("set-max", function () { setAmount(hand().max_raise_to || 0); });
  on("set-allin", function () { setAmount(hand().all_in_to || 0); });
  on("clear", function () { setAmount(""); });
  on("back", function () { setAmount(amount.slice(0, -1)); });
  Array.prototype.forEach.call(document.querySelectorAll("#keypad .digit"), function (b) {
    b.addEventListener("click", function () { setAmount(amount + b.textContent); });
  });
  on("post", function () {
    var post = hand().post_due;
    if (!post) return;
    send({ type: "action", seat: post.seat, kind: "post", amount: post.amount, blind: post.kind },
      "seat " + post.seat + " posts " + post.amount);
  });
  var drawKeys = $("draw-keys");
  [0, 1, 2, 3, 4, 5].forEach(function (n) {
    var b = el("button", "key draw", n === 0 ? "Pat" : String(n));
    b.type = "button";
    b.dataset.draw = String(n);
    b.addEventListener("click", function () { action("draw", { amount: n }); });
    drawKeys.appendChild(b);
  });
  // a player asks how many cards the seat drew (RR Section 11 r.13): the answer shows in #expect
  var query = el("button", "key", "Drew?");
  query.type = "button";
  query.id = "draw-query";
  query.addEventListener("click", function () {
    var seat = actingSeat();
    if (seat === null || seat === undefined) return;
    send({ type: "draw.query", seat: seat }, "asked how many seat " + seat + " drew");
  });
  drawKeys.appendChild(query);
  on("last", function () { choose("last"); });
  on("exposed", function () { cardKey("card.exposed", true); });
  on("flashed", function () { cardKey("card.flashed", true); });
  on("boxed", function () { cardKey("card.boxed", false); });
  on("kept", function () { cardKey("card.kept", false); });
  on("new-hand", function () { send({ type: "hand.start" }, "new hand"); });
  on("shuffle", function () { send({ type: "shuffle.done" }, "shuffle done"); });
  on("award", function () { send({ type: "hand.end" }, "pots awarded"); });
  on("attention", function () { send({ type: "attention.called", by: "dealer" }, "attention"); });
  on("misdeal", function () { send({ type: "misdeal.declared" }, "misdeal declared"); });
  on("undo", function () { send({ type: "undo" }, "undone"); });
  $("choose-game").addEventListener("submit", function (ev) {
    ev.preventDefault();
    send({ type: "game.choose", game: $("game-id").value.trim(),
      structure: $("game-structure").value }, "next game " + $("game-id").value.trim());
  });
  $("ruling").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var body = { type: "floor.ruling", text: $("ruling-text").value,
      outcome: $("ruling-outcome").value };
    if ($("ruling-code").value) body.code = $("ruling-code").value;
    send(body, "ruling recorded", floorLogin());
  });
  $("tournament-level").addEventListener("submit", function (ev) {
    ev.preventDefault();
    tournamentEntry("tournament.level", "level", "level-value", "level");
  });
  $("tournament-players").addEventListener("submit", function (ev) {
    ev.preventDefault();
    tournamentEntry("tournament.players", "remaining", "players-value", "players left");
  });

  // The console socket goes straight to WebSocket, as the dealer page's does (no Engine.IO
  // session id in polling URLs); the server admits it by the login session cookie.
  var socket = io("/dealer", { reconnectionDelayMax: 2000, transports: ["websocket"] });
  socket.on("connect", function () { setStatus("live"); });
  socket.on("disconnect", function (reason) {
    if (reason === "io server disconnect") { setStatus("unauthorized"); $("relogin").hidden = false; }
    else setStatus("offline");
  });
  socket.on("connect_error", function (err) {
    if (err && err.message === "unauthorized") { setStatus("unauthorized"); $("relogin").hidden = false; }
    else setStatus("offline");
  });
  socket.on("state", render);
})();
