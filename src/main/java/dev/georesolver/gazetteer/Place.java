package dev.georesolver.gazetteer;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One place of the gazetteer as a query answer sees it: a populated place, a first-level division
 * or a country (see {@link #kind()}).
 *
 * <p>The point is a representative point, never an address: a city's GeoNames centre, a
 * division's seat, a country's capital ({@link #pointKind()} says which).
 *
 * @param name the place's own name: the city's GeoNames {@code name} ({@code Springfield}), the
 *     division's English name ({@code Texas}) or the country's short English name ({@code Bahrain})
 * @param region the first-level division's English name, or null for a country or when the data
 *     has none for this place
 * @param countryCode ISO 3166-1 alpha-2 code, upper case
 * @param countryName the country's short English name, e.g. {@code United States}
 * @param lat latitude in degrees (EPSG:4326)
 * @param lon longitude in degrees (EPSG:4326)
 * @param population GeoNames population of a city; for a division or a country the sum over the
 *     places the gazetteer holds in it (a lower bound, used for ranking); 0 when unknown
 * @param kind locality, region or country
 * @param pointKind what the point is: {@code centre} for a city; {@code seat} or {@code largest}
 *     (its most populous place) for a division; {@code capital}, {@code largest} or
 *     {@code centroid} (a point on the territory) for a country
 * @param pointName the name of the place standing at the point: the city itself, the seat, the
 *     capital or the largest place ({@code Manama} for Bahrain)
 */
public record Place(
    String name,
    String region,
    String countryCode,
    String countryName,
    double lat,
    double lon,
    int population,
    PlaceKind kind,
    String pointKind,
    String pointName) {

  /** A city at its own centre. */
  static Place locality(String name, String region, String countryCode, String countryName,
      double lat, double lon, int population) {
    return new Place(name, region, countryCode, countryName, lat, lon, population, PlaceKind.LOCALITY, "centre", name);
  }

  /**
   * A label such as {@code Springfield, Illinois, United States}: name, region and country, each
   * left out when it only repeats the part before it ({@code Tokyo, Japan}, {@code Singapore},
   * {@code Texas, United States}, {@code Bahrain}).
   */
  public String label() {
    StringBuilder sb = new StringBuilder(name);
    String last = TextFold.fold(name);
    for (String part : new String[] {region, countryName}) {
      if (part == null || part.isEmpty()) {
        continue;
      }
      String folded = TextFold.fold(part);
      if (!folded.equals(last)) {
        sb.append(", ").append(part);
        last = folded;
      }
    }
    return sb.toString();
  }

  /** The result precision word: {@code locality}, {@code region} or {@code country}. */
  public String precision() {
    return kind.precision();
  }

  /**
   * The address components this place fills, each present only when known: {@code locality}
   * (cities only), {@code region} (cities and divisions), {@code country}, {@code country_code}
   * (ISO 3166-1 alpha-2). Insertion-ordered, unmodifiable.
   */
  public Map<String, String> components() {
    Map<String, String> c = new LinkedHashMap<>();
    if (kind == PlaceKind.LOCALITY) {
      c.put("locality", name);
    }
    if (region != null && !region.isEmpty() && kind != PlaceKind.COUNTRY) {
      c.put("region", region);
    }
    c.put("country", countryName);
    c.put("country_code", countryCode);
    return java.util.Collections.unmodifiableMap(c);
  }

  /**
   * For an area, what its point is, in words ({@code "Manama, the capital, stands for Bahrain"});
   * null for a city, whose point is its own centre.
   */
  public String pointNote() {
    if (kind == PlaceKind.LOCALITY) {
      return null;
    }
    String what = switch (pointKind) {
      case "capital" -> "the capital";
      case "seat" -> "the seat";
      case "largest" -> "its largest place";
      default -> "a point on it";
    };
    return "centroid".equals(pointKind)
        ? "a point on " + name + " (" + pointName + ") stands for it"
        : pointName + ", " + what + ", stands for " + name;
  }
}
