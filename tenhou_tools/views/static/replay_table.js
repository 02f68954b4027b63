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

