/**
 * What the resolver remembers: the idempotency store and the coalescing of identical requests in
 * flight ({@link dev.georesolver.cache.DedupeVerticle}: a bounded in-process store, and Redis behind
 * it when configured), with the pure replay rule ({@link dev.georesolver.bus.StoredEntry}); and
 * the cached spatial index ({@link dev.georesolver.cache.IndexVerticle}) with the rung adapter that
 * asks it over the event bus ({@link dev.georesolver.tier.CachedIndexAdapter}). Every Redis command goes through {@link dev.georesolver.redis.GuardedRedis}, and a store
 * that is down reads as empty, so resolution never fails for the store. The verticles here own
 * their stores and are reached only over the event bus; nothing here calls a provider, walks the
 * ladder or shapes an HTTP response, and nothing outside reads the stores directly.
 */
package dev.georesolver.cache;
