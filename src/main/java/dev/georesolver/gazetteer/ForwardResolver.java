package dev.georesolver.gazetteer;

import dev.georesolver.geo.Bbox;
import dev.georesolver.geo.ForwardQuery;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads a forward query as "[detail,] city [, region] [, country] [postcode]" and finds the city.
 *
 * <p>Free text is cut into segments at commas (and {@code ; | newline}), each segment folded
 * ({@link TextFold}) into words. Every reading is tried: trailing words taken as a country (name,
 * alias, ISO-2 or ISO-3), then trailing words taken as a first-level division (name or
 * abbreviation), or neither; postcode-like words at the edges are dropped. What remains must hold
 * a city: the last remaining segment as a whole name, or, when the rest of that segment looks like
 * a street address, its trailing (or leading, before a house number) words; failing that an
 * earlier segment as a whole. Each reading's candidates are the cities bearing that exact folded
 * name (own or alternate), filtered by its qualifiers; the reading whose best city gets the
 * highest confidence wins (a reading with a match inside the query's bbox beats one without; more
 * qualifier words break ties).
 *
 * <p>Names are matched whole, never as substrings; a partial match inside a segment is only taken
 * when the rest of the segment looks like an address and the city words are not a street word or
 * a common word ({@link #NOT_A_CITY_ON_ITS_OWN}).
 *
 * <p>Immutable and thread-safe.
 */
final class ForwardResolver {

  /** Most candidates returned. */
  static final int MAX_RESULTS = 5;
  /** Weight of a city matched through an alternate name, relative to its own name. */
  static final double ALTERNATE_WEIGHT = 0.1;
  /** Confidence factor when a structured region or country is given but not recognised. */
  static final double UNKNOWN_QUALIFIER_PENALTY = 0.8;
  /**
   * Confidence factor when a bare query names a first-level division and no namesake city lies in
   * it: the query probably means the division, which a city gazetteer cannot answer.
   */
  static final double DIVISION_NAME_PENALTY = 0.5;
  /** Highest confidence any forward answer is given: the gazetteer is city level. */
  static final double MAX_CONFIDENCE = 0.9;

  /** Most words of free text that are read, counted from the end. */
  static final int MAX_WORDS = 40;

  private static final Pattern SEGMENTS = Pattern.compile("[,;|\\n\\r]+");

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

  private final Gazetteer g;
  private final NameIndex names;

  ForwardResolver(Gazetteer g) {
    this.g = g;
    this.names = g.names();
  }

  List<ForwardMatch> resolve(ForwardQuery q) {
    Map<String, String> comps = q.components();
    String locality = comps.get("locality");
    if (locality != null && !locality.isBlank()) {
      return structured(q, locality);
    }
    if (q.text() == null || q.text().isBlank()) {
      return List.of();
    }
    return freeText(q.text(), q.bbox());
  }

  // ---- structured components ----

  private List<ForwardMatch> structured(ForwardQuery q, String locality) {
    Map<String, String> comps = q.components();
    String[] words = words(TextFold.fold(locality));
    int from = 0;
    int to = words.length;
    while (from < to && postcodeLike(words[from])) {
      from++;
    }
    while (to > from && postcodeLike(words[to - 1])) {
      to--;
    }
    String key = join(words, from, to);
    boolean qualified = present(comps, "country") || present(comps, "region");
    int keyId = commonWord(key) && !qualified ? -1 : findCity(key);
    if (keyId < 0) {
      return List.of();
    }
    double penalty = 1;
    int country = -1;
    String countryText = comps.get("country");
    if (countryText != null && !countryText.isBlank()) {
      Integer c = g.countryByKey(TextFold.fold(countryText));
      if (c == null) {
        penalty *= UNKNOWN_QUALIFIER_PENALTY;
      } else {
        country = c;
      }
    }
    int[] regions = null;
    String regionText = comps.get("region");
    if (regionText != null && !regionText.isBlank()) {
      String regionKey = TextFold.fold(regionText);
      regions = regionsFor(regionKey, country);
      if (regions == null && g.admin1ByKey(regionKey) != null) {
        return List.of();
      }
      if (regions == null) {
        penalty *= UNKNOWN_QUALIFIER_PENALTY;
      }
    }
    boolean finer = present(comps, "house_number") || present(comps, "street") || present(comps, "unit");
    Reading r = candidates(keyId, country, regions, q.bbox(), finer ? MatchKind.FINER_THAN_LOCALITY : MatchKind.LOCALITY, penalty, 0);
    return r == null ? List.of() : r.matches();
  }

  private static boolean present(Map<String, String> comps, String key) {
    String v = comps.get(key);
    return v != null && !v.isBlank();
  }

  // ---- free text ----

  /** Words of the query and the segment each belongs to. */
  private record Tokens(String[] words, int[] segment) {
    int size() {
      return words.length;
    }
  }

  private List<ForwardMatch> freeText(String text, Bbox bbox) {
    Tokens t = tokenize(text);
    int end = stripTrailingPostcodes(t, t.size());
    if (end == 0) {
      return List.of();
    }
    Reading best = null;
    for (Qualifier country : countryOptions(t, end)) {
      int e1 = stripTrailingPostcodes(t, country.end);
      for (Qualifier region : regionOptions(t, e1, country.country)) {
        int e2 = stripTrailingPostcodes(t, region.end);
        if (e2 == 0) {
          continue;
        }
        Reading r = readCity(t, e2, country.country, region.regions, bbox, country.words + region.words);
        if (r != null && (best == null || r.betterThan(best))) {
          best = r;
        }
      }
    }
    return best == null ? List.of() : best.matches();
  }

  private static Tokens tokenize(String text) {
    List<String> words = new ArrayList<>();
    List<Integer> segs = new ArrayList<>();
    int seg = 0;
    for (String part : SEGMENTS.split(text)) {
      String[] ws = words(TextFold.fold(part));
      if (ws.length == 0) {
        continue;
      }
      for (String w : ws) {
        words.add(w);
        segs.add(seg);
      }
      seg++;
    }
    // The city and its qualifiers stand at the end; a long text is cut to its last words so the
    // work per query stays bounded.
    int from = Math.max(0, words.size() - MAX_WORDS);
    int firstSeg = from < segs.size() ? segs.get(from) : 0;
    int[] segment = new int[words.size() - from];
    for (int i = 0; i < segment.length; i++) {
      segment[i] = segs.get(from + i) - firstSeg;
    }
    return new Tokens(words.subList(from, words.size()).toArray(String[]::new), segment);
  }

  /** A qualifier reading: which country or regions the trailing words named, and where the rest ends. */
  private record Qualifier(int country, int[] regions, int end, int words) {}

  private List<Qualifier> countryOptions(Tokens t, int end) {
    List<Qualifier> out = new ArrayList<>();
    out.add(new Qualifier(-1, null, end, 0));
    for (int len = 1; len <= 4 && len < end; len++) {
      if (t.segment[end - len] != t.segment[end - 1]) {
        break;
      }
      Integer c = g.countryByKey(join(t.words, end - len, end));
      if (c != null) {
        out.add(new Qualifier(c, null, end - len, len));
      }
    }
    return out;
  }

  private List<Qualifier> regionOptions(Tokens t, int end, int country) {
    List<Qualifier> out = new ArrayList<>();
    out.add(new Qualifier(country, null, end, 0));
    for (int len = 1; len <= 4 && len < end; len++) {
      if (t.segment[end - len] != t.segment[end - 1]) {
        break;
      }
      int[] regions = regionsFor(join(t.words, end - len, end), country);
      if (regions != null) {
        out.add(new Qualifier(country, regions, end - len, len));
      }
    }
    return out;
  }

  /** The first-level divisions a folded key names, restricted to a country when one is known. */
  private int[] regionsFor(String key, int country) {
    int[] all = g.admin1ByKey(key);
    if (all == null || country < 0) {
      return all;
    }
    int[] kept = new int[all.length];
    int n = 0;
    for (int a : all) {
      if (g.admin1Country(a) == country) {
        kept[n++] = a;
      }
    }
    return n == 0 ? null : Arrays.copyOf(kept, n);
  }

  /**
   * Looks for a city in words {@code [0, end)}: segments from the last one backwards, each first as
   * a whole name, then (the last segment only) as trailing or leading words of an address.
   */
  private Reading readCity(Tokens t, int end, int country, int[] regions, Bbox bbox, int qualifierWords) {
    int lastSeg = t.segment[end - 1];
    for (int seg = lastSeg; seg >= 0; seg--) {
      int a = firstOf(t, seg);
      int b = seg == lastSeg ? end : lastOf(t, seg) + 1;
      while (a < b && postcodeLike(t.words[a])) {
        a++;
      }
      while (b > a && postcodeLike(t.words[b - 1])) {
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
      String key = join(t.words, a, b);
      int keyId = commonWord(key) && qualifierWords == 0 ? -1 : findCity(key);
      if (keyId >= 0) {
        boolean bare = qualifierWords == 0 && lastSeg == 0;
        Reading r = bare
            ? bareName(key, keyId, bbox)
            : candidates(keyId, country, regions, bbox, kind, 1, qualifierWords);
        if (r != null) {
          return r;
        }
      }
      if (seg == lastSeg) {
        Reading r = partial(t, a, b, country, regions, bbox, qualifierWords);
        if (r != null) {
          return r;
        }
      }
    }
    return null;
  }

  /**
   * A query that is nothing but a name which may also be a country or a first-level division.
   * A country name only yields cities in that country ("Singapore", "Mexico" → Mexico City; not
   * "USA" → Usa River, Tanzania). A division name whose best namesake city lies inside it ("New
   * York", "Tokyo", "Delhi") reads as that city; otherwise the query probably names the division,
   * which a city gazetteer cannot answer, and the namesakes elsewhere get
   * {@link #DIVISION_NAME_PENALTY} ("California" → California, Maryland, at low confidence).
   */
  private Reading bareName(String key, int keyId, Bbox bbox) {
    Integer country = g.countryByKey(key);
    if (country != null) {
      return candidates(keyId, country, null, bbox, MatchKind.LOCALITY, 1, 0);
    }
    Reading all = candidates(keyId, -1, null, bbox, MatchKind.LOCALITY, 1, 0);
    int[] regions = g.admin1ByKey(key);
    if (all != null && regions != null && !contains(regions, g.admin1Of(all.bestCity()))) {
      return candidates(keyId, -1, null, bbox, MatchKind.LOCALITY, DIVISION_NAME_PENALTY, 0);
    }
    return all;
  }

  /** How a whole-segment city match reads given the other segments left over. */
  private MatchKind kindAround(Tokens t, int citySeg, int lastSeg) {
    for (int seg = 0; seg < citySeg; seg++) {
      if (!isQualifierSegment(t, seg)) {
        return MatchKind.FINER_THAN_LOCALITY;
      }
    }
    for (int seg = citySeg + 1; seg <= lastSeg; seg++) {
      if (hasAddressEvidence(t.words, firstOf(t, seg), lastOf(t, seg) + 1)) {
        return MatchKind.FINER_THAN_LOCALITY;
      }
    }
    return citySeg == lastSeg ? MatchKind.LOCALITY : MatchKind.LOCALITY_WITH_EXTRA;
  }

  /** A segment before the city that only names a country or region ("Japan, Tokyo") is no detail. */
  private boolean isQualifierSegment(Tokens t, int seg) {
    String key = join(t.words, firstOf(t, seg), lastOf(t, seg) + 1);
    return g.countryByKey(key) != null || g.admin1ByKey(key) != null;
  }

  /** City words inside a segment whose other words look like a street address. */
  private Reading partial(Tokens t, int a, int b, int country, int[] regions, Bbox bbox, int qualifierWords) {
    for (int len = b - a - 1; len >= 1; len--) {
      String trailing = join(t.words, b - len, b);
      if (cityWordsAllowed(trailing) && hasAddressEvidence(t.words, a, b - len)) {
        int keyId = findCity(trailing);
        Reading r = keyId < 0 ? null
            : candidates(keyId, country, regions, bbox, MatchKind.FINER_THAN_LOCALITY, 1, qualifierWords);
        if (r != null) {
          return r;
        }
      }
      String leading = join(t.words, a, a + len);
      if (cityWordsAllowed(leading) && hasDigit(t.words[a + len])) {
        int keyId = findCity(leading);
        Reading r = keyId < 0 ? null
            : candidates(keyId, country, regions, bbox, MatchKind.FINER_THAN_LOCALITY, 1, qualifierWords);
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
      if (hasDigit(words[i]) || STREET_WORDS.contains(words[i])) {
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

  // ---- candidates and confidence ----

  /**
   * The cities of one name key that pass the qualifiers, weighted by population (alternate-name
   * matches at {@link #ALTERNATE_WEIGHT}); inside {@code bbox} only when any is. Null when none
   * passes.
   */
  private Reading candidates(
      int keyId, int country, int[] regions, Bbox bbox, MatchKind kind, double penalty, int qualifierWords) {
    int from = names.start(keyId);
    int to = names.end(keyId);
    int[] cities = new int[to - from];
    double[] weights = new double[to - from];
    boolean[] inside = new boolean[to - from];
    int n = 0;
    boolean anyInside = false;
    for (int i = from; i < to; i++) {
      int p = names.posting(i);
      int city = NameIndex.city(p);
      if (country >= 0 && g.countryOf(city) != country) {
        continue;
      }
      if (regions != null && !contains(regions, g.admin1Of(city))) {
        continue;
      }
      cities[n] = city;
      weights[n] = Math.max(1, g.populationOf(city)) * (NameIndex.alternate(p) ? ALTERNATE_WEIGHT : 1);
      inside[n] = bbox != null && bbox.contains(g.lonOf(city), g.latOf(city));
      anyInside |= inside[n];
      n++;
    }
    if (n == 0) {
      return null;
    }
    int kept = 0;
    double total = 0;
    for (int i = 0; i < n; i++) {
      if (!anyInside || inside[i]) {
        cities[kept] = cities[i];
        weights[kept] = weights[i];
        total += weights[i];
        kept++;
      }
    }
    return new Reading(cities, weights, kept, total, kind, penalty, qualifierWords, anyInside);
  }

  private static boolean contains(int[] a, int v) {
    for (int x : a) {
      if (x == v) {
        return true;
      }
    }
    return false;
  }

  /** One reading's candidates; confidence of candidate i = base × penalty × weight[i] / total. */
  private final class Reading {
    private final int[] cities;
    private final double[] weights;
    private final int n;
    private final double total;
    private final MatchKind kind;
    private final double penalty;
    private final int qualifierWords;
    private final boolean inBbox;
    private final int best;

    Reading(int[] cities, double[] weights, int n, double total, MatchKind kind, double penalty,
        int qualifierWords, boolean inBbox) {
      this.cities = cities;
      this.weights = weights;
      this.n = n;
      this.total = total;
      this.kind = kind;
      this.penalty = penalty;
      this.qualifierWords = qualifierWords;
      this.inBbox = inBbox;
      int b = 0;
      for (int i = 1; i < n; i++) {
        if (weights[i] > weights[b]) {
          b = i;
        }
      }
      this.best = b;
    }

    /** The city with the largest weight. */
    int bestCity() {
      return cities[best];
    }

    double confidence(int i) {
      double c = kind.base() * penalty * weights[i] / total;
      return Math.max(Gazetteer.MIN_CONFIDENCE, Math.min(MAX_CONFIDENCE, c));
    }

    boolean betterThan(Reading other) {
      if (inBbox != other.inBbox) {
        return inBbox;
      }
      double c = confidence(best);
      double o = other.confidence(other.best);
      if (Math.abs(c - o) > 1e-9) {
        return c > o;
      }
      return qualifierWords > other.qualifierWords;
    }

    List<ForwardMatch> matches() {
      Integer[] order = new Integer[n];
      for (int i = 0; i < n; i++) {
        order[i] = i;
      }
      Arrays.sort(order, (x, y) -> Double.compare(weights[y], weights[x]));
      List<ForwardMatch> out = new ArrayList<>(Math.min(n, MAX_RESULTS));
      for (int i = 0; i < n && i < MAX_RESULTS; i++) {
        int k = order[i];
        out.add(new ForwardMatch(g.place(cities[k]), confidence(k), kind));
      }
      return out;
    }
  }

  // ---- word helpers ----

  private static String[] words(String folded) {
    return folded.isEmpty() ? new String[0] : folded.split(" ");
  }

  private static String join(String[] words, int from, int to) {
    if (to - from == 1) {
      return words[from];
    }
    return String.join(" ", Arrays.asList(words).subList(from, to));
  }

  private static int firstOf(Tokens t, int seg) {
    int i = 0;
    while (t.segment[i] != seg) {
      i++;
    }
    return i;
  }

  private static int lastOf(Tokens t, int seg) {
    int i = t.size() - 1;
    while (t.segment[i] != seg) {
      i--;
    }
    return i;
  }

  private static int stripTrailingPostcodes(Tokens t, int end) {
    while (end > 0 && postcodeLike(t.words[end - 1])) {
      end--;
    }
    return end;
  }

  /**
   * Whether a folded word looks like a postcode or part of one: four or more digits ({@code 20500},
   * {@code 75007}), or two to four letters and digits mixed ({@code sw1a}, {@code 2aa}, {@code k1a}).
   */
  static boolean postcodeLike(String w) {
    int digits = 0;
    for (int i = 0; i < w.length(); i++) {
      if (Character.isDigit(w.charAt(i))) {
        digits++;
      }
    }
    if (digits == 0) {
      return false;
    }
    if (digits == w.length()) {
      return digits >= 4;
    }
    return w.length() >= 2 && w.length() <= 4;
  }

  private static boolean hasDigit(String w) {
    for (int i = 0; i < w.length(); i++) {
      if (Character.isDigit(w.charAt(i))) {
        return true;
      }
    }
    return false;
  }
}
