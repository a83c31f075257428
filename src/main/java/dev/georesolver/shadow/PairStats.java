package dev.georesolver.shadow;

import org.HdrHistogram.Histogram;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * What the shadow samples of one pair (served rung, shadow rung, intent) add up to: counts, the
 * distance and latency distributions, and the window. Holds no point, label or id of any sample.
 *
 * <p><b>Exact merge.</b> Every figure is an integer count or sum, a minimum or a maximum, or an
 * HdrHistogram (whose merge adds counts bucket by bucket), so {@link #add} is exact, associative
 * and commutative: aggregates from several nodes, or from the state store and memory, combine in
 * any order and grouping into equal figures. Label similarities are summed in millionths for the
 * same reason (a sum of doubles depends on its order).
 *
 * <p><b>Units and resolution.</b> Distances are recorded in whole centimetres, latencies in whole
 * microseconds, each in an HdrHistogram with two significant digits: a bucket is at most 1/128 of
 * its value wide, and percentiles are reported at the bucket's middle, so a figure is within
 * 0.4 % of the recorded value (±0.5 m at 120 m, ±20 m at 5 km). Distances above 21,000 km (more than
 * half the Earth's circumference) and latencies above 10 minutes are recorded as those maxima. The
 * within-distance shares are exact counters, not read from the histogram.
 *
 * <p><b>Definitions.</b>
 * <ul>
 *   <li>{@code samples}: every sample; {@code both_found}, {@code served_only}, {@code shadow_only}
 *       split them by which rung found something (the rest found nothing on either side).
 *   <li>distance percentiles and {@code within_m} shares: over the samples both found, great-circle
 *       metres between the two points; "within d" means at most d metres.
 *   <li>{@code found_disagreement}: (served_only + shadow_only) / samples.
 *   <li>{@code latency_ratio}: the median shadow latency divided by the median served latency, over
 *       every sample whatever was found (the cost of asking); medians below 1 µs count as 1 µs.
 *       Medians rather than means, so a few timeouts do not decide the figure.
 *   <li>{@code label_similarity}: the mean {@link LabelSimilarity} over the samples both found with
 *       a word in both labels ({@code label_samples} of them).
 *   <li>window: the earliest and latest sample time, epoch milliseconds.
 * </ul>
 *
 * <p>Not thread-safe: one owner records and merges (copies are cheap enough to hand over).
 */
public final class PairStats {

  /** The within-distance thresholds, metres, in the order {@link PairSummary.Within} lists them. */
  public static final List<Integer> WITHIN_M = List.of(50, 250, 1000, 5000);

  /** The format of {@link #encode()}. */
  public static final int VERSION = 1;

  static final long MAX_DISTANCE_CM = 2_100_000_000L;
  static final long MAX_LATENCY_US = 600_000_000L;
  static final int SIGNIFICANT_DIGITS = 2;
  /** More distinct buckets than either histogram's range can have. */
  static final int MAX_BUCKETS = 4096;
  static final int MAX_ENCODED_BYTES = 1 << 20;

  /** The largest value a histogram lists (the top of the bucket its maximum is recorded in). */
  private static final long TOP_DISTANCE_CM = newHistogram().highestEquivalentValue(MAX_DISTANCE_CM);
  private static final long TOP_LATENCY_US = newHistogram().highestEquivalentValue(MAX_LATENCY_US);

  private static final int KIND = 'P';
  private static final long E6 = 1_000_000L;

  private long samples;
  private long bothFound;
  private long servedOnly;
  private long shadowOnly;
  private final long[] within = new long[WITHIN_M.size()];
  private long labelSamples;
  private long labelSumE6;
  private long firstMs = Long.MAX_VALUE;
  private long lastMs = Long.MIN_VALUE;
  private final Histogram distanceCm = newHistogram();
  private final Histogram servedLatencyUs = newHistogram();
  private final Histogram shadowLatencyUs = newHistogram();

  /** Empty figures. */
  public PairStats() {}

  private static Histogram newHistogram() {
    // Auto-resizing: memory follows the largest value recorded (about 25 kB at the maxima).
    return new Histogram(SIGNIFICANT_DIGITS);
  }

  /** Counts one sample (its pair is the caller's business: see {@link ShadowTable}). */
  public void record(ShadowSample s) {
    samples++;
    switch (s.agreement()) {
      case BOTH_FOUND -> {
        bothFound++;
        double d = s.distanceM().orElseThrow();
        distanceCm.recordValue(clamp(Math.round(d * 100), MAX_DISTANCE_CM));
        for (int i = 0; i < within.length; i++) {
          if (d <= WITHIN_M.get(i)) {
            within[i]++;
          }
        }
        OptionalDouble label = s.labelSimilarity();
        if (label.isPresent()) {
          labelSamples++;
          labelSumE6 += Math.round(label.getAsDouble() * E6);
        }
      }
      case SERVED_ONLY -> servedOnly++;
      case SHADOW_ONLY -> shadowOnly++;
      case NEITHER_FOUND -> { }
    }
    servedLatencyUs.recordValue(clamp(Math.round(s.served().latencyMs() * 1000), MAX_LATENCY_US));
    shadowLatencyUs.recordValue(clamp(Math.round(s.shadow().latencyMs() * 1000), MAX_LATENCY_US));
    firstMs = Math.min(firstMs, s.atMs());
    lastMs = Math.max(lastMs, s.atMs());
  }

  private static long clamp(long v, long max) {
    return Math.max(0, Math.min(max, v));
  }

  /**
   * Adds {@code other}'s figures to these (exactly; {@code other} is not changed).
   *
   * @throws ArithmeticException if a count would pass {@link Long#MAX_VALUE}
   */
  public void add(PairStats other) {
    samples = Math.addExact(samples, other.samples);
    bothFound = Math.addExact(bothFound, other.bothFound);
    servedOnly = Math.addExact(servedOnly, other.servedOnly);
    shadowOnly = Math.addExact(shadowOnly, other.shadowOnly);
    for (int i = 0; i < within.length; i++) {
      within[i] = Math.addExact(within[i], other.within[i]);
    }
    labelSamples = Math.addExact(labelSamples, other.labelSamples);
    labelSumE6 = Math.addExact(labelSumE6, other.labelSumE6);
    firstMs = Math.min(firstMs, other.firstMs);
    lastMs = Math.max(lastMs, other.lastMs);
    distanceCm.add(other.distanceCm);
    servedLatencyUs.add(other.servedLatencyUs);
    shadowLatencyUs.add(other.shadowLatencyUs);
  }

  /** A new aggregate of both (neither is changed). */
  public static PairStats merged(PairStats a, PairStats b) {
    PairStats m = a.copy();
    m.add(b);
    return m;
  }

  /** An independent copy. */
  public PairStats copy() {
    PairStats c = new PairStats();
    c.add(this);
    return c;
  }

  /** How many samples were counted. */
  public long samples() {
    return samples;
  }

  /**
   * The derived figures, rounded as the wire shows them (see {@link PairSummary}).
   *
   * @param key the pair these figures are of
   */
  public PairSummary summary(PairKey key) {
    PairSummary.Distances distances = bothFound == 0 ? null
        : new PairSummary.Distances(percentile(distanceCm, 50) / 100.0, percentile(distanceCm, 90) / 100.0,
            percentile(distanceCm, 99) / 100.0);
    PairSummary.Latency latency = null;
    Double ratio = null;
    PairSummary.Window window = null;
    if (samples > 0) {
      long served = percentile(servedLatencyUs, 50);
      long shadow = percentile(shadowLatencyUs, 50);
      latency = new PairSummary.Latency(served / 1000.0, shadow / 1000.0);
      ratio = new BigDecimal((double) Math.max(1, shadow) / Math.max(1, served)).round(new MathContext(3)).doubleValue();
      window = new PairSummary.Window(firstMs, lastMs);
    }
    Double label = labelSamples == 0 ? null
        : Math.round((double) labelSumE6 / labelSamples / 100.0) / 10_000.0;
    return new PairSummary(key, samples, bothFound, servedOnly, shadowOnly, distances,
        new PairSummary.Within(within[0], within[1], within[2], within[3]), latency, ratio, label, labelSamples, window);
  }

  private static long percentile(Histogram h, double p) {
    return h.medianEquivalentValue(h.getValueAtPercentile(p));
  }

  // ---- durable form ----------------------------------------------------------------------------

  /**
   * The durable form: a version byte ({@link #VERSION}), a kind byte, then the counts and each
   * histogram's non-empty buckets as varints. Compact (tens of bytes plus about three per occupied
   * bucket) and exact: {@code decode(encode())} equals the original.
   */
  public byte[] encode() {
    Codec.Writer w = new Codec.Writer();
    w.byteValue(VERSION);
    w.byteValue(KIND);
    writeTo(w);
    return w.bytes();
  }

  /** {@link #encode()} in Base64 (RFC 4648, with padding), for text columns and Redis strings. */
  public String encodeToString() {
    return Base64.getEncoder().encodeToString(encode());
  }

  /**
   * Reads {@link #encode()}'s form back.
   *
   * @throws ShadowFormatException naming the problem, for anything that is not a whole, consistent
   *     aggregate of this version (no more than 1 MiB read, allocation bounded by the format's maxima)
   */
  public static PairStats decode(byte[] bytes) {
    Codec.Reader r = open(bytes, MAX_ENCODED_BYTES, KIND, "pair figures");
    PairStats s = readFrom(r, "pair");
    r.end();
    return s;
  }

  /** Reads {@link #encodeToString()}'s form back; fails as {@link #decode(byte[])} does. */
  public static PairStats decode(String base64) {
    return decode(fromBase64(base64, MAX_ENCODED_BYTES));
  }

  static byte[] fromBase64(String text, int maxBytes) {
    Objects.requireNonNull(text, "text");
    if (text.length() > (maxBytes / 3 + 1) * 4) {
      throw new ShadowFormatException("the text is longer than the most allowed (" + maxBytes + " bytes once decoded)");
    }
    try {
      return Base64.getDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      throw new ShadowFormatException("the text is not Base64");
    }
  }

  static Codec.Reader open(byte[] bytes, int maxBytes, int kind, String what) {
    Objects.requireNonNull(bytes, "bytes");
    if (bytes.length > maxBytes) {
      throw new ShadowFormatException(what + ": " + bytes.length + " bytes is more than the most allowed, " + maxBytes);
    }
    Codec.Reader r = new Codec.Reader(bytes);
    int version = r.byteValue("version");
    if (version != VERSION) {
      throw new ShadowFormatException(what + ": version " + version + " is not known (this build reads " + VERSION + ")");
    }
    int k = r.byteValue("kind");
    if (k != kind) {
      throw new ShadowFormatException(what + ": the input holds something else (kind " + k + ")");
    }
    return r;
  }

  void writeTo(Codec.Writer w) {
    w.varlong(samples);
    w.varlong(bothFound);
    w.varlong(servedOnly);
    w.varlong(shadowOnly);
    for (long c : within) {
      w.varlong(c);
    }
    w.varlong(labelSamples);
    w.varlong(labelSumE6);
    if (samples > 0) {
      w.varlong(firstMs);
      w.varlong(lastMs - firstMs);
    }
    writeHistogram(w, distanceCm);
    writeHistogram(w, servedLatencyUs);
    writeHistogram(w, shadowLatencyUs);
  }

  private static void writeHistogram(Codec.Writer w, Histogram h) {
    // Walks the buckets up to the largest value recorded, each named by its top value.
    long max = h.getMaxValue();
    long total = h.getTotalCount();
    int n = 0;
    for (long v = 0, seen = 0; seen < total && v <= max; v = h.nextNonEquivalentValue(v)) {
      long c = h.getCountAtValue(v);
      if (c > 0) {
        n++;
        seen += c;
      }
    }
    w.varlong(n);
    long prev = -1;
    for (long v = 0, seen = 0; seen < total && v <= max; v = h.nextNonEquivalentValue(v)) {
      long c = h.getCountAtValue(v);
      if (c > 0) {
        long top = h.highestEquivalentValue(v);
        w.varlong(top - prev - 1);
        w.varlong(c);
        prev = top;
        seen += c;
      }
    }
  }

  static PairStats readFrom(Codec.Reader r, String field) {
    PairStats s = new PairStats();
    s.samples = r.varlong(field + ".samples");
    s.bothFound = r.bounded(field + ".both_found", s.samples);
    s.servedOnly = r.bounded(field + ".served_only", s.samples - s.bothFound);
    s.shadowOnly = r.bounded(field + ".shadow_only", s.samples - s.bothFound - s.servedOnly);
    long previous = 0;
    for (int i = 0; i < s.within.length; i++) {
      String name = field + ".within_m." + WITHIN_M.get(i);
      s.within[i] = r.bounded(name, s.bothFound);
      if (s.within[i] < previous) {
        throw new ShadowFormatException(name + ": fewer than within a shorter distance");
      }
      previous = s.within[i];
    }
    s.labelSamples = r.bounded(field + ".label_samples", s.bothFound);
    s.labelSumE6 = r.bounded(field + ".label_sum", s.labelSamples > Long.MAX_VALUE / E6 ? Long.MAX_VALUE : s.labelSamples * E6);
    if (s.samples > 0) {
      s.firstMs = r.varlong(field + ".window.first_ms");
      long span = r.bounded(field + ".window.span_ms", Long.MAX_VALUE - s.firstMs);
      s.lastMs = s.firstMs + span;
    }
    readHistogram(r, field + ".distance", s.distanceCm, TOP_DISTANCE_CM, s.bothFound);
    readHistogram(r, field + ".served_latency", s.servedLatencyUs, TOP_LATENCY_US, s.samples);
    readHistogram(r, field + ".shadow_latency", s.shadowLatencyUs, TOP_LATENCY_US, s.samples);
    return s;
  }

  private static void readHistogram(Codec.Reader r, String field, Histogram h, long max, long expectedTotal) {
    long n = r.bounded(field + " buckets", MAX_BUCKETS);
    long prev = -1;
    long total = 0;
    for (long i = 0; i < n; i++) {
      if (prev >= max) {
        throw new ShadowFormatException(field + ": buckets listed beyond the range");
      }
      long gap = r.bounded(field + " value", max - prev - 1);
      long value = prev + 1 + gap;
      if (h.highestEquivalentValue(value) != value) {
        throw new ShadowFormatException(field + ": " + value + " is not the top of a bucket");
      }
      long count = r.varlong(field + " count");
      if (count == 0) {
        throw new ShadowFormatException(field + ": an empty bucket is listed");
      }
      if (count > expectedTotal - total) {
        throw new ShadowFormatException(field + ": more values than samples");
      }
      total += count;
      h.recordValueWithCount(value, count);
      prev = value;
    }
    if (total != expectedTotal) {
      throw new ShadowFormatException(field + ": " + total + " values for " + expectedTotal + " samples");
    }
  }

  // ---- equality --------------------------------------------------------------------------------

  /** Equal when every count, the window and every histogram bucket are equal. */
  @Override
  public boolean equals(Object o) {
    return o instanceof PairStats p && samples == p.samples && bothFound == p.bothFound
        && servedOnly == p.servedOnly && shadowOnly == p.shadowOnly && Arrays.equals(within, p.within)
        && labelSamples == p.labelSamples && labelSumE6 == p.labelSumE6 && firstMs == p.firstMs
        && lastMs == p.lastMs && distanceCm.equals(p.distanceCm) && servedLatencyUs.equals(p.servedLatencyUs)
        && shadowLatencyUs.equals(p.shadowLatencyUs);
  }

  @Override
  public int hashCode() {
    return Objects.hash(samples, bothFound, servedOnly, shadowOnly, Arrays.hashCode(within), labelSamples, labelSumE6,
        firstMs, lastMs);
  }

  @Override
  public String toString() {
    return "PairStats[samples=" + samples + ", both_found=" + bothFound + ", served_only=" + servedOnly
        + ", shadow_only=" + shadowOnly + "]";
  }
}
