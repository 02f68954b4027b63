/* tenhou-tools offline replay page.
 *
 * Reads the game from the JSON element #tenhou-tools-game (the document of
 * `tenhou-tools replay --format json`, plus `analysis`), computes the board at any moment by
 * applying a hand's events to its init, and draws it as SVG. Nothing is fetched; log text
 * (player names above all) is only ever written with textContent or as an attribute value.
 *
 * Moments: hand = position in doc.hands, step = how many of the hand's events have happened
 * (0 the deal, k after the k-th event as `parse` lists them).
 *
 * window.TenhouReplay is the page's API (docs/replay-html.md): go, step, hand, state, board,
 * setView, setAnalysis, analysisAt.
 */
(function () {
  "use strict";

  var SVG = "http://www.w3.org/2000/svg";
  var doc = JSON.parse(document.getElementById("tenhou-tools-game").textContent);
  var N = doc.header.ruleset.players;
  var RED_FIVES = doc.header.ruleset.red_fives;
  var HANDS = doc.hands;
  var WINDS = "ESWN";
  var WIND_WORDS = ["East", "South", "West", "North"];
  var SUITS = "mps";
  var HONOURS = ["East", "South", "West", "North", "Haku", "Hatsu", "Chun"];
  var SEAT_COLOURS = ["#d0473c", "#2f7ed8", "#23965a", "#c48a0e"];
  var CALL_WORDS = {chi: "chi", pon: "pon", open_kan: "kan", added_kan: "kakan", closed_kan: "ankan", kita: "kita"};
  var LIVE_WALL = N === 4 ? 70 : 55;
  /* A seat's page (`replay --seat N --html`): the document holds only what that seat sees, the
   * other seats' concealed tiles and draws as HIDDEN (documents/seat.py); the view stays there. */
  var SEAT_PAGE = doc.seat_view === true;
  var HIDDEN = -1;

  // -- small helpers --------------------------------------------------------------------------

  function h(tag, attrs, text) {
    var e = document.createElement(tag);
    if (attrs) {
      for (var k in attrs) {
        if (attrs[k] !== null && attrs[k] !== undefined) e.setAttribute(k, attrs[k]);
      }
    }
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function s(tag, attrs, parent) {
    var e = document.createElementNS(SVG, tag);
    if (attrs) {
      for (var k in attrs) {
        if (attrs[k] !== null && attrs[k] !== undefined) e.setAttribute(k, attrs[k]);
      }
    }
    if (parent) parent.appendChild(e);
    return e;
  }

  function stext(parent, x, y, text, attrs) {
    var t = s("text", Object.assign({x: x, y: y}, attrs || {}), parent);
    t.textContent = String(text);
    return t;
  }

  function clear(e) {
    while (e.firstChild) e.removeChild(e.firstChild);
    return e;
  }

  /* A number as text by the one rounding rule (shared_text.js; the terminal's, rounding.py). */
  var fixed = TenhouText.fixed;
  var GROUPED = {grouping: true};

  function signed(v) {
    return v > 0 ? "+" + v : String(v);
  }

  /* Text from a log or a path as the terminal shows it (shared_text.js; serialize.visible). */
  var escaped = TenhouText.escaped;

  /* A player's name as an isolated run (<bdi>): a name with right-to-left or bidi control
   * characters cannot reorder the text around it. The full name is its title. */
  /* Text isolated for places that take no markup (an <option>, a tooltip, SVG text): between
   * FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE. */
  function isolate(text) {
    return "\u2068" + text + "\u2069";
  }

  /* A name on the board: cut to `max` characters with "…" when longer (the full name is the
   * tooltip), isolated, and "(away)" while disconnected. */
  function svgName(parent, st, x, y, max, attrs, prefix) {
    var name = playerName(st.seat);
    var chars = Array.from(name);
    var shown = chars.length > max ? chars.slice(0, max - 1).join("") + "…" : name;
    var t = stext(parent, x, y, prefix + isolate(shown) + (st.connected ? "" : " (away)"), attrs);
    var title = s("title", null, t);
    title.textContent = "S" + st.seat + " " + isolate(name);
    return t;
  }

  function nameNode(seat) {
    var name = playerName(seat);
    return h("bdi", {"class": "name", title: name}, name);
  }

  function isRed(t) {
    return RED_FIVES && (t === 16 || t === 52 || t === 88);
  }

  function kindName(k) {
    return k < 27 ? (k % 9 + 1) + SUITS[Math.floor(k / 9)] : (k - 26) + "z";
  }

  function kindWords(k) {
    return k < 27 ? kindName(k) : HONOURS[k - 27];
  }

  function tileName(t) {
    return isRed(t) ? "0" + SUITS[Math.floor((t >> 2) / 9)] : kindName(t >> 2);
  }

  function tileWords(t) {
    return kindWords(t >> 2) + (isRed(t) ? " (red)" : "");
  }

  function tileOrder(a, b) {
    var ka = a >> 2, kb = b >> 2;
    if (ka !== kb) return ka - kb;
    var ra = isRed(a) ? 0 : 1, rb = isRed(b) ? 0 : 1;
    return ra !== rb ? ra - rb : a - b;
  }

  function sorted(tiles) {
    return tiles.slice().sort(tileOrder);
  }

  function playerName(seat) {
    var p = doc.header.players[seat];
    return (p && p.name) || "S" + seat;
  }

  function seatWind(seat, dealer) {
    return WINDS[(seat - dealer + N) % N];
  }

  function handLabel(pos) {
    return HANDS[pos].label;
  }

  function removeTile(list, t) {
    var i = list.indexOf(t);
    if (i >= 0) list.splice(i, 1);
    return i >= 0;
  }

  /* A tile leaves a hand: on a seat's page another seat's hand is HIDDEN tiles, one of which goes. */
  function takeTile(list, t) {
    return removeTile(list, t) || (SEAT_PAGE && removeTile(list, HIDDEN));
  }

