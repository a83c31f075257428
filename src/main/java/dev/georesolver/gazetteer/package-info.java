/**
 * The offline world-cities gazetteer (GeoNames) and the {@code gazetteer} rung over it: the bundled
 * data loaded once per process off the event loop, forward lookup of city names with region and
 * country qualifiers, reverse lookup of the nearest city, and
 * {@link dev.georesolver.tier.GazetteerAdapter}, which answers in microseconds on the calling
 * loop. Answers are city centres, never street level. It must not do I/O after loading, call
 * providers, or answer below city level.
 */
package dev.georesolver.gazetteer;
