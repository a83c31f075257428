/**
 * Geographic values every part shares: {@link dev.georesolver.geo.Bbox} (EPSG:4326 degrees,
 * checked on construction), the {@link dev.georesolver.geo.Claim} a rung may make about its answer,
 * and great-circle distance. Immutable values and pure functions with no dependency on any other
 * package; it must not grow logic that belongs to a part (CRS transforms, matching, walking).
 */
package dev.georesolver.geo;
