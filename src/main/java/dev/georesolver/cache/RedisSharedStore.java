package dev.georesolver.cache;

import dev.georesolver.bus.StoredEntry;
import dev.georesolver.redis.GuardedRedis;
import dev.georesolver.bus.StoredAnswer;
import dev.georesolver.redis.RedisKeys;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Stored answers and cross-instance coalescing in Redis.
 *
 * <ul>
 *   <li>{@code {prefix}idem:{key}}: string with TTL, the served answer and when it was stored
 *       ({@link StoredEntry#toBuffer()});
 *   <li>{@code {prefix}lock:{coalesceKey}}: {@code SET NX PX} claim holding this instance's id; it
 *       expires if its holder dies;
 *   <li>{@code {prefix}done:{coalesceKey}}: the holder's outcome (resolved or refused), kept
 *       {@link #DONE_TTL_MS} for waiters on other instances, who poll it every
 *       {@link #POLL_MS} inside their own deadline.
 * </ul>
 *
 * On a Redis Cluster the three keys of one request carry its idempotency key as their hash tag
 * ({@link RedisKeys}), so a poll and a completion are each one pipelined round trip to one master,
 * and the claim stays one key.
 *
 * <p>Polling rather than pub/sub: it needs no subscriber connection to re-establish after a Redis
 * restart, cannot miss a message published before the waiter subscribed, and costs one pipelined
 * round trip per poll per key per instance (local waiters are coalesced before they get here).
 */
final class RedisSharedStore implements SharedStore {

  private static final Logger log = LoggerFactory.getLogger(RedisSharedStore.class);

  /** Interval between a waiter's polls, milliseconds. */
  static final long POLL_MS = 10;
  /** How long a holder's outcome stays readable by waiters, milliseconds. */
  static final long DONE_TTL_MS = 15_000;

  /** Deletes the claim only if this instance still holds it. */
  private static final String UNLOCK =
      "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

  private final Vertx vertx;
  private final GuardedRedis redis;
  private final RedisKeys keys;
  private final Clock clock;
  private final String instanceId = UUID.randomUUID().toString();

  RedisSharedStore(Vertx vertx, GuardedRedis redis, String prefix, Clock clock) {
    this.vertx = vertx;
    this.redis = redis;
    this.keys = new RedisKeys(prefix, redis.cluster());
    this.clock = clock;
  }

  @Override
  public Future<StoredEntry> lookup(String key) {
    return redis.send(Request.cmd(Command.GET).arg(keys.idem(key)))
        .map(this::entry)
        .otherwise(t -> null);
  }

  private StoredEntry entry(Response r) {
    if (r == null) {
      return null;
    }
    try {
      return StoredEntry.fromJson(new JsonObject(r.toBuffer()));
    } catch (DecodeException | ClassCastException | NullPointerException e) {
      log.warn("unreadable stored answer ignored: {}", e.getMessage());
      return null;
    }
  }

  @Override
  public Future<Boolean> claim(String coalesceKey, long ttlMs) {
    return redis.send(Request.cmd(Command.SET).arg(keys.lock(coalesceKey)).arg(instanceId).arg("NX").arg("PX")
            .arg(Math.max(1, ttlMs)))
        .map(r -> r != null)
        .otherwise(true);
  }

  @Override
  public Future<StoredAnswer> awaitOther(String coalesceKey, long waitMs) {
    Promise<StoredAnswer> p = Promise.promise();
    long until = clock.millis() + waitMs;
    poll(coalesceKey, until, p);
    return p.future();
  }

  private void poll(String coalesceKey, long until, Promise<StoredAnswer> p) {
    List<Request> rs = List.of(
        Request.cmd(Command.GET).arg(keys.done(coalesceKey)),
        Request.cmd(Command.EXISTS).arg(keys.lock(coalesceKey)));
    redis.batch(rs).onComplete(ar -> {
      if (ar.failed()) {
        p.tryComplete(null);
        return;
      }
      Response done = ar.result().get(0);
      if (done != null) {
        try {
          p.tryComplete(StoredAnswer.fromJson(new JsonObject(done.toBuffer())));
        } catch (RuntimeException e) {
          p.tryComplete(null);
        }
        return;
      }
      boolean held = ar.result().get(1) != null && ar.result().get(1).toLong() > 0;
      if (!held || clock.millis() + POLL_MS >= until) {
        p.tryComplete(null);
        return;
      }
      vertx.setTimer(POLL_MS, id -> poll(coalesceKey, until, p));
    });
  }

  @Override
  public void complete(String key, String coalesceKey, StoredAnswer answer, long ttlMs) {
    List<Request> rs = new ArrayList<>(3);
    if (answer != null) {
      if (answer.resolved() && ttlMs > 0) {
        Buffer entry = new StoredEntry(answer, clock.millis(), ttlMs).toBuffer();
        rs.add(Request.cmd(Command.SET).arg(keys.idem(key)).arg(entry).arg("PX").arg(ttlMs));
      }
      rs.add(Request.cmd(Command.SET).arg(keys.done(coalesceKey)).arg(answer.toBuffer()).arg("PX").arg(DONE_TTL_MS));
    }
    rs.add(Request.cmd(Command.EVAL).arg(UNLOCK).arg(1).arg(keys.lock(coalesceKey)).arg(instanceId));
    redis.batch(rs).onFailure(t -> log.debug("store write skipped: {}", t.getMessage()));
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
