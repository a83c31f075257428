// Drives real geocoding clients, unchanged, against georesolver's compatible endpoints.
//
//   node src/test/js/clients.mjs <dir with node_modules> <scenarios.json>
//
// scenarios.json is an array of {name, client, op: "forward"|"reverse", url, query | lat+lon, key?}
// written by the JUnit test (dev.georesolver.functional.RealClientsTest), which holds the scenario
// table and the expectations. For each scenario this prints one JSON line:
//   {name, client, outcome: "result"|"none"|"error", lat?, lon?, label?, message?, http?}
// "result" is what the client hands its caller as found, "none" its empty answer ("Nothing found."
// in the Leaflet control), "error" a rejected promise / error callback: the client's own reaction,
// which is what the test asserts. "http" is the last response the client's fetch received (status
// and Google status), recorded by a spy around the global fetch (Leaflet) without changing it.
// Exit status 0 whenever every scenario ran, whatever the outcomes; anything uncaught is a crash.
//
// To add a client: one entry in CLIENTS with forward/reverse, and its rows in the JUnit table.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const [modulesDir, scenariosFile] = process.argv.slice(2);
if (!modulesDir || !scenariosFile) {
  console.error('usage: node clients.mjs <dir with node_modules> <scenarios.json>');
  process.exit(2);
}
const require = createRequire(path.resolve(modulesDir, 'package.json'));

// The few browser globals Leaflet reads when it loads; the geocoders themselves use fetch only.
globalThis.window = globalThis;
globalThis.devicePixelRatio = 1;
globalThis.navigator = { userAgent: 'node', platform: 'node' };
globalThis.document = { documentElement: { style: {} }, createElement: () => ({ style: {} }) };

let lastHttp = null;
const realFetch = globalThis.fetch;
globalThis.fetch = async (url, init) => {
  const res = await realFetch(url, init);
  const text = await res.clone().text();
  let status;
  try { status = JSON.parse(text).status; } catch { status = undefined; }
  lastHttp = { status: res.status, google_status: typeof status === 'string' ? status : undefined };
  return res;
};

const L = require('leaflet');
require('leaflet-control-geocoder');
const NodeGeocoder = require('node-geocoder');

// What the Leaflet control does with a geocoder's answer: results are shown, an empty list shows
// "Nothing found.", a rejection is left to the page.
function leaflet(results) {
  if (!results || results.length === 0) return { outcome: 'none' };
  const r = results[0];
  return { outcome: 'result', lat: r.center.lat, lon: r.center.lng, label: r.name, bbox_ok: r.bbox.contains(r.center) };
}

const ZOOM_18 = 256 * Math.pow(2, 18); // the map scale Leaflet passes to reverse at zoom 18

function nodeGeocoder(s) {
  const options = { provider: 'openstreetmap', osmServer: s.url, language: 'en' };
  if (s.key) {
    // node-geocoder's documented way to add headers: its own fetch option.
    options.fetch = (url, init) => realFetch(url, { ...init, headers: { ...(init && init.headers), 'X-Api-Key': s.key } });
  }
  return NodeGeocoder(options);
}

function nodeGeocoderResult(results) {
  if (!results || results.length === 0) return { outcome: 'none' };
  return { outcome: 'result', lat: results[0].latitude, lon: results[0].longitude, label: results[0].formattedAddress };
}

const CLIENTS = {
  'leaflet-nominatim': {
    forward: async (s) => leaflet(await L.Control.Geocoder.nominatim({ serviceUrl: s.url + '/' }).geocode(s.query)),
    reverse: async (s) => leaflet(await L.Control.Geocoder.nominatim({ serviceUrl: s.url + '/' })
      .reverse({ lat: s.lat, lng: s.lon }, ZOOM_18)),
  },
  'leaflet-google': {
    forward: async (s) => leaflet(await L.Control.Geocoder.google({
      serviceUrl: s.url + '/maps/api/geocode/json', apiKey: s.key || 'any-key' }).geocode(s.query)),
    reverse: async (s) => leaflet(await L.Control.Geocoder.google({
      serviceUrl: s.url + '/maps/api/geocode/json', apiKey: s.key || 'any-key' }).reverse({ lat: s.lat, lng: s.lon }, ZOOM_18)),
  },
  'node-geocoder-osm': {
    forward: async (s) => nodeGeocoderResult(await nodeGeocoder(s).geocode(s.query)),
    reverse: async (s) => nodeGeocoderResult(await nodeGeocoder(s).reverse({ lat: s.lat, lon: s.lon })),
  },
};

const scenarios = JSON.parse(readFileSync(scenariosFile, 'utf8'));
for (const s of scenarios) {
  const client = CLIENTS[s.client];
  lastHttp = null;
  let line;
  if (!client) {
    line = { outcome: 'unknown-client' };
  } else {
    try {
      line = await client[s.op](s);
    } catch (e) {
      line = { outcome: 'error', message: String(e && e.message !== undefined ? e.message : e) };
    }
  }
  console.log(JSON.stringify({ name: s.name, client: s.client, ...line, http: lastHttp }));
}
