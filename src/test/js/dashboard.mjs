// Drives georesolver's /dashboard in a real headless Chromium (Debian's /usr/bin/chromium through
// playwright-core) against a running resolver, while this script sends it steady traffic:
//
//   node src/test/js/dashboard.mjs <dir with node_modules> <resolver URL> <tier 1> <tier 2> <screenshot.png>
//
// Steps: open the page and wait for the feed; send traffic until the routing legend shows tier 1
// serving it; force tier 1's breaker open through POST /admin/tiers/<tier 1>/force-open and time how
// long the page takes to show it forced open; wait for the routing chart to shift to tier 2; take a
// screenshot; release the breaker and wait for the page to show it closed and tier 1 serving again;
// then wait for the reconcile panel to show the reconciler news the test publishes after the release.
// Shadow sampling is on (every answer): the shadow panel says "no samples yet" before the traffic, and
// before the drill its matrix cell (tier 1 served, tier 2 shadow) shows a share and a sample count.
// Prints one JSON line with what it saw, which the JUnit test (dev.georesolver.functional.
// DashboardBrowserTest) asserts:
//   {console_errors: [...], page_errors: [...], failed_requests: [...], ladder: [{tier, state}],
//    forced_open_shown_ms, share_before: {tier1, tier2}, share_forced: {...}, share_released: {...},
//    tier2_path_changed, released_state, reconcile_state, reconcile_text, reconcile_live_text,
//    corrections_text, shadow_text_at_load, shadow_cell: {cls, pct, n, samples, title, row},
//    shadow_reverse_cls, shadow_self_cls, steps: [...]}
// A step that does not happen in time is recorded in "failure" (exit status 0): the test says which.
// Exit status 1 only when the browser cannot be started or the script itself breaks.
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const [modulesDir, base, tier1, tier2, screenshot] = process.argv.slice(2);
if (!modulesDir || !base || !tier1 || !tier2 || !screenshot) {
  console.error('usage: node dashboard.mjs <dir with node_modules> <resolver URL> <tier 1> <tier 2> <screenshot.png>');
  process.exit(2);
}
const require = createRequire(path.resolve(modulesDir, 'package.json'));
const { chromium } = require('playwright-core');

const out = { console_errors: [], page_errors: [], failed_requests: [], steps: [] };
const step = (name, extra) => out.steps.push(Object.assign({ step: name, at_ms: Date.now() }, extra || {}));
const sleep = ms => new Promise(r => setTimeout(r, ms));

// Steady traffic: distinct addresses, a few requests in flight, until stopped.
let sending = true;
let sent = 0;
const run = Math.random().toString(36).slice(2, 8);
async function traffic(worker) {
  while (sending) {
    const n = sent++;
    const q = `${n} Dashboard Street, Run ${run}-${worker}`;
    try {
      const res = await fetch(`${base}/v1/geocode?q=${encodeURIComponent(q)}`);
      await res.arrayBuffer();
    } catch (e) {
      // The resolver's own failures show on the dashboard; the script keeps sending.
    }
    await sleep(120);
  }
}

async function admin(action) {
  const res = await fetch(`${base}/admin/tiers/${encodeURIComponent(tier1)}/${action}`, { method: 'POST', headers: { 'X-Requested-By': 'dashboard-test' } });
  return { status: res.status, body: await res.json() };
}

async function shares(page) {
  return page.evaluate(([a, b]) => {
    const share = name => {
      const li = document.querySelector(`#routing-legend li[data-source="${CSS.escape(name)}"]`);
      return li && li.dataset.share !== '' ? Number(li.dataset.share) : null;
    };
    return { tier1: share(a), tier2: share(b) };
  }, [tier1, tier2]);
}

async function waitFor(what, page, predicate, timeoutMs) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await predicate(page);
    if (v) return v;
    if (Date.now() > until) throw new Error(`${what}: not seen within ${timeoutMs} ms`);
    await sleep(100);
  }
}

const tierPath = page => page.evaluate(name => {
  const p = document.querySelector(`#routing-chart path[data-series="${CSS.escape(name)}"]`);
  return p ? p.getAttribute('d') : null;
}, tier2);

const stateOf = (page, tier) => page.evaluate(name => {
  const li = document.querySelector(`#ladder li[data-tier="${CSS.escape(name)}"]`);
  return li ? li.dataset.state : null;
}, tier);

// The matrix cell of (served, shadow), as the page shows it; null while it has no samples.
const shadowCell = (page, served, shadow) => page.evaluate(([a, b]) => {
  const td = document.querySelector(`#shadow-body td[data-served="${CSS.escape(a)}"][data-shadow="${CSS.escape(b)}"]`);
  if (!td) return null;
  const text = cls => { const e = td.querySelector('.' + cls); return e ? e.textContent : null; };
  return { cls: td.className, pct: text('pct'), n: text('n'), samples: td.dataset.samples ? Number(td.dataset.samples) : null,
    title: td.title, row: td.parentElement.querySelector('th').dataset.rung };
}, [served, shadow]);

