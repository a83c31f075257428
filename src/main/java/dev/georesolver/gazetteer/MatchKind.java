package dev.georesolver.gazetteer;

/**
 * What a forward query asked for, measured against what a city gazetteer can answer; it sets the
 * base of the match confidence (see docs/gazetteer.md, "Confidence").
 */
public enum MatchKind {
  /** The query names a city, with at most region, country and postcode qualifiers. */
  LOCALITY(0.9),
  /**
   * The query names a city followed by parts the gazetteer did not recognise (a county, a
   * district): the city is likely right, the extra part unchecked.
   */
  LOCALITY_WITH_EXTRA(0.7),
  /**
   * The query names something inside a city (a street address, a building, a landmark) and is
   * answered with the city's centre: right city, wrong point for what was asked.
   */
  FINER_THAN_LOCALITY(0.35);

  private final double base;

  MatchKind(double base) {
    this.base = base;
  }

  /** The confidence before ambiguity and qualifier penalties, in [0, 1]. */
  public double base() {
    return base;
  }
}
