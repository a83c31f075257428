package dev.georesolver.state.tables;

import dev.georesolver.metrics.Metrics;
import dev.georesolver.redis.GuardedRedis;
import dev.georesolver.state.redis.RedisTables;
import dev.georesolver.support.Backends;
import dev.georesolver.support.OnContext;
import io.vertx.core.Future;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The primitives' contract on a real three-master Redis Cluster, and its one-group rule. */
class RedisClusterTablesTest extends TablesContract {

  @Override
  protected OnContext context() {
    return Backends.loop();
  }

  @Override
  protected Tables open(OnContext on, String namespace) {
    return on.await(() -> {
      RedisTables r = new RedisTables(new GuardedRedis(on.vertx(), "state", Backends.cluster().url(), 2000, new Metrics()), "geo:");
      return r.start().map(v -> (Tables) r);
    });
  }

  @Test
  @DisplayName("a transaction that writes two groups is refused on a cluster, and writes nothing")
  void oneGroupPerTransaction() {
    Table a = Table.of(ns + "a", "x");
    Table b = Table.of(ns + "b", "x");
    Throwable e = on.failure(() -> tables.transact(x -> {
      x.put(a, "k", b("1"), Map.of());
      x.put(b, "k", b("1"), Map.of());
      return Future.succeededFuture(null);
    }));
    assertThat(e).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("one group");
    assertThat(on.await(() -> tables.read(x -> x.get(a, "k"))).exists()).isFalse();
  }
}
