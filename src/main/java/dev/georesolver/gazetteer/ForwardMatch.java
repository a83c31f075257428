package dev.georesolver.gazetteer;

/**
 * One candidate city for a forward query.
 *
 * @param place the city
 * @param confidence in [0, 1]: {@code kind.base() × penalty × share}, where share is this city's
 *     weight among all cities the query could mean (see docs/gazetteer.md)
 * @param kind how much the query asked for beyond a city
 */
public record ForwardMatch(Place place, double confidence, MatchKind kind) {}
