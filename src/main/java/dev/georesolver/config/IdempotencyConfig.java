package dev.georesolver.config;

import dev.georesolver.normalize.IdempotencyKey;

import java.util.List;

/**
 * The idempotency store (manifest {@code routing.idempotency}). Immutable and thread-safe.
 */
public final class IdempotencyConfig extends Settings {

  /** The keys of {@code idempotency:}. */
  public static final Section<IdempotencyConfig> SECTION = new Section<>(IdempotencyConfig::new);

  /**
   * How keys are made: {@value IdempotencyKey#STRATEGY}, the one strategy implemented
   * ({@link IdempotencyKey}); any other value is refused rather than silently ignored.
   */
  public static final Field<String> KEY_STRATEGY = SECTION.string("key_strategy").byDefault(IdempotencyKey.STRATEGY)
      .check(IdempotencyKey.STRATEGY::equals, "must be \"" + IdempotencyKey.STRATEGY + "\", the only key strategy supported");

  /** Seconds a served answer is kept for replay; default 3,600 s. */
  public static final Field<Long> TTL_SECONDS = SECTION.longs("ttl_seconds", 1, Long.MAX_VALUE).byDefault(3600L);

  /**
   * Seconds an answer from below the first eligible rung is kept, so a recovered primary is asked
   * again soon; default 60 s; 0 keeps none.
   */
  public static final Field<Long> DEGRADED_TTL_SECONDS =
      SECTION.longs("degraded_ttl_seconds", 0, Long.MAX_VALUE).byDefault(60L);

  /** {@code memory} (embedded default, one node) or {@code redis}. */
  public static final Field<String> STORE = SECTION.string("deduplication_store").byDefault("memory")
      .check(List.of("memory", "redis")::contains, "must be memory or redis");

  /** Bound on the in-process store and index, entries; default 100,000. */
  public static final Field<Long> MAX_ENTRIES = SECTION.longs("max_entries", 1, Long.MAX_VALUE).byDefault(100_000L);

  /**
   * Bound on the in-process store, and separately on the in-process index, bytes (estimated: the
   * stored JSON, its key and a fixed overhead per entry); default 268,435,456 (256 MiB). Whichever
   * of this and {@link #MAX_ENTRIES} is reached first evicts.
   */
  public static final Field<Long> MAX_BYTES = SECTION.longs("max_bytes", 1, Long.MAX_VALUE).byDefault(256L * 1024 * 1024);

  /** Prefix of every Redis key; default {@code geo:}. */
  public static final Field<String> KEY_PREFIX = SECTION.string("key_prefix").byDefault("geo:");

  /** Each Redis command's timeout, milliseconds; default 100 ms. */
  public static final Field<Long> COMMAND_TIMEOUT_MS =
      SECTION.longs("command_timeout_ms", 1, Long.MAX_VALUE).byDefault(100L);

  /** Seconds a cached-index entry lives without being refreshed; default 2,592,000 s (30 days). */
  public static final Field<Long> INDEX_TTL_SECONDS =
      SECTION.longs("index_ttl_seconds", 1, Long.MAX_VALUE).byDefault(30L * 86_400);

  private IdempotencyConfig(Settings read) {
    super(read);
  }

  /** See {@link #TTL_SECONDS}. */
  public long ttlSeconds() {
    return get(TTL_SECONDS);
  }

  /** See {@link #DEGRADED_TTL_SECONDS}. */
  public long degradedTtlSeconds() {
    return get(DEGRADED_TTL_SECONDS);
  }

  /** See {@link #STORE}. */
  public String store() {
    return get(STORE);
  }

  /** Whether the store is Redis. */
  public boolean redis() {
    return "redis".equals(store());
  }

  /** See {@link #MAX_ENTRIES}. */
  public long maxEntries() {
    return get(MAX_ENTRIES);
  }

  /** See {@link #MAX_BYTES}. */
  public long maxBytes() {
    return get(MAX_BYTES);
  }

  /** See {@link #KEY_PREFIX}. */
  public String keyPrefix() {
    return get(KEY_PREFIX);
  }

  /** See {@link #COMMAND_TIMEOUT_MS}. */
  public long commandTimeoutMs() {
    return get(COMMAND_TIMEOUT_MS);
  }

  /** See {@link #INDEX_TTL_SECONDS}. */
  public long indexTtlSeconds() {
    return get(INDEX_TTL_SECONDS);
  }
}
