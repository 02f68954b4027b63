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

