package dev.georesolver.functional;

import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.RedisServer;
import dev.georesolver.support.Stack;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** The store is guarded: Redis going away costs no resolution, and its return restores sharing. */
@ExtendWith(VertxExtension.class)
class RedisOutageTest {

  @Test
  @DisplayName("killing Redis under load fails no resolution; restarting it restores sharing without a restart")
  void redisKilledUnderLoadThenRestarted(Vertx vertx) throws Exception {
    try (RedisServer redis = RedisServer.start()) {
      Vertx other = Vertx.vertx();
      try {
        FakeProvider p = FakeProvider.start(vertx, json(generic(4.9, 52.37, "EPSG:4326", 0.9), 5)).await();
        String yaml = manifest().budget(2000)
            .tier("primary", "generic", p.url(), "exact", 1000)
            .tier("cache", "cached_index", null, "cached", 200, "typical_ms: 5")
            .yaml();
        Stack a = Stack.deployWithRedis(vertx, yaml, redis.url()).await();
        Stack b = Stack.deployWithRedis(other, yaml, redis.url()).await();

        List<Future<JsonObject>> answers = new ArrayList<>();
        long start = System.nanoTime();
        int i = 0;
        boolean killed = false;
        while (System.nanoTime() - start < 2_000_000_000L) {
          if (!killed && System.nanoTime() - start > 500_000_000L) {
            redis.kill();
            killed = true;
          }
          List<Future<JsonObject>> wave = new ArrayList<>();
          for (int k = 0; k < 8; k++, i++) {
            Stack s = i % 2 == 0 ? a : b;
            wave.add(s.geocode("Damrak " + i + ", Amsterdam").map(r -> {
              assertThat(r.statusCode()).isEqualTo(200);
              return r.bodyAsJsonObject();
            }));
          }
          Future.join(wave).await();
          answers.addAll(wave);
        }
        assertThat(answers).hasSizeGreaterThan(40);
        assertThat(answers).allSatisfy(f -> {
          assertThat(f.succeeded()).isTrue();
          assertThat(f.result().getString("status")).isEqualTo("resolved");
          assertThat(f.result().getLong("elapsed_ms")).as("no resolution waits on a dead store").isLessThan(1000L);
        });
        JsonObject down = a.get("/health/ready").await().bodyAsJsonObject();
        assertThat(down.getJsonObject("store").getBoolean("reachable")).isFalse();

        redis.restart();
        boolean back = false;
        for (int t = 0; t < 100 && !back; t++) {
          Thread.sleep(100);
          back = a.get("/health/ready").await().bodyAsJsonObject().getJsonObject("store").getBoolean("reachable")
              && b.get("/health/ready").await().bodyAsJsonObject().getJsonObject("store").getBoolean("reachable");
        }
        assertThat(back).as("health sees Redis again").isTrue();
        int before = p.count();
        String key = a.geocode("Dam 1, Amsterdam").await().bodyAsJsonObject().getString("idempotency_key");
        RedisServer.awaitKey(vertx, redis.url(), "geo:idem:" + key);
        JsonObject shared = b.geocode("Dam 1, Amsterdam").await().bodyAsJsonObject();
        assertThat(shared.getBoolean("replayed")).as("sharing restored: B replays what A resolved").isTrue();
        assertThat(p.count()).isEqualTo(before + 1);
      } finally {
        other.close().await();
      }
    }
  }

  @Test
  @DisplayName("a stalled Redis slows resolutions only by a small bound, then not at all once its breaker opens")
  void stalledRedisIsCutOff(Vertx vertx) {
    try (RedisServer redis = RedisServer.start()) {
      FakeProvider p = FakeProvider.start(vertx, json(generic(4.9, 52.37, "EPSG:4326", 0.9))).await();
      Stack a = Stack.deployWithRedis(vertx, manifest()
          .tier("primary", "generic", p.url(), "exact", 1000)
          .yaml(), redis.url()).await();
      a.geocode("warm up").await();
      redis.pause();
      List<Long> elapsed = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        JsonObject j = a.geocode("Stalled " + i).await().bodyAsJsonObject();
        assertThat(j.getString("status")).isEqualTo("resolved");
        elapsed.add(j.getLong("elapsed_ms"));
      }
      redis.resume();
      assertThat(elapsed).as("each command has its own timeout (100 ms)").allSatisfy(ms -> assertThat(ms).isLessThan(600L));
      assertThat(elapsed.subList(5, 10)).as("once the store breaker is open, Redis costs nothing")
          .allSatisfy(ms -> assertThat(ms).isLessThan(100L));
    }
  }
}
