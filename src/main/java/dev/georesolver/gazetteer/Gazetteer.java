package dev.georesolver.gazetteer;

import dev.georesolver.geo.ForwardQuery;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.zip.GZIPInputStream;

/**
 * An offline world gazetteer (GeoNames, CC-BY 4.0) held in memory: forward lookup of city names
 * with optional region and country qualifiers, and of countries, dependent territories and
 * first-level divisions by name (answered at a representative point: the capital or seat); and
 * reverse lookup of the city a point is in or nearest to. Answers are city level at best, never
 * street level.
 *
 * <p>Data: the resources under {@code gazetteer/} on the classpath, produced by
 * {@code scripts/gazetteer/build.sh} (see docs/gazetteer.md). Cities are held in parallel
 * primitive arrays ordered by population, names in a {@link NameIndex}, points in a
 * {@link GridIndex}.
 *
 * <p><b>Loading</b> ({@link #loadDefault()}) reads and decompresses a few MB: it is blocking I/O
 * taking a few hundred milliseconds, so callers on Vert.x run it off the event loop
 * ({@code executeBlocking} or a worker) once at start-up and share the instance.
 *
 * <p><b>Thread-safety</b>: immutable after loading; every method may be called from any thread
 * concurrently. Lookups allocate little and take microseconds, so they may run on an event loop.
 */
public final class Gazetteer {

  /** Classpath folder of the bundled data. */
  public static final String RESOURCE_DIR = "gazetteer/";

  /**
   * Default reverse-lookup radius, in metres: a point farther than this from every city gets no
   * answer rather than a "nearest city" that the point is not in.
   */
  public static final double DEFAULT_MAX_REVERSE_DISTANCE_M = 100_000;

  /** Reverse confidence when the point lies within the city's nominal radius. */
  public static final double REVERSE_INSIDE_CONFIDENCE = 0.7;

  /** Distance beyond the nominal radius over which reverse confidence falls by a factor e, in metres. */
  public static final double REVERSE_DECAY_M = 10_000;

  /** Lowest confidence any answer is given. */
  static final double MIN_CONFIDENCE = 0.01;

  /** Assumed mean urban density that turns a population into a nominal radius, people per km². */
  static final double NOMINAL_DENSITY_PER_KM2 = 3000;
  /** Smallest nominal radius, in metres. */
  static final double MIN_NOMINAL_RADIUS_M = 500;
  /** Largest nominal radius, in metres; also the first radius a reverse search scans. */
  static final double MAX_NOMINAL_RADIUS_M = 15_000;

  private final int[] latE5;
  private final int[] lonE5;
  private final int[] population;
  private final short[] country;
  private final int[] admin1;
  private final byte[] rank;
  private final byte[] nameBytes;
  private final int[] nameStart;
  private final NameIndex names;
  private final GridIndex grid;

  private final CountryNames areas;
  private final Map<String, String> info;
  private final ForwardResolver forward;

  private Gazetteer(Loader l) {
    this.latE5 = l.latE5;
    this.lonE5 = l.lonE5;
    this.population = l.population;
    this.country = l.country;
    this.admin1 = l.admin1;
    this.rank = l.rank;
    this.nameBytes = l.nameBytes;
    this.nameStart = l.nameStart;
    this.names = l.names;
    this.grid = GridIndex.build(latE5, lonE5);
    this.areas = CountryNames.fromRows(l.countryRows, l.admin1Rows, l.names);
    this.info = Map.copyOf(l.info);
    this.forward = new ForwardResolver(this);
  }

  /**
   * Loads the gazetteer bundled on the classpath. Blocking: run it off the event loop.
   *
   * @throws UncheckedIOException when a resource is missing or unreadable
   */
  public static Gazetteer loadDefault() {
    ClassLoader cl = Gazetteer.class.getClassLoader();
    return load(name -> cl.getResourceAsStream(RESOURCE_DIR + name));
  }

  /** Opens one named data file ({@code cities.bin.gz}, {@code admin1.tsv}, ...), or null when absent. */
  @FunctionalInterface
  interface ResourceOpener {
    InputStream open(String name) throws IOException;
  }

