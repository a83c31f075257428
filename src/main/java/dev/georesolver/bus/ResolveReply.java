package dev.georesolver.bus;

import dev.georesolver.geo.Claim;
import dev.georesolver.geo.Direction;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;

/**
 * The chain's reply on {@link Addresses#RESOLVE} and {@link Addresses#REVERSE} to a
 * {@link ResolveRequest}: a {@link ResolveResult} of the request's own walk, or a
 * {@link Redelivery} of a stored answer (a replay, or the answer of an identical request's walk).
 * Both write the same result JSON. Immutable and thread-safe.
 *
 * <p>The accessors here are what every delivery can tell without decoding anything (metrics and
 * logs read them); the whole result is {@link #toBuffer()} / {@link #toJson()}.
 */
public sealed interface ResolveReply permits ResolveResult, Redelivery {

  /** {@code resolved} or {@code refused}. */
  String status();

  /** Forward or reverse. */
  Direction direction();

  /** The tier that answered, or null. */
  String resolutionSource();

  /** What the answer may claim, or null. */
  Claim claim();

  /** Whether the answer came from below the first eligible rung. */
  boolean degraded();

  /** Why it was refused ({@code not_found}, {@code budget_exhausted}, …), or null. */
  String reason();

  /** This delivery's time in the resolver, milliseconds. */
  long elapsedMs();

  /** For a replay: the stored answer's age in seconds; else null. */
  Long replayAgeS();

  /** Whether this delivery shared a concurrent identical request's walk. */
  boolean coalesced();

  /** Whether a rung answered. */
  default boolean resolved() {
    return ResolveResult.RESOLVED.equals(status());
  }

  /** The result JSON, encoded (absent values left out); a new buffer on every call. */
  Buffer toBuffer();

  /** The result JSON. */
  default JsonObject toJson() {
    return new JsonObject(toBuffer());
  }
}
