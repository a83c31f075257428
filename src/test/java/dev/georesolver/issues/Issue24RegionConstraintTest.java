package dev.georesolver.issues;

import dev.georesolver.bus.Hit;
import dev.georesolver.gazetteer.AskedArea;
import dev.georesolver.gazetteer.Gazetteer;
import dev.georesolver.geo.Address;
import dev.georesolver.geo.Address.Component;
import dev.georesolver.ladder.CountryCheck;
import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.Stack;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** Issue 24, item 4 (its region part): a rung's answer in another first-level division than the one the query names is not served. */
@ExtendWith(VertxExtension.class)
class Issue24RegionConstraintTest {

  private static CountryCheck check;

  @BeforeAll
  static void gazetteer() {
    check = CountryCheck.over(Gazetteer.loadDefault());
  }

  private static Hit stated(String region, String countryCode) {
    return new Hit(-93.2923, 37.2090, 0.9, "Springfield", "locality", null, null, null,
        Address.builder().put(Component.LOCALITY, "Springfield").put(Component.REGION, region).put(Component.COUNTRY_CODE, countryCode)
            .build());
  }

  private static AskedArea asked(String text) {
    return Gazetteer.loadDefault().countryNames().find(text);
  }

  @Test
  @DisplayName("Springfield, Illinois: a provider's Springfield in Missouri (by name, by code, or ISO 3166-2) is another region")
  void anotherKnownRegionIsOutside() {
    AskedArea illinois = asked("Springfield, Illinois");
    assertThat(illinois.regionCodes()).as("the query names a division").contains("US.IL");
    for (String missouri : new String[] {"Missouri", "MO", "US-MO"}) {
      CountryCheck.Verdict v = check.check(illinois, stated(missouri, "US"));
      assertThat(v).as(missouri).isInstanceOf(CountryCheck.Outside.class);
      assertThat(((CountryCheck.Outside) v).detail()).contains("Missouri").contains("Illinois");
    }
  }

  @Test
  @DisplayName("the named region, its code, or a region the gazetteer does not know as a division there: served")
  void theNamedOrAnUnknownRegionIsServed() {
    AskedArea illinois = asked("Springfield, Illinois");
    for (String fine : new String[] {"Illinois", "IL", "US-IL", "Sangamon County", "Illinoy"}) {
      assertThat(check.check(illinois, stated(fine, "US"))).as(fine).isInstanceOf(CountryCheck.Served.class);
    }
    assertThat(check.check(asked("Springfield"), stated("Missouri", "US"))).as("no region named")
        .isInstanceOf(CountryCheck.Served.class);
  }

  @Test
  @DisplayName("a provider's Springfield, Missouri for Springfield, Illinois: the next rung is asked and answers in Illinois")
  void theWalkGoesOn(Vertx vertx) {
    // The wrong Springfield, without a region: the region is inferred from the point and checked.
    FakeProvider missouri = FakeProvider.start(vertx, json(generic(-93.2923, 37.2090, "EPSG:4326", 0.9))).await();
    Stack s = Stack.deploy(vertx, manifest()
        .tier("osm", "generic", missouri.url(), "open_data", 1000)
        .tier("gazetteer", "gazetteer", null, "locality", 200, "typical_ms: 2")
        .yaml()).await();
    JsonObject j = s.geocode("Springfield, Illinois").await().bodyAsJsonObject();
    JsonObject first = j.getJsonArray("attempts").getJsonObject(0);
    assertThat(first.getString("outcome")).as(j.encode()).isEqualTo(CountryCheck.OUTSIDE);
    assertThat(first.getString("detail")).contains("Missouri");
    assertThat(j.getString("status")).as(j.encode()).isEqualTo("resolved");
    assertThat(j.getString("resolution_source")).isEqualTo("gazetteer");
    assertThat(j.getJsonObject("address").getString("region")).isEqualTo("Illinois");
  }
}
