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

/** Issue 9 defect 7: a hung rung above the fast local rungs leaves them time to answer, at budgets of 1,000, 1,500 and 2,500 ms. */
@ExtendWith(VertxExtension.class)
class Issue9HungRungStarvesLocalRungTest {

  private static final long[] BUDGETS = {1000, 1500, 2500};
  /** Replays off, so each budget walks the ladder itself. */
  private static final String FRESH = "intents:\n  describe: { max_cache_age_s: 0 }\n  local: { max_cache_age_s: 0, claims: [locality] }\n"
      + "default_intent: \"describe\"";
  private static final String[] CITIES = {"Paris, France", "Berlin, Germany", "Madrid, Spain", "Rome, Italy", "Vienna, Austria",
      "Lisbon, Portugal", "Warsaw, Poland", "Prague, Czechia", "Dublin, Ireland", "Oslo, Norway"};

  @Test
  @DisplayName("the default ladder's figures: a hung Nominatim above the cached index and the gazetteer still gives the city centre")
  void defaultLadder(Vertx vertx) {
    FakeProvider hung = FakeProvider.start(vertx, new FakeProvider.Hang()).await();
    Stack s = Stack.deploy(vertx, manifest()
        .tier("osm_nominatim", "nominatim", hung.url(), "open_data", 2000, "typical_ms: 600", "retry_budget: 0")
        .tier("cached_index", "cached_index", null, "cached", 200, "typical_ms: 5")
        .tier("world_gazetteer", "gazetteer", null, "locality", 200, "typical_ms: 2")
        .extra(FRESH).yaml()).await();

    warmUp(s);
    for (long budget : BUDGETS) {
      JsonObject r = s.geocode("Paris, France", "budget_ms", Long.toString(budget)).await().bodyAsJsonObject();
      assertCityCentre(r, budget, "osm_nominatim");
    }
  }

  @Test
  @DisplayName("the issue's ladder: a hung provider of timeout_ms 5000 right above the gazetteer of typical_ms 2")
  void hungProviderRightAboveTheGazetteer(Vertx vertx) {
    FakeProvider hung = FakeProvider.start(vertx, new FakeProvider.Hang()).await();
    Stack s = Stack.deploy(vertx, manifest().maxBudget(10_000)
        .tier("hung", "generic", hung.url(), "exact", 5000, "typical_ms: 300")
        .tier("world_gazetteer", "gazetteer", null, "locality", 200, "typical_ms: 2")
        .extra(FRESH).yaml()).await();

    warmUp(s);
    for (long budget : BUDGETS) {
      JsonObject r = s.geocode("Paris, France", "budget_ms", Long.toString(budget)).await().bodyAsJsonObject();
      assertCityCentre(r, budget, "hung");
    }
  }

  /**
   * Warms the path first: the gazetteer's lookups (through an intent whose ladder is the gazetteer
   * alone, so they are quick) and one walk past the hung rung. The margins are sized for a running
   * resolver, not for the class loading and interpretation of a cold JVM's first timeout, reset and
   * gazetteer lookups.
   */
  private static void warmUp(Stack s) {
    for (int round = 0; round < 5; round++) {
      for (String city : CITIES) {
        s.geocode(city, "intent", "local").await();
      }
    }
    s.geocode("Berlin, Germany", "budget_ms", "1000").await();
  }

  private static void assertCityCentre(JsonObject r, long budget, String hungTier) {
    assertThat(r.getString("status")).as("budget %d ms: %s", budget, r.encode()).isEqualTo("resolved");
    assertThat(r.getString("resolution_source")).as("budget %d ms", budget).isEqualTo("world_gazetteer");
    assertThat(r.getString("claim")).isEqualTo("locality");
    assertThat(r.getDouble("lat")).isCloseTo(48.85, org.assertj.core.data.Offset.offset(0.1));
    assertThat(r.getDouble("lon")).isCloseTo(2.35, org.assertj.core.data.Offset.offset(0.1));
    JsonObject first = r.getJsonArray("attempts").getJsonObject(0);
    assertThat(first.getString("tier")).isEqualTo(hungTier);
    assertThat(first.getString("outcome")).as("the hung rung was tried and cut off (by its tier, or by the walker when the tier answered late)")
        .isIn("transient", "deadline");
    assertThat(r.getLong("elapsed_ms")).as("within the budget").isLessThanOrEqualTo(budget);
  }
}
