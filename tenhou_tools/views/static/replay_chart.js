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

