package dev.georesolver.functional;

import dev.georesolver.support.FakeProvider;
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

/** Idempotency replays and coalescing of concurrent identical requests (DESIGN §4, §5, §7). */
@ExtendWith(VertxExtension.class)
class DedupeScenarioTest {

  private Stack stack(Vertx vertx, FakeProvider primary) {
    return Stack.deploy(vertx, manifest()
        .tier("primary", "generic", primary.url(), "exact", 2000)
        .extra("intents:\n  describe: { max_cache_age_s: 604800 }\n  contain: { max_cache_age_s: 0, claims: [exact] }")
        .yaml()).await();
  }

  @Test
  @DisplayName("concurrent identical requests coalesce into one upstream call, and all get the answer")
  void concurrentIdenticalRequestsCoalesce(Vertx vertx) {
    FakeProvider primary = FakeProvider.start(vertx, json(generic(7, 8, "EPSG:4326", 0.9), 300)).await();
    Stack s = stack(vertx, primary);

    List<Future<JsonObject>> all = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      all.add(s.geocode("123 Main St., Springfield").map(r -> r.bodyAsJsonObject()));
    }
    Future.all(all).await();

    assertThat(primary.count()).isEqualTo(1);
    assertThat(all).allSatisfy(f -> {
      assertThat(f.result().getString("status")).isEqualTo("resolved");
      assertThat(f.result().getDouble("lon")).isEqualTo(7.0);
    });
    long coalesced = all.stream().filter(f -> f.result().getBoolean("coalesced", false)).count();
    long replayed = all.stream().filter(f -> f.result().getBoolean("replayed", false)).count();
    assertThat(coalesced).as("the requests in flight together share the leader's walk").isGreaterThanOrEqualTo(20);
    assertThat(coalesced + replayed).isEqualTo(24);
    assertThat(all.stream().map(f -> f.result().getString("trace_id")).distinct()).hasSize(25);
  }

  @Test
  @DisplayName("equivalent spellings share one key and replay the stored answer without a call")
  void equivalentSpellingReplays(Vertx vertx) {
    FakeProvider primary = FakeProvider.start(vertx, json(generic(7, 8, "EPSG:4326", 0.9))).await();
    Stack s = stack(vertx, primary);

    JsonObject first = s.geocode("123 Main St., Springfield").await().bodyAsJsonObject();
    JsonObject again = s.geocode("123 main street springfield").await().bodyAsJsonObject();

    assertThat(primary.count()).isEqualTo(1);
    assertThat(again.getString("idempotency_key")).isEqualTo(first.getString("idempotency_key"));
    assertThat(again.getBoolean("replayed")).isTrue();
    assertThat(again.getLong("replay_age_s")).isZero();
    assertThat(again.getDouble("lon")).isEqualTo(7.0);
    assertThat(again.getString("trace_id")).isNotEqualTo(first.getString("trace_id"));
  }

  @Test
  @DisplayName("an intent with max_cache_age_s 0 is never answered from the store")
  void containIsNeverReplayed(Vertx vertx) {
    FakeProvider primary = FakeProvider.start(vertx, json(generic(7, 8, "EPSG:4326", 0.9))).await();
    Stack s = stack(vertx, primary);
    s.geocode("1 High St").await();
    JsonObject j = s.geocode("1 High St", "intent", "contain").await().bodyAsJsonObject();
    assertThat(primary.count()).isEqualTo(2);
    assertThat(j.containsKey("replayed")).isFalse();
    assertThat(j.getString("intent")).isEqualTo("contain");
  }

  @Test
  @DisplayName("a bbox changes the key, so the same address in another box is resolved again")
  void bboxChangesTheKey(Vertx vertx) {
    FakeProvider primary = FakeProvider.start(vertx, json(generic(7, 8, "EPSG:4326", 0.9))).await();
    Stack s = stack(vertx, primary);
    JsonObject a = s.geocode("1 High St").await().bodyAsJsonObject();
    JsonObject b = s.geocode("1 High St", "bbox", "6,7,9,9").await().bodyAsJsonObject();
    assertThat(b.getString("idempotency_key")).isNotEqualTo(a.getString("idempotency_key"));
    assertThat(primary.count()).isEqualTo(2);
    assertThat(primary.seen().get(1).query().get("bbox")).isEqualTo("6.0,7.0,9.0,9.0");
  }

  @Test
  @DisplayName("a refusal is not stored: the next identical request asks the providers again")
  void refusalsAreNotReplayed(Vertx vertx) {
    FakeProvider primary = FakeProvider.start(vertx, FakeProvider.status(404, "")).await();
    Stack s = stack(vertx, primary);
    assertThat(s.geocode("nowhere").await().bodyAsJsonObject().getString("status")).isEqualTo("refused");
    primary.behave(json(generic(7, 8, "EPSG:4326", 0.9)));
    assertThat(s.geocode("nowhere").await().bodyAsJsonObject().getString("status")).isEqualTo("resolved");
  }
}
