package dev.georesolver.support;

import dev.georesolver.metrics.Metrics;
import dev.georesolver.redis.GuardedRedis;
import dev.georesolver.state.redis.RedisTables;
import io.vertx.core.ThreadingModel;

/**
 * The backends the state tests run against, started once per test JVM and shared by every test
 * class (each test keeps to keys under a prefix of its own): a worker context for SQLite, an event
 * loop for Redis, one real redis-server and one real three-master Redis Cluster. Stopped when the
 * JVM exits. Tests that kill or pause a server start their own instead.
 */
public final class Backends {

  private static OnContext worker;
  private static OnContext loop;
  private static RedisServer redis;
  private static RedisCluster cluster;

  private Backends() {}

  /** A worker context (blocking JDBC runs on it). */
  public static synchronized OnContext worker() {
    if (worker == null) {
      worker = OnContext.start(ThreadingModel.WORKER);
      onExit(worker::close);
    }
    return worker;
  }

  /** An event-loop context. */
  public static synchronized OnContext loop() {
    if (loop == null) {
      loop = OnContext.start(ThreadingModel.EVENT_LOOP);
      onExit(loop::close);
    }
    return loop;
  }

  /** The shared redis-server. */
  public static synchronized RedisServer redis() {
    if (redis == null) {
      redis = RedisServer.start();
      onExit(redis::close);
    }
    return redis;
  }

  /** The shared Redis Cluster. */
  public static synchronized RedisCluster cluster() {
    if (cluster == null) {
      cluster = RedisCluster.start();
      onExit(cluster::close);
    }
    return cluster;
  }

  /** Tables on the Redis at {@code url} under {@code prefix}, started (its persistence read). */
  public static RedisTables redisTables(OnContext on, String url, String prefix) {
    return on.await(() -> {
      RedisTables r = new RedisTables(new GuardedRedis(on.vertx(), "state", url, 2000, new Metrics()), prefix);
      return r.start().map(v -> r);
    });
  }

  private static void onExit(Runnable r) {
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        r.run();
      } catch (RuntimeException ignored) {
        // the JVM is going away
      }
    }));
  }
}
