package dev.georesolver.provider;

import dev.georesolver.geo.FailureClass;

/** How strictly an adapter checks a provider's body (manifest {@code schema_validation}). */
public enum SchemaMode {
  /** Missing required fields or out-of-range coordinates are a {@link FailureClass#DEGRADABLE} failure. */
  STRICT,
  /** Extra or missing optional fields are accepted; only what is needed to answer must be present. */
  RELAXED;

  /** Reads the manifest value ({@code strict} / {@code relaxed}). */
  public static SchemaMode fromWire(String s) {
    return switch (s) {
      case "strict" -> STRICT;
      case "relaxed" -> RELAXED;
      default -> throw new IllegalArgumentException("schema_validation must be strict or relaxed");
    };
  }
}
