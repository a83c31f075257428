/**
 * Drop-in compatibility APIs: Nominatim ({@code /search}, {@code /reverse}, {@code /status}) and
 * the Google Geocoding API ({@code /maps/api/geocode/json}) in front of the same chain as
 * {@code /v1}.
 *
 * <p>The translation is pure and tested without Vert.x: a dialect's parameters become the public
 * request fields that {@link dev.georesolver.bus.RequestValidator} checks (so a compatible request
 * is the very {@link dev.georesolver.bus.ResolveRequest} a {@code /v1} request would be, with the
 * same idempotency key), and the chain's {@link dev.georesolver.bus.ResolveResult} becomes an
 * {@link dev.georesolver.compat.Answer}, then an {@link dev.georesolver.compat.Outcome}, then the
 * dialect's own JSON or XML ({@link dev.georesolver.compat.NominatimShapes},
 * {@link dev.georesolver.compat.GoogleShapes}). {@link dev.georesolver.compat.CompatHandler} is the
 * only part that touches Vert.x: it sends on the bus exactly as {@code /v1} does. Who may ask is
 * decided by a {@link dev.georesolver.compat.Gate}.
 */
package dev.georesolver.compat;
