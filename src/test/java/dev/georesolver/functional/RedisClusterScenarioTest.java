package dev.georesolver.functional;

import dev.georesolver.normalize.AddressKeys;
import dev.georesolver.normalize.AddressNormalizer;
import dev.georesolver.normalize.IdempotencyKey;
import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.RedisCluster;
import dev.georesolver.support.Stack;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two resolver deployments sharing a real three-master Redis Cluster ({@code redis-cluster://}):
 * replays, coalescing, the sharded cached index and the reconcile queue work across the masters,
 * and losing a master costs no resolution; once it is back, sharing resumes without a restart.
 */
@ExtendWith(VertxExtension.class)
class RedisClusterScenarioTest {

  private static RedisCluster cluster;
  private Vertx other;

  @BeforeAll
  static void startCluster() {
    cluster = RedisCluster.start();
  }

  @AfterAll
  static void stopCluster() {
    cluster.close();
  }

  @BeforeEach
  void flush() {
    cluster.flushAll();
    other = Vertx.vertx();
  }

  @AfterEach
  void closeOther() {
    other.close().await();
  }

  /**
   * The ladder with Redis commands allowed 1 s instead of the default 100 ms: on a loaded machine
   * a cold client's first commands (slot map, a connection per master) may take longer, and a
   * write given up would be a cache miss the assertions below would read as a defect. The master
   * kill uses the default.
   */
  private static String yaml(FakeProvider primary, FakeProvider osm) {
    return defaultTimeoutYaml(primary, osm).replace("    deduplication_store: \"memory\"\n",
        "    deduplication_store: \"memory\"\n    command_timeout_ms: 1000\n");
  }

  private static String defaultTimeoutYaml(FakeProvider primary, FakeProvider osm) {
    return manifest().budget(2000)
        .tier("primary", "generic", primary.url(), "exact", 1000)
        .tier("osm", "generic", osm.url(), "open_data", 1000)
        .tier("cache", "cached_index", null, "cached", 300, "typical_ms: 5")
        .yaml();
  }

  private static String key(String q) {
    return IdempotencyKey.of(AddressNormalizer.standard().normalize(q), null);
  }

  @Test
  @DisplayName("an answer resolved on one deployment is replayed by the other from the cluster, its keys tagged by request")
  void replaysAcrossInstances(Vertx vertx) {
    FakeProvider primary = FakeProvider.start(vertx, json(generic(-0.1276, 51.5033, "EPSG:4326", 0.95))).await();
    FakeProvider osm = FakeProvider.start(vertx, json(generic(0, 0, "EPSG:4326", 0.5))).await();
    Stack a = Stack.deployWithRedis(vertx, yaml(primary, osm), cluster.url()).await();
    Stack b = Stack.deployWithRedis(other, yaml(primary, osm), cluster.url()).await();

    JsonObject first = a.geocode("10 Downing Street, London").await().bodyAsJsonObject();
    cluster.awaitKey("geo:idem:{" + first.getString("idempotency_key") + "}");
    JsonObject again = b.geocode("10 downing st london").await().bodyAsJsonObject();

    assertThat(first.getString("resolution_source")).isEqualTo("primary");
    assertThat(again.getBoolean("replayed")).as(again.encode()).isTrue();
    assertThat(again.getDouble("lat")).isEqualTo(51.5033);
    assertThat(primary.count()).isEqualTo(1);
  }

  @Test
  @DisplayName("concurrent identical requests on two deployments make one upstream call: the claim is one key on one master")
  void coalescesAcrossInstances(Vertx vertx) {
    FakeProvider primary = FakeProvider.start(vertx, json(generic(2.35, 48.85, "EPSG:4326", 0.9), 400)).await();
    FakeProvider osm = FakeProvider.start(vertx, json(generic(0, 0, "EPSG:4326", 0.5))).await();
    Stack a = Stack.deployWithRedis(vertx, yaml(primary, osm), cluster.url()).await();
    Stack b = Stack.deployWithRedis(other, yaml(primary, osm), cluster.url()).await();
    // Warm both: a cold JVM's first request (class loading, the cluster's slot map) may outlast the wait.
    Future.all(a.geocode("warm up a"), b.geocode("warm up b")).await();
    int warm = primary.count();

    List<Future<JsonObject>> all = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      Stack s = i % 2 == 0 ? a : b;
      all.add(s.geocode("1 Rue de Rivoli, Paris").map(r -> r.bodyAsJsonObject()));
    }
    Future.all(all).await();

    assertThat(primary.count() - warm).isEqualTo(1);
    assertThat(all).allSatisfy(f -> assertThat(f.result().getDouble("lon")).isEqualTo(2.35));
    assertThat(cluster.keys("geo:done:*")).as("the holder's outcome, in its request's tag")
        .contains("geo:done:{" + key("1 Rue de Rivoli, Paris") + "}|describe|FORWARD");
  }

  @Test
  @DisplayName("the cached index is sharded by geohash cell: forward and reverse lookups across deployments, the points spread over cells")
  void cachedIndexAcrossCells(Vertx vertx) {
    FakeProvider primary = FakeProvider.start(vertx, r -> {
      String q = r.getParam("q");
      return q.contains("Eiffel") ? json(generic(2.2945, 48.8584, "EPSG:4326", 0.9).put("label", "Tour Eiffel"))
          : q.contains("Louvre") ? json(generic(2.3376, 48.8606, "EPSG:4326", 0.9).put("label", "Louvre"))
          : json(generic(151.2153, -33.8568, "EPSG:4326", 0.9).put("label", "Opera House"));
    }).await();
    FakeProvider osm = FakeProvider.start(vertx, FakeProvider.status(404, "")).await();
    Stack a = Stack.deployWithRedis(vertx, yaml(primary, osm), cluster.url()).await();
    Stack b = Stack.deployWithRedis(other, yaml(primary, osm), cluster.url()).await();
    for (String q : List.of("Tour Eiffel, Paris", "Musee du Louvre, Paris", "Sydney Opera House")) {
      a.geocode(q).await();
      cluster.awaitKey("geo:addr:{" + AddressKeys.addrKey(q) + "}");
    }
    cluster.awaitKey("geo:index:{u09tu}");
    cluster.awaitKey("geo:index:{r3gx2}");
    primary.behave(FakeProvider.status(503, "down"));

    assertThat(cluster.keys("geo:index:*")).as("one GEO set per cell, no single index key")
        .contains("geo:index:{u09tu}", "geo:index:{r3gx2}").doesNotContain("geo:index");
    JsonObject near = b.get("/v1/reverse?lat=48.8590&lon=2.2950").await().bodyAsJsonObject();
    assertThat(near.getString("status")).as(near.encode()).isEqualTo("resolved");
    assertThat(near.getString("claim")).isEqualTo("cached");
    assertThat(near.getString("label")).isEqualTo("Tour Eiffel");
    assertThat(near.getDouble("distance_m")).isBetween(50.0, 120.0);
    JsonObject sydney = b.get("/v1/reverse?lat=-33.8570&lon=151.2150").await().bodyAsJsonObject();
    assertThat(sydney.getString("label")).as(sydney.encode()).isEqualTo("Opera House");
    JsonObject forward = b.geocode("Musee du Louvre, Paris", "bbox", "2,48,3,49").await().bodyAsJsonObject();
    assertThat(forward.getString("resolution_source")).as(forward.encode()).isEqualTo("cache");
    assertThat(forward.getDouble("lon")).isEqualTo(2.3376);
  }

  @Test
  @DisplayName("the reconcile queue on the cluster: kill -9 mid-drain, the restarted resolver claims the items, nothing lost, nothing twice")
  void reconcileQueueOnTheCluster(Vertx vertx) throws Exception {
    ReconcileKillScenarioTest.run(vertx, null, cluster.url());
    assertThat(cluster.keys("geo:st:{reconcile}:*")).as("the whole queue and its outbox in one tag").isNotEmpty()
        .allSatisfy(k -> assertThat(k).startsWith("geo:st:{reconcile}:"));
    assertThat(cluster.keys("geo:*reconcile*")).as("no untagged queue key").allSatisfy(k -> assertThat(k).contains("{reconcile}"));
  }

  @Test
  @DisplayName("a master killed: resolution goes on without what it held, no 5xx, within budget; it returns and sharing resumes without a restart")
  void masterKilledThenBack(Vertx vertx) throws Exception {
    FakeProvider primary = FakeProvider.start(vertx, json(generic(4.9, 52.37, "EPSG:4326", 0.9), 5)).await();
    FakeProvider osm = FakeProvider.start(vertx, json(generic(0, 0, "EPSG:4326", 0.5))).await();
    Stack a = Stack.deployWithRedis(vertx, defaultTimeoutYaml(primary, osm), cluster.url()).await();
    Stack b = Stack.deployWithRedis(other, defaultTimeoutYaml(primary, osm), cluster.url()).await();

    // Stored by A on the master that is about to die.
    String lost = null;
    for (int i = 0; lost == null; i++) {
      String q = "Damrak " + i + ", Amsterdam";
      if (cluster.nodeFor("geo:idem:{" + key(q) + "}") == 0) {
        lost = q;
      }
    }
    a.geocode(lost).await();
    cluster.awaitKey("geo:idem:{" + key(lost) + "}");
    cluster.kill(0);

    List<Future<JsonObject>> answers = new ArrayList<>();
    for (int wave = 0; wave < 6; wave++) {
      List<Future<JsonObject>> w = new ArrayList<>();
      for (int k = 0; k < 8; k++) {
        Stack s = k % 2 == 0 ? a : b;
        w.add(s.geocode("Rokin " + wave + "-" + k + ", Amsterdam").map(r -> {
          assertThat(r.statusCode()).as("no 5xx with a master down").isEqualTo(200);
          return r.bodyAsJsonObject();
        }));
      }
      w.add(b.geocode(lost).map(r -> r.bodyAsJsonObject()));
      Future.join(w).await();
      answers.addAll(w);
      if (wave == 1) {
        cluster.awaitFailed(0);
      }
    }
    assertThat(answers).allSatisfy(f -> {
      assertThat(f.succeeded()).isTrue();
      assertThat(f.result().getString("status")).as(f.result().encode()).isEqualTo("resolved");
      assertThat(f.result().getLong("elapsed_ms")).as("within the 2000 ms budget").isLessThan(2000L);
    });

    cluster.restart(0);
    int before = primary.count();
    String back = null;
    for (int i = 0; back == null; i++) {
      String q = "Dam " + i + ", Amsterdam";
      if (cluster.nodeFor("geo:idem:{" + key(q) + "}") == 0) {
        back = q;
      }
    }
    JsonObject shared = null;
    for (int t = 0; t < 100; t++) {
      a.geocode(back).await();
      if (cluster.exists("geo:idem:{" + key(back) + "}")) {
        shared = b.geocode(back).await().bodyAsJsonObject();
        break;
      }
      Thread.sleep(100);
    }
    assertThat(shared).as("A stores on the returned master again").isNotNull();
    assertThat(shared.getBoolean("replayed")).as("sharing resumed: B replays what A resolved: " + shared.encode()).isTrue();
    assertThat(primary.count()).as("one upstream call for the shared answer").isLessThanOrEqualTo(before + 1 + 100);
  }
}
