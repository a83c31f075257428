package dev.georesolver.compat;

/** What a {@link Gate} decided about one request. Immutable. */
public sealed interface GateVerdict {

  /** Go ahead, as this tenant. */
  record Admitted(String tenant) implements GateVerdict {}

  /**
   * Refused for its credentials.
   *
   * @param status 401 (no key or an unknown key) or 403 (a known key not allowed this)
   * @param message what to tell the caller; never contains the key
   */
  record Denied(int status, String message) implements GateVerdict {
    public Denied {
      if (status != 401 && status != 403) {
        throw new IllegalArgumentException("a denial is 401 or 403, not " + status);
      }
    }
  }

  /**
   * The tenant is over its rate limit.
   *
   * @param retryAfterS whole seconds until a retry may succeed (at least 1)
   * @param message what to tell the caller
   */
  record RateLimited(long retryAfterS, String message) implements GateVerdict {
    public RateLimited {
      retryAfterS = Math.max(1, retryAfterS);
    }
  }
}
