/**
 * Coordinate reference systems: reading every spelling of a source CRS
 * ({@link dev.georesolver.crs.CrsId}), the definitions a process may apply — pinned, bundled and
 * proj4j-epsg's — with the EPSG database read only off the event loop and remembered, found or not
 * ({@link dev.georesolver.crs.CrsCatalog}), and the move of a point into EPSG:4326 with proj4j
 * ({@link dev.georesolver.crs.CrsNormalizer}, one per thread). Pure, no Vert.x: the tier decides
 * on which thread a lookup runs. It must not apply grid files, guess a definition it has not been
 * given, or share a proj4j transform between threads.
 */
package dev.georesolver.crs;
