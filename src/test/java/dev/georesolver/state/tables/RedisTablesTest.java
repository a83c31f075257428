package dev.georesolver.state.tables;

import dev.georesolver.metrics.Metrics;
import dev.georesolver.redis.GuardedRedis;
import dev.georesolver.state.redis.RedisTables;
import dev.georesolver.support.Backends;
import dev.georesolver.support.OnContext;

/** The primitives' contract on one real Redis server (keys under a fresh namespace per test). */
class RedisTablesTest extends TablesContract {

  @Override
  protected OnContext context() {
    return Backends.loop();
  }

  @Override
  protected Tables open(OnContext on, String namespace) {
    return on.await(() -> {
      RedisTables r = new RedisTables(new GuardedRedis(on.vertx(), "state", Backends.redis().url(), 2000, new Metrics()), "geo:");
      return r.start().map(v -> (Tables) r);
    });
  }
}