const userDataDir = mkdtempSync(path.join(tmpdir(), 'georesolver-chromium-'));
let context;
try {
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1600, height: 900 },
    deviceScaleFactor: 1
  });
} catch (e) {
  console.log(JSON.stringify({ launch_error: String(e && e.message || e) }));
  rmSync(userDataDir, { recursive: true, force: true });
  process.exit(1);
}

const workers = [];
try {
  const page = context.pages()[0] || await context.newPage();
  page.on('console', m => { if (m.type() === 'error') out.console_errors.push(m.text()); });
  page.on('pageerror', e => out.page_errors.push(String(e && e.message || e)));
  page.on('requestfailed', r => {
    // The event stream is cut when the page closes at the end; anything else failing is reported.
    if (!sending && r.url().endsWith('/admin/events')) return;
    out.failed_requests.push(r.url() + ' ' + (r.failure() ? r.failure().errorText : ''));
  });

  const response = await page.goto(`${base}/dashboard`, { waitUntil: 'load' });
  step('loaded', { status: response.status(), csp: response.headers()['content-security-policy'] || null });
  await waitFor('the feed connected', page, p => p.evaluate(() => document.getElementById('conn').dataset.state === 'live'), 10000);
  await waitFor('the ladder drawn', page, p => p.evaluate(() => document.querySelectorAll('#ladder li.rung').length > 0), 10000);
  out.ladder = await page.evaluate(() => [...document.querySelectorAll('#ladder li.rung')].map(li => ({ tier: li.dataset.tier, state: li.dataset.state })));
  out.reconcile_state = await page.evaluate(() => document.getElementById('reconcile').dataset.state);
  out.reconcile_text = await page.evaluate(() => document.getElementById('reconcile-body').textContent.trim());
  out.shadow_text_at_load = await page.evaluate(() => document.getElementById('shadow-body').textContent.trim());
  step('live');

  for (let w = 0; w < 4; w++) workers.push(traffic(w));
  out.share_before = await waitFor('tier 1 serving the traffic', page, async p => {
    const s = await shares(p);
    return s.tier1 !== null && s.tier1 >= 0.9 ? s : null;
  }, 20000);
  await sleep(6000); // some steady history on the chart before the drill
  out.share_before = await shares(page);
  const pathBefore = await tierPath(page);
  step('steady', out.share_before);

  out.shadow_cell = await waitFor('the shadow cell of tier 1 → tier 2 with samples', page, async p => {
    const c = await shadowCell(p, tier1, tier2);
    return c && c.samples > 0 ? c : null;
  }, 20000);
  out.shadow_reverse_cls = (await shadowCell(page, tier2, tier1) || {}).cls || null;
  out.shadow_self_cls = (await shadowCell(page, tier1, tier1) || {}).cls || null;
  step('shadow shown', out.shadow_cell);

  const forced = await admin('force-open');
  const t0 = Date.now();
  step('force-open sent', forced);
  await waitFor('tier 1 shown forced open', page, async p => (await stateOf(p, tier1)) === 'forced_open', 5000);
  out.forced_open_shown_ms = Date.now() - t0;
  step('forced open shown', { ms: out.forced_open_shown_ms });

  out.share_forced = await waitFor('the distribution shifted to tier 2', page, async p => {
    const s = await shares(p);
    return s.tier2 !== null && s.tier2 >= 0.6 ? s : null;
  }, 20000);
  await sleep(4000);
  out.share_forced = await shares(page);
  out.tier2_path_changed = pathBefore !== null && (await tierPath(page)) !== pathBefore;
  await page.screenshot({ path: screenshot });
  step('screenshot', { path: screenshot });

  const released = await admin('release');
  step('release sent', released);
  await waitFor('tier 1 shown closed', page, async p => (await stateOf(p, tier1)) === 'closed', 5000);
  out.released_state = await stateOf(page, tier1);
  out.share_released = await waitFor('tier 1 serving again', page, async p => {
    const s = await shares(p);
    return s.tier1 !== null && s.tier1 >= 0.6 ? s : null;
  }, 20000);
  step('returned', out.share_released);

  // The JUnit test starts publishing reconciler news once the breaker is released.
  await waitFor('the reconcile panel live', page, p => p.evaluate(() => document.getElementById('reconcile').dataset.state === 'live'), 10000);
  await waitFor('a correction listed', page, p => p.evaluate(() => document.querySelectorAll('#corrections li').length > 0), 10000);
  out.reconcile_live_text = await page.evaluate(() => document.getElementById('reconcile-body').textContent.trim());
  out.corrections_text = await page.evaluate(() => document.getElementById('corrections').textContent.trim());
  step('reconcile shown');
} catch (e) {
  out.failure = String(e && e.message || e);
} finally {
  sending = false;
  await Promise.all(workers);
  await context.close();
  rmSync(userDataDir, { recursive: true, force: true });
}
console.log(JSON.stringify(out));
