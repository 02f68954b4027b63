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

  function signed(v) {
    return v > 0 ? "+" + v : String(v);
  }

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

  // -- words: the document carries data, the page composes its own words ----------------------

  var DRAW_WORDS = {
    exhaustive: "Exhaustive draw", yao9: "Abortive draw: nine terminals", reach4: "Abortive draw: four riichi",
    ron3: "Abortive draw: triple ron", kan4: "Abortive draw: four kans", kaze4: "Abortive draw: four winds",
    nm: "Nagashi mangan",
  };

  /* A result (the document's `result` entries): "Ron S2<-S1 7700 (30fu 4han: riichi, pinfu, dora 2)",
   * "Exhaustive draw (tenpai: S1, S3)". */
  function resultWords(res) {
    if (res.type === "agari") {
      var how = res.kind === "tsumo" ? "Tsumo S" + res.who : "Ron S" + res.who + "<-S" + res.from_who;
      var detail;
      if (res.yakuman && res.yakuman.length) {
        detail = "yakuman: " + res.yakuman.map(function (y) { return y.name; }).join(", ");
      } else {
        var names = [];
        (res.yaku || []).forEach(function (y) {
          if (!y.dora) names.push(y.name);
          else if (y.han) names.push(y.name + " " + y.han);  /* a dora count: its han is the tiles */
        });
        detail = (res.fu !== null && res.fu !== undefined ? res.fu + "fu " : "") + res.han + "han" +
          (res.limit ? " " + res.limit : "") + ": " + names.join(", ");
      }
      var pao = res.pao_who !== null && res.pao_who !== undefined ? ", pao S" + res.pao_who : "";
      return how + " " + res.points + " (" + detail + pao + ")";
    }
    var text = DRAW_WORDS[res.kind] || "Draw (" + res.kind + ")";
    if (res.kind === "exhaustive" || res.kind === "nm") {
      var tenpai = (res.shown || []).map(function (seat) { return "S" + seat; });
      text += " (tenpai: " + (tenpai.length ? tenpai.join(", ") : "none") + ")";
    }
    return text;
  }

  var VALUE_WORDS = {
    compare: "{what}: {e} by the rules, the log says {a}",
    log_only: "{what}: the log says {a}",
    rules_only: "{what}: {e} by the rules, none in the log",
    fact: "{what}: {a}",
    at_least: "{what}: {a}, at least {e} needed",
    at_most: "{what}: {a}, at most {e}",
    forbidden: "{what}: {e}; the log discards {a}",
    called: "last discard: {e}; the log calls {a}",
    shown: "{what}: {e} by the rules; the log shows the hand: {a}",
    declared: "{what} by the rules: {e}; declared in the log: {a}",
    goes_on: "by the rules the hand ends in an {what} ({e}); the log goes on ({a})",
    triple_ron: "{what}: {a}; by the rules an abortive draw ({e})",
    kans_needed: "{what}: {a} ({e} in all needed, by two or more players)",
  };

  /* A finding's values in words (its `readable`: what they are, each side written for people, and
   * how they relate), or null. */
  function valuesWords(readable) {
    if (!readable) return null;
    var form = VALUE_WORDS[readable.form];
    if (!form) return readable.what + ": " + [readable.expected, readable.actual].filter(function (v) { return v !== null; }).join(" / ");
    return form.replace("{what}", readable.what).replace("{e}", readable.expected).replace("{a}", readable.actual);
  }

  var SUIT_ORDER = "mpsz";

  /* Kinds in one run per suit: [15, 18] is "4-7p", [1, 28] is "2m-2z". */
  function waitsWords(kinds) {
    var groups = {};
    kinds.slice().sort(function (a, b) { return a - b; }).forEach(function (k) {
      var suit = k < 27 ? SUITS[Math.floor(k / 9)] : "z", number = k < 27 ? k % 9 + 1 : k - 26;
      (groups[suit] = groups[suit] || []).push(number);
    });
    var out = [];
    SUIT_ORDER.split("").forEach(function (suit) { if (groups[suit]) out.push(groups[suit].join("-") + suit); });
    return out.join("-") || "no";
  }

  /* A deal-in: "S1 dealt 7p into S3's 4-7p wait (riichi, 8,000)". */
  function dealInWords(d) {
    var how = d.riichi ? "riichi" : d.open ? "open" : "dama";
    var kind = d.kind !== undefined ? d.kind : d.tile >> 2;
    var cls = d.tile_class ? " (" + classLabel(d.tile_class) + ")" : "";
    return "S" + d.discarder + " dealt " + waitsWords([kind]) + cls + " into S" + d.winner + "'s " + waitsWords(d.waits || []) +
      " wait (" + how + ", " + Number(d.points).toLocaleString("en") + ")";
  }

  /* Danger classes against a riichi (docs/analysis.md): their words; and the four marks under
   * the tiles of the viewed hand, by the highest deal-in rate their tooltip shows (%). */
  var CLASS_LABELS = {
    genbutsu: "genbutsu", honour_0_left: "honour, none left", honour_1_left: "honour, 1 left",
    honour_2_left: "honour, 2 left", no_chance: "no chance", suji: "suji", honour_live: "live honour",
    one_chance: "one chance", half_suji: "half suji", non_suji: "no suji"
  };
  var MARK_BUCKETS = [[1, "safe"], [5, "low"], [10, "medium"], [Infinity, "high"]];
  /* bright enough to read on the felt (#1e5a45), each outlined in the tiles' face colour */
  var MARK_COLOURS = {safe: "#3fd68a", low: "#4cb8e8", medium: "#f2a516", high: "#ff7a6b"};
  var CLASS_RANK = ["genbutsu", "honour_0_left", "honour_1_left", "honour_2_left", "no_chance", "suji",
    "honour_live", "one_chance", "half_suji", "non_suji"];

  function classLabel(c) {
    return CLASS_LABELS[c] || c;
  }

  /* A kind's class and rate against each threat of an entry's `danger` (the tooltip); its mark
   * by the highest rate, `cls` the most dangerous class. */
  function kindDanger(danger, kind) {
    var worst = null, top = 0, words = [];
    (danger || []).forEach(function (d) {
      var c = d.classes[String(kind)];
      if (!c) return;
      if (worst === null || CLASS_RANK.indexOf(c) > CLASS_RANK.indexOf(worst)) worst = c;
      var rate = d.rates ? d.rates[String(kind)] : undefined;
      if (rate > top) top = rate;
      words.push("vs S" + d.seat + ": " + classLabel(c) + (rate !== undefined ? " (" + rate + "%)" : ""));
    });
    var b = 0;
    while (top >= MARK_BUCKETS[b][0]) b++;
    return worst === null ? null : {cls: worst, rate: top, mark: MARK_BUCKETS[b][1], words: words.join("; ")};
  }

  // -- the board at a moment ------------------------------------------------------------------

  /* The board after `step` events of hand `pos`: the same facts as `replay --at` (hand label,
   * step, dora indicators, wall, honba, sticks, and per seat the concealed tiles, melds, pond
   * and score), plus what the page shows besides (the tile just drawn, riichi, results). */
  function computeBoard(pos, step) {
    var hand = HANDS[pos];
    var init = hand.init;
    var events = hand.events;
    step = Math.max(0, Math.min(step, events.length));
    var seats = [];
    for (var seat = 0; seat < N; seat++) {
      seats.push({
        seat: seat,
        hand: (init.hands[seat] || []).slice(),
        drawn: null,
        melds: [],
        discards: [],
        score: init.scores[seat],
        riichi: false,
        riichi_accepted: false,
        riichi_pending: false,
        connected: true,
        shown: null,
        win_tile: null,
      });
    }
    var board = {
      hand: hand.label,
      hand_index: hand.index,
      position: pos,
      step: step,
      steps: events.length,
      event: step > 0 ? events[step - 1] : null,
      dealer: init.dealer,
      round: init.round,
      dora_indicators: [init.dora_indicator],
      wall_remaining: LIVE_WALL,
      honba: init.honba,
      sticks: init.sticks,
      seats: seats,
      results: [],
      last_discard: null,
    };
    var endings = 0;
    for (var i = 0; i < step; i++) {
      var ev = events[i];
      var st = seats[ev.seat] || null;
      switch (ev.type) {
        case "draw":
          if (!st) break;
          st.hand.push(ev.tile);
          st.drawn = ev.tile;
          board.wall_remaining -= 1;
          break;
        case "discard":
          if (!st) break;
          takeTile(st.hand, ev.tile);
          st.drawn = null;
          st.discards.push({tile: ev.tile, tsumogiri: !!ev.tsumogiri, riichi: st.riichi_pending, called: false});
          st.riichi_pending = false;
          board.last_discard = {seat: ev.seat, index: st.discards.length - 1};
          break;
        case "call":
          if (st) applyCall(board, st, ev.meld);
          break;
        case "riichi":
          if (!st) break;
          if (ev.step === 1) {
            st.riichi = true;
            st.riichi_pending = true;
          } else if (ev.step === 2) {
            st.riichi_accepted = true;
            // the scores the log gives after the stick (REACH ten), as the fold takes them; else one stick
            if (ev.scores) ev.scores.forEach(function (v, i) { if (board.seats[i]) board.seats[i].score = v; });
            else st.score -= 1000;
            board.sticks += 1;
          }
          break;
        case "new_dora":
          board.dora_indicators.push(ev.tile);
          break;
        case "agari": {
          var result = hand.result[endings] || null;
          endings += 1;
          for (var a = 0; a < N; a++) seats[a].score = ev.scores_before[a] + ev.deltas[a];
          board.sticks = 0;
          var winner = seats[ev.who];
          if (winner) {
            winner.shown = ev.hand.slice();
            winner.win_tile = ev.win_tile;
          }
          board.results.push({event: ev, result: result});
          break;
        }
        case "ryuukyoku": {
          var drawn = hand.result[endings] || null;
          endings += 1;
          for (var b = 0; b < N; b++) {
            seats[b].score = ev.scores_before[b] + ev.deltas[b];
            if (ev.hands[b]) seats[b].shown = ev.hands[b].slice();
          }
          board.results.push({event: ev, result: drawn});
          break;
        }
        case "bye":
          if (st) st.connected = false;
          break;
        case "reconnect":
          if (st) st.connected = true;
          break;
        default:
          break;
      }
    }
    seats.forEach(function (x) { x.hand.sort(tileOrder); });
    return board;
  }

  function applyCall(board, st, meld) {
    var kind = meld.kind;
    if (kind === "chi" || kind === "pon" || kind === "open_kan") {
      meld.tiles.forEach(function (t) { if (t !== meld.called) takeTile(st.hand, t); });
      var from = board.seats[meld.from_seat];
      if (from) {
        for (var i = from.discards.length - 1; i >= 0; i--) {
          var d = from.discards[i];
          if (d.tile === meld.called && !d.called) { d.called = true; break; }
        }
      }
      st.melds.push(meld);
    } else if (kind === "added_kan") {
      takeTile(st.hand, meld.added);
      var k = meld.tiles[0] >> 2;
      var j = st.melds.findIndex(function (m) { return m.kind === "pon" && (m.tiles[0] >> 2) === k; });
      if (j >= 0) st.melds[j] = meld; else st.melds.push(meld);
    } else {  // closed_kan, kita
      meld.tiles.forEach(function (t) { takeTile(st.hand, t); });
      st.melds.push(meld);
    }
    st.drawn = null;
  }

  // -- state, URL, API ------------------------------------------------------------------------

  var state = {
    pos: 0,
    step: 0,
    seat: doc.viewer === null || doc.viewer === undefined ? 0 : doc.viewer,
    all: !SEAT_PAGE && (doc.viewer === null || doc.viewer === undefined ? true : !!doc.all_hands),
    layout: null,
  };
  var analysisIndex = {};

  var analysisByHand = {}, anyDanger = false;

  function indexAnalysis() {
    analysisIndex = {};
    analysisByHand = {};
    var a = doc.analysis;
    anyDanger = false;
    var list = a && Array.isArray(a.discards) ? a.discards : [];
    list.forEach(function (entry) {
      if (entry && entry.hand !== undefined && entry.event_index !== undefined) {
        analysisIndex[entry.hand + ":" + entry.event_index] = entry;
        (analysisByHand[entry.hand] = analysisByHand[entry.hand] || []).push(entry);
        if (entry.danger && entry.danger.length) anyDanger = true;
      }
    });
  }

  function positionOfIndex(index) {
    for (var i = 0; i < HANDS.length; i++) if (HANDS[i].index === index) return i;
    return -1;
  }

  function go(pos, step) {
    if (!HANDS.length) return snapshot();
    if (typeof pos === "string") {
      var want = pos.toUpperCase();
      pos = HANDS.findIndex(function (x) { return x.label.toUpperCase() === want; });
      if (pos < 0) throw new Error("no hand " + want);
    }
    pos = Math.max(0, Math.min(pos | 0, HANDS.length - 1));
    var last = HANDS[pos].events.length;
    step = step === "end" ? last : Math.max(0, Math.min(step | 0, last));
    state.pos = pos;
    state.step = step;
    render();
    return snapshot();
  }

  function stepBy(delta) {
    var pos = state.pos, step = state.step + delta;
    if (step < 0) {
      if (pos === 0) return go(0, 0);
      return go(pos - 1, "end");
    }
    if (step > HANDS[pos].events.length) {
      if (pos === HANDS.length - 1) return go(pos, "end");
      return go(pos + 1, 0);
    }
    return go(pos, step);
  }

  function handBy(delta) {
    return go(state.pos + delta, 0);
  }

  // -- auto-play ------------------------------------------------------------------------------

  var PLAY_MS = 900;
  /* One event every PLAY_MS / speed ms; a hand's end waits three times as long (to read the
   * result); the game's end stops it. */
  var player = {timer: null, speed: 1};

  function atGameEnd() {
    return state.pos === HANDS.length - 1 && state.step >= HANDS[state.pos].events.length;
  }

  function tick() {
    player.timer = null;
    if (!HANDS.length || atGameEnd()) return renderPlay();
    stepBy(1);
    if (atGameEnd()) return renderPlay();
    var delay = PLAY_MS / player.speed;
    if (state.step === HANDS[state.pos].events.length) delay *= 3;
    player.timer = setTimeout(tick, delay);
    renderPlay();
  }

  function play() {
    if (player.timer === null && HANDS.length) {
      if (atGameEnd()) go(state.pos, 0);  /* played to the end: again from the last hand's start */
      player.timer = setTimeout(tick, PLAY_MS / player.speed);
    }
    renderPlay();
    return snapshot();
  }

  function pause() {
    if (player.timer !== null) clearTimeout(player.timer);
    player.timer = null;
    renderPlay();
    return snapshot();
  }

  function setSpeed(speed) {
    var x = Number(speed);
    if (x > 0 && isFinite(x)) player.speed = x;
    document.getElementById("speed").value = String(player.speed);
    return snapshot();
  }

  function renderPlay() {
    var button = document.getElementById("play");
    var on = player.timer !== null;
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.setAttribute("aria-label", on ? "Pause" : "Play");
    button.title = on ? "Pause (space)" : "Play (space)";
    document.body.setAttribute("data-playing", on ? "1" : "0");
  }

  function snapshot() {
    var hand = HANDS[state.pos];
    return {
      hand: state.pos,
      hand_index: hand ? hand.index : null,
      label: hand ? hand.label : null,
      step: state.step,
      steps: hand ? hand.events.length : 0,
      seat: state.seat,
      all_hands: state.all,
      layout: state.layout,
      playing: player.timer !== null,
      speed: player.speed,
    };
  }

  function setView(seat, all) {
    if (SEAT_PAGE) return snapshot();  /* a seat's page holds no other view */
    if (seat !== null && seat !== undefined) state.seat = Math.max(0, Math.min(seat | 0, N - 1));
    if (all !== null && all !== undefined) state.all = !!all;
    render();
    return snapshot();
  }

  function readHash() {
    var m = /^#([ESWN]\d-\d+)(?::(\d+))?$/i.exec(decodeURIComponent(location.hash || ""));
    if (!m) return false;
    var pos = HANDS.findIndex(function (x) { return x.label.toUpperCase() === m[1].toUpperCase(); });
    if (pos < 0) return false;
    state.pos = pos;
    state.step = Math.min(m[2] ? parseInt(m[2], 10) : 0, HANDS[pos].events.length);
    return true;
  }

  function writeHash() {
    var want = "#" + handLabel(state.pos) + ":" + state.step;
    if (location.hash === want) return;
    try {
      history.replaceState(null, "", want);
    } catch (e) {
      /* some browsers refuse replaceState on file:// pages: the address just stays as it is */
    }
  }

  /* Whether the view shows this seat's concealed tiles now: every seat with "all hands", the
   * seat viewed from, and a hand a result has shown. */
  function visible(board, seat) {
    return seen(seat) || board.seats[seat].shown !== null;
  }

  /* Whether the view shows what only this seat knows (its hand as it played, its analysis). */
  function seen(seat) {
    return state.all || seat === state.seat;
  }

  // -- tiles ----------------------------------------------------------------------------------

  var INK = "#1c2433", RED = "#c62d1f", GREEN = "#17754a", BLUE = "#1d4f91", FACE = "#fbf8ef";

  function dot(g, x, y, r, colour) {
    s("circle", {cx: x, cy: y, r: r, fill: colour}, g);
    s("circle", {cx: x, cy: y, r: r * 0.48, fill: "none", stroke: FACE, "stroke-width": r * 0.24}, g);
  }

  function stick(g, x, y1, y2, colour, tilt) {
    var w = 3.6, parent = g;
    if (tilt) parent = s("g", {transform: "rotate(" + tilt + " " + x + " " + (y1 + y2) / 2 + ")"}, g);
    s("rect", {x: x - w / 2, y: y1, width: w, height: y2 - y1, rx: w / 2, fill: colour}, parent);
    s("line", {x1: x - w / 2, x2: x + w / 2, y1: (y1 + y2) / 2, y2: (y1 + y2) / 2, stroke: FACE, "stroke-width": 0.8}, parent);
  }

  function strokes(g, paths, colour, width) {
    paths.forEach(function (d) {
      s("path", {d: d, fill: "none", stroke: colour, "stroke-width": width, "stroke-linecap": "round", "stroke-linejoin": "round"}, g);
    });
  }

  var PIN = {
    2: [[15, 11, 5.4, "G"], [15, 29, 5.4, "B"]],
    3: [[8, 9.5, 4.4, "B"], [15, 20, 4.4, "R"], [22, 30.5, 4.4, "G"]],
    4: [[9, 11, 4.7, "B"], [21, 11, 4.7, "G"], [9, 29, 4.7, "G"], [21, 29, 4.7, "B"]],
    5: [[8.5, 9.5, 4.2, "B"], [21.5, 9.5, 4.2, "G"], [15, 20, 4.2, "R"], [8.5, 30.5, 4.2, "G"], [21.5, 30.5, 4.2, "B"]],
    6: [[9.5, 8, 4, "G"], [20.5, 8, 4, "G"], [9.5, 20.5, 4, "R"], [20.5, 20.5, 4, "R"], [9.5, 31, 4, "R"], [20.5, 31, 4, "R"]],
    7: [[7, 5.5, 3.3, "G"], [15, 9.2, 3.3, "G"], [23, 12.9, 3.3, "G"], [9.5, 23, 3.7, "R"], [20.5, 23, 3.7, "R"], [9.5, 32.5, 3.7, "R"], [20.5, 32.5, 3.7, "R"]],
    8: [[9.5, 6.5, 3.7, "B"], [20.5, 6.5, 3.7, "B"], [9.5, 15.5, 3.7, "B"], [20.5, 15.5, 3.7, "B"],
        [9.5, 24.5, 3.7, "B"], [20.5, 24.5, 3.7, "B"], [9.5, 33.5, 3.7, "B"], [20.5, 33.5, 3.7, "B"]],
    9: [[7.5, 8, 3.5, "B"], [15, 8, 3.5, "B"], [22.5, 8, 3.5, "B"], [7.5, 20, 3.5, "R"], [15, 20, 3.5, "R"],
        [22.5, 20, 3.5, "R"], [7.5, 32, 3.5, "G"], [15, 32, 3.5, "G"], [22.5, 32, 3.5, "G"]],
  };
  var SOU = {
    2: [[15, 4, 18.5, "G"], [15, 21.5, 36, "G"]],
    3: [[15, 4, 18.5, "G"], [9, 21.5, 36, "G"], [21, 21.5, 36, "G"]],
    4: [[9, 4, 18.5, "G"], [21, 4, 18.5, "G"], [9, 21.5, 36, "G"], [21, 21.5, 36, "G"]],
    5: [[7.5, 4, 18.5, "G"], [22.5, 4, 18.5, "G"], [15, 12.75, 27.25, "R"], [7.5, 21.5, 36, "G"], [22.5, 21.5, 36, "G"]],
    6: [[7, 4, 18.5, "G"], [15, 4, 18.5, "G"], [23, 4, 18.5, "G"], [7, 21.5, 36, "G"], [15, 21.5, 36, "G"], [23, 21.5, 36, "G"]],
    7: [[15, 3, 12.5, "R"], [7, 14.5, 24.5, "G"], [15, 14.5, 24.5, "G"], [23, 14.5, 24.5, "G"],
        [7, 26.5, 36.5, "G"], [15, 26.5, 36.5, "G"], [23, 26.5, 36.5, "G"]],
    8: [[5.5, 4, 18.5, "G"], [11.5, 4, 18.5, "G", 16], [18.5, 4, 18.5, "G", -16], [24.5, 4, 18.5, "G"],
        [5.5, 21.5, 36, "G"], [11.5, 21.5, 36, "G", -16], [18.5, 21.5, 36, "G", 16], [24.5, 21.5, 36, "G"]],
    9: [[7, 3, 12.5, "G"], [15, 3, 12.5, "R"], [23, 3, 12.5, "G"], [7, 15.25, 24.75, "G"], [15, 15.25, 24.75, "R"],
        [23, 15.25, 24.75, "G"], [7, 27.5, 37, "G"], [15, 27.5, 37, "G"], [23, 27.5, 37, "G"]],
  };
  var COLOUR = {R: RED, G: GREEN, B: BLUE};
  /* Honour tiles as brush strokes on the 30x40 face (no font needed). */
  var HONOUR_STROKES = [
    ["M7 8.5H23", "M15 4.5V36", "M9 12H21V24H9Z", "M9 18H21", "M15 24L6.5 33", "M15 24L23.5 33"],  // East 東
    ["M7 8H23", "M15 4V12", "M8 13.5V36", "M8 13.5H22V33.5Q22 35.5 19.5 35", "M12 16.5L13.5 19.5", "M18 16.5L16.5 19.5",
     "M10.5 22H19.5", "M10 27H20", "M15 22V34"],  // South 南
    ["M6 8H24", "M8 14.5V34.5", "M8 14.5H22V34.5", "M8 32H22", "M12.5 8V20Q12.5 25 8.5 27", "M17.5 8V23Q17.5 25.5 22 25.5"],  // West 西
    ["M12 6V34", "M5.5 15.5H12", "M5 30L12 26", "M18.5 6V31Q18.5 34 21.5 34H25V30.5", "M18.5 18.5L25 14"],  // North 北
  ];

  function manzuDigit(g, n, colour) {
    stextTile(g, 15, 17, String(n), colour, 15.5);
    strokes(g, ["M7 22.5H23", "M13.5 22.5C13.5 30 11 33.5 6.5 36", "M13 27.5H21C21 31 20.6 34 19 35.4C18 36.2 16.6 35.8 15.6 35"], RED, 2.1);
  }

  function stextTile(g, x, y, text, colour, size) {
    stext(g, x, y, text, {"font-size": size, "font-weight": 700, "text-anchor": "middle", fill: colour,
      "font-family": "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"});
  }

  function drawFace(g, k, red) {
    if (k < 9) {
      manzuDigit(g, k + 1, red ? RED : INK);
    } else if (k < 18) {
      var n = k - 8;
      if (n === 1) {
        s("circle", {cx: 15, cy: 20, r: 10, fill: GREEN}, g);
        s("circle", {cx: 15, cy: 20, r: 7.6, fill: FACE}, g);
        s("circle", {cx: 15, cy: 20, r: 5.8, fill: RED}, g);
        s("circle", {cx: 15, cy: 20, r: 2.2, fill: FACE}, g);
      } else {
        PIN[n].forEach(function (d) { dot(g, d[0], d[1], d[2], red ? RED : COLOUR[d[3]]); });
      }
    } else if (k < 27) {
      var m = k - 17;
      if (m === 1) {
        s("path", {d: "M15 14C22 14 23 24 19 29L15 33L11 29C7 24 8 14 15 14Z", fill: GREEN}, g);
        s("path", {d: "M15 18C18.6 20 18.8 25 16 28", fill: "none", stroke: FACE, "stroke-width": 1.1}, g);
        s("circle", {cx: 15, cy: 10, r: 4.2, fill: RED}, g);
        s("circle", {cx: 16.2, cy: 9.2, r: 0.9, fill: FACE}, g);
        s("path", {d: "M18.8 9L22.5 10.2L18.8 11.6Z", fill: "#d9a21b"}, g);
        strokes(g, ["M15 32L9.5 37.5", "M15 32.5V38", "M15 32L20.5 37.5"], BLUE, 1.6);
      } else {
        SOU[m].forEach(function (d) { stick(g, d[0], d[1], d[2], red ? RED : COLOUR[d[3]], d[4]); });
      }
    } else if (k < 31) {
      strokes(g, HONOUR_STROKES[k - 27], INK, 2.5);
    } else if (k === 31) {
      s("rect", {x: 7, y: 7.5, width: 16, height: 25, rx: 1.5, fill: "none", stroke: BLUE, "stroke-width": 2.2}, g);
      s("rect", {x: 10, y: 10.5, width: 10, height: 19, rx: 1, fill: "none", stroke: BLUE, "stroke-width": 0.9}, g);
    } else if (k === 32) {
      strokes(g, ["M11 5.5L8.5 11.5", "M6 13H24", "M15.5 5.5Q15.5 25 6 34.5", "M12 21H21.5Q18.5 30.5 9.5 34",
        "M13 24Q17 31.5 24.5 34.5", "M20 6.5L22.5 10"], GREEN, 2.4);
    } else {
      strokes(g, ["M7 12H23V25H7Z", "M15 4V36.5"], RED, 2.9);
    }
    if (red) s("circle", {cx: 26, cy: 4, r: 1.8, fill: RED}, g);
  }

  function buildTileDefs() {
    var defs = document.querySelector("#tile-defs defs");
    function symbol(id) {
      var sym = s("symbol", {id: id, viewBox: "0 0 30 40"}, defs);
      return sym;
    }
    function base(sym) {
      s("rect", {x: 0.6, y: 0.6, width: 28.8, height: 38.8, rx: 3.4, fill: FACE, stroke: "#8a8473", "stroke-width": 1.2}, sym);
    }
    for (var k = 0; k < 34; k++) {
      var sym = symbol("tile-" + k);
      base(sym);
      drawFace(sym, k, false);
    }
    [4, 13, 22].forEach(function (k) {
      var red = symbol("tile-red-" + k);
      base(red);
      drawFace(red, k, true);
    });
    var back = symbol("tile-back");
    s("rect", {x: 0.6, y: 0.6, width: 28.8, height: 38.8, rx: 3.4, fill: "#e2962f", stroke: "#9c5e14", "stroke-width": 1.2}, back);
    s("rect", {x: 4, y: 4, width: 22, height: 32, rx: 2, fill: "none", stroke: "#f3c174", "stroke-width": 1}, back);
  }

  function symbolFor(t) {
    if (t === null || t === undefined || t === HIDDEN) return "#tile-back";
    return isRed(t) ? "#tile-red-" + (t >> 2) : "#tile-" + (t >> 2);
  }

  /* One tile at (x, y), `w` units wide (upright: w x 4w/3; sideways: 4w/3 x w). opts: hidden,
   * sideways, dim, shade, mark, data (attributes). Returns the tile's group. */
  function tile(parent, t, x, y, w, opts) {
    opts = opts || {};
    if (t === HIDDEN) opts.hidden = true;
    var sc = w / 30;
    var g = s("g", {"class": "tile" + (opts.hidden ? " back" : "") + (opts.cls ? " " + opts.cls : "")}, parent);
    if (!opts.hidden && t !== null && t !== undefined) g.setAttribute("data-tile", t);
    if (opts.data) for (var k in opts.data) g.setAttribute("data-" + k, opts.data[k]);
    var tr = opts.sideways
      ? "translate(" + x + " " + (y + w) + ") rotate(-90) scale(" + sc + ")"
      : "translate(" + x + " " + y + ") scale(" + sc + ")";
    var inner = s("g", {transform: tr}, g);
    s("use", {href: opts.hidden ? "#tile-back" : symbolFor(t), width: 30, height: 40}, inner);
    if (opts.shade) s("rect", {x: 0.6, y: 0.6, width: 28.8, height: 38.8, rx: 3.4, fill: "#3a3327", "fill-opacity": 0.24}, inner);
    if (opts.mark) s("rect", {x: 0.6, y: 0.6, width: 28.8, height: 38.8, rx: 3.4, fill: "none", stroke: opts.mark, "stroke-width": 2.6}, inner);
    if (!opts.hidden && t !== null && t !== undefined) {
      var title = s("title", null, g);
      title.textContent = tileWords(t) + (opts.note ? " · " + opts.note : "");
    }
    return g;
  }

  /* A small inline tile for text (event line, analysis). */
  function tileIcon(t, hidden) {
    var svg = s("svg", {"class": "tile-icon", viewBox: "0 0 30 40", role: "img", "aria-label": hidden ? "a tile" : tileWords(t)});
    s("use", {href: hidden ? "#tile-back" : symbolFor(t), width: 30, height: 40}, svg);
    return svg;
  }

  function kindIcon(k) {
    return tileIcon(k * 4 + 1, false);
  }

  // -- drawing the board ----------------------------------------------------------------------

  /* Where each meld's called tile lies: from the left player leftmost, from across second,
   * from the right player rightmost. */
  function calledSlot(meld, seat, count) {
    if (meld.from_seat === null || meld.from_seat === undefined) return -1;
    var rel = (meld.from_seat - seat + N) % N;
    if (rel === N - 1) return 0;
    if (rel === 1) return count - 1;
    return 1;
  }

  /* Draws one meld with its left end at x and its bottom at y + h (w: tile width); returns its width. */
  function drawMeld(parent, meld, seat, x, y, w) {
    var hgt = w * 4 / 3;
    var g = s("g", {"class": "meld", "data-kind": meld.kind, "data-tiles": meld.tiles.join(",")}, parent);
    if (meld.kind === "kita") {
      tile(g, meld.tiles[0], x, y, w, {note: "kita"});
      return w;
    }
    if (meld.kind === "closed_kan") {
      meld.tiles.forEach(function (t, i) { tile(g, t, x + i * w, y, w, {hidden: i === 0 || i === 3, data: {closed: 1}}); });
      return 4 * w;
    }
    var base = meld.kind === "added_kan" ? meld.tiles.filter(function (t) { return t !== meld.added; }) : meld.tiles.slice();
    var called = meld.called;
    var others = base.filter(function (t) { return t !== called; });
    var slot = calledSlot(meld, seat, base.length);
    var order = others.slice();
    if (slot >= 0 && called !== null && called !== undefined) order.splice(slot, 0, called); else order = base;
    var cx = x;
    order.forEach(function (t) {
      if (t === called) {
        tile(g, t, cx, y + hgt - w, w, {sideways: true, data: {called: 1}, note: "called from S" + meld.from_seat});
        if (meld.kind === "added_kan") tile(g, meld.added, cx, y + hgt - 2 * w, w, {sideways: true, data: {added: 1}, note: "added (kakan)"});
        cx += hgt;
      } else {
        tile(g, t, cx, y, w);
        cx += w;
      }
    });
    return cx - x;
  }

  function meldsWidth(melds, w) {
    var hgt = w * 4 / 3;
    var total = 0;
    melds.forEach(function (m) {
      if (m.kind === "kita") total += w;
      else if (m.kind === "closed_kan") total += 4 * w;
      else total += (m.kind === "open_kan" ? 3 : 2) * w + hgt;  // the called tile lies sideways
    });
    return total + Math.max(0, melds.length - 1) * w * 0.2;
  }

  /* The concealed tiles (sorted, the tile just drawn set apart at the right; on a win the
   * winning tile there). Returns the width used. */
  function drawHand(parent, board, st, x, y, w) {
    var g = s("g", {"class": "hand", "data-seat": st.seat}, parent);
    var show = visible(board, st.seat);
    g.setAttribute("data-hidden", show ? "0" : "1");
    var tiles, extra = null, extraNote = null;
    if (st.shown !== null && st.win_tile !== null) {
      tiles = st.shown.slice();
      removeTile(tiles, st.win_tile);
      extra = st.win_tile;
      extraNote = "winning tile";
    } else if (st.shown !== null) {
      tiles = sorted(st.shown);
    } else {
      tiles = st.hand.slice();
      if (st.drawn !== null && tiles.indexOf(st.drawn) >= 0) {
        removeTile(tiles, st.drawn);
        extra = st.drawn;
        extraNote = "just drawn";
      }
    }
    tiles = sorted(tiles);
    var danger = show && st.shown === null ? dangerOnHand(board, st.seat) : null;
    var cx = x;
    tiles.forEach(function (t) {
      tile(g, t, cx, y, w, {hidden: !show});
      if (danger) dangerMark(g, danger, t, cx, y, w);
      cx += w;
    });
    if (extra !== null) {
      cx += w * 0.3;
      tile(g, extra, cx, y, w, {hidden: !show, cls: "extra", data: {extra: extraNote === "winning tile" ? "win" : "drawn"},
        mark: extraNote === "winning tile" ? "#e0a800" : null, note: extraNote});
      if (danger) dangerMark(g, danger, extra, cx, y, w);
      cx += w;
    }
    return cx - x;
  }

  /* The danger of the viewed seat's hand at its decision (its turn: from its draw or call to its
   * discard): the analysis entry of that discard, computed before it from that seat's view only
   * (docs/analysis.md). Only for the seat the page views from, so nothing hidden reaches it. */
  function dangerOnHand(board, seat) {
    if (seat !== state.seat || !seen(seat)) return null;
    var entry = analysisAt(state.pos, state.step);
    if (!entry || entry.seat !== seat || !entry.danger || board.step >= (entry.step || entry.event_index + 1)) return null;
    return entry.danger;
  }

  function dangerMark(g, danger, t, x, y, w) {
    var found = kindDanger(danger, t >> 2);
    if (!found) return;
    var bar = s("rect", {x: x + w * 0.12, y: y + w * 4 / 3 + 2, width: w * 0.76, height: Math.max(3, w * 0.14), rx: 1.5,
      fill: MARK_COLOURS[found.mark], stroke: "#fbf8ef", "stroke-width": 0.8, "class": "danger-mark", "data-tile": t,
      "data-class": found.cls, "data-mark": found.mark, "data-rate": found.rate}, g);
    var title = s("title", {}, bar);
    title.textContent = tileWords(t) + " " + found.words;
  }

  /* The pond in rows of six (the fourth row takes whatever is left), tsumogiri shaded, the
   * riichi tile sideways, called tiles dimmed. Returns the height used. */
  function drawPond(parent, board, st, x, y, w, rowsOfSix) {
    var g = s("g", {"class": "pond", "data-seat": st.seat}, parent);
    var hgt = w * 4 / 3;
    var row = 0, col = 0, cx = x;
    var last = board.last_discard;
    st.discards.forEach(function (d, i) {
      if (col === 6 && row < rowsOfSix - 1) {
        row += 1;
        col = 0;
        cx = x;
      }
      var cy = y + row * hgt;
      var isLast = last && last.seat === st.seat && last.index === i && board.event;
      var latest = isLast && board.event.type === "discard";
      var dealtIn = isLast && board.event.type === "agari" && board.event.from_who === st.seat && board.event.who !== st.seat;
      var opts = {
        sideways: d.riichi,
        shade: d.tsumogiri,
        cls: (d.called ? "called" : "") + (latest ? " latest" : "") + (dealtIn ? " dealt-in" : ""),
        mark: latest ? "#e0a800" : dealtIn ? "#e0412f" : null,
        data: {tsumogiri: d.tsumogiri ? 1 : 0, riichi: d.riichi ? 1 : 0, called: d.called ? 1 : 0},
        note: [d.tsumogiri ? "tsumogiri" : "from the hand", d.riichi ? "riichi" : "", d.called ? "called" : ""].filter(Boolean).join(", "),
      };
      tile(g, d.tile, cx, d.riichi ? cy + hgt - w : cy, w, opts);
      cx += d.riichi ? hgt : w;
      col += 1;
    });
    return (row + 1) * hgt;
  }

  function riichiStick(parent, x, y, width) {
    var g = s("g", {"class": "riichi-stick"}, parent);
    s("rect", {x: x, y: y, width: width, height: width / 12, rx: width / 24, fill: "#f7f4ea", stroke: "#6b6b6b", "stroke-width": 0.6}, g);
    s("circle", {cx: x + width / 2, cy: y + width / 24, r: width / 36, fill: RED}, g);
    return g;
  }

  function seatPositions(viewer) {
    var rel = [];
    for (var seat = 0; seat < N; seat++) {
      var r = (seat - viewer + N) % N;
      if (N === 3 && r === 2) r = 3;  // three players: the one before you sits on your left
      rel.push(r);
    }
    return rel;
  }

  /* The ura dora indicators a riichi win has turned face up by this moment (none before). */
  function uraShown(board) {
    for (var i = 0; i < board.results.length; i++) {
      var r = board.results[i];
      var ura = (r.result && r.result.ura_indicators) || (r.event && r.event.ura_indicators) || [];
      if (ura.length) return ura;
    }
    return [];
  }

  function centreInfo(g, board, cx, y, width) {
    var ura = uraShown(board);
    var tw = ura.length ? 26 : Math.min(30, width / 5.5);
    if (ura.length) y -= 8;  // the ura row: smaller tiles, clear of the seats' names
    stext(g, cx, y, board.hand, {"class": "centre-label", "text-anchor": "middle"});
    var x0 = cx - tw * 2.5;
    var dg = s("g", {"class": "dora"}, g);
    for (var i = 0; i < 5; i++) {
      var t = board.dora_indicators[i];
      if (t !== undefined) tile(dg, t, x0 + i * tw, y + 10, tw, {note: "dora indicator"});
      else tile(dg, null, x0 + i * tw, y + 10, tw, {hidden: true});
    }
    var line = y + 10 + tw * 4 / 3 + 26;
    if (ura.length) {  // a riichi win turns the ura indicators face up, under the dora indicators
      var ug = s("g", {"class": "ura"}, g);
      for (var j = 0; j < 5; j++) {
        if (ura[j] !== undefined) tile(ug, ura[j], x0 + j * tw, y + 14 + tw * 4 / 3, tw, {note: "ura dora indicator"});
        else tile(ug, null, x0 + j * tw, y + 14 + tw * 4 / 3, tw, {hidden: true});
      }
      line += tw * 4 / 3 + 4;
    }
    var facts = s("g", {"class": "table-facts", "data-honba": board.honba, "data-sticks": board.sticks,
      "data-wall": board.wall_remaining}, g);
    stext(facts, cx, line, board.honba + " honba · " + board.sticks + " stick" + (board.sticks === 1 ? "" : "s"),
      {"class": "centre-facts", "text-anchor": "middle"});
    stext(facts, cx, line + 26, board.wall_remaining + " tiles left", {"class": "centre-facts", "text-anchor": "middle"});
  }

  function drawTable(svg, board) {
    var rel = seatPositions(state.seat);
    svg.setAttribute("viewBox", "0 0 1000 1000");
    s("rect", {x: 0, y: 0, width: 1000, height: 1000, rx: 18, "class": "felt"}, svg);
    s("rect", {x: 330, y: 330, width: 340, height: 340, rx: 14, "class": "centre"}, svg);
    centreInfo(s("g", {"class": "centre-info"}, svg), board, 500, 452, 170);
    board.seats.forEach(function (st) {
      var r = rel[st.seat];
      var g = s("g", {"class": "seat", "data-seat": st.seat, "data-rel": r, transform: "rotate(" + (-90 * r) + " 500 500)"}, svg);
      var dealer = st.seat === board.dealer;
      if (st.riichi) riichiStick(g, 440, 594, 120);
      var info = s("g", {"class": "seat-info" + (dealer ? " dealer" : "")}, g);
      stext(info, 350, 654, seatWind(st.seat, board.dealer), {"class": "wind"});
      stext(info, 500, 654, st.score, {"class": "score", "text-anchor": "middle", "data-score": st.score});
      svgName(info, st, 500, 624, 14, {"class": "name", "text-anchor": "middle"}, "");
      drawPond(g, board, st, 380, 678, 40, 4);
      // Each hand runs from its owner's left along the edge, melds at the right end; the
      // corners stay clear (a hand ends before the next seat's edge band begins).
      var w = r === 0 ? 48 : 40;
      var y = 1000 - w * 4 / 3 - (r === 0 ? 14 : 8);  // room for the viewed hand's marks
      var left = r === 0 ? 72 : 80;
      var used = drawHand(g, board, st, left, y, w);
      var mg = s("g", {"class": "melds", "data-seat": st.seat}, g);
      var mw = meldsWidth(st.melds, w);
      var mx = Math.max(left + used + w * 0.6, (r === 0 ? 936 : 920) - mw);
      st.melds.forEach(function (m) {
        mx += drawMeld(mg, m, st.seat, mx, y, w) + w * 0.2;
      });
    });
  }

  /* Phones: one band per seat, from the seat you view from on, nothing turned. */
  function drawStack(svg, board) {
    var W = 400;
    var y = 8;
    s("rect", {x: 0, y: 0, width: W, height: 10, "class": "felt", id: "stack-felt", rx: 10}, svg);
    var head = s("g", {"class": "centre-info stack"}, svg);
    stext(head, 10, y + 24, board.hand, {"class": "centre-label small"});
    var dg = s("g", {"class": "dora"}, head);
    for (var i = 0; i < 5; i++) {
      var t = board.dora_indicators[i];
      if (t !== undefined) tile(dg, t, 104 + i * 22, y + 4, 21, {note: "dora indicator"});
      else tile(dg, null, 104 + i * 22, y + 4, 21, {hidden: true});
    }
    var ura = uraShown(board);
    if (ura.length) {  // a riichi win: the ura indicators face up, under the dora indicators
      var ug = s("g", {"class": "ura"}, head);
      stext(head, 10, y + 56, "ura", {"class": "centre-facts small"});
      ura.forEach(function (t, j) { tile(ug, t, 104 + j * 22, y + 36, 21, {note: "ura dora indicator"}); });
    }
    var facts = s("g", {"class": "table-facts", "data-honba": board.honba, "data-sticks": board.sticks,
      "data-wall": board.wall_remaining}, head);
    stext(facts, W - 10, y + 15, board.honba + " honba · " + board.sticks + " stick" + (board.sticks === 1 ? "" : "s"),
      {"class": "centre-facts small", "text-anchor": "end"});
    stext(facts, W - 10, y + 33, board.wall_remaining + " left", {"class": "centre-facts small", "text-anchor": "end"});
    y += ura.length ? 78 : 46;
    for (var k = 0; k < N; k++) {
      var st = board.seats[(state.seat + k) % N];
      var g = s("g", {"class": "seat", "data-seat": st.seat}, svg);
      s("line", {x1: 8, x2: W - 8, y1: y, y2: y, "class": "band-rule"}, g);
      var info = s("g", {"class": "seat-info" + (st.seat === board.dealer ? " dealer" : "")}, g);
      stext(info, 10, y + 20, seatWind(st.seat, board.dealer), {"class": "wind small"});
      svgName(info, st, 30, y + 20, 16, {"class": "name small"}, "S" + st.seat + " ");
      stext(info, W - 10, y + 20, st.score, {"class": "score small", "text-anchor": "end", "data-score": st.score});
      if (st.riichi) riichiStick(g, W - 140, y + 11, 60);
      var hy = y + 28;
      drawHand(g, board, st, 6, hy, 27);
      var py = hy + 27 * 4 / 3 + 6;
      var pondH = Math.max(drawPond(g, board, st, 6, py, 25, 4), st.discards.length ? 0 : 25 * 4 / 3);
      var mg = s("g", {"class": "melds", "data-seat": st.seat}, g);
      var mx = 176, my = py, mw = 23;
      st.melds.forEach(function (m) {
        var need = meldsWidth([m], mw);
        if (mx + need > W - 6 && mx > 176) {
          mx = 176;
          my += mw * 4 / 3 + 8;
        }
        mx += drawMeld(mg, m, st.seat, mx, my, mw) + 5;
      });
      var meldH = st.melds.length ? my - py + mw * 4 / 3 : 0;
      y = py + Math.max(pondH, meldH) + 10;
    }
    svg.setAttribute("viewBox", "0 0 " + W + " " + y);
    var felt = svg.querySelector("#stack-felt");
    felt.setAttribute("height", y);
  }

  // -- the panels -----------------------------------------------------------------------------

  /* What just happened, as parts: strings, {name: seat} (a player's name, isolated), {tile},
   * {tiles}. A hidden seat's draw does not name the tile. */
  function describeEvent(board, ev) {
    function who(seat) { return ["S" + seat + " ", {name: seat}, " "]; }
    if (!ev) {
      return [WIND_WORDS[Math.floor(board.round / 4) % 4] + " " + (board.round % 4 + 1) + ", " + board.honba +
        " honba, " + board.sticks + " stick" + (board.sticks === 1 ? "" : "s") + " carried in; dealer S" + board.dealer +
        " ", {name: board.dealer}, "."];
    }
    var me = ev.seat !== undefined ? who(ev.seat) : [];
    var seenTile = ev.seat === undefined || visible(board, ev.seat);
    switch (ev.type) {
      case "draw":
        return seenTile ? me.concat([ev.rinshan ? "draws a replacement tile " : "draws ", {tile: ev.tile}])
                        : me.concat([ev.rinshan ? "draws a replacement tile." : "draws a tile."]);
      case "discard":
        return me.concat(["discards ", {tile: ev.tile}, ev.tsumogiri ? " (tsumogiri: the tile just drawn)." : "."]);
      case "call": {
        var m = ev.meld;
        if (m.kind === "kita") return me.concat(["sets a North aside (kita) ", {tile: m.tiles[0]}]);
        if (m.kind === "closed_kan") return me.concat(["declares a closed kan (ankan) ", {tiles: m.tiles}]);
        if (m.kind === "added_kan") return me.concat(["adds ", {tile: m.added}, " to a pon (kakan)"]);
        var from = m.from_seat !== null ? [" from S" + m.from_seat + " ", {name: m.from_seat}] : [];
        return me.concat(["calls " + CALL_WORDS[m.kind]], from, [": ", {tiles: m.tiles}]);
      }
      case "riichi":
        return ev.step === 1 ? me.concat(["declares riichi."])
                             : ["S" + ev.seat + " ", {name: ev.seat}, "'s riichi is accepted: a 1,000-point stick goes on the table."];
      case "new_dora":
        return ["New dora indicator ", {tile: ev.tile}];
      case "agari":
        return ev.who === ev.from_who ? ["Tsumo by S" + ev.who + " ", {name: ev.who}, "."]
                                      : ["Ron: S" + ev.who + " ", {name: ev.who}, " wins on S" + ev.from_who + " ", {name: ev.from_who}, "'s discard."];
      case "ryuukyoku":
        return ["The hand ends in a draw."];
      case "bye":
        return me.concat(["disconnected."]);
      case "reconnect":
        return me.concat(["came back."]);
      default:
        return ["A <" + (ev.tag || ev.type) + "> element the parser keeps but does not interpret."];
    }
  }

  function renderEventText(board) {
    var p = clear(document.getElementById("event-text"));
    p.appendChild(h("span", {"class": "step-no"}, board.step === 0 ? board.hand + ", the deal:"
                                                                     : board.hand + " step " + board.step + " of " + board.steps + ":"));
    p.appendChild(document.createTextNode(" "));
    describeEvent(board, board.event).forEach(function (part) {
      if (typeof part === "string") p.appendChild(document.createTextNode(part));
      else if (part.name !== undefined) p.appendChild(nameNode(part.name));
      else if (part.tiles) sorted(part.tiles).forEach(function (t) { p.appendChild(tileIcon(t)); });
      else p.appendChild(tileIcon(part.tile));
    });
    var findings = (HANDS[state.pos].findings || []).filter(function (f) {
      return f.event_index !== null && f.event_index + 1 === board.step;
    });
    findings.forEach(function (f) {
      p.appendChild(h("span", {"class": "finding-here " + f.severity}, (f.severity === "error" ? "✗ " : "! ") + f.code + ": " + f.message));
    });
  }

  /* What a win shows besides its value: "wins on 7z · dora indicators 2p · ura 5s · +1 honba and
   * 2 riichi sticks" (the honba and sticks this winner collects: a double ron's second, none). */
  function winExtras(p, res) {
    p.appendChild(document.createTextNode("wins on "));
    p.appendChild(tileIcon(res.win_tile));
    p.appendChild(document.createTextNode(" · dora indicators "));
    (res.dora_indicators || []).forEach(function (t) { p.appendChild(tileIcon(t)); });
    if (res.ura_indicators && res.ura_indicators.length) {
      p.appendChild(document.createTextNode(" · ura "));
      res.ura_indicators.forEach(function (t) { p.appendChild(tileIcon(t)); });
    }
    var extras = [];
    if (res.honba) extras.push(res.honba + " honba");
    if (res.sticks) extras.push(plural(res.sticks, "riichi stick"));
    if (extras.length) p.appendChild(document.createTextNode(" · +" + extras.join(" and ")));
  }

  /* The results so far; once every result of the hand is in, each seat's points after the hand
   * and its net change over it (riichi sticks paid included), as the text view's "Scores:" line. */
  function renderResult(board) {
    var box = clear(document.getElementById("result"));
    var hand = HANDS[state.pos];
    board.results.forEach(function (r) {
      var res = r.result;
      if (!res) return;
      var div = h("div", {"class": "result " + res.type});
      div.appendChild(h("p", {"class": "result-text"}, resultWords(res)));
      if (res.type === "agari") {
        var extras = h("p", {"class": "result-extras"});
        winExtras(extras, res);
        div.appendChild(extras);
      }
      box.appendChild(div);
    });
    if (board.results.length && board.results.length === hand.result.length) {
      var ul = h("ul", {"class": "deltas", "aria-label": "Scores after the hand"});
      hand.deltas.forEach(function (d, seat) {
        var li = h("li", {"class": d > 0 ? "plus" : d < 0 ? "minus" : "zero", "data-seat": seat, "data-delta": d,
          "data-score": hand.scores_after[seat]});
        li.appendChild(document.createTextNode("S" + seat + " "));
        li.appendChild(nameNode(seat));
        li.appendChild(document.createTextNode(" " + hand.scores_after[seat] + " (" + signed(d) + ")"));
        ul.appendChild(li);
      });
      box.appendChild(ul);
    }
    if (board.step === board.steps) {
      if (!hand.result.length) box.appendChild(h("p", {"class": "no-result"}, "The log ends here, before this hand's result."));
      var words = {verified: "✓ verified by the engine", failed: "✗ not verified: see the findings of this hand",
        incomplete: "… not verified: the log ends before this hand's result (no error in what it has)"};
      var verdict = hand.verdict || (hand.ok ? "verified" : "failed");
      box.appendChild(h("p", {"class": "verdict " + (verdict === "verified" ? "ok" : "fail"), "data-verdict": verdict},
        words[verdict]));
    }
  }

  function renderSeats(board) {
    var box = clear(document.getElementById("seats"));
    board.seats.forEach(function (st) {
      var div = h("div", {"class": "seat-chip" + (st.seat === state.seat ? " viewer" : "") + (st.seat === board.dealer ? " dealer" : ""),
        "data-seat": st.seat});
      div.appendChild(h("span", {"class": "wind", title: WIND_WORDS["ESWN".indexOf(seatWind(st.seat, board.dealer))] + (st.seat === board.dealer ? " (dealer)" : "")},
        seatWind(st.seat, board.dealer)));
      var whoSpan = h("span", {"class": "who", title: "S" + st.seat + " " + isolate(playerName(st.seat))}, "S" + st.seat + " ");
      whoSpan.appendChild(nameNode(st.seat));
      div.appendChild(whoSpan);
      div.appendChild(h("span", {"class": "score", "data-score": st.score}, st.score));
      var flags = div.appendChild(h("span", {"class": "flags"}));
      if (st.riichi) flags.appendChild(h("span", {"class": "riichi-flag"}, "riichi"));
      if (!st.connected) flags.appendChild(h("span", {"class": "away"}, "away"));
      box.appendChild(div);
    });
  }

  function renderControls(board) {
    document.getElementById("position").textContent = board.hand + " · " + (board.step === 0 ? "deal" : "step " + board.step) + " / " + board.steps;
    var slider = document.getElementById("step-slider");
    slider.max = board.steps;
    slider.value = board.step;
    slider.setAttribute("aria-valuetext", board.hand + " step " + board.step);
    document.getElementById("prev-step").disabled = state.pos === 0 && state.step === 0;
    document.getElementById("prev-hand").disabled = state.pos === 0;
    var lastHand = state.pos === HANDS.length - 1;
    document.getElementById("next-step").disabled = lastHand && state.step === board.steps;
    document.getElementById("next-hand").disabled = lastHand;
    document.getElementById("seat-select").value = String(state.seat);
    document.getElementById("all-hands").checked = state.all;
  }

  /* Whether the view may show how hand `pos` ended: with "all hands" always; viewed from a seat,
   * only a hand played to its end (its result shows the winner's tiles, yaku, ura dora and who
   * was tenpai: nothing a seat can see before the hand is over). */
  function resultReached(pos) {
    if (state.all) return true;
    return pos < state.pos || (pos === state.pos && state.step === HANDS[pos].events.length);
  }

  /* Viewed from a seat, the list holds the hands played so far and the current one: a later
   * hand's label would tell how the game goes on (a dealer's repeat, the honba, its length). */
  function renderHandList() {
    var items = document.querySelectorAll("#hand-list > li");
    items.forEach(function (li) {
      var pos = Number(li.getAttribute("data-position"));
      li.hidden = !state.all && pos > state.pos;
      var current = pos === state.pos;
      li.classList.toggle("current", current);
      if (current) li.setAttribute("aria-current", "true"); else li.removeAttribute("aria-current");
      var line = li.querySelector(".result-line");
      var reached = resultReached(pos);
      line.textContent = reached ? line.getAttribute("data-result") : "result at the hand's end";
      line.classList.toggle("unseen", !reached);
      li.classList.toggle("unseen", !reached);
    });
  }

  function buildHandList() {
    var ol = clear(document.getElementById("hand-list"));
    HANDS.forEach(function (hand, pos) {
      var li = h("li", {"data-position": pos, "data-hand-index": hand.index, "class": hand.ok ? "ok" : "fail"});
      var btn = h("button", {type: "button", "class": "hand-jump", "data-position": pos});
      btn.appendChild(h("span", {"class": "label"}, hand.label));
      var incomplete = hand.verdict === "incomplete";
      btn.appendChild(h("span", {"class": "verdict-mark", title: incomplete ? "not verified: the log ends before its result" : hand.ok ? "verified" : "not verified"},
        !hand.ok ? "✗" : incomplete ? "…" : hand.findings.length ? "!" : "✓"));
      var texts = hand.result.map(resultWords);
      var resultText = texts.length ? texts.join(" · ") : "no result";
      btn.appendChild(h("span", {"class": "result-line", "data-result": resultText}, resultText));
      btn.addEventListener("click", function () { go(pos, 0); });
      li.appendChild(btn);
      if (hand.findings.length) {
        var ul = h("ul", {"class": "findings"});
        hand.findings.forEach(function (f) {
          var step = f.event_index === null || f.event_index === undefined ? 0 : Math.min(f.event_index + 1, hand.events.length);
          var fb = h("button", {type: "button", "class": "finding-jump " + f.severity, "data-position": pos, "data-step": step,
            title: "Go to this moment"});
          fb.textContent = (f.severity === "error" ? "✗ " : "! ") + f.code + (f.event_index !== null && f.event_index !== undefined ? " (step " + (f.event_index + 1) + ")" : "") + ": " + f.message;
          fb.addEventListener("click", function () { go(pos, step); });
          var fli = h("li");
          fli.appendChild(fb);
          var values = valuesWords(f.readable);
          if (values) {  /* what the values are, in words (never raw ids) */
            fli.appendChild(h("span", {"class": "expected"}, values));
          }
          ul.appendChild(fli);
        });
        li.appendChild(ul);
      }
      ol.appendChild(li);
    });
  }

  function buildHeader() {
    document.getElementById("game-title").textContent = doc.log_id || doc.source || "Game";
    // a game id names the hour it started, not the minute (as the terminal view says: 12:xx)
    var hourly = /^\d{10}gm-/.test(doc.log_id || "");
    var date = !doc.date ? "date unknown"
      : hourly ? doc.date.replace("T", " ").slice(0, 13) + ":xx JST" : doc.date.slice(0, 10) + " JST";
    document.getElementById("game-lobby").textContent = doc.lobby + " · " + date + " · " + HANDS.length + " hand" + (HANDS.length === 1 ? "" : "s");
    var players = document.getElementById("game-players");
    for (var seat = 0; seat < N; seat++) {
      var p = doc.header.players[seat];
      var span = h("span", {"class": "player", "data-seat": seat});
      span.appendChild(h("span", {"class": "swatch seat-" + seat}));
      span.appendChild(document.createTextNode("S" + seat + " "));
      span.appendChild(nameNode(seat));
      if (p && p.rate) span.appendChild(document.createTextNode(" (R" + Math.round(p.rate) + ")"));
      players.appendChild(span);
    }
    var v = document.getElementById("game-verdict");
    v.className = doc.verdict === "verified" ? "ok" : "fail";
    v.setAttribute("data-verdict", doc.verdict);
    v.textContent = verdictWords();
    var ul = clear(document.getElementById("game-findings"));
    (doc.findings || []).forEach(function (f) {
      ul.appendChild(h("li", {"class": f.severity}, (f.severity === "error" ? "✗ " : "! ") + f.code + ": " + f.message));
    });
    var select = clear(document.getElementById("seat-select"));
    for (var t = 0; t < N; t++) select.appendChild(h("option", {value: t}, "S" + t + " " + isolate(playerName(t))));
    if (SEAT_PAGE) {  /* no other seat to view from, no hands to show: the page does not hold them */
      var view = document.querySelector("#controls .view");
      [].forEach.call(view.querySelectorAll("label"), function (l) { l.hidden = true; });
      var note = view.appendChild(h("span", {id: "seat-page", "data-seat": state.seat}, "S" + state.seat + " "));
      note.appendChild(nameNode(state.seat));
      note.appendChild(document.createTextNode("'s page: only what S" + state.seat + " sees"));
    }
  }

  /* The game's verdict in the text view's words: a log that stops early is never "verified". */
  function verdictWords() {
    var checks = doc.check_count;
    if (checks === undefined) {  /* a document from before check_count: the kinds that ran */
      checks = Object.keys(doc.checks || {}).reduce(function (a, k) {
        return /_not_checkable$/.test(k) ? a : a + doc.checks[k];
      }, 0);
    }
    var hands = doc.hand_count !== undefined ? doc.hand_count : HANDS.length;
    var scope = plural(hands, "hand") + " replayed under the Tenhou rules, " + checks + " checks";
    var complete = doc.complete !== false;
    if (!complete) scope = "the log ends before the game does (incomplete game); " + scope;
    var errors = doc.error_count !== undefined ? doc.error_count : (doc.ok ? 0 : null);
    if (doc.ok && !complete) return "✗ Game not verified: " + scope + ", no error findings in them.";
    if (doc.ok) return "✓ Game verified: " + scope + ", no error findings.";
    var failed = doc.failed_hands || [];
    return "✗ Game not verified: " + scope + (errors === null ? ", error findings" : ", " + plural(errors, "error finding")) +
      (failed.length ? " (hands: " + failed.join(", ") + ")" : "") + ".";
  }

  function buildStandings() {
    var table = clear(document.getElementById("standings"));
    document.getElementById("standings-panel").appendChild(
      h("p", {id: "standings-unseen", "class": "muted", hidden: "hidden"}, "Shown at the end of the game (viewed from a seat)."));
    var f = doc.final;
    if (!f) {
      document.getElementById("standings-panel").appendChild(h("p", null, "No final result (the game is incomplete)."));
      return;
    }
    var head = h("tr");
    ["Rank", "Player", "Points", "Uma", "Result"].forEach(function (c) { head.appendChild(h("th", null, c)); });
    table.appendChild(h("thead")).appendChild(head);
    var body = table.appendChild(h("tbody"));
    f.ranking.forEach(function (seat, i) {
      var tr = h("tr", {"data-seat": seat});
      tr.appendChild(h("td", null, String(i + 1)));
      var td = h("td", {"class": "player"}, "S" + seat + " ");
      td.appendChild(nameNode(seat));
      tr.appendChild(td);
      tr.appendChild(h("td", {"class": "num"}, f.scores[seat]));
      tr.appendChild(h("td", {"class": "num"}, f.uma ? signed(f.uma[seat]) : "-"));
      tr.appendChild(h("td", {"class": "num"}, (f.points[seat] > 0 ? "+" : "") + f.points[seat].toFixed(1)));
      body.appendChild(tr);
    });
  }

  function niceStep(range) {
    var raw = range / 5;
    var mag = Math.pow(10, Math.floor(Math.log10(Math.max(raw, 1))));
    var steps = [1, 2, 5, 10];
    for (var i = 0; i < steps.length; i++) if (steps[i] * mag >= raw) return steps[i] * mag;
    return 10 * mag;
  }

  /* The chart has a point per hand of the game (its start), then the end: with --hand the page
   * holds fewer hands than the chart, whose other points are numbered. */
  function chartLabel(index) {
    var pos = positionOfIndex(index);
    if (pos >= 0) return HANDS[pos].label;
    return doc.hand_labels && doc.hand_labels[index] ? doc.hand_labels[index] : "hand " + (index + 1);
  }

  /* The score chart up to point `reached` (all of them with "all hands"; viewed from a seat, the
   * points the view has reached: its scale, lines, axis labels and legend say nothing of later
   * hands). */
  function buildChart(reached) {
    var box = clear(document.getElementById("chart"));
    var series = doc.progression || [];
    var count = series.length ? series[0].length : 0;
    var legend = clear(document.getElementById("chart-legend"));
    if (count < 2) {
      box.appendChild(h("p", null, "Not enough points for a chart."));
      return;
    }
    if (reached === undefined || reached > count - 1) reached = count - 1;
    var W = 600, H = 260, L = 52, R = 14, T = 12, B = 34;
    var all = [].concat.apply([], series.map(function (line) { return line.slice(0, reached + 1); }));
    var lo = Math.min.apply(null, all), hi = Math.max.apply(null, all);
    if (hi === lo) { hi += 1000; lo -= 1000; }
    var step = niceStep(hi - lo);
    lo = Math.floor(lo / step) * step;
    hi = Math.ceil(hi / step) * step;
    var svg = s("svg", {id: "score-chart", viewBox: "0 0 " + W + " " + H, role: "img", "data-reached": reached,
      "aria-label": "Each seat's points at the start of every hand, then at the end"});
    function X(i) { return L + (W - L - R) * i / (count - 1); }
    function Y(v) { return T + (H - T - B) * (hi - v) / (hi - lo); }
    for (var v = lo; v <= hi + 1e-9; v += step) {
      s("line", {x1: L, x2: W - R, y1: Y(v), y2: Y(v), "class": v === 0 ? "axis zero" : "axis"}, svg);
      stext(svg, L - 6, Y(v) + 4, v, {"class": "tick", "text-anchor": "end"});
    }
    var labelEvery = Math.ceil(count / 12);
    for (var i = 0; i < count; i++) {
      var label = i === count - 1 ? "end" : chartLabel(i);
      if (i <= reached && (i % labelEvery === 0 || i === count - 1)) stext(svg, X(i), H - B + 16, label, {"class": "tick", "text-anchor": "middle"});
    }
    s("line", {id: "chart-now", x1: X(0), x2: X(0), y1: T, y2: H - B, "class": "now"}, svg);
    series.forEach(function (line, seat) {
      var shown = line.slice(0, reached + 1);
      var d = shown.map(function (val, j) { return (j ? "L" : "M") + X(j).toFixed(1) + " " + Y(val).toFixed(1); }).join("");
      s("path", {d: d, "class": "series seat-" + seat, fill: "none", stroke: SEAT_COLOURS[seat], "stroke-width": 2.4}, svg);
      shown.forEach(function (val, j) {
        var c = s("circle", {cx: X(j), cy: Y(val), r: 3.6, fill: SEAT_COLOURS[seat], "class": "point", "data-seat": seat,
          "data-position": j, "data-score": val}, svg);
        var tt = s("title", null, c);
        tt.textContent = "S" + seat + " " + isolate(playerName(seat)) + ": " + val + (j < count - 1 ? " at the start of " + chartLabel(j) : " at the end");
        var pos = positionOfIndex(j);
        if (j < count - 1 && pos >= 0) c.addEventListener("click", function () { go(pos, 0); });
      });
    });
    box.appendChild(svg);
    series.forEach(function (line, seat) {
      var li = h("li", {"data-seat": seat});
      li.appendChild(h("span", {"class": "swatch seat-" + seat}));
      li.appendChild(document.createTextNode("S" + seat + " "));
      li.appendChild(nameNode(seat));
      li.appendChild(h("span", {"class": "legend-text"},
        ": " + line[0] + " → " + line[reached] + (reached < count - 1 ? " so far" : "")));
      legend.appendChild(li);
    });
  }

  /* The line at the current hand; viewed from a seat, the chart stops at the points the view has
   * reached (a hand's start; its end once played to it), and the standings wait for the end. */
  function renderChartNow() {
    var series = doc.progression || [];
    var count = series.length ? series[0].length : 0;
    var index = HANDS[state.pos].index;
    var reached = state.all ? count - 1 : (resultReached(state.pos) ? index + 1 : index);
    var chart = document.getElementById("score-chart");
    if (count >= 2 && (!chart || Number(chart.getAttribute("data-reached")) !== Math.min(reached, count - 1))) {
      buildChart(reached);
    }
    var now = document.getElementById("chart-now");
    if (now) {
      var x = 52 + (600 - 52 - 14) * index / (count - 1);
      now.setAttribute("x1", x);
      now.setAttribute("x2", x);
    }
    var gameOver = reached >= count - 1;
    document.getElementById("standings").hidden = !gameOver;
    var note = document.getElementById("standings-unseen");
    if (note) note.hidden = gameOver;
  }

  // -- the discard analysis -------------------------------------------------------------------

  /* The analysis entry for this moment: the discard of the seat whose turn it is, from the draw
   * or call that began the turn (across a kan, a kita, their replacement draws, a riichi
   * declaration, a new dora indicator, a disconnect) to the discard, and at the rons on it: the
   * entry's first_step to last_step (an entry without them: its own step, and the draw or riichi
   * declaration just before by the same seat, and the rons right after). */
  function analysisAt(pos, step) {
    var hand = HANDS[pos];
    if (!hand || step <= 0) return null;
    var index = hand.index;
    var list = analysisByHand[index] || [];
    for (var k = 0; k < list.length; k++) {
      var e = list[k];
      if (e.first_step !== undefined && e.last_step !== undefined) {
        if (e.first_step <= step && step <= e.last_step) return e;
      }
    }
    var events = hand.events;
    var ev = events[step - 1];
    var here = analysisIndex[index + ":" + (step - 1)];
    if (here) return here.first_step === undefined ? here : null;
    if (ev.type === "draw" || (ev.type === "riichi" && ev.step === 1)) {
      for (var i = step; i < events.length; i++) {
        var next = events[i];
        if (next.type === "discard" && next.seat === ev.seat) {
          var found = analysisIndex[index + ":" + i];
          return found && found.first_step === undefined ? found : null;
        }
        if (next.type === "draw" || next.type === "agari" || next.type === "ryuukyoku") break;
      }
    }
    if (ev.type === "agari" && ev.who !== ev.from_who) {  // a ron: the discard just before (or a double ron's)
      var j = step - 2;
      while (j >= 0 && events[j].type === "agari") j--;
      var on = j >= 0 && events[j].type === "discard" ? analysisIndex[index + ":" + j] : null;
      if (on && on.first_step === undefined) return on;
    }
    return null;
  }

  /* Kinds as small tiles, each with how many are left (unseen) when `left` gives it. */
  function kindsLine(parent, kinds, left) {
    (kinds || []).forEach(function (k, i) {
      var none = left && left[i] === 0;  /* every copy seen: it cannot be drawn, shown greyed */
      var span = h("span", none ? {"class": "kind none-left", "data-kind": k, title: "none left"}
                                : {"class": "kind", "data-kind": k});
      span.appendChild(kindIcon(k));
      if (left && left[i] !== undefined) span.appendChild(h("span", {"class": "left"}, left[i]));
      parent.appendChild(span);
    });
  }

  function plural(n, word) {
    return n + " " + word + (n === 1 ? "" : "s");
  }

  /* One acceptance: {shanten, kinds, left, total}, for the chosen discard (its `tile`) or the
   * top option (its `kind`), with its expected points from `option` (judgement.options). */
  function acceptanceRow(label, acc, tile, kind, option) {
    var row = h("div", {"class": "acceptance"});
    row.appendChild(h("span", {"class": "what"}, label));
    if (tile !== undefined && tile !== null) row.appendChild(tileIcon(tile));
    else if (kind !== undefined && kind !== null) row.appendChild(kindIcon(kind));
    var numbers = [];
    if (acc.shanten !== undefined) numbers.push(acc.shanten < 0 ? "complete" : acc.shanten === 0 ? "tenpai" : "shanten " + acc.shanten);
    if (acc.total !== undefined) numbers.push(plural(acc.total, "tile"));
    if (option) {
      var ev = "ev " + Math.round(option.ev).toLocaleString("en");
      var parts = [];
      var win = option.ev + (option.risk || 0) + (option.later || 0) - (option.keep || 0);
      if (acc.value && acc.value.win_points > 0) parts.push("wins " + Math.round(Math.min(1, win / acc.value.win_points) * 100) +
        "%, " + Math.round(acc.value.win_points).toLocaleString("en") + " a win" + (acc.value.furiten ? ", furiten" : ""));
      else if (acc.value) parts.push("cannot win" + (acc.value.furiten ? ", furiten" : ""));
      if (option.deal_in > 0 || option.later > 0) parts.push("deal-in " + Math.round(option.deal_in * 100) + "%, -" +
        Math.round(option.risk + option.later).toLocaleString("en"));
      if (Math.round(option.keep || 0) !== 0) parts.push("keep " + (option.keep > 0 ? "+" : "-") +
        Math.abs(Math.round(option.keep)).toLocaleString("en"));
      numbers.push(ev + (parts.length ? " (" + parts.join("; ") + ")" : ""));
    }
    row.appendChild(h("span", {"class": "numbers"}, numbers.join(" · ")));
    var kinds = h("span", {"class": "kinds"});
    kindsLine(kinds, acc.kinds, acc.left);
    row.appendChild(kinds);
    return row;
  }

  /* An efficiency loss in words: what a document without the model's verdict says (its `loss`). */
  function lossText(loss) {
    if (loss.kind === "shanten") {
      return "Efficiency loss: shanten " + loss.shanten + " after this discard, " + loss.best_shanten + " after the best.";
    }
    return "Efficiency loss: " + plural(loss.accepted, "accepted tile") + " instead of " + loss.best_accepted + ".";
  }

  var REASON_WORDS = {
    efficiency: "efficiency: a slower hand",
    value: "value: a cheaper hand",
    defence: "defence: a more dangerous tile for nothing",
    push: "push: a dangerous tile the hand was not worth",
    fold: "fold: a safer tile that gave up more than the danger it avoided",
    placement: "placement",
    keep: "keep: a tile strong players hold on to longer"
  };

  /* Each seat's verdicts over the game (analysis.summary): the seats the view shows only; a
   * seat's verdicts come from its hand. */
  function renderSummary() {
    var panel = document.getElementById("summary-panel");
    var table = clear(document.getElementById("analysis-summary"));
    var rows = (doc.analysis && doc.analysis.summary) || [];
    var shown = rows.filter(function (r) { return seen(r.seat); });
    panel.hidden = !shown.length;
    if (!shown.length) return;
    if (!state.all && !atGameEnd()) {  /* viewed from a seat: the game's verdicts wait for its last step */
      table.appendChild(h("caption", {"class": "muted"}, "Shown at the game's end."));
      return;
    }
    var head = h("tr");
    var words = ["Seat", "judged", "best", "forced", "close", "losses", "ev lost a choice", "pushes", "dealt into riichi"];
    words.forEach(function (t) { head.appendChild(h("th", {}, t)); });
    table.appendChild(head);
    shown.forEach(function (r) {
      var tr = h("tr", {"data-seat": r.seat});
      var who = h("td");
      who.appendChild(document.createTextNode("S" + r.seat + " "));
      who.appendChild(nameNode(r.seat));
      tr.appendChild(who);
      var best = r.best + (r.share_best !== null && r.share_best !== undefined ? " (" + Math.round(r.share_best * 100) + "%)" : "");
      var dealt = Object.keys(r.deal_ins || {}).filter(function (k) { return k !== "not_in_riichi"; })
        .map(function (k) { return r.deal_ins[k] + " " + classLabel(k); }).join(", ") || "–";
      var mean = r.mean_cost !== null && r.mean_cost !== undefined ? Math.round(r.mean_cost).toLocaleString("en") : "–";
      [r.judged, best, r.forced, r.close, r.loss, mean, r.pushes, dealt]
        .forEach(function (v, i) { tr.appendChild(h("td", {"data-field": ["judged", "best", "forced", "close", "loss", "mean_cost", "pushes", "deal_ins"][i],
          "data-label": words[i + 1]}, String(v))); });
      table.appendChild(tr);
    });
  }

  /* The verdict in words (docs/analysis.md): ✓ best, forced, ≈ close or ✗ loss with what the
   * discard cost in expected points against the top and why. */
  function verdictLine(entry, verdict) {
    var j = entry.judgement || {};
    var p = h("p", {"class": "verdict verdict-" + verdict, "data-verdict": verdict});
    if (!entry.verdict && entry.loss) {  /* a document without the model's verdict: the efficiency fact */
      p.textContent = "✗ " + lossText(entry.loss);
    } else if (verdict === "forced") {
      p.textContent = "Forced: in riichi, the drawn tile goes (no choice, no alternatives).";
    } else if (verdict === "best") {
      var others = (j.options || []).filter(function (o) { return o[0] !== entry.kind && o[1] >= j.ev; });
      p.textContent = "✓ Best: the most expected points" + (others.length ? "; as good: " : ".");
      others.forEach(function (o) { p.appendChild(kindIcon(o[0])); });
    } else {
      p.textContent = (verdict === "loss" ? "✗ Loss: " : "≈ Close: ") +
        Math.round(j.cost_points || 0).toLocaleString("en") + " points of ev below the top ";
      p.appendChild(kindIcon(j.top_kind));
      p.appendChild(document.createTextNode(j.reason ? " (" + (REASON_WORDS[j.reason] || j.reason) + ")." : "."));
    }
    return p;
  }

  /* The discarded tile's class against each threat (a riichi, or an opponent likely tenpai by
   * its calls), and the safest the hand had. */
  function dangerList(entry) {
    var ul = h("ul", {"class": "danger-list"});
    entry.danger.forEach(function (d) {
      var li = h("li", {"data-seat": d.seat, "data-class": d.tile_class, "data-riichi": d.riichi === false ? 0 : 1});
      var who = d.riichi === false ? "S" + d.seat + " (" + plural(d.open_melds || 0, "call") + ", tenpai " +
        Math.round((d.tenpai || 0) * 100) + "%)" : "S" + d.seat + "'s riichi";
      li.appendChild(document.createTextNode("vs " + who + ": "));
      li.appendChild(kindIcon(entry.kind));
      var rate = d.rates ? d.rates[String(entry.kind)] : undefined;
      li.appendChild(document.createTextNode(" " + classLabel(d.tile_class) + (rate !== undefined ? " (" + rate + "%)" : "") +
        "; the safest in hand: " + classLabel(d.safest_class)));
      ul.appendChild(li);
    });
    return ul;
  }

  /* An entry: {hand, event_index, seat} with DiscardAnalysis.to_json() (tile, kind,
   * shanten_before, shanten_after, chosen, best, loss), and `riichi` (RiichiSummary.to_json())
   * and `deal_in` (DealIn.to_json()) when the discard declared riichi or dealt in; `deal_ins`, when
   * given, lists every deal-in (two for a double ron) and is shown instead of `deal_in`. */
  function renderAnalysis(board) {
    var panel = document.getElementById("analysis-panel");
    var box = clear(document.getElementById("analysis"));
    var has = Object.keys(analysisIndex).length > 0;
    panel.hidden = !has;
    if (!has) return;
    var entry = analysisAt(state.pos, state.step);
    if (!entry) {
      box.appendChild(h("p", {"class": "muted"}, SEAT_PAGE ? "This page analyses S" + state.seat + "'s discards only: step to one of them."
                                                           : "Step to a draw or a discard to see its analysis."));
      return;
    }
    if (entry.seat !== undefined && !seen(entry.seat)) {  /* a seat's analysis is its hand: only where the view shows it */
      box.appendChild(h("p", {"class": "muted"}, "S" + entry.seat + "'s hand is hidden from this seat: choose “all hands” or view from S" + entry.seat + "."));
      return;
    }
    var asked = entry.step !== undefined ? entry.step : entry.event_index + 1;
    if (SEAT_PAGE && state.step < asked) {  /* a seat's page asks first: the choice shows at the discard */
      var question = h("div", {"class": "analysis-entry question", "data-hand": entry.hand,
        "data-event-index": entry.event_index, "data-seat": entry.seat});
      question.appendChild(h("p", {"class": "analysis-head"}, "S" + entry.seat + " to discard" +
        (entry.shanten_before !== undefined ? " · shanten " + entry.shanten_before : "")));
      question.appendChild(h("p", {"class": "muted"}, "What would you cut? The danger under the tiles is what S" +
        entry.seat + " can see; the choice and its verdict show at the discard (step " + asked + ")."));
      box.appendChild(question);
      return;
    }
    var div = h("div", {"class": "analysis-entry" + (entry.verdict === "loss" ? " loss" : ""),
      "data-hand": entry.hand, "data-event-index": entry.event_index, "data-seat": entry.seat,
      "data-verdict": entry.verdict || "best"});
    var head = h("p", {"class": "analysis-head"});
    head.appendChild(document.createTextNode("S" + entry.seat + " "));
    head.appendChild(nameNode(entry.seat));
    head.appendChild(document.createTextNode(" discards "));
    if (entry.tile !== undefined && entry.tile !== null) head.appendChild(tileIcon(entry.tile));
    if (entry.shanten_before !== undefined && entry.shanten_after !== undefined) {
      head.appendChild(document.createTextNode(" · shanten " + entry.shanten_before + " → " + entry.shanten_after));
    }
    div.appendChild(head);
    var j = entry.judgement || {};
    var fields = (doc.analysis && doc.analysis.option_fields) || [];
    var optionOf = function (kind) {  /* an option is a list in the order of analysis.option_fields */
      var row = (j.options || []).filter(function (o) { return o[0] === kind; })[0];
      if (!row) return null;
      var o = {};
      fields.forEach(function (f, i) { o[f] = row[i] === undefined ? 0 : row[i]; });  /* trailing zeros left out */
      o.deal_in = (o.deal_in || 0) / 1000;
      return o;
    };
    if (entry.chosen) div.appendChild(acceptanceRow("Chosen", entry.chosen, entry.tile, entry.kind, optionOf(entry.kind)));
    var verdict = entry.verdict || (entry.loss ? "loss" : "best");
    if (!entry.judgement) {  /* a document without the model: the efficiency-best discards */
      (entry.best || []).forEach(function (b) { if (typeof b === "object") div.appendChild(acceptanceRow("Best", b, b.tile, b.kind)); });
    }
    if (verdict !== "best" && verdict !== "forced" && j.top_kind !== undefined) {
      if (entry.top) div.appendChild(acceptanceRow("Top", entry.top, null, j.top_kind, optionOf(j.top_kind)));
    }
    div.appendChild(verdictLine(entry, verdict));
    if (entry.danger && seen(entry.seat)) div.appendChild(dangerList(entry));
    if (entry.riichi) {
      var w = h("p", {"class": "waits"}, "Riichi on ");
      kindsLine(w, entry.riichi.waits, entry.riichi.left);
      if (entry.riichi.total !== undefined) w.appendChild(document.createTextNode(" (" + entry.riichi.total + " left)"));
      div.appendChild(w);
    }
    var dealIns = Array.isArray(entry.deal_ins) && entry.deal_ins.length ? entry.deal_ins : (entry.deal_in ? [entry.deal_in] : []);
    var discardStep = entry.step !== undefined ? entry.step : entry.event_index + 1;
    dealIns.forEach(function (d, k) {  // a double ron: two; each once its ron has shown the winner's hand
      if (board.step < discardStep + 1 + k && !(typeof d === "object" && seen(d.winner))) return;
      div.appendChild(h("p", {"class": "deal-in"}, typeof d === "string" ? d : dealInWords(d)));
    });
    box.appendChild(div);
  }

  // -- render ---------------------------------------------------------------------------------

  /* The square table fits the window below what is above it (the header, the controls, the
   * seats) and above the danger legend: on a laptop screen (1280x900) the controls, the whole
   * board, the viewed seat's own hand with its marks and the legend are in view without
   * scrolling. Never smaller than MIN_BOARD px. */
  var MIN_BOARD = 440;

  function fitBoard() {
    var svg = document.getElementById("board");
    if (state.layout !== "table") {
      svg.style.maxWidth = "";
      return;
    }
    var top = document.getElementById("board-wrap").getBoundingClientRect().top + window.scrollY;
    var legend = document.getElementById("danger-legend");
    var room = Math.floor(window.innerHeight - top - 8 - (legend.offsetHeight && legend.offsetHeight + 6));
    svg.style.maxWidth = Math.max(room, MIN_BOARD) + "px";
  }

  function chooseLayout() {
    var wrap = document.getElementById("board-wrap");
    return wrap.clientWidth && wrap.clientWidth < 560 ? "stack" : "table";
  }

  function render() {
    if (!HANDS.length) {
      document.getElementById("event-text").textContent = "This game has no hands.";
      return;
    }
    var board = computeBoard(state.pos, state.step);
    state.layout = chooseLayout();
    var svg = clear(document.getElementById("board"));
    svg.setAttribute("data-layout", state.layout);
    svg.setAttribute("data-hand", board.hand);
    svg.setAttribute("data-step", board.step);
    if (state.layout === "stack") drawStack(svg, board); else drawTable(svg, board);
    renderSeats(board);
    renderControls(board);
    renderEventText(board);
    renderResult(board);
    renderAnalysis(board);
    renderSummary();
    document.getElementById("danger-legend").hidden = !document.querySelector("#board .danger-mark");
    /* marks can show on the square table: the legend's line stays under it, the table still */
    document.body.classList.toggle("has-danger", anyDanger && state.layout === "table");
    renderHandList();
    renderChartNow();
    document.body.setAttribute("data-hand", board.hand);
    document.body.setAttribute("data-step", board.step);
    fitBoard();  /* after everything above the board is drawn */
    writeHash();
  }

  function bind() {
    document.getElementById("prev-step").addEventListener("click", function () { stepBy(-1); });
    document.getElementById("next-step").addEventListener("click", function () { stepBy(1); });
    document.getElementById("prev-hand").addEventListener("click", function () { handBy(-1); });
    document.getElementById("next-hand").addEventListener("click", function () { handBy(1); });
    document.getElementById("step-slider").addEventListener("input", function (e) { go(state.pos, Number(e.target.value)); });
    document.getElementById("seat-select").addEventListener("change", function (e) { setView(Number(e.target.value), null); });
    document.getElementById("all-hands").addEventListener("change", function (e) { setView(null, e.target.checked); });
    document.getElementById("play").addEventListener("click", function () { if (player.timer === null) play(); else pause(); });
    document.getElementById("speed").addEventListener("change", function (e) { setSpeed(e.target.value); });
    /* The keys step the game wherever the focus is, the seat and speed menus too (a focused
     * menu would otherwise take the arrows for itself: the seat changed instead of the step).
     * A menu still opens with Alt+↓, space or a click; text fields keep their keys. */
    document.addEventListener("keydown", function (e) {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      var tag = e.target && e.target.tagName;
      if (tag === "TEXTAREA" || (tag === "INPUT" && e.target.type !== "range" && e.target.type !== "checkbox")) return;
      if (e.key === " " && (tag === "BUTTON" || tag === "SELECT" || tag === "INPUT")) return;  /* space presses those */
      var done = true;
      switch (e.key) {
        case " ": if (player.timer === null) play(); else pause(); break;
        case "ArrowLeft": stepBy(-1); break;
        case "ArrowRight": stepBy(1); break;
        case "ArrowUp": handBy(-1); break;
        case "ArrowDown": handBy(1); break;
        case "Home": go(state.pos, 0); break;
        case "End": go(state.pos, "end"); break;
        default: done = false;
      }
      if (done) e.preventDefault();
    });
    window.addEventListener("hashchange", function () { if (readHash()) render(); });
    var width = 0;
    window.addEventListener("resize", function () {
      var now = document.getElementById("board-wrap").clientWidth;
      if (now !== width) {
        width = now;
        if (chooseLayout() !== state.layout) render();
      }
      fitBoard();
    });
  }

  window.TenhouReplay = {
    document: doc,
    go: go,
    step: stepBy,
    hand: handBy,
    state: snapshot,
    board: function (pos, step) {
      return pos === undefined ? computeBoard(state.pos, state.step) : computeBoard(pos, step === undefined ? 0 : step);
    },
    setView: setView,
    play: play,
    pause: pause,
    setSpeed: setSpeed,
    setAnalysis: function (analysis) {
      doc.analysis = analysis;
      indexAnalysis();
      render();
    },
    analysisAt: function (pos, step) {
      return pos === undefined ? analysisAt(state.pos, state.step) : analysisAt(pos, step);
    },
    positionOfIndex: positionOfIndex,
  };

  buildTileDefs();
  buildHeader();
  buildHandList();
  buildStandings();
  indexAnalysis();
  bind();
  renderPlay();
  readHash();
  render();
  document.documentElement.setAttribute("data-ready", "1");
})();
