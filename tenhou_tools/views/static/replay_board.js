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

