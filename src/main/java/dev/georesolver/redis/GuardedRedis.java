package dev.georesolver.redis;

import dev.georesolver.metrics.Metrics;
import io.vertx.circuitbreaker.CircuitBreaker;
import io.vertx.circuitbreaker.CircuitBreakerOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClientOptions;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisClientType;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.RedisReplicas;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * A pooled Redis client that can never hold a resolution up: every command (or pipelined batch)
 * gets its own timeout — the client has none — and a vertx-circuit-breaker in front fails commands
 * fast while Redis is down or slow. Its single-probe half-open suits a store: one command tells
 * whether Redis is back, and the pool reconnects by itself, so no restart is needed.
 *
 * <p>The URL may name one server or a Redis Cluster ({@link RedisUrl}): in cluster mode the client
 * learns the slot map from any seed node, follows {@code MOVED}/{@code ASK} redirections, and reads
 * from masters only (replicas lag, and a replay read from a lagging replica could miss an answer just
 * stored). A command or pipelined batch must then touch one hash slot (see
 * {@code dev.georesolver.redis.RedisKeys}); the breaker is one for the whole cluster, so a lost master
 * makes the store count as down until the cluster has failed over or its slots are served again.
 *
 * <p>Callers treat any failure as "store unavailable" and carry on without it. Use from the owning
 * verticle's context.
 */
public final class GuardedRedis {

  private static final Logger log = LoggerFactory.getLogger(GuardedRedis.class);

  /** Consecutive failures that open the store breaker. */
  static final int MAX_FAILURES = 3;
  /** How long the store breaker stays open before one probe, milliseconds. */
  static final long RESET_TIMEOUT_MS = 1000;

  private final String name;
  private final Redis redis;
  private final boolean cluster;
  private final CircuitBreaker breaker;
  private volatile String lastError;

  /**
   * @param name who owns it, for logs ({@code dedupe}, {@code index})
   * @param url the Redis connection string, {@code redis://...} or {@code redis-cluster://host:port,host:port}
   * @param commandTimeoutMs each command's timeout, milliseconds
   * @param metrics where availability is reported
   */
  public GuardedRedis(Vertx vertx, String name, String url, long commandTimeoutMs, Metrics metrics) {
    this.name = name;
    RedisUrl parsed = RedisUrl.parse(url);
    this.cluster = parsed.cluster();
    this.redis = Redis.createClient(vertx, options(parsed)
        .setMaxPoolSize(16)
        .setMaxPoolWaiting(1024)
        .setPoolRecycleTimeout(15_000)
        .setNetClientOptions(new NetClientOptions()
            .setConnectTimeout((int) Math.max(50, commandTimeoutMs))
            .setTcpNoDelay(true)
            .setTcpKeepAlive(true)));
    this.breaker = CircuitBreaker.create("redis-" + name, vertx, new CircuitBreakerOptions()
        .setTimeout(commandTimeoutMs)
        .setMaxFailures(MAX_FAILURES)
        .setResetTimeout(RESET_TIMEOUT_MS)
        .setNotificationAddress(null))
        .openHandler(v -> {
          metrics.storeAvailable(name, false);
          log.warn("store {}: Redis unavailable ({}); resolving without it", name, lastError);
        })
        .closeHandler(v -> {
          metrics.storeAvailable(name, true);
          log.info("store {}: Redis is back", name);
        });
    metrics.storeAvailable(name, true);
  }

  /** One server, or a cluster reached through its seed nodes, masters only. */
  public static RedisOptions options(RedisUrl url) {
    RedisOptions o = new RedisOptions();
    if (!url.cluster()) {
      return o.setConnectionString(url.endpoints().get(0));
    }
    return o.setType(RedisClientType.CLUSTER)
        .setEndpoints(url.endpoints())
        .setUseReplicas(RedisReplicas.NEVER);
  }

  /** Whether this client talks to a Redis Cluster: keys of one command or batch must then share a hash slot. */
  public boolean cluster() {
    return cluster;
  }

  /** Sends one command. */
  public Future<Response> send(Request r) {
    return breaker.<Response>execute(() -> redis.send(r)).onFailure(this::noteFailure);
  }

  /** Sends several commands in one round trip (a pipeline; wrap in MULTI/EXEC for atomicity). */
  public Future<List<Response>> batch(List<Request> rs) {
    return breaker.<List<Response>>execute(() -> redis.batch(rs)).onFailure(this::noteFailure);
  }

  private void noteFailure(Throwable t) {
    // The client's messages may span lines (a cluster lists each node): one line, bounded, for logs and health.
    String m = t.getMessage() == null ? "" : ": " + t.getMessage().replaceAll("\\s+", " ").replaceAll("[^\\x20-\\x7e]", "?");
    lastError = t.getClass().getSimpleName() + (m.length() > 300 ? m.substring(0, 300) + "..." : m);
  }

  /** Pings Redis and reports reachability, breaker state and the last error. */
  public Future<JsonObject> status() {
    return send(Request.cmd(Command.PING))
        .map(r -> true)
        .otherwise(false)
        .map(ok -> new JsonObject()
            .put("reachable", ok)
            .put("breaker", breaker.state().name().toLowerCase())
            .put("last_error", ok ? null : lastError));
  }

  /** Closes the pool. */
  public Future<Void> close() {
    breaker.close();
    return redis.close();
  }

  @Override
  public String toString() {
    return "GuardedRedis[" + name + "]";
  }
}
