package dev.georesolver.geo;


/**
 * The failure classes: what a rung's answer means for the walk, for retries and for
 * the tier's breaker.
 */
public enum FailureClass {
  /** Timed out, connection refused or reset, HTTP 502/503/504: retried within budget, then degrade. */
  TRANSIENT("transient", true, true),
  /** HTTP 500, unparseable body, schema violation, CRS unknown or transform failed. */
  DEGRADABLE("degradable", false, true),
  /** HTTP 429 or a provider's over-quota status: never retried; Retry-After keeps the breaker open. */
  QUOTA("quota", false, true),
  /** HTTP 401/403 or "request denied": the tier's credential is wrong. */
  CREDENTIAL("credential", false, true),
  /** The provider answered and found nothing: a healthy provider, not a failure. */
  NO_MATCH("no_match", false, false),
  /** The provider rejected this input (HTTP 400, INVALID_REQUEST). */
  REJECTED("rejected", false, false),
  /** The provider answered with a point outside the requested bbox. */
  OUT_OF_BBOX("out_of_bbox", false, false),
  /** Anything no rule above recognised: degrade, log it, and count it. */
  UNCLASSIFIED("unclassified", false, true);

  private final String wire;
  private final boolean retryable;
  private final boolean countsAgainstBreaker;

  FailureClass(String wire, boolean retryable, boolean countsAgainstBreaker) {
    this.wire = wire;
    this.retryable = retryable;
    this.countsAgainstBreaker = countsAgainstBreaker;
  }

  /** The name used in result JSON ({@code attempts[].outcome}) and metrics. */
  public String wire() {
    return wire;
  }

  /** Whether the tier may retry on the same rung (within its retry budget and the deadline). */
  public boolean retryable() {
    return retryable;
  }

  /** Whether the failure is recorded against the tier's circuit breaker. */
  public boolean countsAgainstBreaker() {
    return countsAgainstBreaker;
  }

  /** The class with that wire name. */
  public static FailureClass fromWire(String s) {
    for (FailureClass c : values()) {
      if (c.wire.equals(s)) {
        return c;
      }
    }
    throw new IllegalArgumentException("unknown failure class: " + s);
  }
}
