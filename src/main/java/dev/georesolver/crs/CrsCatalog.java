package dev.georesolver.crs;

import org.locationtech.proj4j.CRSFactory;
import org.locationtech.proj4j.CoordinateTransformFactory;
import org.locationtech.proj4j.io.Proj4FileReader;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Every CRS definition a process may apply, and where each comes from, first match wins:
 *
 * <ol>
 *   <li>the manifest's {@code crs_definitions} (pinned), so a datum change is a reviewed commit of
 *       the manifest;
 *   <li>the resolver's reviewed defaults in {@code crs/definitions.txt} (each with the reason it
 *       exists: proj4j-epsg lacks the CRS, or its datum shift differs from the one PROJ applies);
 *   <li>proj4j-epsg's bundled EPSG database (EPSG codes only; Esri-only wkids need 1 or 2).
 * </ol>
 *
 * <p>The EPSG database is a 900 KB text file that proj4j scans from the top for every code it is
 * asked: tens of milliseconds warm, hundreds cold (a code it lacks is a scan of the whole file).
 * So only {@link #lookUp} reads it — blocking work for a worker thread — and what it said is
 * remembered, so that no later answer in that CRS pays for the scan again:
 *
 * <ul>
 *   <li>a definition found, for the life of the process (the file is part of the build; at most
 *       one entry per EPSG code);
 *   <li>a code not found, for {@link #UNKNOWN_TTL_MS} from the read, at most
 *       {@link #MAX_UNKNOWN} codes (the least recently asked is forgotten first). Bounded because a
 *       provider may name any code; expiring because proj4j answers "not found" for a read that
 *       failed too (it swallows the I/O error), which must not stick for the life of the process.
 * </ul>
 * {@link #known} answers from memory and never blocks; {@link #warm} looks up {@link #COMMON} at start.
 *
 * <p>Thread-safe: the pinned and bundled tables are immutable, the found definitions a concurrent
 * map, the codes not found a synchronized bounded map.
 */
public final class CrsCatalog {

  /**
   * The CRSs looked up at start: those the accuracy test checks against PROJ, which are the ones
   * providers answer in most (Web Mercator, the national grids of Britain, France, the Netherlands,
   * Belgium, Sweden and New Zealand, UTM, LAEA Europe, NAD83 and its Albers and state-plane forms).
   */
  public static final List<CrsId> COMMON = List.of(3857, 27700, 2154, 25832, 32633, 3035, 2263, 28992, 4269, 3006,
      2193, 31370, 5070).stream().map(CrsId::ofCode).toList();

  private static final Pattern GRID_PARAMETER = Pattern.compile("\\+nadgrids=(?!@null(?:\\s|$))\\S*");
  private static final Map<String, Entry> BUNDLED = loadBundled();
  /** What proj4j-epsg's file said about each code asked so far; shared by every catalog reading it. */
  private static final Map<String, Entry> EPSG_FILE = new ConcurrentHashMap<>();

  /** How long a code the EPSG database lacks is remembered as unknown, milliseconds from its read (one hour). */
  public static final long UNKNOWN_TTL_MS = 3_600_000L;
  /** How many codes the EPSG database lacks are remembered at most. */
  public static final int MAX_UNKNOWN = 1024;
  /** The codes proj4j-epsg's file did not have, shared by every catalog reading it. */
  private static final Unknown EPSG_UNKNOWN = new Unknown(MAX_UNKNOWN, UNKNOWN_TTL_MS, Clock.systemUTC());

  /**
   * What the catalog knows of one CRS: a definition to apply, or why there is none.
   *
   * @param definition the proj4 definition, or null when the CRS cannot be used
   * @param problem why it cannot be used ({@code unknown CRS …}), or null
   */
  public record Entry(String definition, String problem) {

    /** Whether there is a definition to apply. */
    public boolean found() {
      return definition != null;
    }
  }

  private final Map<String, Entry> pinned;
  private final Function<String, String[]> epsgReader;
  private final Map<String, Entry> epsg;
  private final Unknown unknown;

  private CrsCatalog(Map<String, Entry> pinned, Function<String, String[]> epsgReader, Map<String, Entry> epsg, Unknown unknown) {
    this.pinned = pinned;
    this.epsgReader = epsgReader;
    this.epsg = epsg;
    this.unknown = unknown;
  }

  /**
   * The catalog over the manifest's pinned definitions and proj4j-epsg's database.
   *
   * @param pinnedDefinitions the manifest's {@code crs_definitions}: source CRS (any spelling
   *     {@link CrsId#parse} accepts) to proj4 definition; these win over the bundled ones
   * @throws IllegalArgumentException when a key is not a CRS spelling or a definition is empty,
   *     unreadable by proj4j or names a grid file; {@link #problems} lists every such problem
   */
  public static CrsCatalog of(Map<String, String> pinnedDefinitions) {
    return new CrsCatalog(pinnedEntries(pinnedDefinitions), CrsCatalog::readEpsgFile, EPSG_FILE, EPSG_UNKNOWN);
  }

  /**
   * As {@link #of}, reading EPSG definitions with {@code epsgReader} (canonical {@code EPSG:n} to
   * its proj4 parameters, null when unknown) and remembering them in this catalog only: for tests
   * that watch when and where the database is read.
   */
  public static CrsCatalog of(Map<String, String> pinnedDefinitions, Function<String, String[]> epsgReader) {
    return of(pinnedDefinitions, epsgReader, Clock.systemUTC(), MAX_UNKNOWN);
  }

  /**
   * As {@link #of(Map, Function)}, the codes not found expiring by {@code clock} and at most
   * {@code maxUnknown} of them remembered: for tests of that memory.
   */
  public static CrsCatalog of(Map<String, String> pinnedDefinitions, Function<String, String[]> epsgReader, Clock clock,
      int maxUnknown) {
    return new CrsCatalog(pinnedEntries(pinnedDefinitions), epsgReader, new ConcurrentHashMap<>(),
        new Unknown(maxUnknown, UNKNOWN_TTL_MS, clock));
  }

  /**
   * What is known of {@code id} without reading anything: its entry, or null when only
   * {@link #lookUp} can tell (an EPSG code not asked before). Never blocks.
   */
  public Entry known(CrsId id) {
    String key = id.canonical();
    Entry e = pinned.get(key);
    if (e == null) {
      e = BUNDLED.get(key);
    }
    if (e == null && id.epsg() == 0) {
      // Not remembered: Esri wkids are unbounded, and this answer costs no I/O.
      return new Entry(null, "unknown CRS " + key + ": no reviewed definition; pin one in crs_definitions");
    }
    if (e == null) {
      e = epsg.get(key);
    }
    return e != null ? e : unknown.recall(key);
  }

  /** Whether the manifest pins a definition of {@code id}. */
  public boolean pinned(CrsId id) {
    return pinned.containsKey(id.canonical());
  }

  /**
   * The entry of {@code id}, reading proj4j-epsg's database when it was not asked before.
   * <b>Blocking</b> (a scan of the database file): call it on a worker thread.
   */
  public Entry lookUp(CrsId id) {
    Entry e = known(id);
    if (e != null) {
      return e;
    }
    String key = id.canonical();
    Entry read = read(key);
    if (!read.found()) {
      unknown.remember(key, read);
      return read;
    }
    Entry earlier = epsg.putIfAbsent(key, read);
    return earlier != null ? earlier : read;
  }

  /**
   * The codes the EPSG database did not have: at most {@code max}, each for {@code ttlMs} from its
   * read by {@code clock}, the least recently asked forgotten first. Thread-safe (synchronized: a
   * few map operations, never I/O).
   */
  private static final class Unknown {
    private record Remembered(Entry entry, long untilMs) {}

    private final int max;
    private final long ttlMs;
    private final Clock clock;
    private final LinkedHashMap<String, Remembered> codes;

    Unknown(int max, long ttlMs, Clock clock) {
      if (max < 1) {
        throw new IllegalArgumentException("max must be at least 1: " + max);
      }
      this.max = max;
      this.ttlMs = ttlMs;
      this.clock = clock;
      this.codes = new LinkedHashMap<>(16, 0.75f, true);
    }

    /** The remembered answer for {@code key}, or null when there is none or it expired. */
    synchronized Entry recall(String key) {
      Remembered r = codes.get(key);
      if (r == null) {
        return null;
      }
      if (clock.millis() >= r.untilMs()) {
        codes.remove(key);
        return null;
      }
      return r.entry();
    }

    synchronized void remember(String key, Entry e) {
      codes.put(key, new Remembered(e, clock.millis() + ttlMs));
      if (codes.size() > max) {
        codes.remove(codes.keySet().iterator().next());
      }
    }
  }

  private Entry read(String canonical) {
    String[] params = epsgReader.apply(canonical);
    // proj4j's own message for a code it does not have, as the normalizer has always reported it.
    return params == null ? new Entry(null, "unknown CRS " + canonical + ": " + canonical)
        : new Entry(String.join(" ", params), null);
  }

  /**
   * Looks up {@link #COMMON} and builds one transform from every known definition, so that no
   * first answer pays for the database scan or for loading proj4j's projection classes.
   * <b>Blocking</b>: call it on a worker thread at start.
   */
  public void warm() {
    COMMON.forEach(this::lookUp);
    List<Entry> entries = new ArrayList<>(pinned.values());
    entries.addAll(BUNDLED.values());
    COMMON.forEach(id -> entries.add(known(id)));
    CRSFactory crs = new CRSFactory();
    CoordinateTransformFactory transforms = new CoordinateTransformFactory();
    var wgs84 = crs.createFromParameters("EPSG:4326", CrsNormalizer.WGS84_DEFINITION);
    for (Entry e : entries) {
      if (e.found()) {
        try {
          transforms.createTransform(crs.createFromParameters("warm", e.definition()), wgs84);
        } catch (RuntimeException ignored) {
          // The normalizer reports an unusable definition when a point asks for it.
        }
      }
    }
  }

  /** proj4j-epsg's parameters for a canonical {@code EPSG:n}, or null when it has none. Blocking. */
  private static String[] readEpsgFile(String canonical) {
    return new Proj4FileReader().getParameters(canonical);
  }

  /**
   * Everything wrong with a {@code crs_definitions} map, one message per problem, empty when it
   * is usable: keys that are not CRS spellings, definitions proj4j cannot read, grid files.
   */
  public static List<String> problems(Map<String, String> definitions) {
    List<String> problems = keyProblems(definitions);
    CRSFactory factory = new CRSFactory();
    definitions.forEach((key, definition) -> {
      try {
        if (definition != null && !definition.isBlank() && !GRID_PARAMETER.matcher(definition).find()) {
          factory.createFromParameters(key, definition);
        }
      } catch (RuntimeException e) {
        problems.add("crs_definitions." + key + ": proj4j cannot read the definition: " + e.getMessage());
      }
    });
    return problems;
  }

  private static List<String> keyProblems(Map<String, String> definitions) {
    List<String> problems = new ArrayList<>();
    Map<String, String> seen = new HashMap<>();
    definitions.forEach((key, definition) -> {
      try {
        String canonical = CrsId.parse(key).canonical();
        String twin = seen.put(canonical, key);
        if (twin != null) {
          problems.add("crs_definitions: " + twin + " and " + key + " both define " + canonical);
        }
      } catch (CrsException e) {
        problems.add("crs_definitions." + key + ": " + e.getMessage());
      }
      if (definition == null || definition.isBlank()) {
        problems.add("crs_definitions." + key + ": empty definition");
      } else if (GRID_PARAMETER.matcher(definition).find()) {
        problems.add("crs_definitions." + key + ": grid files are not supported (only +nadgrids=@null)");
      }
    });
    return problems;
  }

  private static Map<String, Entry> pinnedEntries(Map<String, String> definitions) {
    List<String> problems = problems(definitions);
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(String.join("; ", problems));
    }
    Map<String, Entry> canonical = new HashMap<>();
    definitions.forEach((key, definition) -> {
      try {
        canonical.put(CrsId.parse(key).canonical(), new Entry(definition.strip(), null));
      } catch (CrsException e) {
        throw new IllegalStateException("validated key no longer parses: " + key, e);
      }
    });
    return Map.copyOf(canonical);
  }

  /** The resolver's reviewed default definitions, canonical CRS to proj4 string. */
  static Map<String, String> bundledDefinitions() {
    Map<String, String> m = new LinkedHashMap<>();
    BUNDLED.forEach((k, e) -> m.put(k, e.definition()));
    return m;
  }

  private static Map<String, Entry> loadBundled() {
    Map<String, Entry> definitions = new LinkedHashMap<>();
    for (String line : CrsId.dataLines("crs/definitions.txt")) {
      int space = line.indexOf(' ');
      definitions.put(line.substring(0, space), new Entry(line.substring(space + 1).strip(), null));
    }
    return Map.copyOf(definitions);
  }
}