  static Gazetteer load(ResourceOpener opener) {
    try {
      Loader l = new Loader();
      l.readInfo(opener);
      l.countryRows = Loader.readTsv(opener, "countries.tsv");
      l.admin1Rows = Loader.readTsv(opener, "admin1.tsv");
      l.readCities(opener);
      return new Gazetteer(l);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot load the gazetteer: " + e.getMessage(), e);
    }
  }

  /**
   * Forward lookup: the places the query most likely names, best first (at most five), or an
   * empty list when it names no known place. A place is a city, or a country, territory or
   * first-level division named as such ({@code Bahrain}, {@code Texas}, {@code Ontario, Canada}).
   * Uses {@code components.locality/region/country} when a locality is given, else parses
   * {@code text}; prefers places inside {@code bbox} when given. When the query names a country,
   * every match is in it (or one of the countries its words can mean).
   */
  public List<ForwardMatch> forward(ForwardQuery query) {
    return forward.resolve(query).matches();
  }

  /** {@link #forward(ForwardQuery)} with the country and region the query named. */
  public ForwardResolution resolve(ForwardQuery query) {
    return forward.resolve(query);
  }

  /** The country and region names the gazetteer knows, and which of them a query names. */
  public CountryNames countryNames() {
    return areas;
  }

  /** {@link #reverse(double, double, double)} within {@link #DEFAULT_MAX_REVERSE_DISTANCE_M}. */
  public Optional<ReverseMatch> reverse(double latDeg, double lonDeg) {
    return reverse(latDeg, lonDeg, DEFAULT_MAX_REVERSE_DISTANCE_M);
  }

  /**
   * Reverse lookup: the city the point lies in, else the nearest city, else empty.
   *
   * <p>A point lies "in" a city when its distance to the city's centre is within the city's
   * {@linkplain #nominalRadiusM(int) nominal radius}; among such cities the one where the point is
   * most central (smallest distance / radius) wins, so a point near the Eiffel Tower is in Paris
   * rather than in the smaller Neuilly-sur-Seine whose centre is nearer. When no city contains the
   * point, the nearest city by great-circle distance answers if it is within
   * {@code maxDistanceM}, else there is no answer.
   *
   * @param latDeg latitude in degrees, [-90, 90]
   * @param lonDeg longitude in degrees, [-180, 180]
   * @param maxDistanceM largest distance to a city centre that still answers, in metres
   * @throws IllegalArgumentException when a coordinate is out of range or not finite
   */
  public Optional<ReverseMatch> reverse(double latDeg, double lonDeg, double maxDistanceM) {
    if (!(latDeg >= -90 && latDeg <= 90) || !(lonDeg >= -180 && lonDeg <= 180)) {
      throw new IllegalArgumentException("lat must be in [-90, 90] and lon in [-180, 180]");
    }
    ReverseSearch s = new ReverseSearch(latDeg, lonDeg);
    double radius = Math.min(MAX_NOMINAL_RADIUS_M, maxDistanceM);
    while (true) {
      s.reset();
      grid.visit(latDeg, lonDeg, radius, s::consider);
      if (s.inside >= 0) {
        return Optional.of(reverseMatch(s.inside, s.insideDistance, true));
      }
      if (s.nearest >= 0 && s.nearestDistance <= radius) {
        return Optional.of(reverseMatch(s.nearest, s.nearestDistance, false));
      }
      if (radius >= maxDistanceM) {
        return Optional.empty();
      }
      radius = Math.min(radius * 2, maxDistanceM);
    }
  }

  /**
   * The radius a city of this population is taken to cover, in metres: the radius of a disc
   * holding the population at {@value #NOMINAL_DENSITY_PER_KM2} people per km², clamped to
   * [{@value #MIN_NOMINAL_RADIUS_M}, {@value #MAX_NOMINAL_RADIUS_M}] m. Paris (2.1 M) gets 15 km,
   * a town of 60,000 about 2.5 km, a village of 1,000 the minimum.
   */
  public static double nominalRadiusM(int population) {
    double km = Math.sqrt(Math.max(0, population) / (Math.PI * NOMINAL_DENSITY_PER_KM2));
    return Math.max(MIN_NOMINAL_RADIUS_M, Math.min(MAX_NOMINAL_RADIUS_M, km * 1000));
  }

