package dev.georesolver.functional;

import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.Stack;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** The ladder walked end to end over HTTP against real stand-in providers (DESIGN §2–§4). */
@ExtendWith(VertxExtension.class)
class LadderScenarioTest {

  private static JsonObject body(io.vertx.ext.web.client.HttpResponse<io.vertx.core.buffer.Buffer> r) {
    return r.bodyAsJsonObject();
  }

  @Test
  @DisplayName("a healthy primary answers, with claim exact, not degraded, in EPSG:4326")
  void primaryAnswers(Vertx vertx) {
    FakeProvider primary = FakeProvider.start(vertx, json(generic(-0.1276, 51.5033, "EPSG:4326", 0.97))).await();
    FakeProvider fallback = FakeProvider.start(vertx, json(generic(0, 0, "EPSG:4326", 0.5))).await();
    Stack s = Stack.deploy(vertx, manifest()
        .tier("primary", "generic", primary.url(), "exact", 800)
        .tier("fallback", "generic", fallback.url(), "open_data", 800)
        .yaml()).await();

    var r = s.geocode("10 Downing St, London").await();

    assertThat(r.statusCode()).isEqualTo(200);
    JsonObject j = body(r);
    assertThat(j.getString("status")).isEqualTo("resolved");
    assertThat(j.getDouble("lon")).isEqualTo(-0.1276);
    assertThat(j.getDouble("lat")).isEqualTo(51.5033);
    assertThat(j.getString("crs")).isEqualTo("EPSG:4326");
    assertThat(j.getString("resolution_source")).isEqualTo("primary");
    assertThat(j.getString("claim")).isEqualTo("exact");
    assertThat(j.getDouble("confidence")).isEqualTo(0.97);
    assertThat(j.getBoolean("degraded")).isFalse();
    assertThat(j.getString("notice")).as("the country inferred from the point, as the provider gave none").startsWith("Matched to the address by primary, ");
    assertThat(j.getString("manifest_revision")).isEqualTo(s.manifest.revision());
    assertThat(j.getString("idempotency_key")).matches("[0-9a-f]{64}");
    assertThat(j.getString("trace_id")).isEqualTo(r.getHeader("X-Trace-Id"));
    assertThat(j.getJsonArray("attempts")).hasSize(1);
    assertThat(j.getJsonArray("attempts").getJsonObject(0).getString("outcome")).isEqualTo("hit");
    assertThat(j.getJsonObject("transform").getString("source_crs")).isEqualTo("EPSG:4326");
    assertThat(fallback.count()).isZero();
    assertThat(primary.seen().get(0).query().get("q")).isEqualTo("10 Downing St, London");
    assertThat(primary.seen().get(0).headers().get("Idempotency-Key")).isEqualTo(j.getString("idempotency_key"));
  }

  @Test
  @DisplayName("a primary answering 503 is retried within its retry budget, then the next rung answers, degraded")
  void transientPrimaryFallsThrough(Vertx vertx) {
    FakeProvider primary = FakeProvider.start(vertx, FakeProvider.status(503, "busy")).await();
    FakeProvider fallback = FakeProvider.start(vertx, json(generic(2.3522, 48.8566, "EPSG:4326", 0.8))).await();
    Stack s = Stack.deploy(vertx, manifest()
        .tier("primary", "generic", primary.url(), "exact", 500, "retry_budget: 2", "retry_backoff_ms: 5")
        .tier("osm", "generic", fallback.url(), "open_data", 800)
        .yaml()).await();

    JsonObject j = body(s.geocode("Paris").await());

    assertThat(j.getString("status")).isEqualTo("resolved");
    assertThat(j.getString("resolution_source")).isEqualTo("osm");
    assertThat(j.getString("claim")).isEqualTo("open_data");
    assertThat(j.getDouble("lon")).isEqualTo(2.3522);
    assertThat(j.getBoolean("degraded")).isTrue();
    assertThat(j.getString("notice")).as("the country inferred from the point, as the provider gave none").startsWith("From open data via osm, ");
    JsonObject first = j.getJsonArray("attempts").getJsonObject(0);
    assertThat(first.getString("outcome")).isEqualTo("transient");
    assertThat(first.getInteger("tries")).isEqualTo(3);
    assertThat(primary.count()).isEqualTo(3);
    var keys = primary.seen().stream().map(x -> x.headers().get("Idempotency-Key")).distinct().toList();
    assertThat(keys).as("the same Idempotency-Key on every retry").hasSize(1);
  }

  @Test
  @DisplayName("a hung primary is cut off so the next rung answers within the budget")
  void hungPrimaryDoesNotStarveTheNextRung(Vertx vertx) {
    FakeProvider primary = FakeProvider.start(vertx, new FakeProvider.Hang()).await();
    FakeProvider fallback = FakeProvider.start(vertx, json(generic(13.405, 52.52, "EPSG:4326", 0.8), 50)).await();
    Stack s = Stack.deploy(vertx, manifest().budget(1500)
        .tier("primary", "generic", primary.url(), "exact", 5000, "typical_ms: 100")
        .tier("osm", "generic", fallback.url(), "open_data", 1000, "typical_ms: 400")
        .yaml()).await();

    long t0 = System.nanoTime();
    JsonObject j = body(s.geocode("Berlin").await());
    long ms = (System.nanoTime() - t0) / 1_000_000;

    assertThat(j.getString("status")).isEqualTo("resolved");
    assertThat(j.getString("resolution_source")).isEqualTo("osm");
    assertThat(j.getJsonArray("attempts").getJsonObject(0).getString("outcome")).isEqualTo("transient");
    assertThat(ms).as("within the 1500 ms budget plus a generous margin").isLessThan(1500 + 1500);
  }

