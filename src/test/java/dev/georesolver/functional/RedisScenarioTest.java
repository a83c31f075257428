package dev.georesolver.functional;

import dev.georesolver.normalize.AddressKeys;
import dev.georesolver.normalize.AddressNormalizer;
import dev.georesolver.normalize.IdempotencyKey;
import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.RedisServer;
import dev.georesolver.support.Stack;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
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
 * Several resolver instances sharing one real Redis (DESIGN §7): replays, coalescing, the cached
 * index and reverse lookups across instances.
 */
@ExtendWith(VertxExtension.class)
class RedisScenarioTest {

  private static RedisServer redisServer;
  private static String url;
  private Vertx other;

  @BeforeAll
  static void startRedis() {
    redisServer = RedisServer.start();
    url = RedisServer.sharedUrl(redisServer);
  }

  @AfterAll
  static void stopRedis() {
    redisServer.close();
  }

  @BeforeEach
  void flush(Vertx vertx) {
    Redis r = Redis.createClient(vertx, url);
    r.send(Request.cmd(Command.FLUSHALL)).await();
    r.close().await();
    other = Vertx.vertx();
  }

  @AfterEach
  void closeOther() {
    other.close().await();
  }

  private static String yaml(FakeProvider primary, FakeProvider osm) {
    return manifest()
        .tier("primary", "generic", primary.url(), "exact", 1500)
        .tier("osm", "generic", osm.url(), "open_data", 1500)
        .tier("cache", "cached_index", null, "cached", 300, "typical_ms: 5")
        .yaml();
  }

  @Test
  @DisplayName("an answer resolved on one instance is replayed by another without an upstream call")
  void replaysAcrossInstances(Vertx vertx) {
    FakeProvider primary = FakeProvider.start(vertx, json(generic(-0.1276, 51.5033, "EPSG:4326", 0.95))).await();
    FakeProvider osm = FakeProvider.start(vertx, json(generic(0, 0, "EPSG:4326", 0.5))).await();
    Stack a = Stack.deployWithRedis(vertx, yaml(primary, osm), url).await();
    Stack b = Stack.deployWithRedis(other, yaml(primary, osm), url).await();

    JsonObject first = a.geocode("10 Downing Street, London").await().bodyAsJsonObject();
    RedisServer.awaitKey(vertx, url, "geo:idem:" + first.getString("idempotency_key"));
    JsonObject again = b.geocode("10 downing st london").await().bodyAsJsonObject();

    assertThat(first.getString("resolution_source")).isEqualTo("primary");
    assertThat(again.getBoolean("replayed")).isTrue();
    assertThat(again.getDouble("lat")).isEqualTo(51.5033);
    assertThat(primary.count()).isEqualTo(1);
  }

  @Test
  @DisplayName("concurrent identical requests on two instances make one upstream call")
  void coalescesAcrossInstances(Vertx vertx) {
    FakeProvider primary = FakeProvider.start(vertx, json(generic(2.35, 48.85, "EPSG:4326", 0.9), 400)).await();
    FakeProvider osm = FakeProvider.start(vertx, json(generic(0, 0, "EPSG:4326", 0.5))).await();
    Stack a = Stack.deployWithRedis(vertx, yaml(primary, osm), url).await();
    Stack b = Stack.deployWithRedis(other, yaml(primary, osm), url).await();

    List<Future<JsonObject>> all = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      Stack s = i % 2 == 0 ? a : b;
      all.add(s.geocode("1 Rue de Rivoli, Paris").map(r -> r.bodyAsJsonObject()));
    }
    Future.all(all).await();

