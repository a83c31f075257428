package dev.georesolver.issues;

import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.Stack;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** Issue 23, item 8 (its language part): an answer asked in one language is not replayed to a request in another. */
@ExtendWith(VertxExtension.class)
class Issue23ReplayLanguageTest {

  @Test
  @DisplayName("the same address asked in French and then in German walks twice; asked again in French, it replays")
  void languageIsInTheKey(Vertx vertx) {
    FakeProvider p = FakeProvider.start(vertx, FakeProvider.json(FakeProvider.generic(2.35, 48.85, "EPSG:4326", 0.9))).await();
    Stack s = Stack.deploy(vertx, manifest().budget(8000).maxBudget(10000).tier("p", "generic", p.url(), "exact", 3000).yaml()).await();
    JsonObject fr = s.get("/v1/geocode?q=Paris&language=fr").await().bodyAsJsonObject();
    JsonObject de = s.get("/v1/geocode?q=Paris&language=de").await().bodyAsJsonObject();
    JsonObject again = s.get("/v1/geocode?q=Paris&language=fr").await().bodyAsJsonObject();
    assertThat(fr.getString("status")).as(fr.encode()).isEqualTo("resolved");
    assertThat(de.getBoolean("replayed", false)).as("not the French answer: " + de.encode()).isFalse();
    assertThat(de.getString("idempotency_key")).isNotEqualTo(fr.getString("idempotency_key"));
    assertThat(again.getBoolean("replayed", false)).as(again.encode()).isTrue();
    assertThat(p.count()).isEqualTo(2);
  }
}
