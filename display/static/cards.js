/* What every Feltguard page draws the same way (feltguard.js, overlay.js, review.js, console.js):
   elements built with textContent (never innerHTML: names come from the table) and a card face
   up. Loaded before each page's own script; the Content-Security-Policy forbids inline script,
   so this is a file of its own, not a module each page copies. */
(function () {
  "use strict";

  var SUITS = { c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660" };
  var SUIT_NAMES = { c: "clubs", d: "diamonds", h: "hearts", s: "spades" };
  var RANKS = { T: "10" };

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
  }

  // A card's name for reading: "10♦".
  function cardText(card) {
    return (RANKS[card.charAt(0)] || card.charAt(0)) + (SUITS[card.charAt(1)] || card.charAt(1));
  }

  // A card face up: data-card, its name in words as the title, rank and suit. `fourColour`: the
  // suit as a class of its own ("suit-c"), as television decks colour clubs and diamonds apart;
  // else "red" or "black". Anything that is not a card is shown as its text.
  function cardFace(card, fourColour) {
    if (!/^[2-9TJQKA][cdhs]$/.test(card)) return el("span", "card face black", card);
    var rank = card.charAt(0), suit = card.charAt(1);
    var colour = fourColour ? "suit-" + suit : (suit === "h" || suit === "d" ? "red" : "black");
    var node = el("span", "card face " + colour);
    node.dataset.card = card;
    node.title = (RANKS[rank] || rank) + " of " + SUIT_NAMES[suit];
    node.appendChild(el("span", "rank", RANKS[rank] || rank));
    node.appendChild(el("span", "suit", SUITS[suit]));
    return node;
  }

  window.FeltguardCards = { el: el, clear: clear, cardText: cardText, cardFace: cardFace };
})();
