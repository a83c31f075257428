package dev.georesolver.ops;

import dev.georesolver.metrics.Metrics;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns the cumulative totals of {@link Metrics#reading()}, taken once a second, into the figures
 * an operator watches: per second, the results delivered by {@code resolution_source}, refusals and
 * replays; over a trailing window (default 10 ticks), the request rate (per second of wall clock), the refusal rate, the share per
 * source and the latency percentiles. Each figure is the difference between two readings, so the
 * request path pays nothing for it. The first reading is the baseline: what was delivered before it
 * is not counted.
 *
 * <p>Not thread-safe: confine to one verticle.
 */
public final class TrafficRollup {

  /** Default trailing window of the rates and percentiles, seconds. */
  public static final int DEFAULT_WINDOW_S = 10;
  /** Default length of the history kept for a new dashboard, seconds (five minutes). */
  public static final int DEFAULT_HISTORY_S = 300;

  /**
   * What one tick added (about a second: {@code durationMs} as the wall clock measured it): counts,
   * and latency per bucket (not cumulative).
   */
  private record Second(long durationMs, Map<String, Long> routing, long refused, long replayed, long[] buckets, long overflow) {
    long requests() {
      long n = refused;
      for (long v : routing.values()) {
        n += v;
      }
      return n;
    }
  }

  private final int windowS;
  private final int historyS;
  private final Deque<Second> window = new ArrayDeque<>();
  private final Deque<JsonObject> history = new ArrayDeque<>();
  private Metrics.Reading last;
  private long lastAtMs;

  /** A rollup with the default window and history. */
  public TrafficRollup() {
    this(DEFAULT_WINDOW_S, DEFAULT_HISTORY_S);
  }

  /**
   * @param windowS trailing window of rates and percentiles, seconds (at least 1)
   * @param historyS seconds of snapshots kept for {@link #history()}
   */
  public TrafficRollup(int windowS, int historyS) {
    if (windowS < 1 || historyS < 1) {
      throw new IllegalArgumentException("window and history must be at least one second");
    }
    this.windowS = windowS;
    this.historyS = historyS;
  }

  /**
   * Takes the reading of the second that just ended and returns its snapshot
   * {@code {"type": "snapshot", "at_ms", "second": {...}, "window": {...}}} (the shape
   * {@code Addresses.OPS_EVENTS} documents, without {@code tiers}); it is also kept in the history.
   */
  public JsonObject tick(Metrics.Reading now, long atMs) {
    Second s = last == null ? new Second(0, Map.of(), 0, 0, new long[0], 0) : difference(last, now, Math.max(0, atMs - lastAtMs));
    last = now;
    lastAtMs = atMs;
    window.addLast(s);
    while (window.size() > windowS) {
      window.removeFirst();
    }
    JsonObject snapshot = new JsonObject()
        .put("type", "snapshot")
        .put("at_ms", atMs)
        .put("second", new JsonObject()
            .put("requests", s.requests())
            .put("routing", new JsonObject(new HashMap<>(s.routing())))
            .put("refused", s.refused())
            .put("replayed", s.replayed()))
        .put("window", windowFigures(now.latency().upperBoundsMs()));
    history.addLast(snapshot);
    while (history.size() > historyS) {
      history.removeFirst();
    }
    return snapshot;
  }

  /** The snapshots kept, oldest first (copies). */
  public JsonArray history() {
    JsonArray out = new JsonArray();
    history.forEach(s -> out.add(s.copy()));
    return out;
  }

  private static Second difference(Metrics.Reading before, Metrics.Reading now, long durationMs) {
    Map<String, Long> routing = new TreeMap<>();
    now.resolvedBySource().forEach((source, n) -> {
      long d = n - before.resolvedBySource().getOrDefault(source, 0L);
      if (d > 0) {
        routing.put(source, d);
      }
    });
    Metrics.Histogram a = before.latency();
    Metrics.Histogram b = now.latency();
    long[] buckets = new long[b.cumulative().length];
    long previous = 0;
    for (int i = 0; i < buckets.length; i++) {
      long cumulative = Math.max(0, b.cumulative()[i] - (i < a.cumulative().length ? a.cumulative()[i] : 0));
      buckets[i] = Math.max(0, cumulative - previous);
      previous = Math.max(previous, cumulative);
    }
    long overflow = Math.max(0, (b.total() - a.total()) - previous);
    return new Second(durationMs, routing, Math.max(0, now.refused() - before.refused()),
        Math.max(0, (now.replayed() + now.coalesced()) - (before.replayed() + before.coalesced())), buckets, overflow);
  }

  private JsonObject windowFigures(double[] bounds) {
    long requests = 0;
    long refused = 0;
    long replayed = 0;
    Map<String, Long> routing = new TreeMap<>();
    long[] buckets = new long[bounds.length];
    long overflow = 0;
    long durationMs = 0;
    for (Second s : window) {
      durationMs += s.durationMs();
      requests += s.requests();
      refused += s.refused();
      replayed += s.replayed();
      s.routing().forEach((k, v) -> routing.merge(k, v, Long::sum));
      for (int i = 0; i < Math.min(buckets.length, s.buckets().length); i++) {
        buckets[i] += s.buckets()[i];
      }
      overflow += s.overflow();
    }
    JsonObject share = new JsonObject();
    for (Map.Entry<String, Long> e : routing.entrySet()) {
      share.put(e.getKey(), ratio(e.getValue(), requests));
    }
    return new JsonObject()
        .put("seconds", Math.round(durationMs / 1000.0))
        .put("requests_per_s", durationMs == 0 ? 0.0 : round(requests * 1000.0 / durationMs, 10))
        .put("refusal_rate", requests == 0 ? null : ratio(refused, requests))
        .put("replayed_share", requests == 0 ? null : ratio(replayed, requests))
        .put("routing_share", share)
        .put("latency_ms", new JsonObject()
            .put("p50", percentile(bounds, buckets, overflow, 0.50))
            .put("p90", percentile(bounds, buckets, overflow, 0.90))
            .put("p99", percentile(bounds, buckets, overflow, 0.99)));
  }

  /**
   * The {@code q} quantile of a histogram, interpolated linearly inside its bucket (as Prometheus's
   * {@code histogram_quantile} does); a rank above the last bound reads as the last bound. Null for
   * an empty histogram.
   *
   * @param bounds upper bounds, ascending; the first bucket starts at 0
   * @param counts results per bucket (not cumulative)
   * @param overflow results above the last bound
   */
  static Double percentile(double[] bounds, long[] counts, long overflow, double q) {
    long total = overflow;
    for (long c : counts) {
      total += c;
    }
    if (total == 0) {
      return null;
    }
    double rank = q * total;
    long seen = 0;
    for (int i = 0; i < counts.length; i++) {
      if (counts[i] > 0 && seen + counts[i] >= rank) {
        double lower = i == 0 ? 0 : bounds[i - 1];
        return round(lower + (bounds[i] - lower) * (rank - seen) / counts[i], 10);
      }
      seen += counts[i];
    }
    return bounds.length == 0 ? null : round(bounds[bounds.length - 1], 10);
  }

  private static double ratio(long part, long whole) {
    return whole == 0 ? 0 : round(part / (double) whole, 10_000);
  }

  private static double round(double v, int per) {
    return Math.round(v * per) / (double) per;
  }
}
