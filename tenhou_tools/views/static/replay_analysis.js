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
      var ev = "ev " + fixed(option.ev, 0, GROUPED);
      var parts = [];
      var win = option.ev + (option.risk || 0) + (option.later || 0) - (option.keep || 0);
      if (acc.value && acc.value.win_points > 0) parts.push("wins " + fixed(Math.min(1, win / acc.value.win_points) * 100, 0) +
        "%, " + fixed(acc.value.win_points, 0, GROUPED) + " a win" + (acc.value.furiten ? ", furiten" : ""));
      else if (acc.value) parts.push("cannot win" + (acc.value.furiten ? ", furiten" : ""));
      if (option.deal_in > 0) parts.push("deal-in " + fixed(option.deal_in * 100, 0) + "%, -" +
        fixed(option.risk + option.later, 0, GROUPED));
      if (option.keep) parts.push("keep " + fixed(option.keep, 0, {plus: true, grouping: true}));
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
    /* Each column's words, and the short form its header shows: the header stays one line in the
     * side column of a laptop screen (the words are its title, and label each value when a narrow
     * panel shows a seat's row as labelled values). */
    var words = ["Seat", "judged", "best", "forced", "close", "losses", "ev lost a choice", "pushes", "dealt into riichi"];
    var SHORT = {"ev lost a choice": "ev lost", "dealt into riichi": "into riichi"};
    words.forEach(function (t) { head.appendChild(h("th", SHORT[t] ? {title: t} : {}, SHORT[t] || t)); });
    table.appendChild(head);
    shown.forEach(function (r) {
      var tr = h("tr", {"data-seat": r.seat});
      var who = h("td");
      who.appendChild(document.createTextNode("S" + r.seat + " "));
      who.appendChild(nameNode(r.seat));
      tr.appendChild(who);
      var best = r.best + (r.share_best !== null && r.share_best !== undefined ? " (" + fixed(r.share_best * 100, 0) + "%)" : "");
      var dealt = Object.keys(r.deal_ins || {}).filter(function (k) { return k !== "not_in_riichi"; })
        .map(function (k) { return r.deal_ins[k] + " " + classLabel(k); }).join(", ") || "–";
      var mean = r.mean_cost !== null && r.mean_cost !== undefined ? fixed(r.mean_cost, 0, GROUPED) : "–";
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
        fixed(j.cost_points || 0, 0, GROUPED) + " points of ev below the top ";
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
        fixed((d.tenpai || 0) * 100, 0) + "%)" : "S" + d.seat + "'s riichi";
      li.appendChild(document.createTextNode("vs " + who + ": "));
      li.appendChild(kindIcon(entry.kind));
      var rate = d.rates ? d.rates[String(entry.kind)] : undefined;
      li.appendChild(document.createTextNode(" " + classLabel(d.tile_class) + (rate !== undefined ? " (" + fixed(rate, 1) + "%)" : "") +
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

