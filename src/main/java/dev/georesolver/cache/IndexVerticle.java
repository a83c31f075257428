package dev.georesolver.cache;

import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.IndexEntry;
import dev.georesolver.bus.IndexQuery;
import dev.georesolver.config.IdempotencyConfig;
import dev.georesolver.config.Manifest;
import dev.georesolver.metrics.Metrics;
import dev.georesolver.provider.AdapterRegistry;
import dev.georesolver.provider.Direction;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;

import java.time.Clock;

/**
 * Owns the cached spatial index: Redis GEO set and hashes with
 * {@code deduplication_store: redis}, else an in-process index. Serves the cached-index rung's
 * lookups ({@link Addresses#INDEX_LOOKUP}) and takes the chain's write-through
 * ({@link Addresses#INDEX_WRITE}), so the index stays warm with the live stream.
 */
public final class IndexVerticle extends VerticleBase {

  private final IdempotencyConfig cfg;
  private final String redisUrl;
  private final Clock clock;
  private final Metrics metrics;
  private GeoIndex index;

  /**
   * @param cfg the manifest's idempotency settings (store, prefix, TTLs, bounds)
   * @param redisUrl the store's URL, or null for the in-process index
   * @param clock wall clock (entry expiry of the in-process index)
   * @param metrics the process's meters
   */
  public IndexVerticle(IdempotencyConfig cfg, String redisUrl, Clock clock, Metrics metrics) {
    this.metrics = metrics;
    this.cfg = cfg;
    this.redisUrl = redisUrl;
    this.clock = clock;
  }

  /**
   * Whether a manifest needs the index: some enabled rung reads it. Then the index is deployed and
   * the chain writes resolved answers through to it; otherwise neither happens.
   */
  public static boolean neededBy(Manifest manifest) {
    return manifest.enabledTiers().stream().anyMatch(t -> AdapterRegistry.get(t.adapter()).capabilities().readsIndex());
  }

  @Override
  public Future<?> start() {
    index = redisUrl == null ? new MemoryGeoIndex(cfg.maxEntries(), cfg.maxBytes(), clock)
        : new RedisGeoIndex(new GuardedRedis(vertx, "index", redisUrl, cfg.commandTimeoutMs(), metrics), cfg.keyPrefix());
    var bus = vertx.eventBus();
    return Future.all(
        bus.<IndexQuery>consumer(Addresses.INDEX_LOOKUP, this::onLookup).completion(),
        bus.<IndexEntry>consumer(Addresses.INDEX_WRITE, m -> index.write(m.body(), cfg.indexTtlSeconds())).completion(),
        bus.consumer(Addresses.INDEX_STATUS, m -> index.status().onSuccess(m::reply)).completion());
  }

  @Override
  public Future<?> stop() {
    return index.close();
  }

  private void onLookup(Message<IndexQuery> msg) {
    IndexQuery q = msg.body();
    Future<IndexEntry> f = q.direction() == Direction.FORWARD ? index.byKey(q.addrKey()) : index.nearest(q.lat(), q.lon(), q.radiusM());
    f.onComplete(ar -> msg.reply(ar.succeeded() ? ar.result() : null));
  }
}
