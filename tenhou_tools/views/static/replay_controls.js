  // -- state, URL, API ------------------------------------------------------------------------

  var state = {
    pos: 0,
    step: 0,
    seat: doc.viewer === null || doc.viewer === undefined ? 0 : doc.viewer,
    all: !SEAT_PAGE && (doc.viewer === null || doc.viewer === undefined ? true : !!doc.all_hands),
    layout: null,
    notice: null,  /* what the address asked for that the game does not have, until the next move */
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
    state.notice = null;  /* a move of one's own: the address's request is answered */
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

  /* The moment the address names, #HAND:STEP (#E2-1:12; #E2-1 is its deal): true when it
   * names one, or names something (then the page opens at the first deal and says why: a hand
   * the game does not have, a step past the hand's end, or no moment at all); false for none. */
  function readHash() {
    var asked = location.hash || "";
    if (asked === "" || asked === "#") return false;
    try {
      asked = decodeURIComponent(asked);
    } catch (e) {
      /* not UTF-8 once decoded: shown as written */
    }
    var m = /^#([ESWN]\d-\d+)(?::(\d+))?$/i.exec(asked);
    var pos = m ? HANDS.findIndex(function (x) { return x.label.toUpperCase() === m[1].toUpperCase(); }) : -1;
    var step = m && m[2] ? parseInt(m[2], 10) : 0;
    if (pos >= 0 && step <= HANDS[pos].events.length) {
      state.pos = pos;
      state.step = step;
      state.notice = null;
      return true;
    }
    state.pos = 0;
    state.step = 0;
    state.notice = momentNotice(asked.slice(1), m, pos);
    return true;
  }

  /* Why the address's moment is not shown, in words: `asked` is the text after "#" (data from
   * the address: shown escaped and cut, never as markup). */
  function momentNotice(asked, m, pos) {
    var chars = Array.from(escaped(asked));
    var shown = "“" + (chars.length > 40 ? chars.slice(0, 39).join("") + "…" : chars.join("")) + "”";
    var first = HANDS.length ? handLabel(0) : null;
    var where = HANDS.length ? ": showing the first deal, " + first + " step 0." : ".";
    if (!m) return "The address asks for " + shown + ", which is not a moment (HAND:STEP, such as " +
      (first || "E1-0") + ":5)" + where;
    var hands = HANDS.length === 1 ? " (its one hand: " + first + ")"
      : HANDS.length ? " (its hands: " + first + " to " + handLabel(HANDS.length - 1) + ")" : "";
    if (pos < 0) return "The address asks for " + shown + ", but this game has no hand " + m[1].toUpperCase() + hands + where;
    return "The address asks for " + shown + ", but hand " + handLabel(pos) + " has no step " + m[2] +
      " (its steps: 0 to " + HANDS[pos].events.length + ")" + where;
  }

  function renderNotice() {
    var notice = document.getElementById("moment-notice");
    notice.textContent = state.notice || "";
    notice.hidden = !state.notice;
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

