package dev.georesolver.cache;

import dev.georesolver.redis.GeoCells;
import dev.georesolver.redis.GuardedRedis;
import dev.georesolver.bus.IndexEntry;
import dev.georesolver.redis.RedisKeys;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import io.vertx.redis.client.ResponseType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The cached index in Redis: {@code {prefix}addr:{addrkey}} hashes holding lon, lat, source, claim,
 * confidence, label, precision and resolved_at, each expiring after the index TTL, and one GEO set
 * per geohash cell ({@code {prefix}index:{cell}}, {@link RedisKeys#INDEX_CELL_PRECISION} characters)
 * of address keys for nearest-point lookups, so no single key takes every write and every reverse
 * lookup, and on a Redis Cluster the index spreads over the masters. The layout is the same on one
 * server and on a cluster.
 *
 * <p>A write is one MULTI/EXEC on one server; on a cluster, where the hash and its cell are in
 * different slots, it is two steps, the hash (MULTI/EXEC) and then its cell's GEOADD, and a point whose
 * GEOADD is lost is found by forward lookups only until it is written again. A reverse
 * lookup reads the cells its radius touches (at most {@link #MAX_CELLS}, nearest first) in parallel,
 * merges their candidates by distance, and skips a cell it cannot read (a lost master): the answer
 * comes from what the other cells hold. A GEO member whose hash has expired is removed from its cell
 * when a lookup meets it.
 */
final class RedisGeoIndex implements GeoIndex {

  private static final Logger log = LoggerFactory.getLogger(RedisGeoIndex.class);

  /** Candidates read per cell per reverse lookup, nearest first, to step over expired members. */
  static final int REVERSE_CANDIDATES = 4;
  /** Most cells one reverse lookup reads: 3 × 3 around the point covers any radius up to one cell (about 4.9 km; 2.4 km east-west at 60°N). */
  static final int MAX_CELLS = 9;

  private final GuardedRedis redis;
  private final RedisKeys keys;
  private final GeoCells cells = new GeoCells(RedisKeys.INDEX_CELL_PRECISION, MAX_CELLS);

  RedisGeoIndex(GuardedRedis redis, String prefix) {
    this.redis = redis;
    this.keys = new RedisKeys(prefix, redis.cluster());
  }

  @Override
  public void write(IndexEntry e, long ttlS) {
    String hash = keys.addr(e.addrKey());
    Request hset = Request.cmd(Command.HSET).arg(hash)
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
    Request expire = Request.cmd(Command.EXPIRE).arg(hash).arg(ttlS);
    Request geoadd = Request.cmd(Command.GEOADD).arg(keys.indexCell(cells.cell(e.lat(), e.lon()))).arg(e.lon()).arg(e.lat())
        .arg(e.addrKey());
    Future<?> written = keys.cluster()
        ? redis.batch(List.of(Request.cmd(Command.MULTI), hset, expire, Request.cmd(Command.EXEC))).compose(v -> redis.send(geoadd))
        : redis.batch(List.of(Request.cmd(Command.MULTI), hset, expire, geoadd, Request.cmd(Command.EXEC)));
    written.onFailure(t -> log.debug("index write skipped: {}", t.getMessage()));
  }

  @Override
  public Future<IndexEntry> byKey(String addrKey) {
    return read(addrKey).otherwise(t -> null);
  }

  private Future<IndexEntry> read(String addrKey) {
    return redis.send(Request.cmd(Command.HGETALL).arg(keys.addr(addrKey))).map(r -> entry(addrKey, toMap(r)));
  }

  /** One GEO member met by a reverse lookup: which cell holds it, and how far it is, metres. */
  private record Candidate(String cellKey, String member, double dist) {}

  @Override
  public Future<IndexEntry> nearest(double lat, double lon, double radiusM) {
    List<Future<List<Candidate>>> reads = new ArrayList<>();
    for (String cell : cells.covering(lat, lon, radiusM)) {
      reads.add(search(keys.indexCell(cell), lat, lon, radiusM));
    }
    return Future.join(reads)
        .otherwise(t -> null)
        .compose(v -> {
          List<Candidate> all = new ArrayList<>();
          for (Future<List<Candidate>> f : reads) {
            if (f.succeeded()) {
              all.addAll(f.result());
            }
          }
          all.sort(Comparator.comparingDouble(Candidate::dist));
          return firstLive(all, 0);
        })
        .otherwise(t -> null);
  }

  private Future<List<Candidate>> search(String cellKey, double lat, double lon, double radiusM) {
    Request search = Request.cmd(Command.GEOSEARCH).arg(cellKey)
        .arg("FROMLONLAT").arg(lon).arg(lat)
        .arg("BYRADIUS").arg(radiusM).arg("m")
        .arg("ASC").arg("COUNT").arg(REVERSE_CANDIDATES)
        .arg("WITHDIST");
    return redis.send(search).map(r -> {
      List<Candidate> out = new ArrayList<>();
      if (r != null) {
        for (Response c : r) {
          out.add(new Candidate(cellKey, c.get(0).toString(), c.get(1).toDouble()));
        }
      }
      return out;
    });
  }

  /**
   * The first candidate (from {@code i}) whose hash still exists; expired members are removed from
   * their cell, and one whose hash cannot be read (its master is down) is skipped, not removed.
   */
  private Future<IndexEntry> firstLive(List<Candidate> candidates, int i) {
    if (i >= candidates.size()) {
      return Future.succeededFuture();
    }
    Candidate c = candidates.get(i);
    return read(c.member()).compose(e -> {
      if (e != null) {
        return Future.succeededFuture(e.at(Math.round(c.dist() * 10) / 10.0));
      }
      redis.send(Request.cmd(Command.ZREM).arg(c.cellKey()).arg(c.member()));
      return firstLive(candidates, i + 1);
    }, unreadable -> firstLive(candidates, i + 1));
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
