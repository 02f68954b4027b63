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
    renderNotice();
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
