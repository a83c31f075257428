package dev.georesolver.config;

import java.util.List;

/**
 * The durable store (manifest {@code state:}): where the reconcile queue, the corrections outbox and
 * the memory store's write-behind live. Immutable and thread-safe.
 */
public final class StateConfig extends Settings {

  /** The keys of {@code state:}. */
  public static final Section<StateConfig> SECTION = new Section<>(StateConfig::new);

  /**
   * {@code sqlite} (one embedded file), {@code redis} (streams and hashes in the shared Redis), or
   * {@code auto}: Redis when the idempotency store is Redis (by the manifest or {@code --redis}), so
   * instances share their debts, else SQLite; default {@code auto}.
   */
  public static final Field<String> STORE = SECTION.string("store").byDefault("auto")
      .check(List.of("auto", "sqlite", "redis")::contains, "must be auto, sqlite or redis");

  /** The SQLite file; its directory is created when missing; default {@code data/georesolver.db}. */
  public static final Field<String> PATH = SECTION.string("path").byDefault("data/georesolver.db");

  /**
   * Below this much free disk space, megabytes, new durable work (debts, write-behind) is refused
   * loudly while resolution goes on; default 200 MB; 0 never refuses.
   */
  public static final Field<Long> MIN_FREE_MB = SECTION.longs("min_free_mb", 0, Long.MAX_VALUE).byDefault(200L);

  /** Group commit: writes queued this long, milliseconds, are committed in one transaction; default 5 ms. */
  public static final Field<Long> COMMIT_INTERVAL_MS = SECTION.longs("commit_interval_ms", 1, 10_000).byDefault(5L);

  /** Group commit: a transaction is committed at once when this many writes are queued; default 1,000. */
  public static final Field<Integer> COMMIT_MAX_WRITES = SECTION.ints("commit_max_writes", 1, 1_000_000).byDefault(1000);

  /**
   * How often the in-process buffers (debts from the chain, the memory store's write-behind) are
   * handed to the store in one message, milliseconds; default 50 ms.
   */
  public static final Field<Long> FLUSH_INTERVAL_MS = SECTION.longs("flush_interval_ms", 1, 60_000).byDefault(50L);

  /**
   * How often the memory store's write-behind (replays and the cached index) is handed to the store,
   * milliseconds; default 500 ms, sooner when a full batch is waiting. Longer than
   * {@link #FLUSH_INTERVAL_MS} because each hand-over is one transaction: fewer, bigger batches cost
   * fewer commits (measured when these were upserts: about 15 % more pass-through on one core than at
   * 50 ms). A crash loses at most this much of the cache, which is re-asked, never wrong.
   */
  public static final Field<Long> CACHE_FLUSH_INTERVAL_MS = SECTION.longs("cache_flush_interval_ms", 1, 60_000).byDefault(500L);

  /**
   * The most records each in-process buffer holds while the store is slow or down; past it new ones
   * are refused, counted and logged with their key; default 10,000.
   */
  public static final Field<Integer> BUFFER_MAX = SECTION.ints("buffer_max", 1, 10_000_000).byDefault(10_000);

  /**
   * Whether the memory store's replays and cached index are written behind to the SQLite file and
   * loaded at start (a restart keeps them); default true. Off, they live in memory only.
   */
  public static final Field<Boolean> WRITE_BEHIND = SECTION.bool("write_behind").byDefault(true);

  private StateConfig(Settings read) {
    super(read);
  }

  /** See {@link #STORE}: {@code auto}, {@code sqlite} or {@code redis}. */
  public String store() {
    return get(STORE);
  }

  /** The backend for a resolver whose idempotency store is Redis ({@code redis} true) or not. */
  public String storeFor(boolean redis) {
    String s = store();
    return "auto".equals(s) ? (redis ? "redis" : "sqlite") : s;
  }

  /** See {@link #PATH}. */
  public String path() {
    return get(PATH);
  }

  /** See {@link #MIN_FREE_MB}. */
  public long minFreeMb() {
    return get(MIN_FREE_MB);
  }

  /** See {@link #COMMIT_INTERVAL_MS}. */
  public long commitIntervalMs() {
    return get(COMMIT_INTERVAL_MS);
  }

  /** See {@link #COMMIT_MAX_WRITES}. */
  public int commitMaxWrites() {
    return get(COMMIT_MAX_WRITES);
  }

  /** See {@link #FLUSH_INTERVAL_MS}. */
  public long flushIntervalMs() {
    return get(FLUSH_INTERVAL_MS);
  }

  /** See {@link #CACHE_FLUSH_INTERVAL_MS}. */
  public long cacheFlushIntervalMs() {
    return get(CACHE_FLUSH_INTERVAL_MS);
  }

  /** See {@link #WRITE_BEHIND}. */
  public boolean writeBehind() {
    return get(WRITE_BEHIND);
  }

  /** See {@link #BUFFER_MAX}. */
  public int bufferMax() {
    return get(BUFFER_MAX);
  }
}
