package dev.georesolver.geo;


/**
 * A reverse lookup: which place is at or nearest to this point (EPSG:4326).
 *
 * @param lat latitude in degrees
 * @param lon longitude in degrees
 * @param language preferred result language (BCP 47), or null
 */
public record ReverseQuery(double lat, double lon, String language) {}
