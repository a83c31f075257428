package dev.georesolver.gazetteer;

import dev.georesolver.geo.ForwardQuery;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The countries, dependent territories and first-level divisions the gazetteer knows, by name,
 * and which of them a query names.
 *
 * <p><b>Names.</b> A country is known by its short English name, its ISO 3166-1 alpha-2 and
 * alpha-3 codes, and its aliases (official and common English forms, the native name, and its
 * name in French, Spanish, German, Italian, Portuguese and Dutch; see docs/gazetteer.md). Names
 * are compared as an <em>area key</em>: the folded words ({@link TextFold}) without joining words
 * ({@code and}, {@code of}, {@code the} and their French, Spanish, German, Italian, Portuguese and
 * Dutch forms), {@code saint/st./sainte} written {@code st}/{@code ste}, in sorted order. So
 * {@code Antigua & Barbuda} = {@code Antigua and Barbuda}, {@code St Helena} = {@code Saint
 * Helena}, {@code Virgin Islands (US)} = {@code Virgin Islands, U.S.} = {@code US Virgin Islands},
 * {@code Korea, South} = {@code South Korea}, {@code Bahamas, The} = {@code The Bahamas}. A name
 * ending in {@code Islands} is also known without it when two words remain ({@code Turks & Caicos}).
 * A key two countries share ({@code Congo}) names both.
 *
 * <p>First-level divisions are known by their GeoNames English name, with or without a word such
 * as {@code Province}, {@code State of}, {@code Island} or {@code Parish}, and by the postal
 * abbreviations of US states, Canadian provinces and Australian states and territories.
 *
 * <p><b>Which country a query names</b>: {@link #find(String)}. Immutable and thread-safe; obtained
 * from a loaded {@link Gazetteer#countryNames()}.
 */
public final class CountryNames {

  /** Joining words left out of area keys (English, French, Spanish, German, Italian, Portuguese, Dutch). */
  private static final Set<String> JOINING = Set.of(
      "and", "the", "of", "et", "und", "y", "e", "en", "de", "des", "du", "del", "di", "da", "do",
      "la", "le", "les", "el", "der", "die", "das", "van", "von");

  private static final List<String> REGION_SUFFIXES = List.of(
      " province", " region", " state", " oblast", " prefecture", " governorate", " district",
      " county", " department", " voivodeship", " krai", " kray", " territory", " republic",
      " island", " islands", " parish", " municipality", " aimag", " aymag", " emirate", " canton");
  private static final List<String> REGION_PREFIXES = List.of(
      "state of ", "province of ", "region of ", "republic of ", "city of ");

  /** Words a division's name may end with in a query ("Hovd Province"). */
  private static final Set<String> REGION_WORDS = Set.of(
      "province", "region", "state", "oblast", "prefecture", "governorate", "district", "county",
      "department", "voivodeship", "krai", "territory", "parish", "aimag", "emirate", "canton",
      "island", "islands");

  /**
   * Most words a country name may have in a query ({@code Saint Vincent and the Grenadines}), also
   * when it spans up to three segments ({@code Saint Helena, Ascension, and Tristan da Cunha}).
   */
  private static final int MAX_NAME_WORDS = 8;
  /** Most segments a country name may span. */
  private static final int MAX_NAME_SEGMENTS = 3;

  /**
   * Words of an official country name that say what kind of state it is: left out when the name
   * is not known as written ("Kingdom of Bahrain", "Republic of Albania", "Territory of Christmas
   * Island", "Réunion Island").
   */
  private static final Set<String> DESIGNATORS = Set.of(
      "republic", "kingdom", "state", "principality", "commonwealth", "federal", "federative",
      "federation", "confederation", "islamic", "peoples", "democratic", "socialist", "union",
      "territory", "bailiwick", "sultanate", "grand", "duchy", "collectivity", "country",
      "independent", "sovereign", "plurinational", "arab", "hashemite", "co", "operative",
      "cooperative", "most", "serene", "special", "administrative", "overseas", "department",
      "oriental", "bolivarian", "island", "islands", "emirate", "nation");

  // countries, by row of countries.tsv
  private final String[] iso2;
  private final String[] countryName;
  private final double[] countryLat;
  private final double[] countryLon;
  private final String[] countryPointKind;
  private final String[] countryPointName;
  private final int[] countryPopulation;
  private final Map<String, int[]> countriesByName;
  private final Map<String, int[]> countriesByCode;
  private final Map<String, Integer> countryByIso2;

  // first-level divisions, by row of admin1.tsv
  private final String[] regionCode;
  private final String[] regionName;
  private final short[] regionCountry;
  private final double[] regionLat;
  private final double[] regionLon;
  private final String[] regionPointKind;
  private final String[] regionPointName;
  private final int[] regionPopulation;
  private final Map<String, int[]> regionsByKey;
  /** Each first-level division by its GeoNames code ({@code US.MO}). */
  private final Map<String, Integer> regionByCode;

  /** The city names, to tell a region or country word that is also a town's name; null in tests of the tables alone. */
  private final NameIndex cityNames;

  private CountryNames(Builder b, NameIndex cityNames) {
    this.iso2 = b.iso2;
    this.countryName = b.countryName;
    this.countryLat = b.countryLat;
    this.countryLon = b.countryLon;
    this.countryPointKind = b.countryPointKind;
    this.countryPointName = b.countryPointName;
    this.countryPopulation = b.countryPopulation;
    this.countriesByName = Map.copyOf(b.countriesByName);
    this.countriesByCode = Map.copyOf(b.countriesByCode);
    this.countryByIso2 = Map.copyOf(b.countryByIso2);
    this.regionCode = b.regionCode;
    this.regionName = b.regionName;
    this.regionCountry = b.regionCountry;
    this.regionLat = b.regionLat;
    this.regionLon = b.regionLon;
    this.regionPointKind = b.regionPointKind;
    this.regionPointName = b.regionPointName;
    this.regionPopulation = b.regionPopulation;
    this.regionsByKey = Map.copyOf(b.regionsByKey);
    Map<String, Integer> byCode = new java.util.HashMap<>();
    for (int r = 0; r < regionCode.length; r++) {
      byCode.putIfAbsent(regionCode[r], r);
    }
    this.regionByCode = Map.copyOf(byCode);
    this.cityNames = cityNames;
  }

  /** Builds the tables from the rows of {@code countries.tsv} and {@code admin1.tsv} (header lines removed). */
  static CountryNames fromRows(List<String[]> countries, List<String[]> admin1, NameIndex cityNames) {
    return new CountryNames(new Builder(countries, admin1), cityNames);
  }

  // ---- public API ----

  /**
   * The countries (ISO 3166-1 alpha-2, upper case) one name or code can mean, most likely first:
   * {@code "Antigua & Barbuda"} → {@code [AG]}, {@code "Congo"} → {@code [CD, CG]}, {@code "GBR"}
   * → {@code [GB]}; empty when it names no country. For checking a name a provider or a caller
   * gave as a country.
   */
  public Set<String> countryCodes(String name) {
    int[] ids = countries(TextFold.fold(name));
    Set<String> out = new LinkedHashSet<>();
    if (ids != null) {
      for (int c : ids) {
        out.add(iso2[c]);
      }
    }
    return out;
  }

  /**
   * The country and region the query names, read from its end the way the forward lookup reads
   * it: the last words of the last segment, or the last two segments together ({@code Korea,
   * South}), taken as a country name, alias or ISO code; then, before them, the last words taken
   * as a first-level division. Country words that are only the end of a longer known name in
   * the same segment are not a country ({@code West Jordan}, {@code New Jersey}, {@code New
   * Mexico}). See {@link AskedArea} for what the sets hold. Pure and fast (microseconds).
   *
   * A bare ISO code counts only as a segment of its own after the first ({@code Paris, FR}), never
   * as the last word of a segment ({@code 10 Downing St}).
   *
   * @param text free text, as a client wrote it; null or blank names nothing
   */
  public AskedArea find(String text) {
    if (text == null || text.isBlank()) {
      return AskedArea.NONE;
    }
    QueryText t = QueryText.of(text);
    int end = t.stripTrailingPostcodes(t.size());
    // A bare code names a country only as a segment of its own after the place ("Paris, FR"): the
    // last word of a street or a place is too often a code by chance ("10 Downing St" is no São
    // Tomé, "Via Roma 1, Torino IT" keeps its name reading).
    List<CountryTail> tails = new ArrayList<>(countryTails(t, end));
    tails.removeIf(c -> c.codeOnly() && !ownSegment(t, c));
    return asked(t, end, tails, allowedCountries(t, tails));
  }

  /** Whether a tail's words are the whole of a segment after the first. */
  private static boolean ownSegment(QueryText t, CountryTail c) {
    int seg = t.segment[c.end()];
    return seg > 0 && t.firstOf(seg) == c.end();
  }

  /**
   * The country and region a forward query names: from {@code components.country} and
   * {@code components.region} when a locality or country component is given, else
   * {@link #find(String) from the text}.
   */
  public AskedArea find(ForwardQuery query) {
    Map<String, String> comps = query.components();
    String country = comps.get("country");
    String region = comps.get("region");
    boolean structured = present(comps.get("locality")) || present(country) || present(region);
    if (!structured) {
      return find(query.text());
    }
    int[] countries = present(country) ? countries(TextFold.fold(country)) : null;
    int[] regions = present(region) ? regions(areaKey(TextFold.fold(region)), countries) : null;
    return area(countries, regions);
  }

  /**
   * The first-level divisions (GeoNames codes, {@code US.ME}) a region as a provider states it can
   * mean inside {@code countryCode}: by name or alternate form ({@code Maine}, {@code Île-de-France}),
   * or by the code's own part ({@code ME}, {@code US-ME}); empty when the name is no known division
   * of that country (a provider's name in another language, a county), so a caller can tell "another
   * region" from "not known".
   */
  public Set<String> regionCodes(String name, String countryCode) {
    if (name == null || name.isBlank() || countryCode == null) {
      return Set.of();
    }
    int[] countries = countriesByCode.get(TextFold.fold(countryCode));
    if (countries == null) {
      return Set.of();
    }
    Set<String> out = new TreeSet<>();
    int[] byName = regions(areaKey(TextFold.fold(name)), countries);
    if (byName != null) {
      for (int r : byName) {
        out.add(regionCode[r]);
      }
    }
    // "ME", "US-ME" (ISO 3166-2) or "US.ME": the part after the country, as GeoNames codes it.
    String code = name.trim().toUpperCase(java.util.Locale.ROOT);
    int dash = Math.max(code.indexOf('-'), code.indexOf('.'));
    String own = dash > 0 ? code.substring(dash + 1) : code;
    if (own.length() <= 3 && !own.isEmpty()) {
      for (int c : countries) {
        Integer r = regionByCode.get(iso2[c] + "." + own);
        if (r != null) {
          out.add(regionCode[r]);
        }
      }
    }
    return out;
  }

  /** The English name of first-level division {@code code} ({@code US.MO} → {@code Missouri}), or null when there is none. */
  public String regionNameOf(String code) {
    Integer r = code == null ? null : regionByCode.get(code);
    return r == null ? null : regionName[r];
  }

  // ---- package-private: the tables, for the gazetteer ----

  int countryCount() {
    return iso2.length;
  }

  int regionCount() {
    return regionCode.length;
  }

  String iso2(int country) {
    return iso2[country];
  }

  String countryName(int country) {
    return countryName[country];
  }

  int countryPopulation(int country) {
    return countryPopulation[country];
  }

  Integer countryByIso2(String code) {
    return countryByIso2.get(code);
  }

  String regionName(int region) {
    return regionName[region];
  }

  String regionCode(int region) {
    return regionCode[region];
  }

  int regionCountry(int region) {
    return regionCountry[region];
  }

  int regionPopulation(int region) {
    return regionPopulation[region];
  }

  boolean regionHasPoint(int region) {
    return !Double.isNaN(regionLat[region]);
  }

  boolean countryHasPoint(int country) {
    return !Double.isNaN(countryLat[country]);
  }

  double countryLat(int c) {
    return countryLat[c];
  }

  double countryLon(int c) {
    return countryLon[c];
  }

  double regionLat(int r) {
    return regionLat[r];
  }

  double regionLon(int r) {
    return regionLon[r];
  }

  Place countryPlace(int c) {
    return new Place(countryName[c], null, iso2[c], countryName[c], countryLat[c], countryLon[c],
        countryPopulation[c], PlaceKind.COUNTRY, countryPointKind[c], countryPointName[c]);
  }

  Place regionPlace(int r) {
    int c = regionCountry[r];
    return new Place(regionName[r], regionName[r], iso2[c], countryName[c], regionLat[r], regionLon[r],
        regionPopulation[r], PlaceKind.REGION, regionPointKind[r], regionPointName[r]);
  }

  /**
   * The countries a folded name or code means (names first, then a code's country), or null.
   * Codes count here; {@link #countriesByName(String)} leaves them out.
   */
  int[] countries(String folded) {
    int[] byName = countriesByName(areaKey(folded));
    int[] byCode = folded.indexOf(' ') < 0 ? countriesByCode.get(folded) : null;
    if (byName == null) {
      return byCode;
    }
    if (byCode == null) {
      return byName;
    }
    return union(byName, byCode);
  }

  /**
   * The countries an area key names by name or alias (not by a bare code), or null; a key not
   * known as it is is tried without its {@link #DESIGNATORS} ("Kingdom of Bahrain").
   */
  int[] countriesByName(String areaKey) {
    int[] c = countriesByName.get(areaKey);
    if (c != null || areaKey.isEmpty()) {
      return c;
    }
    // First keeping "Island(s)" ("Territory of Christmas Island"), then without them too.
    for (boolean keepIslands : new boolean[] {true, false}) {
      StringBuilder sb = new StringBuilder(areaKey.length());
      boolean dropped = false;
      for (String w : areaKey.split(" ")) {
        boolean island = w.equals("island") || w.equals("islands");
        if (DESIGNATORS.contains(w) && !(keepIslands && island)) {
          dropped = true;
        } else {
          sb.append(sb.length() == 0 ? "" : " ").append(w);
        }
      }
      c = dropped && sb.length() > 0 ? countriesByName.get(sb.toString()) : null;
      if (c != null) {
        return c;
      }
    }
    return null;
  }

  /** The divisions an area key names, restricted to the given countries when not null; null when none. */
  int[] regions(String areaKey, int[] countries) {
    int[] all = regionsByKey.get(areaKey);
    if (all == null || countries == null) {
      return all;
    }
    int[] kept = new int[all.length];
    int n = 0;
    for (int a : all) {
      if (contains(countries, regionCountry[a])) {
        kept[n++] = a;
      }
    }
    return n == 0 ? null : Arrays.copyOf(kept, n);
  }

  /** Whether a folded key is a known country or region name (by name, not code). */
  boolean isAreaName(String folded) {
    String k = areaKey(folded);
    return countriesByName.containsKey(k) || regionsByKey.containsKey(k);
  }

  /** A country reading of the query's tail: which countries, where the words before it end, how many words. */
  record CountryTail(int[] countries, int end, int words, boolean codeOnly) {}

  /**
   * Every reading of words {@code [0, end)}'s tail as a country: 1 to 4 words ending the last
   * segment, or the last two segments together; codes only as single words. A reading whose words
   * are only the end of a longer name in the same segment is left out.
   */
  List<CountryTail> countryTails(QueryText t, int end) {
    List<CountryTail> out = new ArrayList<>(2);
    if (end == 0) {
      return out;
    }
    int lastSeg = t.segment[end - 1];
    int segStart = t.firstOf(lastSeg);
    boolean splitName = false;
    // A name with commas in it ("Korea, South", "Saint Helena, Ascension, and Tristan da Cunha"):
    // the last two or three segments together, unless they also read as a place of its own
    // followed by a country ("Brazzaville, Congo" is no "Congo-Brazzaville"). The longest wins.
    for (int back = MAX_NAME_SEGMENTS - 1; back >= 1 && !splitName; back--) {
      if (lastSeg - back < 0) {
        continue;
      }
      int from = t.firstOf(lastSeg - back);
      int firstEnd = t.lastOf(lastSeg - back) + 1;
      if (end - from > MAX_NAME_WORDS) {
        continue;
      }
      int[] c = countriesByName(areaKey(t.join(from, end)));
      boolean placeThenCountry = cityNames != null && cityNames.find(t.join(from, firstEnd)) >= 0
          && countries(t.join(firstEnd, end)) != null;
      if (c != null && !placeThenCountry) {
        out.add(new CountryTail(c, from, end - from, false));
        splitName = true;
      }
    }
    for (int len = 1; len <= MAX_NAME_WORDS && len <= end - segStart; len++) {
      String key = t.join(end - len, end);
      int[] byName = countriesByName(areaKey(key));
      int[] byCode = len == 1 ? countriesByCode.get(key) : null;
      if (byName == null && byCode == null) {
        continue;
      }
      if (splitName || partOfLongerName(t, segStart, end - len, end)) {
        continue;
      }
      int[] c = byName == null ? byCode : byCode == null ? byName : union(byName, byCode);
      out.add(new CountryTail(c, end - len, len, byName == null));
    }
    return out;
  }

  /** A region reading of the tail: which divisions, where the words before it end, how many words. */
  record RegionTail(int[] regions, int end, int words) {}

  /** Every reading of words {@code [0, end)}'s tail as a division (1 to 4 words ending the last segment) in the given countries (any when null). */
  List<RegionTail> regionTails(QueryText t, int end, int[] countries) {
    List<RegionTail> out = new ArrayList<>(2);
    if (end == 0) {
      return out;
    }
    int segStart = t.firstOf(t.segment[end - 1]);
    for (int len = 1; len <= 4 && len <= end - segStart; len++) {
      int[] r = regions(areaKey(t.join(end - len, end)), countries);
      if (r == null && len >= 2 && REGION_WORDS.contains(t.words[end - 1])) {
        // "Hovd Province", "Ontario Province": the name without the word for what it is.
        r = regions(areaKey(t.join(end - len, end - 1)), countries);
      }
      if (r != null) {
        out.add(new RegionTail(r, end - len, len));
      }
    }
    return out;
  }

  /** The named area of words {@code [0, end)}. */
  AskedArea asked(QueryText t, int end) {
    List<CountryTail> tails = countryTails(t, end);
    return asked(t, end, tails, allowedCountries(t, tails));
  }

  /**
   * The countries an answer may be in given the country readings of the tail: every country
   * their words can mean, and the country of a division of the same words ("Georgia" → GE, US);
   * null when the tail names no country.
   */
  int[] allowedCountries(QueryText t, List<CountryTail> tails) {
    int[] countries = null;
    for (CountryTail c : tails) {
      countries = countries == null ? c.countries() : union(countries, c.countries());
      int[] same = regions(areaKey(t.join(c.end(), c.end() + c.words())), null);
      if (same != null) {
        for (int r : same) {
          countries = union(countries, new int[] {regionCountry[r]});
        }
      }
    }
    return countries;
  }

  /** The named area given the tail's country readings and the countries they allow. */
  AskedArea asked(QueryText t, int end, List<CountryTail> tails, int[] countries) {
    Set<Integer> regionSet = new TreeSet<>();
    List<Integer> ends = new ArrayList<>();
    ends.add(end);
    for (CountryTail c : tails) {
      ends.add(t.stripTrailingPostcodes(c.end()));
    }
    for (int e : ends) {
      for (RegionTail r : regionTails(t, e, countries)) {
        String words = t.join(r.end(), r.end() + r.words());
        if (cityNames != null && cityNames.isOwnName(words)) {
          continue;
        }
        // Words read as (part of) a country too ("Tbilisi, Georgia", "Antigua & Barbuda") name the
        // country, not a region.
        if (tails.stream().anyMatch(c -> r.end() >= c.end() && r.end() < c.end() + c.words())) {
          continue;
        }
        for (int id : r.regions()) {
          regionSet.add(id);
        }
      }
    }
    int[] regions = regionSet.stream().mapToInt(Integer::intValue).toArray();
    return area(countries, regions.length == 0 ? null : regions);
  }

  private AskedArea area(int[] countries, int[] regions) {
    Set<String> codes = new TreeSet<>();
    if (countries != null) {
      for (int c : countries) {
        codes.add(iso2[c]);
      }
    }
    Set<String> rc = new TreeSet<>();
    Set<String> rn = new TreeSet<>();
    if (regions != null) {
      for (int r : regions) {
        rc.add(regionCode[r]);
        rn.add(regionName[r]);
      }
    }
    if (codes.isEmpty() && rc.isEmpty()) {
      return AskedArea.NONE;
    }
    return new AskedArea(codes, rc, rn);
  }

  /**
   * Whether words {@code [from, end)} are only the end of a longer name within the segment that
   * starts at {@code segStart}: some {@code [s, end)} with {@code s < from} is a city, region or
   * country name ({@code west jordan}, {@code new jersey}).
   */
  private boolean partOfLongerName(QueryText t, int segStart, int from, int end) {
    for (int s = segStart; s < from; s++) {
      String longer = t.join(s, end);
      if (isAreaName(longer) || (cityNames != null && cityNames.find(longer) >= 0)) {
        return true;
      }
    }
    return false;
  }

  // ---- keys ----

  /**
   * The area key of a folded name: its words without joining words, {@code saint/sainte/sankt}
   * as {@code st/ste}, sorted and joined by single spaces; empty when no word remains.
   */
  static String areaKey(String folded) {
    if (folded.isEmpty()) {
      return "";
    }
    String[] ws = folded.split(" ");
    List<String> kept = new ArrayList<>(ws.length);
    for (String w : ws) {
      if (JOINING.contains(w)) {
        continue;
      }
      kept.add(switch (w) {
        case "saint", "sankt", "sint" -> "st";
        case "sainte" -> "ste";
        default -> w;
      });
    }
    kept.sort(Comparator.naturalOrder());
    return String.join(" ", kept);
  }

  private static boolean present(String v) {
    return v != null && !v.isBlank();
  }

  static boolean contains(int[] a, int v) {
    for (int x : a) {
      if (x == v) {
        return true;
      }
    }
    return false;
  }

  private static int[] union(int[] a, int[] b) {
    int[] out = Arrays.copyOf(a, a.length + b.length);
    int n = a.length;
    for (int x : b) {
      if (!contains(a, x)) {
        out[n++] = x;
      }
    }
    return Arrays.copyOf(out, n);
  }

  /** Parses the two tables; single use, single thread. */
  private static final class Builder {
    String[] iso2;
    String[] countryName;
    double[] countryLat;
    double[] countryLon;
    String[] countryPointKind;
    String[] countryPointName;
    int[] countryPopulation;
    final Map<String, int[]> countriesByName = new HashMap<>();
    final Map<String, int[]> countriesByCode = new HashMap<>();
    final Map<String, Integer> countryByIso2 = new HashMap<>();
    String[] regionCode;
    String[] regionName;
    short[] regionCountry;
    double[] regionLat;
    double[] regionLon;
    String[] regionPointKind;
    String[] regionPointName;
    int[] regionPopulation;
    final Map<String, int[]> regionsByKey = new HashMap<>();

    Builder(List<String[]> countries, List<String[]> admin1) {
      readCountries(countries);
      readRegions(admin1);
    }

    private void readCountries(List<String[]> rows) {
      int n = rows.size();
      iso2 = new String[n];
      countryName = new String[n];
      countryLat = new double[n];
      countryLon = new double[n];
      countryPointKind = new String[n];
      countryPointName = new String[n];
      countryPopulation = new int[n];
      Map<String, List<Integer>> own = new HashMap<>();
      Map<String, List<Integer>> aliases = new HashMap<>();
      Map<String, List<Integer>> otherLanguages = new HashMap<>();
      for (int i = 0; i < n; i++) {
        String[] f = rows.get(i);
        iso2[i] = f[0];
        countryName[i] = f[2];
        countryByIso2.put(f[0], i);
        countryLat[i] = parseOrNaN(field(f, 4));
        countryLon[i] = parseOrNaN(field(f, 5));
        countryPointKind[i] = field(f, 6);
        countryPointName[i] = field(f, 7);
        countryPopulation[i] = field(f, 8).isEmpty() ? 0 : Integer.parseInt(field(f, 8));
        countriesByCode.put(f[0].toLowerCase(java.util.Locale.ROOT), new int[] {i});
        if (!f[1].isEmpty()) {
          countriesByCode.put(f[1].toLowerCase(java.util.Locale.ROOT), new int[] {i});
        }
        addNameKeys(own, f[2], i);
        for (String alias : field(f, 3).isEmpty() ? new String[0] : field(f, 3).split("\\|")) {
          addNameKeys(aliases, alias, i);
        }
        for (String name : field(f, 9).isEmpty() ? new String[0] : field(f, 9).split("\\|")) {
          addNameKeys(otherLanguages, name, i);
        }
      }
      // A key: the countries whose own name it is first, then those carrying it as an English
      // alias, then as a name in another language; most populous first within each.
      Set<String> keys = new TreeSet<>(own.keySet());
      keys.addAll(aliases.keySet());
      keys.addAll(otherLanguages.keySet());
      for (String k : keys) {
        List<Integer> ids = new ArrayList<>(own.getOrDefault(k, List.of()));
        for (Map<String, List<Integer>> tier : List.of(aliases, otherLanguages)) {
          List<Integer> more = new ArrayList<>(tier.getOrDefault(k, List.of()));
          more.removeAll(ids);
          more.sort(Comparator.comparingInt((Integer c) -> -countryPopulation[c]));
          ids.addAll(more);
        }
        countriesByName.put(k, ids.stream().mapToInt(Integer::intValue).toArray());
      }
    }

    private static void addNameKeys(Map<String, List<Integer>> byKey, String name, int id) {
      String key = areaKey(TextFold.fold(name));
      addKey(byKey, key, id);
      // "Turks and Caicos Islands" is also written "Turks & Caicos".
      List<String> ws = new ArrayList<>(List.of(key.split(" ")));
      if (ws.removeIf(w -> w.equals("islands") || w.equals("island")) && ws.size() >= 2) {
        addKey(byKey, String.join(" ", ws), id);
      }
    }

    private void readRegions(List<String[]> rows) {
      int n = rows.size();
      regionCode = new String[n];
      regionName = new String[n];
      regionCountry = new short[n];
      regionLat = new double[n];
      regionLon = new double[n];
      regionPointKind = new String[n];
      regionPointName = new String[n];
      regionPopulation = new int[n];
      Map<String, List<Integer>> byKey = new HashMap<>();
      for (int i = 0; i < n; i++) {
        String[] f = rows.get(i);
        String code = f[0];
        Integer c = countryByIso2.get(code.substring(0, code.indexOf('.')));
        regionCode[i] = code;
        regionName[i] = f[1];
        regionCountry[i] = (short) (c == null ? -1 : c);
        regionLat[i] = parseOrNaN(field(f, 3));
        regionLon[i] = parseOrNaN(field(f, 4));
        regionPointKind[i] = field(f, 5);
        regionPointName[i] = field(f, 6);
        regionPopulation[i] = field(f, 7).isEmpty() ? 0 : Integer.parseInt(field(f, 7));
        if (c == null) {
          continue;
        }
        List<String> names = new ArrayList<>();
        names.add(f[1]);
        if (!field(f, 2).isEmpty()) {
          names.addAll(Arrays.asList(f[2].split("\\|")));
        }
        for (String name : names) {
          String folded = TextFold.fold(name);
          addKey(byKey, areaKey(folded), i);
          for (String s : REGION_SUFFIXES) {
            if (folded.endsWith(s) && folded.length() > s.length()) {
              addKey(byKey, areaKey(folded.substring(0, folded.length() - s.length())), i);
            }
          }
          for (String p : REGION_PREFIXES) {
            if (folded.startsWith(p) && folded.length() > p.length()) {
              addKey(byKey, areaKey(folded.substring(p.length())), i);
            }
          }
        }
      }
      byKey.forEach((k, ids) -> {
        ids.sort(Comparator.comparingInt((Integer r) -> -regionPopulation[r]).thenComparingInt(r -> r));
        regionsByKey.put(k, ids.stream().mapToInt(Integer::intValue).toArray());
      });
    }

    private static void addKey(Map<String, List<Integer>> byKey, String key, int id) {
      if (key.isEmpty()) {
        return;
      }
      List<Integer> ids = byKey.computeIfAbsent(key, k -> new ArrayList<>(1));
      if (!ids.contains(id)) {
        ids.add(id);
      }
    }

    private static String field(String[] f, int i) {
      return i < f.length ? f[i] : "";
    }

    private static double parseOrNaN(String s) {
      return s.isEmpty() ? Double.NaN : Double.parseDouble(s);
    }
  }
}