    assertThat(primary.count()).isEqualTo(1);
    assertThat(all).allSatisfy(f -> assertThat(f.result().getDouble("lon")).isEqualTo(2.35));
  }

  @Test
  @DisplayName("with both providers down, a resolved address is served from the cached index with claim cached and its age")
  void cachedIndexServesWhenProvidersAreDown(Vertx vertx) {
    FakeProvider primary = FakeProvider.start(vertx, json(generic(13.3777, 52.5163, "EPSG:4326", 0.92))).await();
    FakeProvider osm = FakeProvider.start(vertx, json(generic(0, 0, "EPSG:4326", 0.5))).await();
    Stack a = Stack.deployWithRedis(vertx, yaml(primary, osm), url).await();
    Stack b = Stack.deployWithRedis(other, yaml(primary, osm), url).await();
    a.geocode("Pariser Platz 1, Berlin").await();
    RedisServer.awaitKey(vertx, url, "geo:addr:" + AddressKeys.addrKey("Pariser Platz 1, Berlin"));
    primary.behave(FakeProvider.status(503, "down"));
    osm.behave(FakeProvider.status(503, "down"));

    // A bbox gives a new idempotency key (no replay) but the same address key in the index.
    JsonObject j = b.geocode("Pariser Platz 1, Berlin", "bbox", "13,52,14,53").await().bodyAsJsonObject();

    assertThat(j.getString("status")).as(j.encodePrettily()).isEqualTo("resolved");
    assertThat(j.getString("claim")).isEqualTo("cached");
    assertThat(j.getString("resolution_source")).isEqualTo("cache");
    assertThat(j.getDouble("lon")).isEqualTo(13.3777);
    assertThat(j.getDouble("confidence")).isEqualTo(0.92);
    assertThat(j.getBoolean("degraded")).isTrue();
    assertThat(j.getString("notice")).as("the cached index keeps no country: inferred from the point").startsWith("From a cached result under a minute old, ");
    assertThat(j.getLong("observed_at_ms")).isNotNull();

    JsonObject outside = b.geocode("Pariser Platz 1, Berlin", "bbox", "0,0,1,1").await().bodyAsJsonObject();
    assertThat(outside.getString("status")).as("the cached point is outside this bbox").isEqualTo("refused");
    JsonObject contain = b.geocode("Pariser Platz 1, Berlin", "intent", "contain").await().bodyAsJsonObject();
    assertThat(contain.getString("status")).as("contain is never answered from a store").isEqualTo("refused");
  }

  @Test
  @DisplayName("reverse lookups return the nearest cached point with its distance")
  void reverseFromTheCachedIndex(Vertx vertx) {
    FakeProvider primary = FakeProvider.start(vertx, r -> {
      String q = r.getParam("q");
      return q != null && q.contains("Eiffel") ? json(generic(2.2945, 48.8584, "EPSG:4326", 0.9).put("label", "Tour Eiffel"))
          : json(generic(2.3376, 48.8606, "EPSG:4326", 0.9).put("label", "Louvre"));
    }).await();
    FakeProvider osm = FakeProvider.start(vertx, FakeProvider.status(404, "")).await();
    Stack a = Stack.deployWithRedis(vertx, yaml(primary, osm), url).await();
    Stack b = Stack.deployWithRedis(other, yaml(primary, osm), url).await();
    a.geocode("Tour Eiffel, Paris").await();
    a.geocode("Musee du Louvre, Paris").await();
    RedisServer.awaitKey(vertx, url, "geo:addr:" + AddressKeys.addrKey("Tour Eiffel, Paris"));
    RedisServer.awaitKey(vertx, url, "geo:addr:" + AddressKeys.addrKey("Musee du Louvre, Paris"));
    primary.behave(FakeProvider.status(404, ""));

    JsonObject j = b.get("/v1/reverse?lat=48.8590&lon=2.2950").await().bodyAsJsonObject();

    assertThat(j.getString("status")).isEqualTo("resolved");
    assertThat(j.getString("direction")).isEqualTo("reverse");
    assertThat(j.getString("claim")).isEqualTo("cached");
    assertThat(j.getString("label")).isEqualTo("Tour Eiffel");
    assertThat(j.getDouble("distance_m")).isBetween(50.0, 120.0);
    JsonObject far = b.get("/v1/reverse?lat=45.76&lon=4.83").await().bodyAsJsonObject();
    assertThat(far.getString("status")).isEqualTo("refused");
  }

  @Test
  @DisplayName("a claim whose holder died expires, and the waiting instance resolves on its own")
  void deadHolderClaimExpires(Vertx vertx) {
    FakeProvider primary = FakeProvider.start(vertx, json(generic(1, 1, "EPSG:4326", 0.9))).await();
    FakeProvider osm = FakeProvider.start(vertx, json(generic(0, 0, "EPSG:4326", 0.5))).await();
    Stack a = Stack.deployWithRedis(vertx, yaml(primary, osm), url).await();
    String key = IdempotencyKey.of(AddressNormalizer.standard().normalize("5 Dead Holder Lane"), null);
    Redis r = Redis.createClient(vertx, url);
    r.send(Request.cmd(Command.SET).arg("geo:lock:" + key + "|describe|FORWARD").arg("crashed-instance").arg("PX").arg(400)).await();

    long t0 = System.nanoTime();
    JsonObject j = a.geocode("5 Dead Holder Lane").await().bodyAsJsonObject();
    long ms = (System.nanoTime() - t0) / 1_000_000;
    r.close();

    assertThat(j.getString("status")).isEqualTo("resolved");
    assertThat(ms).as("waited for the dead claim to expire, not the whole budget").isBetween(300L, 1500L);
    assertThat(j.getString("idempotency_key")).isEqualTo(key);
    assertThat(primary.count()).isEqualTo(1);
  }
}
