package dev.georesolver.gazetteer;

import java.util.Set;

/**
 * The country and first-level region a forward query names, as a constraint on any answer: an
 * answer outside {@link #countryCodes()} (when not empty) is in a country the query did not name.
 *
 * <p>{@code countryCodes} holds every country the query's country words can mean: "Congo" names
 * both CD and CG, and words that are also a first-level division add that division's country
 * ("Atlanta, Georgia": GE and US; "Springfield IL": Israel and, through Illinois, US), so a right
 * answer is never excluded. It is empty when the query names no country (a region alone does not
 * fill it: "Main St, Victoria" may be in Australia's state or Canada's city).
 *
 * <p>{@code regionCodes} and {@code regionNames} hold the first-level divisions the query's tail
 * names when those words are no city's own name anywhere ("Boise, Idaho": US.ID, "Idaho"; not
 * "Kreuzberg, Berlin", since Berlin is also a city, nor "Portland, Maine", there being a town
 * called Maine): a provider's answer that reports another region is in a
 * region the query did not name.
 *
 * @param countryCodes ISO 3166-1 alpha-2 codes, upper case; empty when no country is named
 * @param regionCodes GeoNames first-level codes ({@code US.ME}); empty when no region is named
 * @param regionNames the English names of those divisions ({@code Maine})
 */
public record AskedArea(Set<String> countryCodes, Set<String> regionCodes, Set<String> regionNames) {

  /** A query that names no country and no region. */
  public static final AskedArea NONE = new AskedArea(Set.of(), Set.of(), Set.of());

  public AskedArea {
    countryCodes = Set.copyOf(countryCodes);
    regionCodes = Set.copyOf(regionCodes);
    regionNames = Set.copyOf(regionNames);
  }

  /** Whether the query names a country. */
  public boolean namesCountry() {
    return !countryCodes.isEmpty();
  }

  /**
   * Whether an answer in this country (ISO alpha-2, any case) is in a country the query named,
   * or the query named none. A null or blank code (an answer that does not say) is allowed only
   * when the query named no country.
   */
  public boolean allowsCountry(String countryCode) {
    if (countryCodes.isEmpty()) {
      return true;
    }
    return countryCode != null && countryCodes.contains(countryCode.trim().toUpperCase(java.util.Locale.ROOT));
  }
}
