package dev.georesolver.cache;

import dev.georesolver.redis.GuardedRedis;
import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.CacheWrites;
import dev.georesolver.bus.IndexEntry;
import dev.georesolver.bus.IndexQuery;
import dev.georesolver.config.IdempotencyConfig;
import dev.georesolver.config.Manifest;
import dev.georesolver.geo.Claim;
import dev.georesolver.metrics.Metrics;
import dev.georesolver.geo.Direction;
import dev.georesolver.bus.WriteBuffer;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.List;

/**
 * Owns the cached spatial index: Redis GEO set and hashes with
 * {@code deduplication_store: redis}, else an in-process index. Serves the cached-index rung's
 * lookups ({@link Addresses#INDEX_LOOKUP}) and takes the chain's write-through
 * ({@link Addresses#INDEX_WRITE}), so the index stays warm with the live stream.
 *
 * <p>The in-process index is written behind to the state store when it keeps a cache (SQLite) and
 * loaded back at start, so the cached-index rung answers after a restart as it did before; it
 * takes corrections ({@link Addresses#CORRECTIONS}) from exact and open-data rungs unless it
 * holds a newer entry. With Redis the correction updated the shared index itself.
 */
public final class IndexVerticle extends VerticleBase {

  private static final Logger log = LoggerFactory.getLogger(IndexVerticle.class);

  private final IdempotencyConfig cfg;
  private final String redisUrl;
  private final Clock clock;
  private final Metrics metrics;
  private GeoIndex index;
  /** The write-behind to the state store (in-process index only), or null. */
  private WriteBuffer<IndexEntry> behind;

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
    return manifest.readsIndex();
  }

  @Override
  public Future<?> start() {
    index = redisUrl == null ? new MemoryGeoIndex(cfg.maxEntries(), cfg.maxBytes(), clock)
        : new RedisGeoIndex(new GuardedRedis(vertx, "index", redisUrl, cfg.commandTimeoutMs(), metrics), cfg.keyPrefix());
    var bus = vertx.eventBus();
    Future<Void> loaded = Future.succeededFuture();
    if (redisUrl == null) {
      loaded = loadBehind();
    }
    return loaded.compose(v -> Future.all(
        bus.<IndexQuery>localConsumer(Addresses.INDEX_LOOKUP, this::onLookup).completion(),
        bus.<IndexEntry>localConsumer(Addresses.INDEX_WRITE, m -> onWrite(m.body())).completion(),
        redisUrl == null ? bus.<JsonObject>consumer(Addresses.CORRECTIONS, m -> onCorrection(m.body())).completion()
            : Future.succeededFuture(),
        bus.localConsumer(Addresses.INDEX_STATUS, m -> index.status().onSuccess(m::reply)).completion()));
  }

  private void onWrite(IndexEntry e) {
    index.write(e, cfg.indexTtlSeconds());
    if (behind != null) {
      behind.add(e);
    }
  }

  /** Loads the index the state store kept, each entry for what is left of its lifetime, and starts writing behind. */
  private Future<Void> loadBehind() {
    return vertx.eventBus().<CacheWrites>request(Addresses.STATE_CACHE_LOAD,
            new JsonObject().put("kind", "index").put("limit", cfg.maxEntries()), new DeliveryOptions().setSendTimeout(60_000))
        .map(m -> {
          List<IndexEntry> kept = m.body().index();
          long now = clock.millis();
          int n = 0;
          for (int i = kept.size() - 1; i >= 0; i--) {
            IndexEntry e = kept.get(i);
            long left = cfg.indexTtlSeconds() - (now - e.resolvedAtMs()) / 1000;
            if (left > 0) {
              index.write(e, left);
              n++;
            }
          }
          log.info("index: {} cached-index entries loaded from the state store", n);
          behind = WriteBehind.buffer(vertx, "index", m.headers(), batch -> new CacheWrites(List.of(), batch),
              IndexEntry::addrKey, x -> metrics.stateRefused("cache", x));
          return (Void) null;
        })
        .otherwise(t -> null);
  }

  /** A correction from an exact or open-data rung updates the entry of its address unless a newer one is held. */
  private void onCorrection(JsonObject c) {
    String addrKey = c.getString("addr_key");
    JsonObject after = c.getJsonObject("after");
    if (addrKey == null || after == null) {
      return;
    }
    String claim = after.getString("claim");
    if (!Claim.EXACT.wire().equals(claim) && !Claim.OPEN_DATA.wire().equals(claim)) {
      return;
    }
    long degradedAt = c.getJsonObject("before").getLong("resolved_at_ms", 0L);
    JsonObject answer = c.getJsonObject("answer", new JsonObject());
    IndexEntry e = new IndexEntry(addrKey, after.getDouble("lon"), after.getDouble("lat"), after.getString("resolution_source"),
        claim, after.getDouble("confidence", 0.5), answer.getString("label"), answer.getString("precision"),
        after.getLong("resolved_at_ms"), null);
    index.byKey(addrKey).onSuccess(held -> {
      if (held == null || held.resolvedAtMs() <= degradedAt) {
        index.write(e, cfg.indexTtlSeconds());
      }
    });
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
