package dev.georesolver.functional;

import ch.qos.logback.classic.Level;
import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.LogCapture;
import dev.georesolver.support.ManifestBuilder;
import dev.georesolver.support.Stack;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Data residency: a strict EU tenant's addresses never reach a provider outside the EU, even with
 * every EU provider down and a healthy global one beside it; it degrades to the in-region cached
 * index and gazetteer, or refuses.
 */
@ExtendWith(VertxExtension.class)
class ResidencyScenarioTest {

  private static final String EU_KEY = "tk-eu-strict-01";
  private static final String ANY_KEY = "tk-anyone-02";
  private static final Set<String> IN_REGION = Set.of("eu_geocoder", "cache", "gazetteer");

  private FakeProvider eu;
  private FakeProvider world;

  private Stack deploy(Vertx vertx, String extraTenants) {
    eu = FakeProvider.start(vertx, json(generic(2.35, 48.85, "EPSG:4326", 0.95))).await();
    world = FakeProvider.start(vertx, json(generic(2.36, 48.86, "EPSG:4326", 0.9))).await();
    String yaml = ManifestBuilder.manifest().region("eu").budget(3000)
        .tier("eu_geocoder", "generic", eu.url(), "exact", 600, "region: eu", "typical_ms: 20",
            "circuit_breaker: { failure_threshold: 3, half_open_timeout_ms: 600000, success_threshold: 1 }")
        .tier("world_geocoder", "generic", world.url(), "exact", 600, "typical_ms: 20")
        .tier("cache", "cached_index", null, "cached", 200, "typical_ms: 5")
        .tier("gazetteer", "gazetteer", null, "locality", 200, "typical_ms: 2")
        .extra("""
            tenants:
              - { id: "eu_strict", keys: [ { env: "EU_KEY" } ], region: "eu", residency: "strict" }
              - { id: "anyone", keys: [ { env: "ANY_KEY" } ] }
            """ + extraTenants)
        .yaml();
    return Stack.deploy(vertx, yaml, Map.of("EU_KEY", EU_KEY, "ANY_KEY", ANY_KEY, "APAC_KEY", "tk-apac-03"), Clock.systemUTC(), Map.of())
        .await();
  }

  private static Future<HttpResponse<Buffer>> ask(Stack s, String key, String q, String... params) {
    var r = s.client.get(s.port, "localhost", "/v1/geocode").addQueryParam("q", q).putHeader("Authorization", "Bearer " + key);
    for (int i = 0; i + 1 < params.length; i += 2) {
      r.addQueryParam(params[i], params[i + 1]);
    }
    return r.send();
  }

  private static List<String> tiersVisited(JsonObject result) {
    return result.getJsonArray("attempts").stream().map(a -> ((JsonObject) a).getString("tier")).toList();
  }

  @Test
  @DisplayName("in-region provider down, global provider healthy: 100 strict requests, none seen out of region, every answer honest about its rung")
  void shouldNeverCrossTheRegionDuringAnOutage(Vertx vertx) {
    Stack s = deploy(vertx, "");
    List<String> known = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      String q = (i + 1) + " Rue de Rivoli, Paris";
      JsonObject j = ask(s, EU_KEY, q).await().bodyAsJsonObject();
      assertThat(j.getString("resolution_source")).as(j.encode()).isEqualTo("eu_geocoder");
      known.add(q);
    }

    eu.behave(FakeProvider.status(503, "down"));
    List<Future<HttpResponse<Buffer>>> asked = new ArrayList<>();
    // The addresses resolved before the outage, with a bbox so that none is a replay: the cached index answers.
    known.forEach(q -> asked.add(ask(s, EU_KEY, q, "bbox", "-180,-90,180,90")));
    for (int i = 0; i < 60; i++) {
      asked.add(ask(s, EU_KEY, (i + 1) + " Main Street, " + List.of("Springfield, Illinois", "Lyon, France", "Berlin, Germany").get(i % 3)));
    }
    for (int i = 0; i < 20; i++) {
      asked.add(ask(s, EU_KEY, "qwxzv plorkington " + i));
    }
    List<JsonObject> answers = Future.all(asked).await().<HttpResponse<Buffer>>list().stream().map(HttpResponse::bodyAsJsonObject).toList();

