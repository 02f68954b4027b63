/* tenhou-tools offline statistics page: draws one player row's charts from the embedded document.
   The document (documents.stats.StatsReport.page_json) holds each row as a list in the order of
   its columns; only the row shown is unpacked into an object with the JSON report's member names.
   Every text from the document (names, dan names, ids) is written with textContent: data, never
   markup. A chart whose members are absent is replaced by a line saying so. */
(function () {
  'use strict';

  const SVG = 'http://www.w3.org/2000/svg';
  const doc = JSON.parse(document.getElementById('tenhou-tools-stats').textContent);
  const columns = doc.columns || {};
  const ROW = Array.isArray(columns.row) ? columns.row : [];
  const rows = Array.isArray(doc.rows) ? doc.rows : [];
  const whole = doc.set || {};
  const danNames = Array.isArray(doc.dan_names) ? doc.dan_names : [];  // by UN dan id, 0-20
  const notes = Array.isArray(doc.notes) ? doc.notes : [];
  const ORDINAL = ['1st', '2nd', '3rd', '4th'];
  const MISSING = 'not in this report';
  const NAME = ROW.indexOf('name'), SIZE = ROW.indexOf('players'), GAMES = ROW.indexOf('games');
  let current = -1;

  // -- small helpers -------------------------------------------------------------------------------

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function svgEl(tag, attrs, text) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  // Numbers as text by the one rounding rule (shared_text.js; the text report's, rounding.py),
  // from the figures as the document holds them (4 decimals), as the text report rounds them.
  const num = (v) => typeof v === 'number' && Number.isFinite(v);
  const pct = (v, digits) => (num(v) ? TenhouText.fixed(100 * v, digits === undefined ? 1 : digits) + ' %' : '—');
  const fixed = (v, digits) => (num(v) ? TenhouText.fixed(v, digits) : '—');
  const signed = (v, digits) => (num(v) ? TenhouText.fixed(v, digits, {plus: true}) : '—');
  const plural = (n, word) => n + ' ' + word + (n === 1 ? '' : 's');
  const nameOf = (p) => (p.name ? p.name : '(no name)');
  const cell = (row, i) => (i >= 0 ? row[i] : undefined);
  const danName = (d) => (num(d) && typeof danNames[d] === 'string' ? danNames[d] : null);

  // -- the document ------------------------------------------------------------------------------------

  function zip(names, values) {  // a list in the order of its column names as an object; null stays null
    if (!Array.isArray(values) || !Array.isArray(names)) return values;
    const out = {};
    names.forEach((k, i) => { if (values[i] !== undefined) out[k] = values[i]; });
    return out;
  }

  // Row `index` as an object with the JSON report's names for the members the page draws
  // (`stats --format json` has the same values): `last_rate` becomes rank4_rate (rank3_rate
  // three-player), the history's columns a list of games, dan ids and notes their texts.
  function player(index) {
    const p = zip(ROW, rows[index] || []);
    if ('last_rate' in p) {
      p['rank' + p.players + '_rate'] = p.last_rate;
      p['rank' + p.players + '_rate_ci'] = p.last_rate_ci;
      delete p.last_rate;
      delete p.last_rate_ci;
    }
    if (Array.isArray(p.latest)) {
      p.latest = zip(columns.latest, p.latest);
      p.latest.dan_name = danName(p.latest.dan);
    }
    if (Array.isArray(p.rate_change_per_game)) {
      const change = zip(columns.rate_change_per_game, p.rate_change_per_game);
      if (num(change.note)) change.note = notes[change.note];
      p.rate_change_per_game = change;
    }
    if (Array.isArray(p.play_quality)) p.play_quality = zip(columns.play_quality, p.play_quality);
    if (Array.isArray(p.tables)) p.tables = p.tables.map((t) => zip(columns.tables, t));
    if (Array.isArray(p.history)) {
      const names = Array.isArray(columns.history) ? columns.history : [];
      const by = zip(names, p.history);
      const n = Array.isArray(by.rank) ? by.rank.length : 0;
      const games = [];
      for (let i = 0; i < n; i++) {
        const g = {};
        for (const k of names) g[k] = Array.isArray(by[k]) ? by[k][i] : undefined;
        g.dan_name = danName(g.dan);
        games.push(g);
      }
      p.history = games;
    }
    return p;
  }

  function setFor(p) {
    const by = whole.by_players && whole.by_players[String(p.players)];
    return by || whole;
  }

  function tableKind(t) {
    const room = String(t.room || '?');
    const length = t.length === 'east' ? 'East' : t.length === 'south' ? 'East-South' : String(t.length || '?');
    return (t.players || '?') + 'p ' + room + ' ' + length;
  }

  function card(key, title, wide) {
    const section = el('section', {class: 'card' + (wide ? ' wide' : ''), 'data-chart': key});
    section.appendChild(el('h3', {}, title));
    return section;
  }

  function missing(section, what) {
    section.appendChild(el('p', {class: 'missing'}, (what ? what + ': ' : '') + MISSING));
    section.setAttribute('data-missing', '1');
    return section;
  }

  // Each item: [swatch class, text]; a list of classes draws one swatch of each, side by side
  // (the rank bars: one colour a rank).
  function legend(items) {
    const ul = el('ul', {class: 'legend'});
    for (const [cls, text] of items) {
      const li = el('li');
      const classes = Array.isArray(cls) ? cls : [cls];
      const swatches = el('span', {class: 'swatches'});
      for (const one of classes) swatches.appendChild(el('span', {class: 'swatch ' + one}));
      li.appendChild(swatches);
      li.appendChild(document.createTextNode(text));
      ul.appendChild(li);
    }
    return ul;
  }

  function chartBox(section) {
    const box = el('div', {class: 'chart'});
    section.appendChild(box);
    return box;
  }

  function widthOf(box) {
    return Math.max(260, Math.floor(box.getBoundingClientRect().width || 600));
  }

  function newSvg(box, w, h, label) {
    const svg = svgEl('svg', {viewBox: '0 0 ' + w + ' ' + h, width: w, height: h, role: 'img'});
    svg.setAttribute('aria-label', label);
    box.appendChild(svg);
    return svg;
  }

  function niceStep(span, target) {
    const raw = span / Math.max(1, target);
    const mag = Math.pow(10, Math.floor(Math.log10(raw)));
    for (const m of [1, 2, 5, 10]) if (m * mag >= raw) return m * mag;
    return 10 * mag;
  }

  // -- charts ----------------------------------------------------------------------------------------

  function rankDistribution(section, p) {
    const counts = Array.isArray(p.rank_counts) ? p.rank_counts : null;
    if (!counts || !counts.length) return missing(section);
    const box = chartBox(section);
    const w = widthOf(box);
    const h = 190;
    const top = 24, bottom = 34, left = 8, right = 8;
    const games = counts.reduce((a, b) => a + b, 0);
    const avg = setFor(p).rank_rates || [];
    const rates = counts.map((n) => (games ? n / games : 0));
    const maxRate = Math.max(0.05, ...rates, ...avg.filter(num));
    const svg = newSvg(box, w, h, 'Rank distribution');
    const slot = (w - left - right) / counts.length;
    const barW = Math.min(90, slot * 0.6);
    const y = (r) => top + (h - top - bottom) * (1 - r / maxRate);
    svg.appendChild(svgEl('line', {class: 'baseline', x1: left, x2: w - right, y1: y(0), y2: y(0)}));
    counts.forEach((n, i) => {
      const cx = left + slot * (i + 0.5);
      const r = rates[i];
      svg.appendChild(svgEl('rect', {class: 'bar r' + (i + 1), x: cx - barW / 2, y: y(r), width: barW,
        height: Math.max(0, y(0) - y(r)), 'data-rank': i + 1, 'data-count': n}));
      const above = num(avg[i]) ? Math.max(r, avg[i]) : r;  // the label clears the set's mark
      svg.appendChild(svgEl('text', {x: cx, y: y(above) - 5, 'text-anchor': 'middle'}, n + ' · ' + pct(r, 0)));
      svg.appendChild(svgEl('text', {class: 'axis', x: cx, y: h - 12, 'text-anchor': 'middle'}, ORDINAL[i] || (i + 1) + 'th'));
      if (num(avg[i])) {
        svg.appendChild(svgEl('line', {class: 'set-mark', x1: cx - barW / 2 - 6, x2: cx + barW / 2 + 6,
          y1: y(avg[i]), y2: y(avg[i]), 'data-rank': i + 1}));
      }
    });
    section.appendChild(legend([[counts.map((_, i) => 'r' + (i + 1)), 'share of ' + plural(games, 'game')],
      ['avg', "the whole set's share"]]));
    const extra = [];
    if (num(p.avg_rank)) extra.push('Average rank ' + fixed(p.avg_rank, 2) + (num(setFor(p).avg_rank) ? ' (set ' + fixed(setFor(p).avg_rank, 2) + ')' : ''));
    if (num(p.top2_rate)) extra.push('1st or 2nd ' + pct(p.top2_rate));
    if (extra.length) section.appendChild(el('p', {class: 'note'}, extra.join(' · ')));
    return section;
  }

  function historyOf(p) {
    return Array.isArray(p.history) && p.history.length ? p.history : null;
  }

  function xAxis(svg, n, x, y0, h) {
    const g = svgEl('g', {class: 'axis'});
    const step = Math.max(1, niceStep(n, 6));
    for (let k = step === 1 ? 1 : step; k <= n; k += step) {
      g.appendChild(svgEl('text', {x: x(k), y: h - 4, 'text-anchor': 'middle'}, k));
    }
    g.appendChild(svgEl('line', {class: 'baseline', x1: x(1), x2: x(Math.max(n, 1)), y1: y0, y2: y0}));
    svg.appendChild(g);
  }

  function rankHistory(section, p) {
    const history = historyOf(p);
    if (!history) return missing(section, 'the rank of each game');
    const box = chartBox(section);
    const w = widthOf(box);
    const size = p.players || 4;
    const h = 60 + 34 * size;
    const left = 34, right = 10, top = 12, bottom = 28;
    const n = history.length;
    const x = (k) => left + 6 + (n <= 1 ? (w - left - right - 6) / 2 : (w - left - right - 12) * (k - 1) / (n - 1));
    const y = (rank) => top + (h - top - bottom) * (rank - 1) / Math.max(1, size - 1);
    const svg = newSvg(box, w, h, 'Rank of each game');
    const grid = svgEl('g', {class: 'grid'});
    for (let r = 1; r <= size; r++) {
      grid.appendChild(svgEl('line', {x1: left, x2: w - right, y1: y(r), y2: y(r)}));
      svg.appendChild(svgEl('text', {class: 'axis', x: left - 8, y: y(r) + 4, 'text-anchor': 'end'}, ORDINAL[r - 1]));
    }
    svg.insertBefore(grid, svg.firstChild);
    xAxis(svg, n, x, h - bottom + 6, h);
    const radius = n > 400 ? 1.6 : n > 100 ? 2.4 : 3.6;
    const dots = svgEl('g', {class: 'games'});
    history.forEach((g, i) => {
      const dot = svgEl('circle', {class: 'game r' + g.rank, cx: x(i + 1), cy: y(g.rank), r: radius,
        'data-rank': g.rank});
      dot.appendChild(svgEl('title', {}, (g.when || '') + ': ' + (ORDINAL[g.rank - 1] || g.rank)));
      dots.appendChild(dot);
    });
    svg.appendChild(dots);
    const span = Math.max(5, Math.min(50, Math.floor(n / 5)));
    if (n >= 10) {
      let sum = 0;
      const pts = [];
      history.forEach((g, i) => {
        sum += g.rank;
        if (i >= span) sum -= history[i - span].rank;
        if (i >= span - 1) pts.push(x(i + 1).toFixed(1) + ',' + y(sum / span).toFixed(1));
      });
      svg.appendChild(svgEl('polyline', {class: 'rolling', points: pts.join(' ')}));
    }
    const items = [];
    for (let r = 1; r <= size; r++) items.push(['r' + r, ORDINAL[r - 1]]);
    if (n >= 10) items.push(['line-swatch', 'average of the last ' + span]);
    section.appendChild(legend(items));
    section.appendChild(el('p', {class: 'note'}, plural(n, 'game') + ' in date order, oldest first.'));
    return section;
  }

  function lineChart(section, p, key, label, opts) {
    const history = historyOf(p);
    const points = history ? history.map((g, i) => [i + 1, g[key], g]).filter((t) => num(t[1])) : [];
    if (!points.length) return missing(section, label);
    const box = chartBox(section);
    const w = widthOf(box);
    const h = 200;
    const left = opts.left || 46, right = 10, top = 12, bottom = 28;
    const n = history.length;
    let lo = Math.min(...points.map((t) => t[1]));
    let hi = Math.max(...points.map((t) => t[1]));
    if (opts.pad) { lo -= opts.pad; hi += opts.pad; }
    if (hi - lo < (opts.minSpan || 1)) { const mid = (hi + lo) / 2; lo = mid - (opts.minSpan || 1) / 2; hi = mid + (opts.minSpan || 1) / 2; }
    const x = (k) => left + (n <= 1 ? (w - left - right) / 2 : (w - left - right) * (k - 1) / (n - 1));
    const y = (v) => top + (h - top - bottom) * (1 - (v - lo) / (hi - lo));
    const svg = newSvg(box, w, h, label);
    const grid = svgEl('g', {class: 'grid'});
    for (const [v, text] of opts.ticks(lo, hi, points)) {
      grid.appendChild(svgEl('line', {x1: left, x2: w - right, y1: y(v), y2: y(v)}));
      svg.appendChild(svgEl('text', {class: 'axis', x: left - 6, y: y(v) + 4, 'text-anchor': 'end'}, text));
    }
    svg.insertBefore(grid, svg.firstChild);
    xAxis(svg, n, x, h - bottom + 6, h);
    let d = '';
    points.forEach(([k, v], i) => {
      if (opts.step && i) d += ' H' + x(k).toFixed(1) + ' V' + y(v).toFixed(1);
      else d += (i ? ' L' : 'M') + x(k).toFixed(1) + ',' + y(v).toFixed(1);
    });
    svg.appendChild(svgEl('path', {class: opts.step ? 'step' : 'line', d: d, 'data-points': points.length}));
    // a step line marks no games, unless there is one: a path of one point draws nothing
    if (points.length <= 60 && (!opts.step || points.length === 1)) {
      for (const [k, v, g] of points) {
        const dot = svgEl('circle', {class: 'point', cx: x(k), cy: y(v), r: 2.5});
        dot.appendChild(svgEl('title', {}, (g.when || '') + ': ' + opts.format(v, g)));
        svg.appendChild(dot);
      }
    }
    return section;
  }

  function rateHistory(section, p) {
    lineChart(section, p, 'rate', 'the rate at each game', {
      pad: 5, minSpan: 40,
      ticks: (lo, hi) => {
        const step = niceStep(hi - lo, 4);
        const out = [];
        for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) out.push([v, fixed(v, 0)]);
        return out;
      },
      format: (v) => 'R' + fixed(v, 0),
    });
    const latest = p.latest || {};
    const facts = [];
    if (num(latest.rate)) facts.push('Latest R' + fixed(latest.rate, 0) + (latest.date ? ' (' + latest.date + ')' : ''));
    const change = p.rate_change_per_game;
    if (change && num(change.value)) {
      facts.push('expected change per game ' + signed(change.value, 2) + (change.estimate ? ' (estimate)' : ''));
    }
    if (facts.length) section.appendChild(el('p', {class: 'note'}, facts.join(' · ')));
    if (change && change.note) section.appendChild(el('p', {class: 'note'}, change.note));
    return section;
  }

  function danHistory(section, p) {
    const history = historyOf(p) || [];
    const names = Object.assign({}, danNames);
    for (const g of history) if (num(g.dan) && g.dan_name) names[g.dan] = String(g.dan_name);
    lineChart(section, p, 'dan', 'the dan at each game', {
      step: true, minSpan: 2, left: 58,
      ticks: (lo, hi) => {
        const out = [];
        const step = Math.max(1, Math.ceil((hi - lo) / 6));
        for (let v = Math.ceil(lo); v <= hi; v += step) if (v >= 0) out.push([v, names[v] || String(v)]);
        return out;
      },
      format: (v) => names[v] || String(v),
    });
    const latest = p.latest || {};
    if (latest.dan_name) section.appendChild(el('p', {class: 'note'}, 'Latest ' + latest.dan_name + (latest.date ? ' (' + latest.date + ')' : '')));
    return section;
  }

  function mainRates(p) {
    const set = setFor(p);
    const size = p.players || (p.rank_counts || []).length || 4;
    const rows = [
      ['win_rate', 'Win', set.win_rate],
      ['deal_in_rate', 'Deal-in', set.deal_in_rate],
      ['riichi_rate', 'Riichi', set.riichi_rate],
      ['call_rate', 'Call', set.call_rate],
      ['rank1_rate', '1st place', (set.rank_rates || [])[0]],
      ['rank' + size + '_rate', ORDINAL[size - 1] + ' place', (set.rank_rates || [])[size - 1]],
    ];
    const out = [];
    for (const [key, label, avg] of rows) {
      if (num(p[key])) out.push({key: key, label: label, value: p[key], ci: p[key + '_ci'], avg: avg});
    }
    const q = p.play_quality;
    if (q && num(q.share)) {
      out.push({key: 'play_quality', label: 'Agreement (top pick)', value: q.share, ci: q.share_ci,
        avg: num(q.table_share) ? q.table_share : set.play_quality_share});
    }
    return out;
  }

  function ratesChart(section, p) {
    const rows = mainRates(p);
    if (!rows.length) return missing(section);
    const box = chartBox(section);
    const w = widthOf(box);
    const narrow = w < 480;
    const labelW = narrow ? 96 : 130, valueW = narrow ? 58 : 70, right = 8;
    const rowH = 30, top = 8, bottom = 26;
    const h = top + rows.length * rowH + bottom;
    const hiAll = Math.max(...rows.map((r) => Math.max(r.value, Array.isArray(r.ci) ? r.ci[1] : 0, num(r.avg) ? r.avg : 0)));
    const max = Math.min(1, Math.ceil((hiAll + 0.02) * 10) / 10);
    const x0 = labelW, x1 = w - valueW - right;
    const x = (v) => x0 + (x1 - x0) * v / max;
    const svg = newSvg(box, w, h, 'Main rates with their 95 % intervals');
    const grid = svgEl('g', {class: 'grid'});
    const step = max > 0.5 ? 0.2 : 0.1;
    for (let v = 0; v <= max + 1e-9; v += step) {
      grid.appendChild(svgEl('line', {x1: x(v), x2: x(v), y1: top, y2: h - bottom}));
      svg.appendChild(svgEl('text', {class: 'axis', x: x(v), y: h - 8, 'text-anchor': 'middle'}, fixed(v * 100, 0) + '%'));
    }
    svg.insertBefore(grid, svg.firstChild);
    rows.forEach((r, i) => {
      const cy = top + rowH * (i + 0.5);
      const g = svgEl('g', {class: 'rate-row', 'data-key': r.key, 'data-value': r.value});
      g.appendChild(svgEl('text', {x: 0, y: cy + 4}, r.label));
      if (Array.isArray(r.ci) && num(r.ci[0]) && num(r.ci[1])) {
        g.appendChild(svgEl('line', {class: 'interval', x1: x(r.ci[0]), x2: x(r.ci[1]), y1: cy, y2: cy}));
      }
      if (num(r.avg)) {
        g.appendChild(svgEl('line', {class: 'set-mark', x1: x(r.avg), x2: x(r.avg), y1: cy - 9, y2: cy + 9,
          'data-value': r.avg}));
      }
      g.appendChild(svgEl('circle', {class: 'value', cx: x(r.value), cy: cy, r: 4.5}));
      g.appendChild(svgEl('text', {x: w - right, y: cy + 4, 'text-anchor': 'end'}, pct(r.value)));
      const tip = r.label + ' ' + pct(r.value) + (Array.isArray(r.ci) ? ' (95 % ' + pct(r.ci[0]) + '–' + pct(r.ci[1]) + ')' : '') +
        (num(r.avg) ? ', set ' + pct(r.avg) : '');
      g.appendChild(svgEl('title', {}, tip));
      svg.appendChild(g);
    });
    section.appendChild(legend([['ci', '95 % interval'], ['avg', "the whole set's average"]]));
    const q = p.play_quality;
    if (!q) section.appendChild(el('p', {class: 'note'}, 'Agreement with the analysis (play quality): ' + MISSING + '.'));
    else if (num(q.loss_rate)) {
      section.appendChild(el('p', {class: 'note quality-note'}, 'Play quality: losses (✗) on ' + pct(q.loss_rate) +
        ' of ' + q.discards + ' discards, ' + fixed(q.mean_cost, 1) +
        ' points of expected value given up a discard against the analysis\'s top pick.'));
    }
    return section;
  }

  function stableDan(section, p) {
    const tables = Array.isArray(p.tables) && p.tables.length ? p.tables : null;
    if (!tables) return missing(section, 'the figures per table kind');
    const box = chartBox(section);
    const w = widthOf(box);
    const labels = tables.map((t) => tableKind(t) + ' · ' + plural(t.games || 0, 'game'));
    const svg = newSvg(box, w, 10, 'Stable dan per table kind');
    // Each label as drawn, so that none runs into its bar: beside the bars when the longest fits
    // in under half the width, else above its bar.
    const gap = 10;
    const widest = Math.max(...labels.map((text) => {
      const probe = svgEl('text', {x: 0, y: 0}, text);
      svg.appendChild(probe);
      const width = probe.getComputedTextLength();
      svg.removeChild(probe);
      return width;
    }));
    const narrow = w < 480 || widest + gap > w * 0.45;  // then each row's label goes above its bar
    const labelW = narrow ? 0 : Math.ceil(widest) + gap, valueW = 48, right = 6;
    const rowH = narrow ? 44 : 28, top = 6, bottom = 24;
    const h = top + rowH * tables.length + bottom;
    svg.setAttribute('viewBox', '0 0 ' + w + ' ' + h);
    svg.setAttribute('height', h);
    svg.setAttribute('data-layout', narrow ? 'above' : 'beside');
    // The axis starts where the bars do, at the scale's least value (3級 = -2: nothing but last
    // places); a label above its bar leaves room for the axis's first number.
    const lo = -2;
    const hi = Math.max(10, ...tables.map((t) => (num(t.stable_dan) ? Math.ceil(t.stable_dan) : 0)));
    const x0 = narrow ? 10 : labelW, x1 = w - valueW - right;
    const x = (v) => x0 + (x1 - x0) * (Math.max(lo, v) - lo) / (hi - lo);
    const grid = svgEl('g', {class: 'grid'});
    const tick = narrow ? 4 : 2;
    for (let v = lo; v <= hi; v += tick) {
      grid.appendChild(svgEl('line', {x1: x(v), x2: x(v), y1: top, y2: h - bottom}));
      svg.appendChild(svgEl('text', {class: 'axis', x: x(v), y: h - 6, 'text-anchor': 'middle'}, v));
    }
    svg.insertBefore(grid, svg.firstChild);
    tables.forEach((t, i) => {
      const cy = top + rowH * i + (narrow ? 31 : rowH / 2);
      const g = svgEl('g', {class: 'kind-row', 'data-kind': tableKind(t), 'data-games': t.games});
      g.appendChild(svgEl('text', {class: 'kind-label', x: 0, y: narrow ? cy - 14 : cy + 4}, labels[i]));
      if (num(t.stable_dan)) {
        g.appendChild(svgEl('rect', {class: 'stable-bar', x: x(lo), y: cy - 7, height: 14,
          width: Math.max(1, x(t.stable_dan) - x(lo)), 'data-value': t.stable_dan}));
        g.appendChild(svgEl('text', {class: 'stable-value', x: w - right, y: cy + 4, 'text-anchor': 'end'},
          fixed(t.stable_dan, 2)));
      } else {
        g.appendChild(svgEl('text', {class: 'stable-none', x: x(lo) + 4, y: cy + 4}, 'undefined'));
      }
      svg.appendChild(g);
    });
    section.appendChild(el('p', {class: 'note'}, 'Stable dan on its scale (初段 = 1 … 十段 = 10, 1級 = 0, 3級 = -2 where the axis starts); not given without last places or without a pt table.'));
    const wrap = el('div', {class: 'table-wrap'});
    const table = el('table', {class: 'kinds'});
    const head = el('tr');
    const heads = [['Table kind', 'Kind'], ['Games', 'Games'], ['Ranks', 'Ranks'], ['Avg rank', 'Avg'],
      ['pt/game', 'pt/g'], ['Stable dan', 'Stable']];
    for (const [long, short] of heads) {
      const th = el('th', {title: long});
      th.appendChild(el('span', {class: 'long'}, long));
      th.appendChild(el('span', {class: 'short'}, short));
      head.appendChild(th);
    }
    table.appendChild(head);
    for (const t of tables) {
      const tr = el('tr');
      tr.appendChild(el('td', {}, tableKind(t)));
      tr.appendChild(el('td', {}, t.games));
      tr.appendChild(el('td', {}, Array.isArray(t.ranks) ? t.ranks.join('/') : '—'));
      tr.appendChild(el('td', {}, fixed(t.avg_rank, 2)));
      tr.appendChild(el('td', {}, signed(t.dan_pt_per_game, 1)));
      tr.appendChild(el('td', {}, num(t.stable_dan) ? fixed(t.stable_dan, 2) + (t.stable_dan_name ? ' ' + t.stable_dan_name : '') : '—'));
      table.appendChild(tr);
    }
    wrap.appendChild(table);
    section.appendChild(wrap);
    return section;
  }

  // -- the page ----------------------------------------------------------------------------------------

  function head(p) {
    const box = el('div', {class: 'player-head'});
    box.appendChild(el('h2', {id: 'player-name'}, nameOf(p)));
    const facts = el('p', {class: 'facts'});
    const parts = [p.players + '-player', plural(p.games || 0, 'game'), plural(p.hands || 0, 'hand')];
    const latest = p.latest;
    if (latest && latest.dan_name) parts.push('latest ' + latest.dan_name + (num(latest.rate) ? ', R' + fixed(latest.rate, 0) : ''));
    if (latest && latest.date) parts.push('last game ' + latest.date);
    for (const text of parts) facts.appendChild(el('span', {}, text));
    box.appendChild(facts);
    return box;
  }

  function render(index) {
    const main = document.getElementById('player');
    main.textContent = '';
    if (!rows.length) {
      main.appendChild(el('p', {class: 'missing'}, 'No player in this report.'));
      return;
    }
    const p = player(index);
    main.appendChild(head(p));
    const grid = el('div', {class: 'charts'});
    main.appendChild(grid);
    const add = (section) => { grid.appendChild(section); return section; };
    rankDistribution(add(card('rank-distribution', 'Rank distribution')), p);
    ratesChart(add(card('rates', 'Main rates against the whole set')), p);
    rankHistory(add(card('rank-history', 'Rank per game', true)), p);
    rateHistory(add(card('rate-history', 'Rate over time')), p);
    danHistory(add(card('dan-history', 'Dan over time')), p);
    stableDan(add(card('stable-dan', 'Stable dan per table kind', true)), p);
  }

  function show(index) {
    if (!rows.length) { render(0); return; }
    const i = Math.max(0, Math.min(rows.length - 1, Number(index) || 0));
    current = i;
    const select = document.getElementById('player-select');
    if (select.value !== String(i)) {
      if (!select.querySelector('option[value="' + i + '"]')) {
        document.getElementById('player-filter').value = '';
        fillPicker('');
      }
      select.value = String(i);
    }
    document.body.setAttribute('data-player', String(i));
    render(i);
    const hash = '#player=' + i;
    if (location.hash !== hash) history.replaceState(null, '', hash);
  }

  const fold = (s) => String(s).normalize('NFKC').toLowerCase();

  function fillPicker(filter) {
    const select = document.getElementById('player-select');
    select.textContent = '';
    const want = fold(filter || '');
    let shown = 0;
    rows.forEach((row, i) => {
      const p = {name: cell(row, NAME), players: cell(row, SIZE), games: cell(row, GAMES)};
      if (want && !fold(p.name || '').includes(want)) return;
      const option = el('option', {value: String(i)}, nameOf(p) + ' · ' + p.players + 'p · ' + plural(p.games || 0, 'game'));
      select.appendChild(option);
      shown += 1;
    });
    if (!shown) select.appendChild(el('option', {value: '', disabled: 'disabled'}, 'no name matches'));
    return shown;
  }

  // How the logs were read (the document's `inputs`, absent for a report from a database alone),
  // in the words of the summary `stats` writes on stderr, and the logs that could not be read,
  // named as there: each as text, a hidden character as its escape (TenhouText.escaped).
  function showInputs() {
    const inputs = doc.inputs;
    if (!inputs || typeof inputs !== 'object') return;
    const unreadable = num(inputs.unreadable) ? inputs.unreadable : 0;
    const parts = [plural((inputs.read || 0) + unreadable, 'log') + ' read', unreadable + ' unreadable'];
    if (inputs.duplicates) parts.push(plural(inputs.duplicates, 'duplicate') + ' skipped');
    if (num(inputs.added)) parts.push(plural(inputs.added, 'game') + ' added to the database, ' + inputs.known + ' already in it');
    else if (inputs.filtered) parts.push(plural(inputs.filtered, 'game') + ' left out by the filters');
    if (inputs.not_logs) parts.push(plural(inputs.not_logs, 'file') + ' skipped: not Tenhou logs');
    const summary = document.getElementById('inputs-summary');
    summary.textContent = parts.join('; ') + '.';
    summary.hidden = false;
    const named = Array.isArray(inputs.unreadable_examples) ? inputs.unreadable_examples : [];
    if (!unreadable) return;
    const list = document.getElementById('unreadable-logs');
    for (const message of named) list.appendChild(el('li', {}, TenhouText.escaped(message)));
    if (unreadable > named.length) list.appendChild(el('li', {}, '… and ' + (unreadable - named.length) + ' more'));
    document.getElementById('unreadable').hidden = false;
  }

  function start() {
    showInputs();
    const total = rows.reduce((a, row) => a + (cell(row, GAMES) || 0), 0);
    const summary = whole.games !== undefined
      ? plural(rows.length, 'player row') + ' · ' + plural(total, 'player-game')
      : plural(rows.length, 'player row');
    const over = whole.over === 'every player'
      ? ' · the set averages are over every player of the games read'
      : ' · the set averages are over the rows in this report';
    document.getElementById('set-summary').textContent = summary + over + (whole.by_players ? ', per table size.' : '.');
    fillPicker('');
    const select = document.getElementById('player-select');
    select.addEventListener('change', () => { if (select.value !== '') show(select.value); });
    const filter = document.getElementById('player-filter');
    filter.addEventListener('input', () => {
      fillPicker(filter.value);
      const first = select.querySelector('option[value]:not([disabled])');
      if (first && first.value !== String(current)) show(first.value);
      else if (first) select.value = String(current);
    });
    const m = /^#player=(\d+)$/.exec(location.hash);
    show(m ? Number(m[1]) : 0);
    let pending = null;
    let lastWidth = window.innerWidth;
    window.addEventListener('resize', () => {
      if (window.innerWidth === lastWidth) return;
      lastWidth = window.innerWidth;
      clearTimeout(pending);
      pending = setTimeout(() => render(current), 120);
    });
    window.TenhouStats = {show: show, current: () => current, count: rows.length, redraw: () => render(current),
      row: player};
    document.documentElement.setAttribute('data-ready', '1');
  }

  start();
})();
