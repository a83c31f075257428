package dev.georesolver.state.contract;

import dev.georesolver.support.Backends;
import dev.georesolver.metrics.Metrics;
import dev.georesolver.redis.GuardedRedis;
import dev.georesolver.state.TablesStore;
import dev.georesolver.state.redis.RedisTables;
import dev.georesolver.state.redis.SharedCacheCorrection;
import dev.georesolver.support.FakeClock;
import dev.georesolver.support.OnContext;

/** The queue's properties on one real Redis server. */
class RedisQueuePropertiesTest extends QueuePropertiesContract {

  private static OnContext loop;

  protected String url() {
    return Backends.redis().url();
  }

  @Override
  protected OnContext context() {
    return Backends.loop();
  }

  @Override
  protected TablesStore open(OnContext on, FakeClock clock, String namespace) {
    return on.await(() -> {
      GuardedRedis redis = new GuardedRedis(on.vertx(), "state", url(), 2000, new Metrics());
      RedisTables t = new RedisTables(redis, "geo:" + namespace + ":");
      return t.start().map(v -> TablesStore.over(t, clock, false, new SharedCacheCorrection(redis, t.keys(), clock), 86_400));
    });
  }
}
