package dev.georesolver.gazetteer;

import dev.georesolver.geo.Precision;

/**
 * What a gazetteer answer stands for: a populated place, a first-level division (state, province,
 * region) or a whole country or dependent territory. An area is answered with one representative
 * point (see {@link Place#pointKind()}), never a boundary.
 */
public enum PlaceKind {
  /** A city, town or village: the point is its GeoNames centre. */
  LOCALITY(Precision.LOCALITY),
  /** A first-level division: the point is its seat, else its largest place. */
  REGION(Precision.REGION),
  /** A country or dependent territory: the point is its capital, else its largest place, else a point on it. */
  COUNTRY(Precision.COUNTRY);

  private final String precision;

  PlaceKind(String precision) {
    this.precision = precision;
  }

  /** The result precision word for this kind ({@code locality}, {@code region}, {@code country}). */
  public String precision() {
    return precision;
  }
}
