package dev.georesolver.issues;

import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.Stack;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** Proves issue 24's chain-level country constraint: no rung's answer in a country other than the one the query names is served. */
@ExtendWith(VertxExtension.class)
class Issue24CountryConstraintTest {

  private static FakeProvider.Respond fixture(String path) {
    try (InputStream in = Issue24CountryConstraintTest.class.getResourceAsStream("/fixtures/providers/" + path)) {
      return new FakeProvider.Respond(200, new String(in.readAllBytes(), StandardCharsets.UTF_8),
          MultiMap.caseInsensitiveMultiMap().add("content-type", "application/json"), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The default ladder's shape: an open-data rung (here {@code upstream}), the cached index, the gazetteer. */
  private static Stack ladder(Vertx vertx, FakeProvider upstream, String adapter) {
    return Stack.deploy(vertx, manifest()
        .tier("osm", adapter, upstream.url(), "open_data", 1000)
        .tier("cache", "cached_index", null, "cached", 200, "typical_ms: 5")
        .tier("gazetteer", "gazetteer", null, "locality", 200, "typical_ms: 2")
        .yaml()).await();
  }

  @ParameterizedTest(name = "{0} answers in {1}")
  @CsvSource(delimiter = ';', value = {
      "Antigua, Antigua & Barbuda;     AG",
      "Wallis, Wallis & Futuna;        WF",
      "St Thomas, Virgin Islands (US); VI",
  })
  @DisplayName("on the default ladder offline, the issue's queries answer in the country they name or are refused")
  void defaultLadder(String query, String country, Vertx vertx) {
    FakeProvider dead = FakeProvider.start(vertx, new FakeProvider.Reset()).await();
    inTheNamedCountryOrRefused(ladder(vertx, dead, "nominatim").geocode(query).await().bodyAsJsonObject(), country);
  }

  /** The issue's rule: an answer in the country named ("in Wallis and Futuna or refuses, never in Texas"). */
  private static void inTheNamedCountryOrRefused(JsonObject j, String country) {
    if ("resolved".equals(j.getString("status"))) {
      assertThat(j.getJsonObject("address").getString("country_code")).as(j.encode()).isEqualTo(country);
    } else {
      assertThat(j.getString("reason")).as(j.encode()).isEqualTo("not_found_where_asked");
    }
  }

  @Test
  @DisplayName("St Thomas, Virgin Islands (US) resolves offline, in the US Virgin Islands")
  void stThomasResolves(Vertx vertx) {
    FakeProvider dead = FakeProvider.start(vertx, new FakeProvider.Reset()).await();
    JsonObject j = ladder(vertx, dead, "nominatim").geocode("St Thomas, Virgin Islands (US)").await().bodyAsJsonObject();
    assertThat(j.getString("status")).as(j.encode()).isEqualTo("resolved");
    assertThat(j.getJsonObject("address").getString("country_code")).isEqualTo("VI");
  }

  @ParameterizedTest(name = "{0} answers in {1}")
  @CsvSource(delimiter = ';', value = {
      "Antigua, Antigua & Barbuda;     AG",
      "Wallis, Wallis & Futuna;        WF",
      "St Thomas, Virgin Islands (US); VI",
  })
  @DisplayName("a provider's confident answer in another country (London, GB) is not served: the next rung is asked")
  void wrongCountryGoesToTheNextRung(String query, String country, Vertx vertx) {
    FakeProvider osm = FakeProvider.start(vertx, fixture("nominatim/search-jsonv2-10-downing-st-london-en.json")).await();
    JsonObject j = ladder(vertx, osm, "nominatim").geocode(query).await().bodyAsJsonObject();
    inTheNamedCountryOrRefused(j, country);
    JsonObject first = j.getJsonArray("attempts").getJsonObject(0);
    assertThat(first.getString("outcome")).isEqualTo("outside_asked_country");
    assertThat(first.getString("detail")).contains("answered in GB").contains(country);
  }

  @Test
  @DisplayName("when no rung answers in the named country the answer is refused with not_found_where_asked")
  void refusedWhenNoRungAnswersThere(Vertx vertx) {
    FakeProvider osm = FakeProvider.start(vertx, fixture("nominatim/search-jsonv2-10-downing-st-london-en.json")).await();
    Stack s = Stack.deploy(vertx, manifest().tier("osm", "nominatim", osm.url(), "open_data", 1000).yaml()).await();
    JsonObject j = s.geocode("Wallis, Wallis & Futuna").await().bodyAsJsonObject();
    assertThat(j.getString("status")).as(j.encode()).isEqualTo("refused");
    assertThat(j.getString("reason")).isEqualTo("not_found_where_asked");
    assertThat(j.getString("notice")).contains("answered only outside the country or region asked");
  }

  @Test
  @DisplayName("a provider that gives no country: inferred from the point and checked, the wrong Paris not served")
  void inferredCountry(Vertx vertx) {
    // Paris, Texas: the wrong Paris, and the provider does not say which country it is in.
    FakeProvider texas = FakeProvider.start(vertx, json(generic(-95.5555, 33.6609, "EPSG:4326", 0.9))).await();
    JsonObject j = ladder(vertx, texas, "generic").geocode("Paris, France").await().bodyAsJsonObject();
    assertThat(j.getJsonArray("attempts").getJsonObject(0).getString("outcome")).as(j.encode()).isEqualTo("outside_asked_country");
    assertThat(j.getJsonObject("address").getString("country_code")).isEqualTo("FR");

  }

  @Test
  @DisplayName("a provider that gives no country, in the named one: served with the inferred country, and the notice says so")
  void inferredCountryServed(Vertx vertx) {
    FakeProvider france = FakeProvider.start(vertx, json(generic(2.3522, 48.8566, "EPSG:4326", 0.9))).await();
    JsonObject k = ladder(vertx, france, "generic").geocode("Paris, Île-de-France, France").await().bodyAsJsonObject();
    assertThat(k.getString("resolution_source")).as(k.encode()).isEqualTo("osm");
    assertThat(k.getJsonObject("address").getString("country_code")).isEqualTo("FR");
    assertThat(k.getString("notice")).isEqualTo("From open data via osm, its country and region inferred from the point, ");
  }
}
