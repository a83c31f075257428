package dev.georesolver.gazetteer;

/**
 * One populated place of the gazetteer, as a query answer sees it.
 *
 * <p>The point is the place's GeoNames centre: a city-level position, not an address.
 *
 * @param name the place's own name (GeoNames {@code name}), e.g. {@code Springfield}
 * @param region the first-level division's English name (state, province, region), or null when
 *     the data has none for this place
 * @param countryCode ISO 3166-1 alpha-2 code, upper case
 * @param countryName the country's short English name, e.g. {@code United States}
 * @param lat latitude in degrees (EPSG:4326)
 * @param lon longitude in degrees (EPSG:4326)
 * @param population GeoNames population (0 when unknown)
 */
public record Place(
    String name, String region, String countryCode, String countryName, double lat, double lon, int population) {

  /**
   * A label such as {@code Springfield, Illinois, United States}: name, region and country, each
   * left out when it only repeats the part before it ({@code Tokyo, Japan}, {@code Singapore}).
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
}
