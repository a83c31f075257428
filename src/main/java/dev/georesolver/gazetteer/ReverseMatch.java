package dev.georesolver.gazetteer;

/**
 * The city a point is in or nearest to.
 *
 * @param place the city
 * @param distanceM great-circle (haversine) distance from the asked point to the city's centre,
 *     in metres
 * @param confidence in [0, 1]: {@value Gazetteer#REVERSE_INSIDE_CONFIDENCE} when the point lies
 *     within the city's nominal radius, decaying with the distance beyond it
 * @param withinNominalRadius whether the point lies within the city's nominal radius (see
 *     {@link Gazetteer#nominalRadiusM(int)})
 */
public record ReverseMatch(Place place, double distanceM, double confidence, boolean withinNominalRadius) {}
