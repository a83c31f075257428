package dev.georesolver.geo;

import java.util.Arrays;
import java.util.Optional;

/**
 * What a rung is entitled to claim about its answer.
 *
 * <p>The order is from strongest to weakest claim.
 */
public enum Claim {
  /** A commercial geocoder matched the address itself. */
  EXACT("exact"),
  /** A self-hosted open geocoder (OpenStreetMap data) matched it. */
  OPEN_DATA("open_data"),
  /** A result resolved earlier by another rung, replayed from the cached spatial index. */
  CACHED("cached"),
  /** Only the city or locality is known: the point is its centre. */
  LOCALITY("locality");

  private final String wire;

  Claim(String wire) {
    this.wire = wire;
  }

  /** The name used in the manifest and in result JSON. */
  public String wire() {
    return wire;
  }

  /** The claim with that manifest/JSON name, if any. */
  public static Optional<Claim> fromWire(String s) {
    return Arrays.stream(values()).filter(c -> c.wire.equals(s)).findFirst();
  }
}