    assertThat(answers).hasSize(100);
    assertThat(world.count()).as("requests the out-of-region provider saw").isZero();
    Map<String, Long> bySource = new TreeMap<>(answers.stream()
        .collect(Collectors.groupingBy(j -> j.getString("resolution_source", "refused"), Collectors.counting())));
    for (JsonObject j : answers) {
      assertThat(tiersVisited(j)).as(j.encode()).isSubsetOf(IN_REGION).doesNotContain("world_geocoder");
      assertThat(tiersVisited(j).get(0)).as("the walk starts at the in-region primary").isEqualTo("eu_geocoder");
      if ("resolved".equals(j.getString("status"))) {
        String source = j.getString("resolution_source");
        assertThat(source).isIn("cache", "gazetteer");
        assertThat(j.getString("claim")).isEqualTo(source.equals("cache") ? "cached" : "locality");
        assertThat(j.getBoolean("degraded")).isTrue();
        assertThat(j.getString("notice")).isNotBlank();
      } else {
        assertThat(j.getString("status")).isEqualTo("refused");
        assertThat(j.getString("reason")).isNotBlank();
      }
    }
    assertThat(bySource.get("cache")).as("by source: %s", bySource).isEqualTo(20L);
    assertThat(bySource.get("gazetteer")).as("by source: %s", bySource).isEqualTo(60L);
    assertThat(bySource.get("refused")).as("by source: %s", bySource).isEqualTo(20L);

    JsonObject other = ask(s, ANY_KEY, "99 Rue Oberkampf, Paris").await().bodyAsJsonObject();
    assertThat(other.getString("resolution_source")).as("the global provider was healthy all along").isEqualTo("world_geocoder");
    assertThat(world.count()).isEqualTo(1);
  }

  @Test
  @DisplayName("a strict tenant may be served a stored answer another tenant got out of region: replaying sends nothing out, and says so")
  void shouldReplayAStoredAnswerWithoutCrossing(Vertx vertx) {
    Stack s = deploy(vertx, "");
    eu.behave(FakeProvider.status(503, "down"));

    JsonObject first = ask(s, ANY_KEY, "5 Shared Street, Paris").await().bodyAsJsonObject();
    JsonObject replay = ask(s, EU_KEY, "5 Shared Street, Paris").await().bodyAsJsonObject();

    assertThat(first.getString("resolution_source")).isEqualTo("world_geocoder");
    assertThat(replay.getBoolean("replayed")).as(replay.encode()).isTrue();
    assertThat(replay.getString("resolution_source")).as("honest about where the answer came from").isEqualTo("world_geocoder");
    assertThat(replay.getDouble("lon")).isEqualTo(first.getDouble("lon"));
    assertThat(world.count()).as("the replay sent nothing out of region").isEqualTo(1);
  }

  @Test
  @DisplayName("a strict request never joins another tenant's walk in flight, which may cross the region")
  void shouldNotCoalesceAcrossResidency(Vertx vertx) {
    Stack s = deploy(vertx, "");
    eu.behave(FakeProvider.status(503, "down"));
    world.behave(json(generic(2.36, 48.86, "EPSG:4326", 0.9), 400));

    Future<HttpResponse<Buffer>> open = ask(s, ANY_KEY, "7 Parallel Road, Lyon, France");
    vertx.timer(150).await();
    JsonObject strict = ask(s, EU_KEY, "7 Parallel Road, Lyon, France").await().bodyAsJsonObject();
    JsonObject crossed = open.await().bodyAsJsonObject();

    assertThat(crossed.getString("resolution_source")).isEqualTo("world_geocoder");
    assertThat(strict.getBoolean("coalesced", false)).as(strict.encode()).isFalse();
    assertThat(strict.getBoolean("replayed", false)).isFalse();
    assertThat(tiersVisited(strict)).isSubsetOf(IN_REGION);
    assertThat(strict.getString("resolution_source")).isEqualTo("gazetteer");
    assertThat(world.count()).isEqualTo(1);
  }

  @Test
  @DisplayName("a strict tenant whose region has no rung is reported at start and answered 503 misconfigured, never routed out")
  void shouldReportAStrictTenantWithNoRungInItsRegion(Vertx vertx) {
    HttpResponse<Buffer> r;
    List<String> warnings;
    try (LogCapture logs = LogCapture.start()) {
      Stack s = deploy(vertx, "  - { id: \"apac\", keys: [ { env: \"APAC_KEY\" } ], region: \"apac\", residency: \"strict\" }\n");
      r = ask(s, "tk-apac-03", "1 Marina Bay, Singapore").await();
      warnings = logs.atLeast(Level.WARN).stream().map(LogCapture::line).toList();
    }

    assertThat(r.statusCode()).isEqualTo(503);
    assertThat(r.getHeader("content-type")).isEqualTo("application/problem+json");
    assertThat(r.bodyAsJsonObject().getString("type")).endsWith("/misconfigured");
    assertThat(r.bodyAsJsonObject().getString("detail")).contains("region apac").contains("tenant apac");
    assertThat(world.count() + eu.count()).isZero();
    assertThat(warnings).anySatisfy(l -> assertThat(l).contains("tenant apac is misconfigured for intent describe (forward)"));
    assertThat(warnings).noneMatch(l -> l.contains("tenant eu_strict is misconfigured"));
  }
}
