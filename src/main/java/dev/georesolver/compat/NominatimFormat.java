package dev.georesolver.compat;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/** The Nominatim output formats served ({@code format=}). */
public enum NominatimFormat {
  /**
   * {@code searchresults} / {@code reversegeocode} documents, Nominatim's default for reverse
   * (listed first, as in Nominatim's error message).
   */
  XML("xml"),
  /** The array of places with {@code class}. */
  JSON("json"),
  /** As json, with {@code category} instead of {@code class}; Nominatim's default for search. */
  JSONV2("jsonv2"),
  /** A GeoJSON FeatureCollection. */
  GEOJSON("geojson"),
  /** A GeocodeJSON FeatureCollection. */
  GEOCODEJSON("geocodejson");

  private final String wire;

  NominatimFormat(String wire) {
    this.wire = wire;
  }

  /** The parameter value. */
  public String wire() {
    return wire;
  }

  /** The format named {@code value} (case-insensitive), if served. */
  public static Optional<NominatimFormat> fromWire(String value) {
    String v = value.strip().toLowerCase(Locale.ROOT);
    return Arrays.stream(values()).filter(f -> f.wire.equals(v)).findFirst();
  }

  /** Every served value, comma separated, for error messages. */
  public static String list() {
    return Arrays.stream(values()).map(NominatimFormat::wire).collect(Collectors.joining(", "));
  }
}
