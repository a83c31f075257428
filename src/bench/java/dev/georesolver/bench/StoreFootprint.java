package dev.georesolver.bench;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.georesolver.bus.Attempt;
import dev.georesolver.bus.ResolveResult;
import dev.georesolver.bus.StoredAnswer;
import dev.georesolver.cache.MemoryStore;
import dev.georesolver.bus.StoredEntry;
import dev.georesolver.geo.Claim;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * What the in-process idempotency store costs on the heap, and what its intake costs the collector.
 *
 * <p><b>Footprint</b>: heap in use after {@code System.gc()} (three times, the smallest reading)
 * before and after filling a {@link MemoryStore} of the default bounds (100,000 answers, 256 MiB)
 * with {@code --answers} answers shaped like the bench's pass-through answers (one generic rung, a
 * label of about 30 characters, one attempt, a 64-hex key); the difference divided by the answers is
 * the heap bytes per stored answer (the answer's JSON, the entry objects, the key and the cache's
 * bookkeeping). Printed beside the JSON length, so the overhead on top of the bytes is visible.
 *
 * <p><b>Churn</b> ({@code --churn-s S}, default 10; 0 to skip): then {@code --rate R} new answers a
 * second (default 10,000) go into the full store, each with {@code --garbage-kb} KB of short-lived
 * garbage (default 30: what a pass-through request allocates), as the dedupe verticle sees them at
 * that load; the young collections' count and time over the churn (from the
 * {@link GarbageCollectorMXBean}s; G1 "Young Generation", ZGC "Pauses") show what the store's intake
 * costs each young collection. Every collector's totals are printed too.
 * Run it on the JVM and flags under test, pinned like the resolver:
 *
 * <pre>
 * taskset -c 1 java -Xms256m -Xmx1g -XX:+UseG1GC -cp target/georesolver-bench.jar \
 *     dev.georesolver.bench.BenchMain store-footprint [--answers 100000] [--churn-s 10] [--rate 10000]
 * </pre>
 *
 * Prints one {@code RESULT} line.
 */
public final class StoreFootprint {

  private StoreFootprint() {}

  public static void main(String[] args) throws Exception {
    Flags f = Flags.parse(args, Map.of());
    int answers = f.integer("answers", 100_000);
    int churnS = f.integer("churn-s", 10);
    double rate = f.number("rate", 10_000);
    int garbageKb = f.integer("garbage-kb", 30);
    MemoryMXBean mem = ManagementFactory.getMemoryMXBean();

    MemoryStore store = new MemoryStore(100_000, 256L * 1024 * 1024, 86_400_000L, Ticker.systemTicker());
    long before = settledHeap(mem);
    long jsonBytes = 0;
    for (int i = 0; i < answers; i++) {
      StoredEntry e = entry(i);
      jsonBytes += e.answer().encodedLength();
      store.put(key(i), e);
    }
    long after = settledHeap(mem);
    double perAnswer = (after - before) / (double) answers;
    double jsonPerAnswer = jsonBytes / (double) answers;

    long pauses = 0;
    long pauseMs = 0;
    double seconds = 0;
    if (churnS > 0) {
      long[] gc0 = gcTotals();
      long t0 = System.nanoTime();
      long total = (long) (rate * churnS);
      double intervalNs = 1e9 / rate;
      long sink = 0;
      for (long n = 0; n < total; n++) {
        long slot = t0 + (long) (n * intervalNs);
        long wait = slot - System.nanoTime();
        if (wait > 50_000) {
          LockSupport.parkNanos(wait);
        }
        // A request's worth of short-lived garbage, in pieces of the sizes a request allocates.
        for (int k = 0; k < garbageKb; k++) {
          byte[] g = new byte[1000];
          g[k % 1000] = (byte) n;
          sink += g[(int) (n % 1000)];
        }
        store.put(key(answers + (int) n), entry(answers + (int) n));
      }
      seconds = (System.nanoTime() - t0) / 1e9;
      long[] gc1 = gcTotals();
      pauses = gc1[0] - gc0[0];
      pauseMs = gc1[1] - gc0[1];
      if (sink == 42) {
        System.out.print("");
      }
    }
    System.out.printf(Locale.ROOT,
        "RESULT answers=%d heap_before_mb=%.1f heap_after_mb=%.1f bytes_per_answer=%.0f json_bytes_per_answer=%.0f"
            + " store_size=%d churn_s=%.1f churn_rate=%.0f gc_collections=%d gc_ms=%d gc_mean_ms=%.2f collectors=%s%n",
        answers, before / 1048576.0, after / 1048576.0, perAnswer, jsonPerAnswer, store.size(), seconds,
        seconds > 0 ? rate * churnS / seconds : 0, pauses, pauseMs, pauses > 0 ? pauseMs / (double) pauses : 0,
        collectors());
  }

  /** An answer shaped like the bench's pass-through answers. */
  static StoredEntry entry(int i) {
    ResolveResult r = ResolveResult.builder()
        .status(ResolveResult.RESOLVED)
        .lon(-0.1275 + i * 1e-7).lat(51.5072 - i * 1e-7)
        .label(i + " Bench St o1764600000r1pass")
        .precision("rooftop")
        .resolutionSource("fast")
        .claim(Claim.OPEN_DATA)
        .confidence(0.9)
        .notice("According to open data,")
        .intent("default")
        .idempotencyKey(key(i))
        .manifestRevision("3f9a6c1d2b7e")
        .attempts(List.of(new Attempt("fast", "ok", 1, 2, null)))
        .resolvedAtMs(1_764_600_000_000L + i)
        .build();
    return new StoredEntry(StoredAnswer.of(r), System.currentTimeMillis(), 86_400_000L);
  }

  static String key(int i) {
    return String.format(Locale.ROOT, "%064x", (long) i * 0x9E3779B97F4A7C15L);
  }

  private static long settledHeap(MemoryMXBean mem) throws InterruptedException {
    long least = Long.MAX_VALUE;
    for (int k = 0; k < 3; k++) {
      System.gc();
      Thread.sleep(200);
      least = Math.min(least, mem.getHeapMemoryUsage().getUsed());
    }
    return least;
  }

  /** Collections and milliseconds over every collector that pauses (ZGC's cycles counted apart). */
  private static long[] gcTotals() {
    long n = 0;
    long ms = 0;
    for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (b.getName().contains("Cycles") || b.getName().contains("Old") || b.getName().contains("Concurrent")) {
        continue; // young pauses only: ZGC's "... Cycles" are concurrent; G1's old/concurrent beans are not young pauses
      }
      n += Math.max(0, b.getCollectionCount());
      ms += Math.max(0, b.getCollectionTime());
    }
    return new long[] {n, ms};
  }

  /** Each collector as name:collections:ms since the start (the fill's System.gc() calls included). */
  private static String collectors() {
    StringBuilder s = new StringBuilder();
    for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
      s.append(s.length() == 0 ? "" : ",").append(b.getName().replace(' ', '_'))
          .append(':').append(b.getCollectionCount()).append(':').append(b.getCollectionTime());
    }
    return s.toString();
  }
}
