package dev.georesolver.state.redis;

import dev.georesolver.bus.Correction;
import dev.georesolver.bus.Debt;
import dev.georesolver.bus.IndexEntry;
import dev.georesolver.bus.Repair;
import dev.georesolver.bus.StoredEntry;
import dev.georesolver.redis.GeoCells;
import dev.georesolver.redis.GuardedRedis;
import dev.georesolver.redis.RedisKeys;
import dev.georesolver.state.CacheCorrection;
import dev.georesolver.state.StateStoreException;
import dev.georesolver.state.rules.Corrections;
import dev.georesolver.state.tables.Txn;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.time.Clock;

/**
 * A correction in the shared cache of the Redis deployment: the idempotency entry and the
 * cached-index hash (and its cell) of the corrected key, each replaced unless what it holds was
 * resolved after the degraded answer ({@link Corrections#replaces}, decided here in Java). Each write
 * is a compare-and-set of exactly what was read, one key at a time (one slot each), tried again when
 * another writer got there in between; writing the same correction twice is harmless. Runs before the
 * queue's transaction, so a correction is in the feed only once its answer is stored.
 */
public final class SharedCacheCorrection implements CacheCorrection {

  /** Replaces a string value only if it is still {@code ARGV[1]} ({@code ''}: absent). */
  static final String SET_IF = """
      if (redis.call('GET', KEYS[1]) or '') ~= ARGV[1] then return 0 end
      redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
      return 1
      """;

  /** Replaces an index entry's fields only if its {@code resolved_at} is still {@code ARGV[1]} ({@code ''}: absent). */
  static final String HSET_IF = """
      local addr = KEYS[1]
      if (redis.call('HGET', addr, 'resolved_at') or '') ~= ARGV[1] then return 0 end
      redis.call('HSET', addr, 'lon', ARGV[2], 'lat', ARGV[3], 'source', ARGV[4], 'claim', ARGV[5], 'confidence', ARGV[6],
        'resolved_at', ARGV[7])
      if ARGV[8] ~= '' then redis.call('HSET', addr, 'label', ARGV[8]) else redis.call('HDEL', addr, 'label') end
      if ARGV[9] ~= '' then redis.call('HSET', addr, 'precision', ARGV[9]) else redis.call('HDEL', addr, 'precision') end
      redis.call('EXPIRE', addr, ARGV[10])
      return 1
      """;

  /** Attempts of one compare-and-set before it gives up (the item stays leased and is corrected again). */
  static final int TRIES = 5;

  private final GuardedRedis redis;
  private final RedisKeys keys;
  private final GeoCells cells = new GeoCells(RedisKeys.INDEX_CELL_PRECISION, 1);
  private final Clock clock;

  public SharedCacheCorrection(GuardedRedis redis, RedisKeys keys, Clock clock) {
    this.redis = redis;
    this.keys = keys;
    this.clock = clock;
  }

  @Override
  public boolean shared() {
    return true;
  }

  @Override
  public Future<Void> before(Debt debt, Correction c, Repair repair) {
    String entry = new StoredEntry(c.answer(), clock.millis(), repair.ttlMs()).toBuffer().toString();
    Future<Void> idem = idem(keys.idem(debt.idempotencyKey()), debt.answerResolvedAtMs(), entry, Math.max(1, repair.ttlMs()), TRIES);
    IndexEntry e = Corrections.indexEntry(repair);
    return e == null ? idem : idem.compose(v -> index(e, debt.answerResolvedAtMs(), Math.max(1, repair.indexTtlS()), TRIES));
  }

  private Future<Void> idem(String key, long basisMs, String entry, long ttlMs, int tries) {
    return redis.send(Request.cmd(Command.GET).arg(key)).compose(cur -> {
      String was = cur == null ? "" : cur.toString();
      if (!Corrections.replaces(resolvedAt(was), basisMs)) {
        return Future.succeededFuture();
      }
      return redis.send(Request.cmd(Command.EVAL).arg(SET_IF).arg(1).arg(key).arg(was).arg(entry).arg(ttlMs))
          .compose(r -> written(r) ? Future.succeededFuture()
              : tries > 1 ? idem(key, basisMs, entry, ttlMs, tries - 1)
              : Future.failedFuture(new StateStoreException("the stored answer of a corrected key kept changing")));
    });
  }

  /** The stored answer's resolution time, or null when nothing (readable) is stored. */
  private static Long resolvedAt(String stored) {
    if (stored.isEmpty()) {
      return null;
    }
    try {
      JsonObject result = new JsonObject(stored).getJsonObject("result");
      return result == null ? null : result.getLong("resolved_at_ms");
    } catch (RuntimeException unreadable) {
      return null;
    }
  }

  private Future<Void> index(IndexEntry e, long basisMs, long ttlS, int tries) {
    String addr = keys.addr(e.addrKey());
    return redis.send(Request.cmd(Command.HGET).arg(addr).arg("resolved_at")).compose(cur -> {
      String was = cur == null ? "" : cur.toString();
      Long stored = was.isEmpty() ? null : Long.parseLong(was);
      if (!Corrections.replaces(stored, basisMs)) {
        return Future.succeededFuture();
      }
      return redis.send(Request.cmd(Command.EVAL).arg(HSET_IF).arg(1).arg(addr).arg(was).arg(e.lon()).arg(e.lat()).arg(e.source())
              .arg(e.claim()).arg(e.confidence()).arg(e.resolvedAtMs()).arg(e.label() == null ? "" : e.label())
              .arg(e.precision() == null ? "" : e.precision()).arg(ttlS))
          .compose(r -> {
            if (written(r)) {
              return redis.send(Request.cmd(Command.GEOADD).arg(keys.indexCell(cells.cell(e.lat(), e.lon()))).arg(e.lon()).arg(e.lat())
                  .arg(e.addrKey())).mapEmpty();
            }
            return tries > 1 ? index(e, basisMs, ttlS, tries - 1)
                : Future.failedFuture(new StateStoreException("the index entry of a corrected key kept changing"));
          });
    });
  }

  private static boolean written(Response r) {
    return r != null && r.toInteger() == 1;
  }

  @Override
  public Future<Void> within(Txn x, Debt debt, Correction c, Repair repair) {
    return Future.succeededFuture();
  }
}
