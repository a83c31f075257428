package dev.georesolver.shadow;

import dev.georesolver.geo.Claim;
import dev.georesolver.geo.GreatCircle;

import java.util.Objects;
import java.util.OptionalDouble;

/**
 * One shadow sample: an answer that left, and the same question asked afterwards of its shadow rung.
 * Immutable and thread-safe.
 *
 * <p>A sample is transient: it is measured and folded into a {@link PairStats}, which keeps counts
 * and histograms only. The sample itself holds the two points and labels (about the address, so as
 * private as the address); {@link #toString()} leaves them out, and so must anything that logs or
 * stores a sample. The request is identified only by {@link #id}, a keyed hash of its idempotency
 * key ({@link KeyHasher}), never by the address.
 *
 * @param id the request's {@link KeyHasher} id (32 lower-case hex digits)
 * @param intent the request's intent
 * @param atMs when the shadow answer came back, epoch milliseconds (the aggregate's window)
 * @param served the answer that left
 * @param shadow the shadow rung's answer to the same question
 */
public record ShadowSample(String id, String intent, long atMs, Side served, Side shadow) {

  /** @throws IllegalArgumentException when the id is not a {@link KeyHasher} id or a name is not a name */
  public ShadowSample {
    if (id == null || !KeyHasher.ID.matcher(id).matches()) {
      throw new IllegalArgumentException("a sample's id is a KeyHasher id (32 lower-case hex digits), never the key or address");
    }
    Objects.requireNonNull(served, "served");
    Objects.requireNonNull(shadow, "shadow");
    if (atMs < 0) {
      throw new IllegalArgumentException("atMs must be >= 0");
    }
    // Checks the names once, with the message naming which.
    new PairKey(served.rung(), shadow.rung(), intent);
  }

  /**
   * One rung's answer to the sampled question.
   *
   * @param rung the rung's (tier's) name
   * @param found whether it found something
   * @param point where, EPSG:4326; non-null exactly when found
   * @param precision rooftop, street, locality…, or null
   * @param claim what the rung may claim (its tier's claim)
   * @param latencyMs how long the rung took, milliseconds, &ge; 0
   * @param label what the rung says it matched, or null
   */
  public record Side(String rung, boolean found, LonLat point, String precision, Claim claim, double latencyMs, String label) {

    /** @throws IllegalArgumentException when found and point disagree or the latency is negative */
    public Side {
      Objects.requireNonNull(claim, "claim");
      if (found != (point != null)) {
        throw new IllegalArgumentException("a side has a point exactly when it found something");
      }
      if (!(latencyMs >= 0) || Double.isInfinite(latencyMs)) {
        throw new IllegalArgumentException("latencyMs must be finite and >= 0");
      }
    }

    /** A side that found {@code point}. */
    public static Side found(String rung, LonLat point, String precision, Claim claim, double latencyMs, String label) {
      return new Side(rung, true, Objects.requireNonNull(point, "point"), precision, claim, latencyMs, label);
    }

    /** A side that found nothing (or refused). */
    public static Side notFound(String rung, Claim claim, double latencyMs) {
      return new Side(rung, false, null, null, claim, latencyMs, null);
    }

    @Override
    public String toString() {
      return rung + (found ? " found" : " not found") + " in " + latencyMs + " ms";
    }
  }

  /** The pair this sample counts in. */
  public PairKey key() {
    return new PairKey(served.rung(), shadow.rung(), intent);
  }

  /** Whether both rungs found something. */
  public boolean bothFound() {
    return served.found() && shadow.found();
  }

  /**
   * Great-circle metres between the two points (haversine on the mean Earth radius: within 0.6 % of
   * the WGS84 ellipsoid's distance, so 120 m reads between 119.3 and 120.7 m); empty unless both found.
   */
  public OptionalDouble distanceM() {
    if (!bothFound()) {
      return OptionalDouble.empty();
    }
    LonLat a = served.point();
    LonLat b = shadow.point();
    return OptionalDouble.of(GreatCircle.metres(a.lat(), a.lon(), b.lat(), b.lon()));
  }

  /** {@link LabelSimilarity} of the two labels; empty unless both found and both labels have a word. */
  public OptionalDouble labelSimilarity() {
    return bothFound() ? LabelSimilarity.of(served.label(), shadow.label()) : OptionalDouble.empty();
  }

  /** Which of the two found something. */
  public Agreement agreement() {
    if (served.found()) {
      return shadow.found() ? Agreement.BOTH_FOUND : Agreement.SERVED_ONLY;
    }
    return shadow.found() ? Agreement.SHADOW_ONLY : Agreement.NEITHER_FOUND;
  }

  /** Which of the two rungs found something. */
  public enum Agreement {
    /** Both did: the distance between them is measured. */
    BOTH_FOUND,
    /** Only the served rung did. */
    SERVED_ONLY,
    /** Only the shadow rung did. */
    SHADOW_ONLY,
    /** Neither did. */
    NEITHER_FOUND
  }

  /** Rungs, intent and what each found; never the points, the labels or the id. */
  @Override
  public String toString() {
    return "ShadowSample[" + intent + ": " + served + "; shadow " + shadow + "]";
  }
}
