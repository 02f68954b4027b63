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
    document.getElementById("game-title").textContent = escaped(doc.log_id || doc.source || "Game");
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
      if (p && p.rate) span.appendChild(document.createTextNode(" (R" + fixed(p.rate, 0) + ")"));
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
      tr.appendChild(h("td", {"class": "num"}, fixed(f.points[seat], 1, {plus: true})));
      body.appendChild(tr);
    });
  }