  /** Number of cities held. */
  public int size() {
    return latE5.length;
  }

  /**
   * Where the data came from: sources with versions and licences, GeoNames snapshot date,
   * population cut-off and counts (the bundled {@code manifest.properties}).
   */
  public Map<String, String> info() {
    return info;
  }

  /** Bytes held by the big arrays (cities, names, indexes); excludes the small country and region tables. */
  public long approximateBytes() {
    long cities = (long) latE5.length * (4 + 4 + 4 + 2 + 4 + 1 + 4) + nameBytes.length;
    return cities + names.arrayBytes() + grid.arrayBytes();
  }

  private ReverseMatch reverseMatch(int city, double distanceM, boolean inside) {
    double beyond = Math.max(0, distanceM - nominalRadiusM(population[city]));
    double c = REVERSE_INSIDE_CONFIDENCE * Math.exp(-beyond / REVERSE_DECAY_M);
    return new ReverseMatch(place(city), distanceM, Math.max(MIN_CONFIDENCE, c), inside);
  }

  /** Tracks the best containing and the nearest city over one scan. */
  private final class ReverseSearch {
    private final double qLat;
    private final double qLon;
    int inside;
    double insideDistance;
    double insideScore;
    int nearest;
    double nearestDistance;

    ReverseSearch(double qLat, double qLon) {
      this.qLat = qLat;
      this.qLon = qLon;
    }

    void reset() {
      inside = -1;
      insideScore = Double.MAX_VALUE;
      nearest = -1;
      nearestDistance = Double.MAX_VALUE;
    }

    void consider(int city) {
      double d = GridIndex.haversineM(qLat, qLon, latOf(city), lonOf(city));
      if (d < nearestDistance) {
        nearest = city;
        nearestDistance = d;
      }
      double r = nominalRadiusM(population[city]);
      if (d <= r && d / r < insideScore) {
        inside = city;
        insideDistance = d;
        insideScore = d / r;
      }
    }
  }

  // ---- package-private views used by ForwardResolver ----

  NameIndex names() {
    return names;
  }

  int populationOf(int city) {
    return population[city];
  }

  int countryOf(int city) {
    return country[city];
  }

  int admin1Of(int city) {
    return admin1[city];
  }

  double latOf(int city) {
    return latE5[city] / 1e5;
  }

  double lonOf(int city) {
    return lonE5[city] / 1e5;
  }

  CountryNames areas() {
    return areas;
  }

  /** 3 a capital, 2 a first-level seat or seat of government, 1 a second-level seat, 0 another place. */
  int rankOf(int city) {
    return rank[city];
  }

  Place place(int city) {
    int a = admin1[city];
    int c = country[city];
    String name = new String(nameBytes, nameStart[city], nameStart[city + 1] - nameStart[city], StandardCharsets.UTF_8);
    return Place.locality(
        name,
        a >= 0 ? areas.regionName(a) : null,
        areas.iso2(c),
        areas.countryName(c),
        latOf(city),
        lonOf(city),
        population[city]);
  }

  /** Reads the resources into arrays; single use, single thread. */
  private static final class Loader {
    int[] latE5;
    int[] lonE5;
    int[] population;
    short[] country;
    int[] admin1;
    byte[] rank;
    byte[] nameBytes;
    int[] nameStart;
    NameIndex names;
    List<String[]> countryRows;
    List<String[]> admin1Rows;
    final Map<String, String> info = new LinkedHashMap<>();

    void readInfo(ResourceOpener opener) throws IOException {
      try (InputStream in = open(opener, "manifest.properties")) {
        Properties p = new Properties();
        p.load(new InputStreamReader(in, StandardCharsets.UTF_8));
        p.stringPropertyNames().stream().sorted().forEach(k -> info.put(k, p.getProperty(k)));
      }
    }

