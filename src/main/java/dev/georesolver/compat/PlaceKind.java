package dev.georesolver.compat;

import dev.georesolver.geo.Precision;

import java.util.List;

/**
 * How an answer's precision reads in the compatible dialects: Nominatim's class, type, address type
 * and search rank, the half-size of the box drawn around the point, and Google's result types.
 *
 * <p>The ranks are Nominatim's own search ranks, so a georesolver that uses another one as a
 * {@code nominatim} rung reads the same precision back. An unknown precision is presented as an
 * approximate place: a point whose extent nobody stated is never shown as a building.
 *
 * @param nominatimClass OSM key ({@code class} in json, {@code category} in jsonv2)
 * @param nominatimType OSM value
 * @param addressType Nominatim's {@code addresstype}
 * @param rank Nominatim's {@code place_rank} (4 country … 30 house)
 * @param halfExtentDeg half the side of the bounding box / viewport around the point, degrees
 * @param googleTypes Google's {@code types}
 */
public record PlaceKind(String nominatimClass, String nominatimType, String addressType, int rank,
                        double halfExtentDeg, List<String> googleTypes) {

  private static final PlaceKind HOUSE = new PlaceKind("place", "house", "place", 30, 0.0001, List.of("street_address"));
  private static final PlaceKind STREET = new PlaceKind("highway", "residential", "road", 26, 0.001, List.of("route"));
  private static final PlaceKind POSTCODE = new PlaceKind("place", "postcode", "postcode", 21, 0.02, List.of("postal_code"));
  private static final PlaceKind CITY = new PlaceKind("place", "city", "city", 16, 0.1, List.of("locality", "political"));
  private static final PlaceKind REGION = new PlaceKind("boundary", "administrative", "state", 8, 1.0,
      List.of("administrative_area_level_1", "political"));
  private static final PlaceKind COUNTRY = new PlaceKind("place", "country", "country", 4, 5.0, List.of("country", "political"));
  private static final PlaceKind UNKNOWN = new PlaceKind("place", "locality", "locality", 22, 0.01, List.of());

  /** The kind of place for a {@link Precision} word (null or unknown: an approximate place). */
  public static PlaceKind of(String precision) {
    if (precision == null) {
      return UNKNOWN;
    }
    return switch (precision) {
      case Precision.ROOFTOP, Precision.INTERPOLATED -> HOUSE;
      case Precision.STREET -> STREET;
      case Precision.POSTCODE -> POSTCODE;
      case Precision.LOCALITY -> CITY;
      case Precision.REGION -> REGION;
      case Precision.COUNTRY -> COUNTRY;
      default -> UNKNOWN;
    };
  }

  /** Nominatim's geocodejson {@code type} for this rank. */
  public String geocodeJsonType() {
    if (rank >= 28) {
      return "house";
    }
    if (rank >= 25) {
      return "street";
    }
    if (rank >= 22) {
      return "locality";
    }
    if (rank >= 17) {
      return "district";
    }
    if (rank >= 13) {
      return "city";
    }
    if (rank >= 10) {
      return "county";
    }
    return rank >= 5 ? "state" : "country";
  }
}
