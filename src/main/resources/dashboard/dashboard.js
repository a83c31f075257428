'use strict';
// georesolver operations dashboard. Everything shown comes from the Server-Sent Events of
// GET /admin/events: one "hello" with the whole picture on connect, then a "snapshot" every second
// and "breaker", "reconcile", "correction", "reload" and "shadow" events as they happen (their
// shapes are documented with the event-bus addresses OPS_EVENTS, OPS_STATE and RECONCILE_EVENTS). No library, no build
// step; all text is set with textContent.
(function () {
  const SVG_NS = 'http://www.w3.org/2000/svg';
  const PALETTE = ['#4ea1ff', '#c297ff', '#3fd0c9', '#ffb454', '#ff7eb6', '#a5d66f', '#f0e68c', '#79c0ff'];
  const REFUSED = 'refused';
  const REFUSED_COLOR = '#7d8590';
  const SMOOTH_S = 5;          // each point of the routing chart sums the last 5 seconds
  const MIN_SPAN_S = 60;       // the time axis spans at least a minute ...
  const MAX_SPAN_S = 300;      // ... and at most five
  const EVENTS_KEPT = 20;
  const EVENTS_SHOWN = 7;
  const CORRECTIONS_SHOWN = 4;
  const RECONCILE_SILENT_MS = 30000;
  const RECONNECT_MS = 5000;
  const STATE_LABELS = {
    closed: 'closed', half_open: 'half-open', open: 'open',
    forced_open: 'forced open', forced_closed: 'forced closed', unreachable: 'unreachable'
  };
  // The agreement scale of the shadow matrix: the share of samples both rungs found that lie within 250 m.
  const AGREEMENT_GOOD = 0.95;
  const AGREEMENT_WARN = 0.80;
  const SHADOW_NOTES = {
    off: 'shadow sampling is off',
    waiting: 'waiting for the shadow figures',
    unavailable: 'shadow figures unavailable',
    empty: 'no samples yet'
  };
  const LATENCY_LINES = [['p50', '#3fd0c9'], ['p90', '#e3b341'], ['p99', '#f85149']];

  const model = {
    tiers: [], history: [], breakerEvents: [], reconcile: null, corrections: [],
    revision: null, offsetMs: 0, latest: null, shadow: null
  };
  const colors = new Map();

  const byId = id => document.getElementById(id);

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function svgEl(tag, attrs, text) {
    const e = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = String(text);
    return e;
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
  }

  function colorOf(source) {
    if (source === REFUSED) return REFUSED_COLOR;
    if (!colors.has(source)) colors.set(source, PALETTE[colors.size % PALETTE.length]);
    return colors.get(source);
  }

  function pct(share) {
    if (share === null || share === undefined || Number.isNaN(share)) return '–';
    const p = share * 100;
    return (p >= 10 || p === 0 ? p.toFixed(0) : p.toFixed(1)) + '%';
  }

  function ms(v) {
    if (v === null || v === undefined) return null;
    if (v >= 1000) return [(v / 1000).toFixed(2), 's'];
    return [v >= 10 ? v.toFixed(0) : v.toFixed(1), 'ms'];
  }

  function clock(at) {
    const d = new Date(at);
    return [d.getHours(), d.getMinutes(), d.getSeconds()].map(n => String(n).padStart(2, '0')).join(':');
  }

  function age(seconds) {
    if (seconds === null || seconds === undefined) return '–';
    if (seconds < 120) return Math.round(seconds) + ' s';
    if (seconds < 7200) return Math.round(seconds / 60) + ' min';
    return (seconds / 3600).toFixed(1) + ' h';
  }

  function serverNow() {
    return Date.now() + model.offsetMs;
  }

  // ---- the feed ------------------------------------------------------------------------------

  function parse(e) {
    try {
      return JSON.parse(e.data);
    } catch (err) {
      return null;
    }
  }

  function setConn(state, text) {
    byId('conn').dataset.state = state;
    byId('conn-text').textContent = text || state;
  }

  function connect() {
    const source = new EventSource('../admin/events');
    source.addEventListener('open', () => setConn('live'));
    source.addEventListener('error', () => {
      if (source.readyState === EventSource.CLOSED) {
        setConn('lost', 'no feed');
        setTimeout(connect, RECONNECT_MS);
      } else {
        setConn('connecting', 'reconnecting');
      }
    });
    on(source, 'hello', onHello);
    on(source, 'snapshot', onSnapshot);
    on(source, 'breaker', onBreaker);
    on(source, 'reconcile', onReconcile);
    on(source, 'correction', onCorrection);
    on(source, 'reload', onReload);
    on(source, 'shadow', onShadow);
  }

  function on(source, type, handler) {
    source.addEventListener(type, e => {
      const data = parse(e);
      if (data) handler(data);
    });
  }

  function onHello(h) {
    model.offsetMs = (h.now_ms || Date.now()) - Date.now();
    model.revision = h.manifest_revision || null;
    model.tiers = h.tiers || [];
    model.tiers.forEach(t => colorOf(t.tier));
    model.history = (h.history || []).slice(-MAX_SPAN_S);
    model.latest = model.history.length ? model.history[model.history.length - 1] : null;
    model.breakerEvents = (h.breaker_events || []).slice(-EVENTS_KEPT);
    model.reconcile = h.reconcile || null;
    model.corrections = h.corrections || [];
    model.shadow = h.shadow || null;
    setConn('live');
    renderAll();
  }

  function onSnapshot(s) {
    if (Array.isArray(s.tiers)) {
      model.tiers = s.tiers;
      model.tiers.forEach(t => colorOf(t.tier));
    }
    const entry = { at_ms: s.at_ms, second: s.second, window: s.window };
    model.history.push(entry);
    if (model.history.length > MAX_SPAN_S) model.history.shift();
    model.latest = entry;
    renderAll();
  }

  function onBreaker(b) {
    const tier = model.tiers.find(t => t.tier === b.tier);
    if (tier) tier.state = b.to;
    model.breakerEvents.push(b);
    if (model.breakerEvents.length > EVENTS_KEPT) model.breakerEvents.shift();
    renderLadder();
    renderEvents();
  }

  // A reload attempt: the revision serving after it; a refused one is marked on the revision (its
  // reasons in the tooltip). The ladder follows with the next snapshot.
  function onReload(r) {
    model.revision = r.serving_revision || model.revision;
    const el = byId('revision');
    el.textContent = model.revision || '–';
    const last = r.last_attempt || {};
    const why = (last.problems || []).concat((last.needs_restart || []).map(n => 'needs a restart: ' + n));
    el.title = r.ok === false ? 'last reload refused: ' + why.join('; ') : '';
    el.classList.toggle('refused', r.ok === false);
  }

  function onReconcile(r) {
    model.reconcile = r;
    renderReconcile();
  }

  function onCorrection(c) {
    model.corrections.push(c);
    if (model.corrections.length > EVENTS_KEPT) model.corrections.shift();
    renderReconcile();
  }

  function onShadow(s) {
    model.shadow = s;
    renderShadow();
  }

  // ---- rendering -----------------------------------------------------------------------------

  function renderAll() {
    byId('revision').textContent = model.revision || '–';
    renderLadder();
    renderFigures();
    renderRouting();
    renderLatency();
    renderEvents();
    renderReconcile();
    renderShadow();
  }

  function windowOf() {
    return model.latest && model.latest.window ? model.latest.window : null;
  }

  function renderLadder() {
    const list = byId('ladder');
    clear(list);
    const w = windowOf();
    model.tiers.forEach((t, i) => {
      const li = el('li', 'rung');
      li.dataset.tier = t.tier;
      li.dataset.state = t.state || 'unreachable';
      li.appendChild(el('div', 'rung-no', i + 1));
      // A long name may wrap after an underscore, dash or dot (a zero-width space there).
      const name = el('div', 'rung-name', String(t.tier).replace(/([_.-])/g, '$1\u200b'));
      name.title = t.tier;
      li.appendChild(name);
      const meta = el('div', 'rung-meta');
      meta.appendChild(el('span', 'state', STATE_LABELS[t.state] || t.state || 'unknown'));
      const typical = t.typical_ms === undefined || t.typical_ms === null ? '' : ' · ' + t.typical_ms + ' ms typical';
      meta.appendChild(el('span', 'rung-sub muted', (t.claim || '?') + ' · ' + (t.adapter || '?') + typical));
      li.appendChild(meta);
      const share = el('div', 'share');
      const sw = el('span', 'swatch');
      sw.style.backgroundColor = colorOf(t.tier);
      share.appendChild(sw);
      share.appendChild(document.createTextNode(w ? pct((w.routing_share || {})[t.tier] || 0) : '–'));
      li.appendChild(share);
      list.appendChild(li);
    });
    byId('refusal-share').textContent = w ? pct(w.refusal_rate) : '–';
  }

  function setFigure(id, parts, cls) {
    const node = byId(id);
    clear(node);
    node.className = 'value' + (cls ? ' ' + cls : '');
    if (!parts) {
      node.textContent = '–';
      return;
    }
    node.appendChild(document.createTextNode(parts[0]));
    if (parts[1]) node.appendChild(el('span', 'unit', parts[1]));
  }

  function renderFigures() {
    const w = windowOf();
    if (!w) return;
    setFigure('fig-rps', [w.requests_per_s.toFixed(w.requests_per_s >= 100 ? 0 : 1)]);
    const refusal = w.refusal_rate;
    setFigure('fig-refusals', refusal === null ? null : [pct(refusal)], refusal > 0.2 ? 'bad' : refusal > 0.05 ? 'warn' : '');
    const lat = w.latency_ms || {};
    setFigure('fig-p50', ms(lat.p50));
    setFigure('fig-p90', ms(lat.p90));
    setFigure('fig-p99', ms(lat.p99));
    setFigure('fig-replayed', w.replayed_share === null ? null : [pct(w.replayed_share)]);
  }

  /** The series of the routing chart: the ladder top to bottom, other sources seen, then refusals. */
  function seriesNames() {
    const names = model.tiers.map(t => t.tier);
    for (const h of model.history) {
      for (const source of Object.keys((h.second && h.second.routing) || {})) {
        if (!names.includes(source)) names.push(source);
      }
    }
    names.push(REFUSED);
    return names;
  }

  function frame(box, svg) {
    const width = Math.max(100, box.clientWidth);
    const height = Math.max(60, box.clientHeight);
    svg.setAttribute('viewBox', '0 0 ' + width + ' ' + height);
    clear(svg);
    return { width, height, left: 52, right: 12, top: 10, bottom: 26 };
  }

  function timeAxis(svg, f, endMs, spanS) {
    const w = f.width - f.left - f.right;
    // A label every 15, 30, 60 or 120 s, whichever keeps them at least 70 px apart.
    const step = [15, 30, 60, 120, 300].find(st => w * st / spanS >= 70) || spanS;
    for (let s = 0; s <= spanS; s += step) {
      const x = f.left + w * (1 - s / spanS);
      const label = s === 0 ? 'now' : spanS > 90 ? '−' + Math.floor(s / 60) + ':' + String(s % 60).padStart(2, '0') : '−' + s + ' s';
      svg.appendChild(svgEl('text', { x, y: f.height - 5, class: 'axis', 'text-anchor': s === 0 ? 'end' : 'middle' }, label));
    }
    return t => f.left + w * (1 - (endMs - t) / (spanS * 1000));
  }

  function spanOf() {
    const h = model.history;
    const s = h.length < 2 ? 0 : (h[h.length - 1].at_ms - h[0].at_ms) / 1000;
    return Math.min(MAX_SPAN_S, Math.max(MIN_SPAN_S, Math.ceil(s / 15) * 15));
  }

  function renderRouting() {
    const svg = byId('routing-chart');
    const f = frame(byId('routing-box'), svg);
    const h = model.history;
    const names = seriesNames();
    const plotH = f.height - f.top - f.bottom;
    for (const p of [0, 0.25, 0.5, 0.75, 1]) {
      const y = f.top + plotH * (1 - p);
      svg.appendChild(svgEl('line', { x1: f.left, x2: f.width - f.right, y1: y, y2: y, class: 'gridline' }));
      svg.appendChild(svgEl('text', { x: f.left - 6, y: y + 4, class: 'axis', 'text-anchor': 'end' }, (p * 100) + '%'));
    }
    if (h.length) {
      const spanS = spanOf();
      const x = timeAxis(svg, f, h[h.length - 1].at_ms, spanS);
      const counts = h.map(e => {
        const c = Object.assign({}, (e.second && e.second.routing) || {});
        c[REFUSED] = (e.second && e.second.refused) || 0;
        return c;
      });
      // Trailing sums over SMOOTH_S seconds, then shares stacked bottom (top rung) to top (refused).
      const stacks = h.map((e, i) => {
        const sums = names.map(n => {
          let s = 0;
          for (let j = Math.max(0, i - SMOOTH_S + 1); j <= i; j++) s += counts[j][n] || 0;
          return s;
        });
        const total = sums.reduce((a, b) => a + b, 0);
        let acc = 0;
        return sums.map(s => {
          const lower = acc;
          acc += total ? s / total : 0;
          return [lower, acc];
        });
      });
      const y = v => f.top + plotH * (1 - v);
      names.forEach((name, k) => {
        let upper = '';
        let lower = '';
        h.forEach((e, i) => {
          upper += (i ? 'L' : 'M') + x(e.at_ms).toFixed(1) + ',' + y(stacks[i][k][1]).toFixed(1);
        });
        for (let i = h.length - 1; i >= 0; i--) {
          lower += 'L' + x(h[i].at_ms).toFixed(1) + ',' + y(stacks[i][k][0]).toFixed(1);
        }
        svg.appendChild(svgEl('path', { d: upper + lower + 'Z', fill: colorOf(name), 'fill-opacity': 0.85, 'data-series': name }));
      });
      byId('routing-span').textContent = 'share of answers by rung, last ' + (spanS > 90 ? Math.floor(spanS / 60) + ':' + String(spanS % 60).padStart(2, '0') + ' min' : spanS + ' s');
    }
    renderLegend(names);
  }

  function renderLegend(names) {
    const legend = byId('routing-legend');
    clear(legend);
    const w = windowOf();
    for (const name of names) {
      const share = !w ? null : name === REFUSED ? (w.refusal_rate || 0) : ((w.routing_share || {})[name] || 0);
      const li = el('li');
      li.dataset.source = name;
      li.dataset.share = share === null ? '' : String(share);
      const sw = el('span', 'swatch');
      sw.style.backgroundColor = colorOf(name);
      li.appendChild(sw);
      li.appendChild(el('span', null, name));
      li.appendChild(el('span', 'pct', pct(share)));
      legend.appendChild(li);
    }
  }

  function niceMax(v) {
    const floor = 10;
    if (!(v > floor)) return floor;
    const p = Math.pow(10, Math.floor(Math.log10(v)));
    for (const m of [1, 2, 2.5, 5, 10]) {
      if (v <= m * p) return m * p;
    }
    return 10 * p;
  }

  function renderLatency() {
    const svg = byId('latency-chart');
    const f = frame(byId('latency-box'), svg);
    const h = model.history;
    const plotH = f.height - f.top - f.bottom;
    let max = 0;
    for (const e of h) {
      const l = (e.window && e.window.latency_ms) || {};
      if (l.p99 > max) max = l.p99;
    }
    max = niceMax(max);
    for (const p of [0, 0.5, 1]) {
      const y = f.top + plotH * (1 - p);
      svg.appendChild(svgEl('line', { x1: f.left, x2: f.width - f.right, y1: y, y2: y, class: 'gridline' }));
      svg.appendChild(svgEl('text', { x: f.left - 6, y: y + 4, class: 'axis', 'text-anchor': 'end' }, Math.round(max * p)));
    }
    if (!h.length) return;
    const x = timeAxis(svg, f, h[h.length - 1].at_ms, spanOf());
    for (const [key, color] of LATENCY_LINES) {
      let d = '';
      let pen = false;
      for (const e of h) {
        const v = e.window && e.window.latency_ms ? e.window.latency_ms[key] : null;
        if (v === null || v === undefined) {
          pen = false;
          continue;
        }
        d += (pen ? 'L' : 'M') + x(e.at_ms).toFixed(1) + ',' + (f.top + plotH * (1 - Math.min(v, max) / max)).toFixed(1);
        pen = true;
      }
      if (d) svg.appendChild(svgEl('path', { d, fill: 'none', stroke: color, 'stroke-width': 2.5, 'data-series': key }));
    }
  }

  function renderEvents() {
    const list = byId('breaker-events');
    clear(list);
    const shown = model.breakerEvents.slice(-EVENTS_SHOWN).reverse();
    if (!shown.length) {
      list.appendChild(el('li', 'muted', 'no transition yet'));
      return;
    }
    for (const b of shown) {
      const li = el('li');
      li.appendChild(el('span', 't mono', b.at ? clock(Date.parse(b.at)) : ''));
      li.appendChild(el('span', 'tier', b.tier));
      li.appendChild(el('span', 'to-' + (b.from || ''), STATE_LABELS[b.from] || b.from || '?'));
      li.appendChild(el('span', 'muted', '→'));
      li.appendChild(el('span', 'to-' + (b.to || ''), STATE_LABELS[b.to] || b.to || '?'));
      li.appendChild(el('span', 'muted', b.reason ? '(' + b.reason.replace(/_/g, ' ') + ')' : ''));
      list.appendChild(li);
    }
  }

  function renderReconcile() {
    const panel = byId('reconcile');
    const body = byId('reconcile-body');
    clear(body);
    const r = model.reconcile;
    if (!r) {
      panel.dataset.state = 'none';
      body.appendChild(el('div', 'none', 'no reconciler'));
    } else {
      const silent = serverNow() - (r.received_at_ms || 0) > RECONCILE_SILENT_MS;
      panel.dataset.state = silent ? 'silent' : 'live';
      const figures = el('div', 'reconcile-figures');
      const add = (label, value) => {
        const f = el('div');
        f.appendChild(el('div', 'label', label));
        f.appendChild(el('div', 'value', value));
        figures.appendChild(f);
      };
      // The store's figures: items in each state now (done ones are kept for 7 days).
      add('backlog', r.pending === undefined ? '–' : r.pending);
      if (r.in_progress !== undefined) add('in progress', r.in_progress);
      add('oldest waiting', age(r.oldest_pending_age_s));
      if (r.done !== undefined) add('done (7 days)', r.done);
      if (r.dead !== undefined) add('dead letters', r.dead);
      body.appendChild(figures);
      if (silent) body.appendChild(el('div', null, 'reconciler silent since ' + clock(r.received_at_ms)));
    }
    const list = byId('corrections');
    clear(list);
    for (const c of model.corrections.slice(-CORRECTIONS_SHOWN).reverse()) {
      const li = el('li');
      li.appendChild(el('span', 't mono', clock(c.at_ms || c.received_at_ms)));
      li.appendChild(el('span', 'tier', (c.served_by || '?') + ' → ' + (c.corrected_by || '?')));
      if (c.moved_m !== undefined) li.appendChild(el('span', null, Math.round(c.moved_m) + ' m'));
      if (c.label) li.appendChild(el('span', 'muted', c.label));
      list.appendChild(li);
    }
  }

  function count(n) {
    return Number(n || 0).toLocaleString('en-US');
  }

  function metres(v) {
    if (v === null || v === undefined) return '–';
    return v >= 1000 ? (v / 1000).toFixed(1) + ' km' : Math.round(v) + ' m';
  }

  /** A share as the matrix shows it: rounded down, so that "95 %" is never shown for less. */
  function floorPct(share) {
    return Math.floor(share * 100 + 1e-9) + '\u00a0%';
  }

  /** The same, to a tenth of a percent, for the tooltip. */
  function floorPct1(share) {
    return share >= 1 ? '100 %' : (Math.floor(share * 1000 + 1e-9) / 10).toFixed(1) + ' %';
  }

  function agreementClass(share) {
    if (share === null || share === undefined) return 'nodata';
    return share >= AGREEMENT_GOOD ? 'good' : share >= AGREEMENT_WARN ? 'warn' : 'bad';
  }

  function shadowTitle(c) {
    const lines = [c.served + ' → ' + c.shadow,
      count(c.samples) + ' samples · ' + count(c.both_found) + ' both found',
      c.within_250_share === null ? 'within 250 m: none both found'
        : 'within 250 m: ' + floorPct1(c.within_250_share) + ' of those both found (' + count(c.within_250) + ')',
      'found by one rung only: ' + pct(c.found_disagreement)];
    for (const i of c.intents || []) {
      lines.push(i.intent + ': p50 ' + metres(i.p50_m) + ' · p90 ' + metres(i.p90_m) + ' (' + count(i.samples) + ' samples)');
    }
    return lines.join('\n');
  }

  function shadowCell(cells, served, shadow) {
    const td = el('td');
    td.dataset.served = served;
    td.dataset.shadow = shadow;
    if (served === shadow) {
      td.className = 'self';
      return td;
    }
    const c = cells.get(served + '\n' + shadow);
    if (!c) {
      td.className = 'empty';
      td.title = served + ' → ' + shadow + ': never sampled';
      return td;
    }
    td.className = agreementClass(c.within_250_share);
    td.dataset.share = c.within_250_share === null ? '' : String(c.within_250_share);
    td.dataset.samples = String(c.samples);
    td.appendChild(el('span', 'pct', c.within_250_share === null ? '–' : floorPct(c.within_250_share)));
    td.appendChild(el('span', 'n', count(c.samples)));
    td.title = shadowTitle(c);
    return td;
  }

  function shadowMatrix(s) {
    const rungs = s.rungs || [];
    const cells = new Map((s.cells || []).map(c => [c.served + '\n' + c.shadow, c]));
    const table = el('table', 'shadow-matrix');
    // Rungs are numbered as on the ladder (the figures may name rungs a reload removed: listed after it).
    const head = el('tr');
    const corner = el('th', 'corner', '↓\u2009→');
    corner.title = 'rows: the served rung · columns: the shadow rung';
    head.appendChild(corner);
    rungs.forEach((r, i) => {
      const th = el('th', null, i + 1);
      th.title = 'shadow: ' + r;
      th.scope = 'col';
      head.appendChild(th);
    });
    table.appendChild(el('thead')).appendChild(head);
    const body = el('tbody');
    rungs.forEach((served, i) => {
      const tr = el('tr');
      const th = el('th', null, i + 1);
      th.title = 'served: ' + served;
      th.dataset.rung = served;
      th.scope = 'row';
      tr.appendChild(th);
      for (const shadow of rungs) tr.appendChild(shadowCell(cells, served, shadow));
      body.appendChild(tr);
    });
    table.appendChild(body);
    return table;
  }

  function renderShadow() {
    const panel = byId('shadow');
    const body = byId('shadow-body');
    clear(body);
    const s = model.shadow;
    const state = s && s.state ? s.state : 'waiting';
    panel.dataset.state = state;
    if (state !== 'live') {
      body.appendChild(el('div', 'none', SHADOW_NOTES[state] || SHADOW_NOTES.waiting));
      if (state === 'unavailable' && s.detail) body.appendChild(el('div', 'detail muted', s.detail));
      return;
    }
    body.appendChild(shadowMatrix(s));
    const ladder = new Set(model.tiers.map(t => t.tier));
    const beyond = (s.rungs || []).map((r, i) => (i + 1) + ' ' + r).filter((r, i) => !ladder.has(s.rungs[i]));
    const multi = (s.cells || []).some(c => (c.intents || []).length > 1);
    body.appendChild(el('div', 'shadow-foot muted', 'rows served, columns shadow · ' + count(s.samples) + ' samples'
      + (multi ? ', intents added up' : '') + (s.at_ms ? ' · ' + clock(s.at_ms) : '')));
    if (beyond.length) body.appendChild(el('div', 'shadow-foot muted', 'not on the ladder: ' + beyond.join(', ')));
  }

  function tick() {
    byId('clock').textContent = clock(serverNow());
    if (model.reconcile) renderReconcile();
  }

  let resizeTimer = null;
  window.addEventListener('resize', () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      renderRouting();
      renderLatency();
    }, 100);
  });

  tick();
  setInterval(tick, 1000);
  connect();
}());
