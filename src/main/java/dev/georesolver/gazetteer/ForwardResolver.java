package dev.georesolver.gazetteer;

import dev.georesolver.gazetteer.CountryNames.CountryTail;
import dev.georesolver.gazetteer.CountryNames.RegionTail;
import dev.georesolver.geo.Bbox;
import dev.georesolver.geo.ForwardQuery;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a forward query as "[detail,] place [, region] [, country] [postcode]" and finds the
 * place: a city, or a first-level division or a country named as such.
 *
 * <p>Free text is cut into segments at commas (and {@code ; | newline}), each segment folded
 * ({@link TextFold}) into words. A text that is nothing but a country's name is that country.
 * Otherwise every reading is tried: trailing words taken as a country (name, alias, ISO-2 or
 * ISO-3, see {@link CountryNames}), then trailing words taken as a first-level division (name or
 * abbreviation), or neither; postcode-like words at the edges are dropped. When the region words
 * are all that is left, the reading is that division (unless a namesake city inside it, or a
 * namesake capital, is what the name means: {@code New York}, {@code Washington}). Otherwise
 * what remains must hold a city: the last remaining segment as a whole name, or, when the rest of
 * that segment looks like a street address, its trailing (or leading, before a house number)
 * words; failing that an earlier segment as a whole. Each reading's candidates are the places
 * bearing that exact folded name (own or alternate), filtered by its qualifiers; the reading whose
 * best place gets the highest confidence wins (a reading with a match inside the query's bbox
 * beats one without; more qualifier words break ties).
 *
 * <p><b>A named country is a constraint</b>: when the tail names a country, no reading may answer
 * outside the countries those words can mean ({@link CountryNames#find(String)}).
 *
 * <p><b>Ranking</b>: a candidate's weight is its population, times {@link #SHORT_FORM_WEIGHT} or
 * {@link #ALTERNATE_WEIGHT} when matched through a short form or another alternate name, times {@link #RANK_WEIGHT} for a capital or seat, times
 * {@link #NAMESAKE_DIVISION_WEIGHT} when it lies in a first-level division of the same name (the
 * seat Khovd of Hovd province for "Hovd"). Confidence is the weight's share (with the weight of
 * lesser candidates within {@link #SAME_PLACE_M} of the best counted as the best's), so two far
 * apart namesakes of similar weight give well under the cap.
 *
 * <p>Immutable and thread-safe.
 */
final class ForwardResolver {

  /** Most candidates returned. */
  static final int MAX_RESULTS = 5;
  /** Most alternatives carried by the best match. */
  static final int MAX_ALTERNATIVES = 3;
  /**
   * Candidates closer than this to the best, in metres, are taken as the same place (duplicates,
   * suburbs, a capital and its district): they add to its confidence and are no alternative.
   */
  static final double SAME_PLACE_M = 25_000;
  /** Weight of a city matched through a short form of its name ("Matamoros" for Heroica Matamoros). */
  static final double SHORT_FORM_WEIGHT = 0.25;
  /**
   * Weight of a city matched through another alternate name (historical, foreign: "Londres"),
   * which also gets no rank or namesake factor: such a name is evidence only where no place bears
   * it as its own (Austin was once "Waterloo"; Waterloo, Iowa is called so now).
   */
  static final double ALTERNATE_WEIGHT = 0.05;
  /**
   * Share of a division's population a namesake city inside it must weigh for the division's
   * name to read as the city ("New York", "Tokyo"; not "Arizona" for Yuma, once called so).
   */
  static final double NAMESAKE_CITY_SHARE = 0.1;
  /** Weight factor by rank: another place, second-level seat, first-level seat, capital. */
  static final double[] RANK_WEIGHT = {1, 1.25, 2, 3};
  /** Weight factor of a city lying in a first-level division named like the query. */
  static final double NAMESAKE_DIVISION_WEIGHT = 2;
  /** Weight of each further country or division a bare country name can mean, relative to the first. */
  static final double OTHER_AREA_WEIGHT = 0.5;
  /** Confidence factor when a structured region or country is given but not recognised. */
  static final double UNKNOWN_QUALIFIER_PENALTY = 0.8;
  /**
   * Confidence factor when a bare query names a first-level division and the best namesake city
   * does not lie in it: the query may well mean the division.
   */
  static final double DIVISION_NAME_PENALTY = 0.5;
  /** Highest confidence any forward answer is given: the gazetteer is city level. */
  static final double MAX_CONFIDENCE = 0.9;

  /** Words that mark an address (street types, unit designators) when next to a city name. */
  private static final Set<String> STREET_WORDS = Set.of(
      "street", "st", "road", "rd", "avenue", "ave", "av", "boulevard", "blvd", "lane", "ln",
      "drive", "dr", "court", "ct", "place", "pl", "square", "sq", "terrace", "ter", "way",
      "highway", "hwy", "parkway", "pkwy", "circle", "cir", "crescent", "close", "row", "alley",
      "plaza", "strasse", "str", "gasse", "weg", "platz", "allee", "rue", "chemin", "calle",
      "avenida", "rua", "via", "viale", "piazza", "carrer", "plein", "straat", "gracht", "ulica",
      "suite", "apt", "apartment", "unit", "floor", "fl", "building", "bldg", "box", "po",
      "tower", "museum", "station", "airport", "university", "hospital", "cathedral", "church",
      "hotel", "stadium", "bridge", "palace", "castle", "market", "mall");

  /** Words that are never taken as a city from inside a longer segment. */
  private static final Set<String> NOT_A_CITY_ON_ITS_OWN = Set.of(
      "the", "of", "and", "new", "old", "main", "city", "town", "village", "center", "centre",
      "downtown", "upper", "lower", "great", "little", "north", "south", "east", "west", "n", "s",
      "e", "w", "nw", "ne", "sw", "se", "park", "hill", "green", "lake", "mount", "port", "saint",
      "san", "santa", "county", "district", "state", "province", "region", "central", "union",
      "church", "mill", "bay", "beach", "valley", "spring", "springs", "garden", "gardens");

  private static final ForwardResolution NOTHING = new ForwardResolution(List.of(), AskedArea.NONE);

  private final Gazetteer g;
  private final NameIndex names;
  private final CountryNames areas;

  ForwardResolver(Gazetteer g) {
    this.g = g;
    this.names = g.names();
    this.areas = g.areas();
  }

  ForwardResolution resolve(ForwardQuery q) {
    Map<String, String> comps = q.components();
    String locality = comps.get("locality");
    if (locality != null && !locality.isBlank()) {
      return structured(q, locality);
    }
    if (q.text() == null || q.text().isBlank()) {
      return NOTHING;
    }
    return freeText(q.text(), q.bbox());
  }

  // ---- structured components ----

  private ForwardResolution structured(ForwardQuery q, String locality) {
    Map<String, String> comps = q.components();
    AskedArea asked = areas.find(q);
    String[] words = QueryText.words(TextFold.fold(locality));
    int from = 0;
    int to = words.length;
    while (from < to && QueryText.postcodeLike(words[from])) {
      from++;
    }
    while (to > from && QueryText.postcodeLike(words[to - 1])) {
      to--;
    }
    String key = QueryText.join(words, from, to);
    boolean qualified = present(comps, "country") || present(comps, "region");
    int keyId = commonWord(key) && !qualified ? -1 : findCity(key);
    if (keyId < 0) {
      return new ForwardResolution(List.of(), asked);
    }
    double penalty = 1;
    int[] countries = null;
    String countryText = comps.get("country");
    if (present(comps, "country")) {
      countries = areas.countries(TextFold.fold(countryText));
      if (countries == null) {
        penalty *= UNKNOWN_QUALIFIER_PENALTY;
      }
    }
    int[] regions = null;
    if (present(comps, "region")) {
      String regionKey = CountryNames.areaKey(TextFold.fold(comps.get("region")));
      regions = areas.regions(regionKey, countries);
      if (regions == null && areas.regions(regionKey, null) != null) {
        return new ForwardResolution(List.of(), asked);
      }
      if (regions == null) {
        penalty *= UNKNOWN_QUALIFIER_PENALTY;
      }
    }
    boolean finer = present(comps, "house_number") || present(comps, "street") || present(comps, "unit");
    MatchKind kind = finer ? MatchKind.FINER_THAN_LOCALITY : MatchKind.LOCALITY;
    Reading r = candidates(key, keyId, countries, regions, null, q.bbox(), kind, penalty, 0);
    return new ForwardResolution(r == null ? List.of() : r.matches(), asked);
  }

  private static boolean present(Map<String, String> comps, String key) {
    String v = comps.get(key);
    return v != null && !v.isBlank();
  }

  // ---- free text ----

  private ForwardResolution freeText(String text, Bbox bbox) {
    QueryText t = QueryText.of(text);
    int end = t.stripTrailingPostcodes(t.size());
    if (end == 0) {
      return NOTHING;
    }
    List<CountryTail> tails = areas.countryTails(t, end);
    int[] allowed = areas.allowedCountries(t, tails);
    AskedArea asked = areas.asked(t, end, tails, allowed);
    for (CountryTail c : tails) {
      if (c.end() == 0 && !c.codeOnly()) {
        // Nothing but a country's name: the country.
        Reading r = countryAnswer(c.countries(), t.join(0, c.words()), bbox);
        return new ForwardResolution(r == null ? List.of() : r.matches(), asked);
      }
    }
    List<CountryTail> countryOptions = new ArrayList<>(tails.size() + 1);
    countryOptions.add(new CountryTail(null, end, 0, false));
    countryOptions.addAll(tails);
    Reading best = null;
    for (CountryTail country : countryOptions) {
      int e1 = t.stripTrailingPostcodes(country.end());
      int[] within = country.countries() != null ? country.countries() : allowed;
      List<RegionTail> regionOptions = new ArrayList<>();
      regionOptions.add(new RegionTail(null, e1, 0));
      regionOptions.addAll(areas.regionTails(t, e1, within));
      for (RegionTail region : regionOptions) {
        int e2 = t.stripTrailingPostcodes(region.end());
        int qualifierWords = country.words() + region.words();
        Reading r;
        if (e2 == 0) {
          if (region.regions() == null) {
            continue;
          }
          r = regionAnswer(t.join(0, region.words()), region.regions(), within, bbox, qualifierWords);
        } else {
          r = readCity(t, e2, country.countries(), region.regions(), within, bbox, qualifierWords);
        }
        if (r != null && (best == null || r.betterThan(best))) {
          best = r;
        }
      }
    }
    return new ForwardResolution(best == null ? List.of() : best.matches(), asked);
  }

  /**
   * A bare country name: the country, or the first of the countries it can mean ("Congo"); the
   * others, and the divisions of that name elsewhere ("Georgia", US), come as less likely matches.
   */
  private Reading countryAnswer(int[] countries, String words, Bbox bbox) {
    Candidates cs = new Candidates(bbox);
    for (int c : countries) {
      if (areas.countryHasPoint(c)) {
        cs.add(countryRef(c), cs.n == 0 ? 1 : OTHER_AREA_WEIGHT);
      }
    }
    int[] regions = areas.regions(CountryNames.areaKey(words), null);
    if (regions != null) {
      for (int r : regions) {
        if (areas.regionHasPoint(r) && !CountryNames.contains(countries, areas.regionCountry(r))) {
          cs.add(regionRef(r), OTHER_AREA_WEIGHT);
        }
      }
    }
    return cs.reading(MatchKind.LOCALITY, 1, 0);
  }

  /**
   * Words that are all a first-level division's name (after any country): the division, unless
   * the best namesake city bears the name as its own (or a short form of it) and lies in it with
   * at least {@link #NAMESAKE_CITY_SHARE} of its population ("New York", "Tokyo"), or is a capital
   * of that own name ("Washington"), in which case the city reading answers. Namesake cities elsewhere count as less likely matches.
   */
  private Reading regionAnswer(String words, int[] regions, int[] within, Bbox bbox, int qualifierWords) {
    int keyId = findCity(words);
    Reading cities = keyId < 0 ? null : candidates(words, keyId, within, null, within, bbox, MatchKind.LOCALITY, 1, qualifierWords);
    if (cities != null) {
      int c = cities.bestRef();
      int how = how(keyId, c);
      int region = g.admin1Of(c);
      boolean inside = how != NameIndex.OTHER_ALTERNATE && CountryNames.contains(regions, region)
          && cities.weights[0] >= NAMESAKE_CITY_SHARE * areas.regionPopulation(region);
      if (inside || (g.rankOf(c) == 3 && how == NameIndex.OWN)) {
        return null;
      }
    }
    Candidates cs = new Candidates(bbox);
    for (int r : regions) {
      if (areas.regionHasPoint(r)) {
        cs.add(regionRef(r), Math.max(1, areas.regionPopulation(r)));
      }
    }
    if (cs.n == 0) {
      return null;
    }
    if (cities != null) {
      for (int i = 0; i < cities.n; i++) {
        cs.add(cities.refs[i], cities.weights[i]);
      }
    }
    return cs.reading(MatchKind.LOCALITY, 1, qualifierWords);
  }

  /**
   * Looks for a city in words {@code [0, end)}: segments from the last one backwards, each first as
   * a whole name, then (the last segment only) as trailing or leading words of an address. When a
   * country is named and the words are its own name again ("St Lucia, St Lucia"), the country.
   */
  private Reading readCity(
      QueryText t, int end, int[] country, int[] regions, int[] within, Bbox bbox, int qualifierWords) {
    int lastSeg = t.segment[end - 1];
    for (int seg = lastSeg; seg >= 0; seg--) {
      int a = t.firstOf(seg);
      int b = seg == lastSeg ? end : t.lastOf(seg) + 1;
      while (a < b && QueryText.postcodeLike(t.words[a])) {
        a++;
      }
      while (b > a && QueryText.postcodeLike(t.words[b - 1])) {
        b--;
      }
      if (a == b) {
        continue;
      }
      if (seg > 0 && seg == t.segment[t.size() - 1] && isQualifierSegment(t, seg)) {
        // "…, London, UK": a last segment after others that names a country or region is a
        // qualifier, read as such by another reading; this one, which would ignore it or take it
        // for a namesake town (Uk, Russia), is dropped.
        return null;
      }
      MatchKind kind = kindAround(t, seg, lastSeg);
      String key = t.join(a, b);
      int keyId = commonWord(key) && qualifierWords == 0 ? -1 : findCity(key);
      if (keyId >= 0 && a == 0 && regions == null) {
        // The words are also a division's name: the division, or the namesake city it defers to.
        int[] scope = country != null ? country : within;
        int[] namesakes = areas.regions(CountryNames.areaKey(key), scope);
        Reading r = namesakes == null ? null : regionAnswer(key, namesakes, scope, bbox, qualifierWords);
        if (r != null) {
          return r;
        }
      }
      if (keyId >= 0) {
        boolean bare = qualifierWords == 0 && lastSeg == 0;
        Reading r = bare
            ? bareName(key, keyId, within, bbox)
            : candidates(key, keyId, country, regions, within, bbox, kind, 1, qualifierWords);
        if (r != null) {
          return r;
        }
      }
      if (country != null && regions == null && seg == lastSeg) {
        int[] same = areas.countriesByName(CountryNames.areaKey(key));
        if (same != null) {
          for (int c : same) {
            if (CountryNames.contains(country, c) && areas.countryHasPoint(c)) {
              Candidates cs = new Candidates(bbox);
              cs.add(countryRef(c), 1);
              return cs.reading(kind, 1, qualifierWords);
            }
          }
        }
      }
      if (seg == lastSeg) {
        Reading r = partial(t, a, b, country, regions, within, bbox, qualifierWords);
        if (r != null) {
          return r;
        }
      }
    }
    return null;
  }

  /**
   * A query that is nothing but a name which may also be a first-level division. A division name
   * whose best namesake city lies inside it ("New York", "Tokyo", "Delhi") reads as that city;
   * otherwise the namesakes get {@link #DIVISION_NAME_PENALTY}, so that the division itself (read
   * by another reading) wins when it can be answered ("California"), and a namesake capital is
   * answered at a confidence that admits the doubt ("Washington").
   */
  private Reading bareName(String key, int keyId, int[] within, Bbox bbox) {
    Reading all = candidates(key, keyId, within, null, within, bbox, MatchKind.LOCALITY, 1, 0);
    int[] regions = areas.regions(CountryNames.areaKey(key), within);
    if (all != null && regions != null && !CountryNames.contains(regions, g.admin1Of(all.bestRef()))) {
      return candidates(key, keyId, within, null, within, bbox, MatchKind.LOCALITY, DIVISION_NAME_PENALTY, 0);
    }
    return all;
  }

  /** How a whole-segment city match reads given the other segments left over. */
  private MatchKind kindAround(QueryText t, int citySeg, int lastSeg) {
    for (int seg = 0; seg < citySeg; seg++) {
      if (!isQualifierSegment(t, seg)) {
        return MatchKind.FINER_THAN_LOCALITY;
      }
    }
    for (int seg = citySeg + 1; seg <= lastSeg; seg++) {
      if (hasAddressEvidence(t.words, t.firstOf(seg), t.lastOf(seg) + 1)) {
        return MatchKind.FINER_THAN_LOCALITY;
      }
    }
    return citySeg == lastSeg ? MatchKind.LOCALITY : MatchKind.LOCALITY_WITH_EXTRA;
  }

  /** A segment that only names a country or region ("Japan, Tokyo") is no detail. */
  private boolean isQualifierSegment(QueryText t, int seg) {
    String key = t.join(t.firstOf(seg), t.lastOf(seg) + 1);
    return areas.countries(key) != null || areas.regions(CountryNames.areaKey(key), null) != null;
  }

  /** City words inside a segment whose other words look like a street address. */
  private Reading partial(
      QueryText t, int a, int b, int[] country, int[] regions, int[] within, Bbox bbox, int qualifierWords) {
    for (int len = b - a - 1; len >= 1; len--) {
      String trailing = t.join(b - len, b);
      if (cityWordsAllowed(trailing) && hasAddressEvidence(t.words, a, b - len)) {
        int keyId = findCity(trailing);
        Reading r = keyId < 0 ? null
            : candidates(trailing, keyId, country, regions, within, bbox, MatchKind.FINER_THAN_LOCALITY, 1, qualifierWords);
        if (r != null) {
          return r;
        }
      }
      String leading = t.join(a, a + len);
      if (cityWordsAllowed(leading) && QueryText.hasDigit(t.words[a + len])) {
        int keyId = findCity(leading);
        Reading r = keyId < 0 ? null
            : candidates(leading, keyId, country, regions, within, bbox, MatchKind.FINER_THAN_LOCALITY, 1, qualifierWords);
        if (r != null) {
          return r;
        }
      }
    }
    return null;
  }

  private static boolean cityWordsAllowed(String key) {
    return key.length() >= 3 && !commonWord(key);
  }

  /**
   * Whether a key is a common or street word ("of", "new", "street"): such a city (Of, Turkey;
   * Street, England) is only taken with a country or region qualifier, and never from inside a
   * longer segment.
   */
  private static boolean commonWord(String key) {
    return NOT_A_CITY_ON_ITS_OWN.contains(key) || STREET_WORDS.contains(key);
  }

  private static boolean hasAddressEvidence(String[] words, int from, int to) {
    for (int i = from; i < to; i++) {
      if (QueryText.hasDigit(words[i]) || STREET_WORDS.contains(words[i])) {
        return true;
      }
    }
    return false;
  }

  /**
   * The name-index key for a folded city name, trying the forms people and normalizers produce:
   * as given; without a trailing "city" ("Quebec City"); "street …" read back as "saint …"
   * (an address normalizer's expansion of "St.").
   */
  private int findCity(String key) {
    int id = names.find(key);
    if (id < 0 && key.endsWith(" city") && key.length() > 5) {
      id = names.find(key.substring(0, key.length() - 5));
    }
    if (id < 0 && key.startsWith("street ")) {
      id = names.find("saint " + key.substring(7));
    }
    return id;
  }

  /** How the key names a city ({@link NameIndex#OWN}, ...). */
  private int how(int keyId, int city) {
    for (int i = names.start(keyId); i < names.end(keyId); i++) {
      int p = names.posting(i);
      if (NameIndex.city(p) == city) {
        return NameIndex.how(p);
      }
    }
    return NameIndex.OTHER_ALTERNATE;
  }

  // ---- candidates and confidence ----

  /**
   * The cities of one name key that pass the qualifiers and lie in {@code within} (any country
   * when null), weighted (see the class comment); inside {@code bbox} only when any is. Null when
   * none passes.
   */
  private Reading candidates(String key, int keyId, int[] country, int[] regions, int[] within, Bbox bbox,
      MatchKind kind, double penalty, int qualifierWords) {
    int[] namesakeRegions = areas.regions(CountryNames.areaKey(key), null);
    Candidates cs = new Candidates(bbox);
    for (int i = names.start(keyId); i < names.end(keyId); i++) {
      int p = names.posting(i);
      int city = NameIndex.city(p);
      int c = g.countryOf(city);
      if ((country != null && !CountryNames.contains(country, c)) || (within != null && !CountryNames.contains(within, c))) {
        continue;
      }
      if (regions != null && !CountryNames.contains(regions, g.admin1Of(city))) {
        continue;
      }
      int how = NameIndex.how(p);
      double w = Math.max(1, g.populationOf(city));
      if (how == NameIndex.OTHER_ALTERNATE) {
        w *= ALTERNATE_WEIGHT;
      } else {
        w *= (how == NameIndex.SHORT_FORM ? SHORT_FORM_WEIGHT : 1) * RANK_WEIGHT[g.rankOf(city)];
        if (namesakeRegions != null && CountryNames.contains(namesakeRegions, g.admin1Of(city))) {
          w *= NAMESAKE_DIVISION_WEIGHT;
        }
      }
      cs.add(city, w);
    }
    return cs.reading(kind, penalty, qualifierWords);
  }

  // A candidate is a city (ref >= 0), a division (ref = -1 - id) or a country (ref = -1 - divisions - id).

  private int regionRef(int region) {
    return -1 - region;
  }

  private int countryRef(int country) {
    return -1 - areas.regionCount() - country;
  }

  private Place placeOf(int ref) {
    if (ref >= 0) {
      return g.place(ref);
    }
    int r = -1 - ref;
    return r < areas.regionCount() ? areas.regionPlace(r) : areas.countryPlace(r - areas.regionCount());
  }

  private double latOf(int ref) {
    if (ref >= 0) {
      return g.latOf(ref);
    }
    int r = -1 - ref;
    return r < areas.regionCount() ? areas.regionLat(r) : areas.countryLat(r - areas.regionCount());
  }

  private double lonOf(int ref) {
    if (ref >= 0) {
      return g.lonOf(ref);
    }
    int r = -1 - ref;
    return r < areas.regionCount() ? areas.regionLon(r) : areas.countryLon(r - areas.regionCount());
  }

  /** Collects weighted candidates, keeping only those inside the bbox once any is. */
  private final class Candidates {
    private final Bbox bbox;
    int[] refs = new int[8];
    double[] weights = new double[8];
    int n;
    boolean anyInside;

    Candidates(Bbox bbox) {
      this.bbox = bbox;
    }

    void add(int ref, double weight) {
      boolean inside = bbox != null && bbox.contains(lonOf(ref), latOf(ref));
      if (anyInside && !inside) {
        return;
      }
      if (inside && !anyInside) {
        anyInside = true;
        n = 0;
      }
      if (n == refs.length) {
        refs = Arrays.copyOf(refs, n * 2);
        weights = Arrays.copyOf(weights, n * 2);
      }
      refs[n] = ref;
      weights[n] = weight;
      n++;
    }

    Reading reading(MatchKind kind, double penalty, int qualifierWords) {
      return n == 0 ? null : new Reading(refs, weights, n, kind, penalty, qualifierWords, anyInside);
    }
  }

  /**
   * One reading's candidates, ordered by weight. Confidence of candidate i is
   * {@code base × penalty × weight[i] / total}; the best one also counts the lesser candidates
   * within {@link #SAME_PLACE_M} of it.
   */
  private final class Reading {
    final int[] refs;
    final double[] weights;
    final int n;
    private final double total;
    private final double bestShare;
    private final MatchKind kind;
    private final double penalty;
    private final int qualifierWords;
    private final boolean inBbox;

    Reading(int[] refs, double[] weights, int n, MatchKind kind, double penalty, int qualifierWords, boolean inBbox) {
      Integer[] order = new Integer[n];
      for (int i = 0; i < n; i++) {
        order[i] = i;
      }
      // Heaviest first; equal weights keep the data's order (most populous first).
      Arrays.sort(order, (x, y) -> Double.compare(weights[y], weights[x]));
      this.refs = new int[n];
      this.weights = new double[n];
      double sum = 0;
      for (int i = 0; i < n; i++) {
        this.refs[i] = refs[order[i]];
        this.weights[i] = weights[order[i]];
        sum += this.weights[i];
      }
      this.n = n;
      this.total = sum;
      double near = this.weights[0];
      for (int i = 1; i < n; i++) {
        if (distanceM(0, i) <= SAME_PLACE_M) {
          near += this.weights[i];
        }
      }
      this.bestShare = near / sum;
      this.kind = kind;
      this.penalty = penalty;
      this.qualifierWords = qualifierWords;
      this.inBbox = inBbox;
    }

    /** The heaviest candidate. */
    int bestRef() {
      return refs[0];
    }

    private double distanceM(int i, int j) {
      return GridIndex.haversineM(latOf(refs[i]), lonOf(refs[i]), latOf(refs[j]), lonOf(refs[j]));
    }

    double confidence(int i) {
      double share = i == 0 ? bestShare : weights[i] / total;
      double c = kind.base() * penalty * share;
      return Math.max(Gazetteer.MIN_CONFIDENCE, Math.min(MAX_CONFIDENCE, c));
    }

    boolean betterThan(Reading other) {
      if (inBbox != other.inBbox) {
        return inBbox;
      }
      double c = confidence(0);
      double o = other.confidence(0);
      if (Math.abs(c - o) > 1e-9) {
        return c > o;
      }
      return qualifierWords > other.qualifierWords;
    }

    List<ForwardMatch> matches() {
      List<Alternative> alternatives = new ArrayList<>(MAX_ALTERNATIVES);
      for (int i = 1; i < n && alternatives.size() < MAX_ALTERNATIVES; i++) {
        double d = distanceM(0, i);
        if (d > SAME_PLACE_M) {
          alternatives.add(new Alternative(placeOf(refs[i]), confidence(i), d));
        }
      }
      List<ForwardMatch> out = new ArrayList<>(Math.min(n, MAX_RESULTS));
      for (int i = 0; i < n && i < MAX_RESULTS; i++) {
        out.add(new ForwardMatch(placeOf(refs[i]), confidence(i), kind, i == 0 ? alternatives : List.of()));
      }
      return out;
    }
  }
}
