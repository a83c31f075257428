package dev.georesolver.state;

import dev.georesolver.metrics.Metrics;
import dev.georesolver.redis.GuardedRedis;
import dev.georesolver.state.redis.LegacyRedisKeys;
import dev.georesolver.state.redis.RedisLegacy;
import dev.georesolver.state.redis.RedisTables;
import dev.georesolver.state.redis.SharedCacheCorrection;
import dev.georesolver.support.FakeClock;
import dev.georesolver.support.OnContext;
import dev.georesolver.support.RedisServer;
import io.vertx.core.ThreadingModel;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The import of the earlier Redis keys under a prefix into the primitives' keys, on one real server. */
class RedisLegacyImportTest extends LegacyImportContract {

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

  protected String url() {
    return server.url();
  }

  protected String prefix() {
    return "geo:" + ns + ":";
  }

  @Override
  protected OnContext context() {
    return loop;
  }

  @Override
  protected EarlierLayout earlier() {
    return new LegacyRedisKeys(on, url(), prefix());
  }

  @Override
  protected TablesStore open(FakeClock clock) {
    return on.await(() -> {
      GuardedRedis redis = new GuardedRedis(on.vertx(), "state", url(), 2000, new Metrics());
      RedisTables t = new RedisTables(redis, prefix());
      return t.start().map(v -> TablesStore.over(t, clock, false, new SharedCacheCorrection(redis, t.keys(), clock), 86_400));
    });
  }

  @Override
  protected Legacy legacy(TablesStore store) {
    return new RedisLegacy(((RedisTables) store.tables()).redis(), prefix());
  }

  @Override
  protected boolean embedded() {
    return false;
  }

  /** Every key matching {@code pattern}. */
  protected List<String> keys(String pattern) {
    GuardedRedis r = ((RedisTables) store.tables()).redis();
    List<String> out = new ArrayList<>();
    String cursor = "0";
    do {
      String c = cursor;
      Response page = on.await(() -> r.send(Request.cmd(Command.SCAN).arg(c).arg("MATCH").arg(pattern).arg("COUNT").arg(1000)));
      cursor = page.get(0).toString();
      page.get(1).forEach(k -> out.add(k.toString()));
    } while (!"0".equals(cursor));
    return out;
  }

  @Override
  protected void assertEarlierGone() {
    List<String> left = keys(prefix() + "*");
    assertThat(left).isNotEmpty().allMatch(k -> k.startsWith(prefix() + "st:"));
  }

  @Test
  @DisplayName("a removal cut short part-way is finished at the next start without counting what is already gone")
  void removalCutShortPartWay() {
    writeEarlier();
    store = open(clock);
    on.failure(() -> LegacyImport.run(store, new Flaky(legacy(store), Integer.MAX_VALUE, true), clock));
    // What a removal stopped half-way leaves: a tenant's chain and every item hash gone, the rest there.
    try (LegacyRedisKeys e = new LegacyRedisKeys(on, url(), prefix(), false)) {
      e.send(Request.cmd(Command.DEL).arg(e.keys().audit(ns + "a")));
      for (String k : keys(e.keys().markerPrefix() + "*")) {
        e.send(Request.cmd(Command.DEL).arg(k));
      }
    }
    call(() -> LegacyImport.run(store, legacy(store), clock));
    assertEarlierGone();
    Snapshot s = snapshot();
    assertThat(s.stats()).containsExactly(2L, 2L, 1L, 1L);
    assertThat(s.audit()).containsExactly(4L, 2L);
  }
}
