/**
 * The routing manifest: reading {@code conf/manifest.yaml} strictly (every problem listed with its
 * path, unknown and repeated keys refused), the immutable section types the rest of the resolver
 * reads it through ({@link dev.georesolver.config.Manifest}, {@code RoutingConfig},
 * {@code TierConfig}, …), each declaring its keys, defaults and rules once as
 * {@link dev.georesolver.config.Field}s of its {@link dev.georesolver.config.Section}, the effective
 * configuration served by {@code GET /manifest}, and each tier's {@link dev.georesolver.config.Secret},
 * read once at load. Pure and Vert.x-free apart from {@code JsonObject} for the effective
 * configuration: it does blocking file I/O only when loading, so callers load before or off the
 * event loop. It must not reach into the running resolver (verticles, the bus, stores, adapters'
 * behaviour): it only asks {@code provider.AdapterRegistry} which adapter names exist and which are
 * local, and {@code crs.CrsNormalizer} whether pinned definitions are readable.
 */
package dev.georesolver.config;
