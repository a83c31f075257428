package dev.georesolver.config;

import java.util.List;

/**
 * Delivery of corrections (manifest {@code corrections:}): the webhooks and their retry backoff.
 * Immutable and thread-safe.
 */
public final class CorrectionsConfig extends Settings {

  /** The keys of {@code corrections:}. */
  public static final Section<CorrectionsConfig> SECTION = new Section<>(CorrectionsConfig::new);

  /** Webhooks each correction is POSTed to, signed; none by default. URLs unique. */
  public static final Field<List<WebhookConfig>> WEBHOOKS = SECTION.listOrEmpty("webhooks", WebhookConfig.SECTION, WebhookConfig.URL)
      .byDefault(List.of());

  /** Base of the jittered exponential backoff between a webhook's failed deliveries, milliseconds; default 1,000 ms. */
  public static final Field<Long> RETRY_BASE_MS = SECTION.longs("retry_base_ms", 1, 86_400_000).byDefault(1000L);

  /** Cap of that backoff, milliseconds; default 60,000 ms. */
  public static final Field<Long> RETRY_MAX_MS = SECTION.longs("retry_max_ms", 1, 86_400_000).byDefault(60_000L);

  /**
   * Deliveries of one correction a webhook may refuse (non-2xx, timeout, unreachable) before it is
   * dead-lettered — logged, counted as {@code dead_lettered}, skipped — and the webhook goes on with
   * the next; default 10.
   */
  public static final Field<Integer> MAX_ATTEMPTS = SECTION.ints("max_attempts", 1, 1_000_000).byDefault(10);

  /** {@code GET /v1/corrections/stream} streams one tenant may hold open at once (over it: 429); default 8. */
  public static final Field<Integer> MAX_STREAMS_PER_TENANT = SECTION.ints("max_streams_per_tenant", 1, 100_000).byDefault(8);

  /** Such streams open at once in the process, every tenant's (over it: 503); default 256. */
  public static final Field<Integer> MAX_STREAMS = SECTION.ints("max_streams", 1, 1_000_000).byDefault(256);

  static {
    SECTION.rule((v, at) -> {
      Long base = v.get(RETRY_BASE_MS);
      Long max = v.get(RETRY_MAX_MS);
      if (base != null && max != null && base > max) {
        at.problem(RETRY_BASE_MS.key(), "must be <= " + at.path(RETRY_MAX_MS.key()));
      }
    });
  }

  private CorrectionsConfig(Settings read) {
    super(read);
  }

  /** See {@link #WEBHOOKS}; unmodifiable. */
  public List<WebhookConfig> webhooks() {
    return get(WEBHOOKS);
  }

  /** See {@link #RETRY_BASE_MS}. */
  public long retryBaseMs() {
    return get(RETRY_BASE_MS);
  }

  /** See {@link #MAX_STREAMS_PER_TENANT}. */
  public int maxStreamsPerTenant() {
    return get(MAX_STREAMS_PER_TENANT);
  }

  /** See {@link #MAX_ATTEMPTS}. */
  public int maxAttempts() {
    return get(MAX_ATTEMPTS);
  }

  /** See {@link #MAX_STREAMS}. */
  public int maxStreams() {
    return get(MAX_STREAMS);
  }

  /** See {@link #RETRY_MAX_MS}. */
  public long retryMaxMs() {
    return get(RETRY_MAX_MS);
  }
}
