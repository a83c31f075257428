package dev.georesolver.gazetteer;

import dev.georesolver.geo.Precision;

/**
 * The result's notice opener for a gazetteer answer, by its precision: a city centre, or a point
 * standing for a whole region or country. The rung's claim stays {@code locality} (a point no finer
 * than a town); this says honestly what the point is. Pure and thread-safe.
 */
public final class GazetteerNotices {

  /** For a city answer: the same words as the {@code locality} claim's default. */
  public static final String LOCALITY = "Working from the city centre only, ";
  /** For a region answer. */
  public static final String REGION = "Working from one point standing for the whole region (its seat where known), ";
  /** For a country or territory answer. */
  public static final String COUNTRY = "Working from one point standing for the whole country (its capital where it has one), ";

  private GazetteerNotices() {}

  /** The opener for a hit of this precision ({@link Precision}); {@link #LOCALITY} for anything else. */
  public static String opener(String precision) {
    if (Precision.COUNTRY.equals(precision)) {
      return COUNTRY;
    }
    if (Precision.REGION.equals(precision)) {
      return REGION;
    }
    return LOCALITY;
  }
}
