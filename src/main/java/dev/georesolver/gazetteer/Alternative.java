package dev.georesolver.gazetteer;

/**
 * Another place a forward query could mean, far from the chosen one: what a caller should know
 * about when the answer is a choice between namesakes.
 *
 * @param place the other place
 * @param confidence its own confidence, in [0, 1], on the same scale as the chosen match's
 * @param distanceM great-circle (haversine) distance from the chosen match's point, in metres
 */
public record Alternative(Place place, double confidence, double distanceM) {}
