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

