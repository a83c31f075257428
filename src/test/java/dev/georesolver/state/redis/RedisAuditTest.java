package dev.georesolver.state.redis;

import dev.georesolver.state.AuditReader;
import dev.georesolver.state.StateStore;
import dev.georesolver.state.rules.AuditChain;
import dev.georesolver.bus.AuditEvent;
import dev.georesolver.redis.GuardedRedis;
import dev.georesolver.metrics.Metrics;
import dev.georesolver.support.FakeClock;
import dev.georesolver.support.RedisServer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static dev.georesolver.state.sqlite.SqliteAuditTest.event;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The audit module in a real Redis: one stream per tenant under its hash tag, two writers never
 * forking a chain, paging, retention through the anchor, and verification failing at a record
 * rewritten in the stream.
 */
@ExtendWith(VertxExtension.class)
class RedisAuditTest {

  private static RedisServer server;
  private String prefix;
  private RedisStateStore store;
  private Redis raw;

  @BeforeAll
  static void startRedis() {
    server = RedisServer.start();
  }

  @AfterAll
  static void stopRedis() {
    server.close();
  }

  @BeforeEach
  void open(Vertx vertx) {
    prefix = "t" + UUID.randomUUID().toString().substring(0, 8) + ":";
    store = newStore(vertx);
    raw = Redis.createClient(vertx, server.url());
  }

  private RedisStateStore newStore(Vertx vertx) {
    RedisStateStore s = new RedisStateStore(new GuardedRedis(vertx, "state", server.url(), 2000, new Metrics()), prefix, new FakeClock());
    s.start().await();
    return s;
  }

  @AfterEach
  void close() {
    store.close().await();
    raw.close();
  }

  private List<AuditEvent> events(String tenant, int from, int n, long tsMs) {
    List<AuditEvent> out = new ArrayList<>();
    for (int i = from; i < from + n; i++) {
      out.add(event(tenant, tenant + "-" + i, tsMs + i));
    }
    return out;
  }

  private AuditReader.Report verify(String tenant) {
    return AuditReader.redis(raw, prefix, tenant).await().get(0);
  }

  private Response cmd(Request r) {
    return raw.send(r).await();
  }

  @Test
  @DisplayName("a tenant's stream, head and anchor share its hash tag; two writers interleaving batches never fork the chain")
  void twoWritersOneChain(Vertx vertx) {
    RedisStateStore other = newStore(vertx);
    List<Future<JsonObject>> all = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      all.add((i % 2 == 0 ? store : other).audit().append(events("acme", i * 5, 5, 1000)));
    }
    all.add(store.audit().append(events("beta", 0, 3, 1000)));
    Future.all(all).await();
    other.close().await();

    Response keys = cmd(Request.cmd(Command.KEYS).arg(prefix + "audit:*"));
    List<String> names = new ArrayList<>();
    keys.forEach(k -> names.add(k.toString()));
    assertThat(names).containsExactlyInAnyOrder(prefix + "audit:{acme}", prefix + "audit:{acme}:head", prefix + "audit:{beta}",
        prefix + "audit:{beta}:head", prefix + "audit:tenants");
    AuditReader.Report acme = verify("acme");
    assertThat(acme.ok()).as(String.valueOf(acme.broken())).isTrue();
    assertThat(acme.records()).isEqualTo(100);
    assertThat(AuditReader.redis(raw, prefix, null).await()).extracting(AuditReader.Report::tenant).containsExactly("acme", "beta");
  }

  @Test
  @DisplayName("pages follow the chain by cursor and narrow by time; an empty page keeps the cursor")
  void pages() {
    store.audit().append(events("acme", 0, 7, 1000)).await();
    JsonObject p1 = store.audit().page("acme", null, Long.MIN_VALUE, Long.MAX_VALUE, 3).await();
    JsonObject p2 = store.audit().page("acme", p1.getString("next"), Long.MIN_VALUE, Long.MAX_VALUE, 3).await();
    JsonObject p3 = store.audit().page("acme", p2.getString("next"), Long.MIN_VALUE, Long.MAX_VALUE, 3).await();
    JsonObject p4 = store.audit().page("acme", p3.getString("next"), Long.MIN_VALUE, Long.MAX_VALUE, 3).await();
    assertThat(seqs(p1)).containsExactly(1L, 2L, 3L);
    assertThat(seqs(p2)).containsExactly(4L, 5L, 6L);
    assertThat(seqs(p3)).containsExactly(7L);
    assertThat(seqs(p4)).isEmpty();
    assertThat(p4.getString("next")).isEqualTo("7");
    assertThat(seqs(store.audit().page("acme", null, 1002, 1004, 10).await())).containsExactly(3L, 4L);
    assertThat(p1.getJsonArray("records").getJsonObject(1).getString("prev_hash"))
        .isEqualTo(p1.getJsonArray("records").getJsonObject(0).getString("hash"));
  }

  private static List<Long> seqs(JsonObject page) {
    List<Long> out = new ArrayList<>();
    JsonArray a = page.getJsonArray("records");
    for (int i = 0; i < a.size(); i++) {
      out.add(a.getJsonObject(i).getLong("seq"));
    }
    return out;
  }

  @Test
  @DisplayName("retention removes the expired prefix and sets the anchor; verification passes and the chain grows from it")
  void retention() {
    store.audit().append(events("acme", 0, 4, 1000)).await();
    store.audit().append(List.of(event("acme", "young", 9000), event("acme", "old-after-young", 1500))).await();
    assertThat(store.audit().retain(5000).await()).isEqualTo(4);
    AuditReader.Report r = verify("acme");
    assertThat(r.ok()).as(String.valueOf(r.broken())).isTrue();
    assertThat(r.anchor().seq()).isEqualTo(4);
    assertThat(r.records()).isEqualTo(2);
    store.audit().append(events("acme", 10, 2, 20_000)).await();
    assertThat(verify("acme").ok()).isTrue();
    assertThat(store.audit().retain(5000).await()).isZero();
  }

  @Test
  @DisplayName("a record rewritten in the stream makes verification fail at that record; a deleted one at the gap")
  void tamperingIsFound() {
    store.audit().append(events("acme", 0, 5, 1000)).await();
    String stream = prefix + "audit:{acme}";
    Response all = cmd(Request.cmd(Command.XRANGE).arg(stream).arg("-").arg("+"));
    cmd(Request.cmd(Command.DEL).arg(stream));
    for (Response e : all) {
      var f = RedisStateStore.toMap(e.get(1));
      String body = f.get("b");
      if ("3".equals(f.get("s"))) {
        body = body.replace("fallback", "primary");
      }
      cmd(Request.cmd(Command.XADD).arg(stream).arg(e.get(0).toString()).arg("s").arg(f.get("s")).arg("p").arg(f.get("p"))
          .arg("h").arg(f.get("h")).arg("t").arg(f.get("t")).arg("b").arg(body));
    }
    AuditReader.Report r = verify("acme");
    assertThat(r.broken()).isEqualTo(new AuditChain.Break("acme", 3, "acme-2", "hash does not match the record's content"));

    cmd(Request.cmd(Command.XDEL).arg(stream).arg("3-0"));
    assertThat(verify("acme").broken().why()).isEqualTo("records 3 are missing");
  }
}
