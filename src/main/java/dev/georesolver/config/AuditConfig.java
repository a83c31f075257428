package dev.georesolver.config;

import java.util.List;

/**
 * The audit trail (manifest {@code audit:}): which answers are recorded in their tenant's
 * tamper-evident partition, for how long, and how the records reach the state store. Immutable
 * and thread-safe.
 */
public final class AuditConfig extends Settings {

  /** The keys of {@code audit:}. */
  public static final Section<AuditConfig> SECTION = new Section<>(AuditConfig::new);

  /** Records every fallback activation (degraded answers, refusals after failing rungs, corrections). */
  public static final String FALLBACKS = "fallbacks";
  /** Records every answer as well (replays and coalesced deliveries included). */
  public static final String ALL = "all";
  /** Records nothing. */
  public static final String OFF = "off";

  /**
   * What is recorded: {@code fallbacks} (every fallback activation: a degraded answer, a refusal
   * after rungs failed, a correction), {@code all} (every answer as well) or {@code off}; default
   * {@code fallbacks}.
   */
  public static final Field<String> LEVEL = SECTION.choice("level", List.of(FALLBACKS, ALL, OFF), s -> s,
      s -> "must be fallbacks, all or off").byDefault(FALLBACKS).live();

  /**
   * How long records are kept, days: once a whole prefix of a tenant's chain is older, it is removed
   * and the chain's new anchor (the last removed record's sequence number and hash) recorded, so
   * verification still passes; default 2,555 (7 years).
   */
  public static final Field<Integer> RETENTION_DAYS = SECTION.ints("retention_days", 1, 36_500).byDefault(2555);

  /** How often expired prefixes are looked for, milliseconds; default 3,600,000 (1 h). */
  public static final Field<Long> RETENTION_INTERVAL_MS = SECTION.longs("retention_interval_ms", 1000, 86_400_000)
      .byDefault(3_600_000L);

  /** How often buffered records are handed to the state store, milliseconds; default 100 ms. */
  public static final Field<Long> FLUSH_INTERVAL_MS = SECTION.longs("flush_interval_ms", 1, 60_000).byDefault(100L);

  /** The most records handed to the store in one message; default 500. */
  public static final Field<Integer> BATCH_MAX = SECTION.ints("batch_max", 1, 100_000).byDefault(500);

  /**
   * The most records each chain instance holds while the store is slow or down (they are retried at
   * every flush); past it new records are refused, counted ({@code georesolver_audit_records_total
   * {result="dropped"}}) and logged with their idempotency key; default 50,000.
   */
  public static final Field<Integer> BUFFER_MAX = SECTION.ints("buffer_max", 1, 10_000_000).byDefault(50_000);

  /**
   * The environment variable holding the deployment secret that signs the trail's anchors and keys
   * its records' idempotency keys (HMAC-SHA256); default {@code GEO_AUDIT_KEY}. Never stored with the
   * data: see {@code docs/security.md}, "Audit integrity".
   */
  public static final Field<String> KEY_ENV = SECTION.string("key_env").byDefault("GEO_AUDIT_KEY");

  /**
   * A file holding the deployment secret, read when {@link #KEY_ENV} is unset; optional. With
   * neither, the resolver keeps a generated secret in {@code audit.key} beside the state file (a
   * separate file, never in the store).
   */
  public static final Field<String> KEY_FILE = SECTION.string("key_file");

  static {
    SECTION.rule((v, at) -> {
      Integer batch = v.get(BATCH_MAX);
      Integer buffer = v.get(BUFFER_MAX);
      if (batch != null && buffer != null && batch > buffer) {
        at.problem(BATCH_MAX.key(), "must be <= " + at.path(BUFFER_MAX.key()));
      }
    });
  }

  private AuditConfig(Settings read) {
    super(read);
  }

  /** See {@link #LEVEL}: {@code fallbacks}, {@code all} or {@code off}. */
  public String level() {
    return get(LEVEL);
  }

  /** Whether anything is recorded. */
  public boolean enabled() {
    return !OFF.equals(level());
  }

  /** Whether every answer is recorded. */
  public boolean all() {
    return ALL.equals(level());
  }

  /** See {@link #RETENTION_DAYS}. */
  public int retentionDays() {
    return get(RETENTION_DAYS);
  }

  /** See {@link #RETENTION_INTERVAL_MS}. */
  public long retentionIntervalMs() {
    return get(RETENTION_INTERVAL_MS);
  }

  /** See {@link #FLUSH_INTERVAL_MS}. */
  public long flushIntervalMs() {
    return get(FLUSH_INTERVAL_MS);
  }

  /** See {@link #BATCH_MAX}. */
  public int batchMax() {
    return get(BATCH_MAX);
  }

  /** See {@link #KEY_ENV}. */
  public String keyEnv() {
    return get(KEY_ENV);
  }

  /** See {@link #KEY_FILE}; null when not given. */
  public String keyFile() {
    return get(KEY_FILE);
  }

  /** See {@link #BUFFER_MAX}. */
  public int bufferMax() {
    return get(BUFFER_MAX);
  }
}
