/**
 * One rung of the ladder per {@link dev.georesolver.tier.TierVerticle}: the tier's connection pool
 * or local adapter, circuit breaker ({@link dev.georesolver.tier.TierBreaker}), outbound rate
 * limiter, retries with full-jitter {@link dev.georesolver.tier.Backoff}, per-attempt timeouts,
 * CRS normalization and bbox check ({@link dev.georesolver.tier.HitSelector}) and latency
 * statistics, reached only through its event-bus address. Every breaker permit taken is settled
 * exactly once, and nothing here blocks the tier's event loop: EPSG definitions are looked up on a
 * worker. It must not walk the ladder or know other rungs (the chain does), speak a provider's
 * dialect (the {@code provider} adapters do), or own stores (the {@code cache} verticles do).
 */
package dev.georesolver.tier;
