package dev.georesolver.state.contract;

import dev.georesolver.support.Backends;
import dev.georesolver.bus.LeasedDebt;
import dev.georesolver.bus.ResolveResult;
import dev.georesolver.bus.StoredAnswer;
import dev.georesolver.bus.StoredEntry;
import dev.georesolver.metrics.Metrics;
import dev.georesolver.redis.GuardedRedis;
import dev.georesolver.state.TablesStore;
import dev.georesolver.state.redis.RedisTables;
import dev.georesolver.state.redis.SharedCacheCorrection;
import dev.georesolver.support.FakeClock;
import dev.georesolver.support.OnContext;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.georesolver.reconcile.Samples.repair;
import static org.assertj.core.api.Assertions.assertThat;

/** The store's contract on one real Redis server, and the correction of its shared cache. */
class RedisStateStoreTest extends StateStoreContract {

  private static OnContext loop;
  private RedisTables tables;

  @Override
  protected OnContext context() {
    return Backends.loop();
  }

  @Override
  protected boolean keepsCache() {
    return false;
  }

  protected String url() {
    return Backends.redis().url();
  }

  @Override
  protected TablesStore open(OnContext on, FakeClock clock, boolean keepsCache) {
    return on.await(() -> {
      GuardedRedis redis = new GuardedRedis(on.vertx(), "state", url(), 2000, new Metrics());
      tables = new RedisTables(redis, "geo:" + ns + ":");
      return tables.start().map(v -> TablesStore.over(tables, clock, false, new SharedCacheCorrection(redis, tables.keys(), clock),
          86_400));
    });
  }

  private Response redis(Request r) {
    return on.await(() -> tables.redis().send(r));
  }

  @Test
  @DisplayName("a correction replaces the shared cache's stored answer and index entry, unless a newer answer is stored there")
  void correctionsReachTheSharedCache() {
    enqueue(d("a", 100, 1000), d("b", 100, 1000));
    ResolveResult newer = ResolveResult.builder().status("resolved").lon(1.0).lat(1.0).resolutionSource("fresh")
        .idempotencyKey(ns + "b").resolvedAtMs(500).build();
    redis(Request.cmd(Command.SET).arg(tables.keys().idem(ns + "b"))
        .arg(new StoredEntry(StoredAnswer.of(newer), now(), 60_000).toBuffer().toString()));
    List<LeasedDebt> ls = lease("r1", 2);
    ls.forEach(l -> call(() -> q().correct("r1", l, repair(now(), l.debt().idempotencyKey() + "-addr"))));
    JsonObject a = new JsonObject(redis(Request.cmd(Command.GET).arg(tables.keys().idem(ns + "a"))).toString());
    assertThat(a.getJsonObject("result").getString("resolution_source")).isEqualTo("primary");
    JsonObject b = new JsonObject(redis(Request.cmd(Command.GET).arg(tables.keys().idem(ns + "b"))).toString());
    assertThat(b.getJsonObject("result").getString("resolution_source")).as("the newer answer kept").isEqualTo("fresh");
    assertThat(redis(Request.cmd(Command.HGET).arg(tables.keys().addr(ns + "a-addr")).arg("source")).toString()).isEqualTo("primary");
    assertThat(call(() -> store.corrections().page(null, 1000)).corrections()).extracting(c -> c.getString("idempotency_key"))
        .contains(ns + "a", ns + "b");
  }
}
