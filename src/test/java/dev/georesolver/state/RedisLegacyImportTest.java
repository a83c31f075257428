package dev.georesolver.state;

import dev.georesolver.support.Backends;
import dev.georesolver.metrics.Metrics;
import dev.georesolver.redis.GuardedRedis;
import dev.georesolver.state.redis.LegacyRedisKeys;
import dev.georesolver.state.redis.RedisLegacy;
import dev.georesolver.state.redis.RedisTables;
import dev.georesolver.state.redis.SharedCacheCorrection;
import dev.georesolver.support.FakeClock;
import dev.georesolver.support.OnContext;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The import of the earlier Redis keys under a prefix into the primitives' keys, on one real server. */
class RedisLegacyImportTest extends LegacyImportContract {

  private static OnContext loop;

  protected String url() {
    return Backends.redis().url();
  }

  protected String prefix() {
    return "geo:" + ns + ":";
  }

  @Override
  protected OnContext context() {
    return Backends.loop();
  }

  @Override
  protected EarlierLayout earlier(boolean fresh) {
    return new LegacyRedisKeys(on, url(), prefix(), fresh);
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
    on.failure(() -> LegacyImport.run(store, new Flaky(legacy(store), Integer.MAX_VALUE, true), clock, QUIET));
    // What a removal stopped half-way leaves: a tenant's chain and every item hash gone, the rest there.
    try (LegacyRedisKeys e = new LegacyRedisKeys(on, url(), prefix(), false)) {
      e.send(Request.cmd(Command.DEL).arg(e.keys().audit(ns + "a")));
      for (String k : keys(e.keys().markerPrefix() + "*")) {
        e.send(Request.cmd(Command.DEL).arg(k));
      }
    }
    call(() -> LegacyImport.run(store, legacy(store), clock, QUIET));
    assertEarlierGone();
    Snapshot s = snapshot();
    assertThat(s.stats()).containsExactly(2L, 2L, 1L, 1L);
    assertThat(s.audit()).containsExactly(4L, 2L);
  }

  @Test
  @DisplayName("the earlier layout's digest moves with what an earlier resolver writes (a cursor, a debt, a lease, a record) and holds otherwise")
  void theDigestFollowsEarlierWrites() {
    writeEarlier();
    store = open(clock);
    Legacy l = legacy(store);
    List<String> seen = new ArrayList<>();
    seen.add(call(l::fingerprint));
    assertThat(call(l::fingerprint)).as("nothing written").isEqualTo(seen.get(0));
    try (LegacyRedisKeys e = new LegacyRedisKeys(on, url(), prefix(), false)) {
      e.cursor("webhook:hook", cursors.get(2));
      seen.add(call(l::fingerprint));
      e.item(item("n", dev.georesolver.state.rules.QueueRules.PENDING, 0, 0, null, null, t0, null, null, t0));
      seen.add(call(l::fingerprint));
      e.send(Request.cmd(Command.XREADGROUP).arg("GROUP").arg(dev.georesolver.redis.RedisKeys.GROUP).arg("r1").arg("COUNT").arg(1)
          .arg("STREAMS").arg(e.keys().reconcile()).arg(">"));
      seen.add(call(l::fingerprint));
      e.audit(ns + "b", List.of(event(ns + "b", "3", t0)));
      seen.add(call(l::fingerprint));
    }
    assertThat(seen).doesNotHaveDuplicates();
  }
}
