package dev.georesolver.cache;

import dev.georesolver.bus.IndexEntry;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import io.vertx.redis.client.ResponseType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The cached index in Redis: {@code {prefix}addr:{addrkey}} hashes holding lon, lat,
 * source, claim, confidence, label, precision and resolved_at, each expiring after the index TTL,
 * and the {@code {prefix}index} GEO set of address keys for nearest-point lookups. A write is one
 * round trip (MULTI/EXEC in a pipeline). A GEO member whose hash has expired is removed when a
 * lookup meets it.
 */
final class RedisGeoIndex implements GeoIndex {

  private static final Logger log = LoggerFactory.getLogger(RedisGeoIndex.class);

  /** Candidates read per reverse lookup, nearest first, to step over expired members. */
  static final int REVERSE_CANDIDATES = 4;

  private final GuardedRedis redis;
  private final String prefix;

  RedisGeoIndex(GuardedRedis redis, String prefix) {
    this.redis = redis;
    this.prefix = prefix;
  }

  private String hashKey(String addrKey) {
    return prefix + "addr:" + addrKey;
  }

  @Override
  public void write(IndexEntry e, long ttlS) {
    Request hset = Request.cmd(Command.HSET).arg(hashKey(e.addrKey()))
        .arg("lon").arg(e.lon())
        .arg("lat").arg(e.lat())
        .arg("source").arg(e.source())
        .arg("claim").arg(e.claim())
        .arg("confidence").arg(e.confidence())
        .arg("resolved_at").arg(e.resolvedAtMs());
    if (e.label() != null) {
      hset.arg("label").arg(e.label());
    }
    if (e.precision() != null) {
      hset.arg("precision").arg(e.precision());
    }
    redis.batch(List.of(
            Request.cmd(Command.MULTI),
            hset,
            Request.cmd(Command.EXPIRE).arg(hashKey(e.addrKey())).arg(ttlS),
            Request.cmd(Command.GEOADD).arg(prefix + "index").arg(e.lon()).arg(e.lat()).arg(e.addrKey()),
            Request.cmd(Command.EXEC)))
        .onFailure(t -> log.debug("index write skipped: {}", t.getMessage()));
  }

  @Override
  public Future<IndexEntry> byKey(String addrKey) {
    return redis.send(Request.cmd(Command.HGETALL).arg(hashKey(addrKey)))
        .map(r -> entry(addrKey, toMap(r)))
        .otherwise(t -> null);
  }

  @Override
  public Future<IndexEntry> nearest(double lat, double lon, double radiusM) {
    Request search = Request.cmd(Command.GEOSEARCH).arg(prefix + "index")
        .arg("FROMLONLAT").arg(lon).arg(lat)
        .arg("BYRADIUS").arg(radiusM).arg("m")
        .arg("ASC").arg("COUNT").arg(REVERSE_CANDIDATES)
        .arg("WITHDIST");
    return redis.send(search)
        .compose(r -> firstLive(r, 0))
        .otherwise(t -> null);
  }

  /** The first candidate (from {@code i}) whose hash still exists; expired members are removed. */
  private Future<IndexEntry> firstLive(Response candidates, int i) {
    if (candidates == null || i >= candidates.size()) {
      return Future.succeededFuture();
    }
    Response c = candidates.get(i);
    String member = c.get(0).toString();
    double dist = c.get(1).toDouble();
    return byKey(member).compose(e -> {
      if (e != null) {
        return Future.succeededFuture(e.at(Math.round(dist * 10) / 10.0));
      }
      redis.send(Request.cmd(Command.ZREM).arg(prefix + "index").arg(member));
      return firstLive(candidates, i + 1);
    });
  }

  /** HGETALL as a map, for RESP3 maps and RESP2 flat arrays alike. */
  static Map<String, String> toMap(Response r) {
    Map<String, String> m = new HashMap<>();
    if (r == null || r.size() == 0) {
      return m;
    }
    java.util.Set<String> keys;
    try {
      keys = r.type() == ResponseType.MULTI ? r.getKeys() : java.util.Set.of();
    } catch (RuntimeException notAMap) {
      keys = java.util.Set.of();
    }
    if (!keys.isEmpty()) {
      for (String k : keys) {
        m.put(k, r.get(k).toString());
      }
      return m;
    }
    for (int i = 0; i + 1 < r.size(); i += 2) {
      m.put(r.get(i).toString(), r.get(i + 1).toString());
    }
    return m;
  }

  private static IndexEntry entry(String addrKey, Map<String, String> m) {
    if (!m.containsKey("lon") || !m.containsKey("lat") || !m.containsKey("resolved_at")) {
      return null;
    }
    try {
      return new IndexEntry(addrKey, Double.parseDouble(m.get("lon")), Double.parseDouble(m.get("lat")),
          m.get("source"), m.get("claim"), Double.parseDouble(m.getOrDefault("confidence", "0.5")), m.get("label"),
          m.get("precision"), Long.parseLong(m.get("resolved_at")), null);
    } catch (NumberFormatException e) {
      log.warn("unreadable index entry {} ignored", addrKey.substring(0, Math.min(12, addrKey.length())).toLowerCase(Locale.ROOT));
      return null;
    }
  }

  @Override
  public Future<JsonObject> status() {
    return redis.status().map(s -> s.put("store", "redis"));
  }

  @Override
  public Future<Void> close() {
    return redis.close();
  }
}
