package dev.georesolver.gazetteer;

import java.util.List;

/**
 * One candidate for a forward query.
 *
 * @param place the place: a city, a first-level division or a country ({@link Place#kind()})
 * @param confidence in [0, 1]: {@code kind.base() × penalty × share}, where share is the weight of
 *     this candidate (and of any lesser candidate within {@value ForwardResolver#SAME_PLACE_M} m of
 *     it, for the best one) among all places the query could mean (see docs/gazetteer.md)
 * @param kind how much the query asked for beyond the place
 * @param alternatives for the best match only: up to {@value ForwardResolver#MAX_ALTERNATIVES}
 *     other candidates farther than {@value ForwardResolver#SAME_PLACE_M} m from it, most likely
 *     first, each with its distance from this match; empty when the query leaves no such doubt
 *     and for the other matches
 */
public record ForwardMatch(Place place, double confidence, MatchKind kind, List<Alternative> alternatives) {

  public ForwardMatch {
    alternatives = List.copyOf(alternatives);
  }

  /** The result precision word of the place: {@code locality}, {@code region} or {@code country}. */
  public String precision() {
    return place.precision();
  }
}
