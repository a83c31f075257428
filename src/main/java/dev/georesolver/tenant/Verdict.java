package dev.georesolver.tenant;

/** What {@link Tenants#admit} decided about one request. Immutable. */
public sealed interface Verdict {

  /** Go ahead, as this tenant. */
  record Admitted(Tenant tenant) implements Verdict {}

  /**
   * No key, or a key of no tenant: 401.
   *
   * @param reason {@code missing_key} or {@code unknown_key} (a metric label)
   * @param message what to tell the caller; never contains the key
   */
  record Unauthenticated(String reason, String message) implements Verdict {}

  /**
   * The tenant is over its rate limit: 429.
   *
   * @param tenant who
   * @param retryAfterS whole seconds until a retry may succeed, at least 1
   */
  record RateLimited(Tenant tenant, long retryAfterS) implements Verdict {
    public RateLimited {
      retryAfterS = Math.max(1, retryAfterS);
    }
  }
}
