package dev.georesolver.state.tables;

import dev.georesolver.metrics.Metrics;
import dev.georesolver.redis.GuardedRedis;
import dev.georesolver.state.redis.RedisTables;
import dev.georesolver.support.OnContext;
import dev.georesolver.support.RedisServer;
import io.vertx.core.ThreadingModel;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The primitives' contract on one real Redis server (keys under a fresh namespace per test). */
class RedisTablesTest extends TablesContract {

  private static RedisServer server;
  private static OnContext loop;

  @BeforeAll
  static void start() {
    server = RedisServer.start();
    loop = OnContext.start(ThreadingModel.EVENT_LOOP);
  }

  @AfterAll
  static void stop() {
    loop.close();
    server.close();
  }

  @Override
  protected OnContext context() {
    return loop;
  }

  @Override
  protected Tables open(OnContext on, String namespace) {
    return on.await(() -> {
      RedisTables r = new RedisTables(new GuardedRedis(on.vertx(), "state", server.url(), 2000, new Metrics()), "geo:");
      return r.start().map(v -> (Tables) r);
    });
  }
}
