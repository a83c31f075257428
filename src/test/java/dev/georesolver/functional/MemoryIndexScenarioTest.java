package dev.georesolver.functional;

import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.Stack;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** The cached-index rung on the embedded memory store, forward and reverse. */
@ExtendWith(VertxExtension.class)
class MemoryIndexScenarioTest {

  @Test
  @DisplayName("on the memory store, the cached index answers forward and reverse once the providers fail")
  void memoryIndex(Vertx vertx) {
    FakeProvider p = FakeProvider.start(vertx, json(generic(-73.9857, 40.7484, "EPSG:4326", 0.9).put("label", "Empire State Building"))).await();
    Stack s = Stack.deploy(vertx, manifest()
        .tier("primary", "generic", p.url(), "exact", 800)
        .tier("cache", "cached_index", null, "cached", 200, "typical_ms: 2", "reverse_radius_m: 500")
        .yaml()).await();
    s.geocode("350 Fifth Avenue, New York").await();
    p.behave(FakeProvider.status(500, "down"));

    JsonObject fwd = s.geocode("350 5th Ave, New York", "bbox", "-74.1,40.6,-73.8,40.9").await().bodyAsJsonObject();
    assertThat(fwd.getString("claim")).isEqualTo("cached");
    assertThat(fwd.getDouble("lat")).isEqualTo(40.7484);
    assertThat(fwd.getString("notice")).startsWith("From a cached result ");

    JsonObject rev = s.get("/v1/reverse?lat=40.7480&lon=-73.9850").await().bodyAsJsonObject();
    assertThat(rev.getString("claim")).isEqualTo("cached");
    assertThat(rev.getString("label")).isEqualTo("Empire State Building");
    assertThat(rev.getDouble("distance_m")).isBetween(50.0, 120.0);
    JsonObject far = s.get("/v1/reverse?lat=40.7600&lon=-73.9850").await().bodyAsJsonObject();
    assertThat(far.getString("status")).as("1.3 km is beyond the 500 m radius").isEqualTo("refused");
  }
}