    /** Reads {@code cities.bin.gz}, whose layout {@code scripts/gazetteer/build.mjs} documents. */
    void readCities(ResourceOpener opener) throws IOException {
      byte[] data;
      try (InputStream in = new GZIPInputStream(open(opener, "cities.bin.gz"), 1 << 16)) {
        data = in.readAllBytes();
      }
      ByteBuffer b = ByteBuffer.wrap(data).order(ByteOrder.BIG_ENDIAN);
      try {
        byte[] magic = new byte[4];
        b.get(magic);
        if (!"GZT2".equals(new String(magic, StandardCharsets.US_ASCII))) {
          throw new IOException("cities.bin.gz: not a GZT2 file");
        }
        int n = b.getInt();
        latE5 = ints(b, n);
        lonE5 = ints(b, n);
        population = ints(b, n);
        country = new short[n];
        b.asShortBuffer().get(country);
        b.position(b.position() + 2 * n);
        admin1 = ints(b, n);
        rank = new byte[n];
        b.get(rank);
        nameStart = lengthsToStarts(b, n);
        nameBytes = new byte[nameStart[n]];
        b.get(nameBytes);
        int k = b.getInt();
        int[] keyStart = lengthsToStarts(b, k);
        byte[] keyBytes = new byte[keyStart[k]];
        b.get(keyBytes);
        int[] counts = ints(b, k);
        int[] postStart = new int[k + 1];
        for (int i = 0; i < k; i++) {
          postStart[i + 1] = postStart[i] + counts[i];
        }
        int[] postings = ints(b, postStart[k]);
        if (b.hasRemaining()) {
          throw new IOException("cities.bin.gz: " + b.remaining() + " unexpected trailing bytes");
        }
        check(n, k, postings);
        names = new NameIndex(keyBytes, keyStart, postStart, postings);
      } catch (BufferUnderflowException | IndexOutOfBoundsException | NegativeArraySizeException e) {
        throw new IOException("cities.bin.gz is truncated or corrupt", e);
      }
    }

    private void check(int n, int k, int[] postings) throws IOException {
      for (int i = 0; i < n; i++) {
        if (country[i] < 0 || country[i] >= countryRows.size() || admin1[i] < -1 || admin1[i] >= admin1Rows.size()
            || rank[i] < 0 || rank[i] > 3) {
          throw new IOException("cities.bin.gz: city " + i + " refers to a country or region that is not in the tables");
        }
      }
      for (int p : postings) {
        if (NameIndex.city(p) >= n || NameIndex.how(p) > NameIndex.OTHER_ALTERNATE) {
          throw new IOException("cities.bin.gz: a posting refers to city " + NameIndex.city(p) + " of " + n);
        }
      }
    }

    private static int[] ints(ByteBuffer b, int count) {
      int[] out = new int[count];
      b.asIntBuffer().get(out);
      b.position(b.position() + 4 * count);
      return out;
    }

    /** Reads {@code count} one-byte lengths into {@code count + 1} start offsets. */
    private static int[] lengthsToStarts(ByteBuffer b, int count) {
      int[] starts = new int[count + 1];
      for (int i = 0; i < count; i++) {
        starts[i + 1] = starts[i] + (b.get() & 0xff);
      }
      return starts;
    }

    static List<String[]> readTsv(ResourceOpener opener, String name) throws IOException {
      List<String[]> rows = new ArrayList<>();
      try (BufferedReader r = new BufferedReader(new InputStreamReader(open(opener, name), StandardCharsets.UTF_8))) {
        for (String line = r.readLine(); line != null; line = r.readLine()) {
          if (!line.isEmpty() && line.charAt(0) != '#') {
            rows.add(line.split("\t", -1));
          }
        }
      }
      return rows;
    }

    private static InputStream open(ResourceOpener opener, String name) throws IOException {
      InputStream in = opener.open(name);
      if (in == null) {
        throw new IOException("missing gazetteer resource " + RESOURCE_DIR + name);
      }
      return in;
    }
  }
}