  @Test
  @DisplayName("every tier hung gives an HTTP 200 refusal in about the budget")
  void everyTierHungIsARefusalInAboutTheBudget(Vertx vertx) {
    FakeProvider a = FakeProvider.start(vertx, new FakeProvider.Hang()).await();
    FakeProvider b = FakeProvider.start(vertx, new FakeProvider.Hang()).await();
    Stack s = Stack.deploy(vertx, manifest().budget(1000)
        .tier("a", "generic", a.url(), "exact", 5000, "typical_ms: 100")
        .tier("b", "generic", b.url(), "open_data", 5000, "typical_ms: 100")
        .yaml()).await();

    long t0 = System.nanoTime();
    var r = s.geocode("Nowhere").await();
    long ms = (System.nanoTime() - t0) / 1_000_000;

    assertThat(r.statusCode()).isEqualTo(200);
    JsonObject j = body(r);
    assertThat(j.getString("status")).isEqualTo("refused");
    assertThat(j.getString("reason")).isIn("no_rung_available", "budget_exhausted");
    assertThat(j.containsKey("lon")).isFalse();
    // Each hung rung runs out of time: by its own cap ("transient"), by the shared deadline when a
    // stalled machine delays the timer ("deadline"), or, for the second, by admission when too
    // little of the budget is left for its typical latency. Never an answer, never another outcome.
    JsonArray attempts = j.getJsonArray("attempts");
    assertThat(attempts).extracting(o -> ((JsonObject) o).getString("tier")).containsExactly("a", "b");
    assertThat(attempts.getJsonObject(0).getString("outcome")).isIn("transient", "deadline");
    assertThat(attempts.getJsonObject(1).getString("outcome")).isIn("transient", "deadline", "skipped_admission");
    assertThat(ms).as("about the 1000 ms budget (generous: shared machines stall)").isBetween(700L, 1000L + 1500);
  }

  @Test
  @DisplayName("a rung whose typical latency does not fit the time left is skipped by admission, and the next answers")
  void admissionSkipsASlowRung(Vertx vertx) {
    FakeProvider slow = FakeProvider.start(vertx, json(generic(1, 1, "EPSG:4326", 0.9), 10)).await();
    FakeProvider quick = FakeProvider.start(vertx, json(generic(2, 2, "EPSG:4326", 0.6))).await();
    Stack s = Stack.deploy(vertx, manifest()
        .tier("slow", "generic", slow.url(), "exact", 3000, "typical_ms: 2000")
        .tier("quick", "generic", quick.url(), "open_data", 500, "typical_ms: 20")
        .yaml()).await();

    JsonObject j = body(s.geocode("Somewhere", "budget_ms", "600").await());

    assertThat(j.getString("resolution_source")).isEqualTo("quick");
    JsonArray attempts = j.getJsonArray("attempts");
    assertThat(attempts.getJsonObject(0).getString("outcome")).isEqualTo("skipped_admission");
    assertThat(attempts.getJsonObject(0).getInteger("tries")).isZero();
    assertThat(slow.count()).isZero();
  }

  @Test
  @DisplayName("every rung is reached by failing the rungs above it, each with its own value and claim")
  void everyRungIsReachable(Vertx vertx) {
    FakeProvider exact = FakeProvider.start(vertx, json(generic(1, 1, "EPSG:4326", 0.9))).await();
    FakeProvider open = FakeProvider.start(vertx, json(generic(2, 2, "EPSG:4326", 0.8))).await();
    FakeProvider cached = FakeProvider.start(vertx, json(generic(3, 3, "EPSG:4326", 0.7))).await();
    FakeProvider city = FakeProvider.start(vertx, json(generic(4, 4, "EPSG:4326", 0.3))).await();
    Stack s = Stack.deploy(vertx, manifest()
        .tier("exact", "generic", exact.url(), "exact", 500)
        .tier("open", "generic", open.url(), "open_data", 500)
        .tier("cached", "generic", cached.url(), "cached", 500)
        .tier("city", "generic", city.url(), "locality", 500)
        .yaml()).await();
    FakeProvider[] rungs = {exact, open, cached, city};
    String[] claims = {"exact", "open_data", "cached", "locality"};

    for (int i = 0; i < rungs.length; i++) {
      JsonObject j = body(s.geocode("address " + i).await());
      assertThat(j.getString("claim")).as("rung %d", i).isEqualTo(claims[i]);
      assertThat(j.getDouble("lon")).as("rung %d", i).isEqualTo(i + 1.0);
      assertThat(j.getBoolean("degraded")).isEqualTo(i > 0);
      rungs[i].behave(FakeProvider.status(500, "down"));
    }
    JsonObject none = body(s.geocode("address 4").await());
    assertThat(none.getString("status")).isEqualTo("refused");
    assertThat(none.getString("reason")).isEqualTo("no_rung_available");
  }
}
