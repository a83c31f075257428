package dev.georesolver.shadow;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The figures of one pair as the wire, the report and the advice see them: the counts of a
 * {@link PairStats} exactly, and its percentiles and means rounded to what is shown (distances to
 * the centimetre, latencies to the microsecond, the latency ratio to three significant digits, the
 * label similarity to four decimals). Immutable and thread-safe. {@link PairStats} defines every
 * figure.
 *
 * <p><b>Adding a field</b> is done in this class alone: the component, its line in {@link #toMap()}
 * and its line in {@link #fromMap}; the round-trip test fails for either line forgotten.
 *
 * @param key the pair
 * @param samples samples counted
 * @param bothFound samples both rungs found something for
 * @param servedOnly samples only the served rung found something for
 * @param shadowOnly samples only the shadow rung found something for
 * @param distanceM distance percentiles over the samples both found; null when there are none
 * @param within samples both found whose distance is at most 50 m, 250 m, 1 km, 5 km (exact)
 * @param latencyMs median latencies; null without samples
 * @param latencyRatio median shadow latency / median served latency; null without samples
 * @param labelSimilarity mean label similarity in [0, 1]; null when no sample had two labels
 * @param labelSamples samples the label similarity is the mean of
 * @param window the first and last sample times; null without samples
 */
public record PairSummary(PairKey key, long samples, long bothFound, long servedOnly, long shadowOnly,
    Distances distanceM, Within within, Latency latencyMs, Double latencyRatio, Double labelSimilarity,
    long labelSamples, Window window) {

  /** @throws IllegalArgumentException when the figures contradict each other */
  public PairSummary {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(within, "within");
    if (samples < 0 || bothFound < 0 || servedOnly < 0 || shadowOnly < 0 || labelSamples < 0
        || bothFound > samples || servedOnly > samples - bothFound || shadowOnly > samples - bothFound - servedOnly) {
      throw new IllegalArgumentException("the found counts must be >= 0 and add up to at most the samples");
    }
    if (within.m50() < 0 || within.m50() > within.m250() || within.m250() > within.m1000()
        || within.m1000() > within.m5000() || within.m5000() > bothFound) {
      throw new IllegalArgumentException("the within counts must grow with the distance and stay within both_found");
    }
    if ((distanceM == null) != (bothFound == 0)) {
      throw new IllegalArgumentException("distance_m is there exactly when both_found > 0");
    }
    if ((latencyMs == null) != (samples == 0) || (latencyRatio == null) != (samples == 0) || (window == null) != (samples == 0)) {
      throw new IllegalArgumentException("latency, latency_ratio and window are there exactly when samples > 0");
    }
    if (latencyRatio != null && !(latencyRatio > 0 && latencyRatio < Double.POSITIVE_INFINITY)) {
      throw new IllegalArgumentException("latency_ratio must be > 0 and finite");
    }
    if (labelSamples > bothFound || (labelSimilarity == null) != (labelSamples == 0)
        || labelSimilarity != null && !(labelSimilarity >= 0 && labelSimilarity <= 1)) {
      throw new IllegalArgumentException("label_similarity is in [0, 1], there exactly when label_samples > 0 (at most both_found)");
    }
  }

  /** Distance percentiles, metres. */
  public record Distances(double p50, double p90, double p99) {
    /** @throws IllegalArgumentException unless 0 &le; p50 &le; p90 &le; p99, finite */
    public Distances {
      if (!(p50 >= 0 && p50 <= p90 && p90 <= p99 && p99 < Double.POSITIVE_INFINITY)) {
        throw new IllegalArgumentException("distance percentiles must be finite, >= 0 and in order");
      }
    }
  }

  /** Exact counts of samples both found within each of {@link PairStats#WITHIN_M}. */
  public record Within(long m50, long m250, long m1000, long m5000) {
    /** The count within {@code metres}, one of {@link PairStats#WITHIN_M}. */
    public long count(int metres) {
      return switch (metres) {
        case 50 -> m50;
        case 250 -> m250;
        case 1000 -> m1000;
        case 5000 -> m5000;
        default -> throw new IllegalArgumentException("not a within threshold: " + metres);
      };
    }
  }

  /** Median latencies, milliseconds. */
  public record Latency(double servedP50, double shadowP50) {
    /** @throws IllegalArgumentException unless both are finite and &ge; 0 */
    public Latency {
      if (!(servedP50 >= 0 && shadowP50 >= 0 && servedP50 < Double.POSITIVE_INFINITY && shadowP50 < Double.POSITIVE_INFINITY)) {
        throw new IllegalArgumentException("latencies must be finite and >= 0");
      }
    }
  }

  /** The first and last sample times, epoch milliseconds. */
  public record Window(long firstMs, long lastMs) {
    /** @throws IllegalArgumentException unless 0 &le; first &le; last */
    public Window {
      if (firstMs < 0 || firstMs > lastMs) {
        throw new IllegalArgumentException("a window runs forward from a time >= 0");
      }
    }
  }

  /** Samples neither rung found anything for. */
  public long neitherFound() {
    return samples - bothFound - servedOnly - shadowOnly;
  }

  /** (served_only + shadow_only) / samples; NaN without samples. */
  public double foundDisagreement() {
    return samples == 0 ? Double.NaN : (double) (servedOnly + shadowOnly) / samples;
  }

  /** The share of samples both found that lie within {@code metres}; NaN when none were both found. */
  public double withinShare(int metres) {
    return bothFound == 0 ? Double.NaN : (double) within.count(metres) / bothFound;
  }

  // ---- wire ------------------------------------------------------------------------------------

  /**
   * This pair as one element of {@code GET /v1/shadow}'s {@code pairs}: plain maps, lists, strings,
   * numbers and nulls, in a fixed key order (ready for Vert.x's {@code new JsonObject(map)} or any
   * JSON writer). Absent figures are null, so the shape never changes. Shares are fractions in
   * [0, 1] rounded to four decimals; the counts beside them are exact.
   */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("served", key.served());
    m.put("shadow", key.shadow());
    m.put("intent", key.intent());
    m.put("samples", samples);
    m.put("both_found", bothFound);
    m.put("served_only", servedOnly);
    m.put("shadow_only", shadowOnly);
    m.put("neither_found", neitherFound());
    m.put("found_disagreement", samples == 0 ? null : round4(foundDisagreement()));
    m.put("distance_m", distanceM == null ? null : ordered("p50", distanceM.p50(), "p90", distanceM.p90(), "p99", distanceM.p99()));
    Map<String, Object> shares = new LinkedHashMap<>();
    Map<String, Object> counts = new LinkedHashMap<>();
    for (int metres : PairStats.WITHIN_M) {
      shares.put(Integer.toString(metres), bothFound == 0 ? null : round4(withinShare(metres)));
      counts.put(Integer.toString(metres), within.count(metres));
    }
    m.put("within_m", shares);
    m.put("within_count", counts);
    m.put("latency_ratio", latencyRatio);
    m.put("latency_ms", latencyMs == null ? null
        : ordered("served_p50", latencyMs.servedP50(), "shadow_p50", latencyMs.shadowP50()));
    m.put("label_similarity", labelSimilarity);
    m.put("label_samples", labelSamples);
    m.put("window", window == null ? null : ordered("first_ms", window.firstMs(), "last_ms", window.lastMs()));
    return m;
  }

  /**
   * Reads {@link #toMap()}'s shape back (for the command line reading a server's
   * {@code GET /v1/shadow}). Nested objects may be maps or iterables of map entries, arrays lists or
   * iterables (so Vert.x's JSON types read as they are); numbers any {@link Number}. The derived
   * shares ({@code found_disagreement}, {@code within_m}, {@code neither_found}) are not read: they
   * follow from the counts.
   *
   * @param at where this element is, for messages ({@code pairs[3]})
   * @throws ShadowFormatException naming the field, for a missing, mistyped or contradictory figure
   */
  public static PairSummary fromMap(Object element, String at) {
    Wire.Obj o = Wire.obj(element, at);
    PairKey key;
    try {
      key = new PairKey(o.name("served"), o.name("shadow"), o.name("intent"));
    } catch (IllegalArgumentException e) {
      throw new ShadowFormatException(at + ": " + e.getMessage());
    }
    long bothFound = o.count("both_found");
    Wire.Obj d = o.objOrNull("distance_m");
    Wire.Obj wc = o.obj("within_count");
    Wire.Obj l = o.objOrNull("latency_ms");
    Wire.Obj w = o.objOrNull("window");
    try {
      return new PairSummary(key, o.count("samples"), bothFound, o.count("served_only"), o.count("shadow_only"),
          d == null ? null : new Distances(d.number("p50"), d.number("p90"), d.number("p99")),
          new Within(wc.count("50"), wc.count("250"), wc.count("1000"), wc.count("5000")),
          l == null ? null : new Latency(l.number("served_p50"), l.number("shadow_p50")),
          o.numberOrNull("latency_ratio"), o.numberOrNull("label_similarity"), o.count("label_samples"),
          w == null ? null : new Window(w.count("first_ms"), w.count("last_ms")));
    } catch (ShadowFormatException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      throw new ShadowFormatException(at + ": " + e.getMessage());
    }
  }

  private static Map<String, Object> ordered(Object... kv) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }

  static double round4(double v) {
    return Math.round(v * 10_000) / 10_000.0;
  }
}
