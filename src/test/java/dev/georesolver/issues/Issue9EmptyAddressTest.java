package dev.georesolver.issues;

import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.RawHttp;
import dev.georesolver.support.Stack;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** Issue 9 defect 8: an address with no letter or digit, or with invalid UTF-8, is a 400 naming its field instead of sharing one key. */
@ExtendWith(VertxExtension.class)
class Issue9EmptyAddressTest {

  private static Stack stack(Vertx vertx, FakeProvider p) {
    return Stack.deploy(vertx, manifest().tier("primary", "generic", p.url(), "exact", 800).yaml()).await();
  }

  @ParameterizedTest(name = "q={0} -> 400 naming q")
  @ValueSource(strings = {
      "%E2%98%83",        // ☃
      "%E2%82%AC",        // €
      "~",
      "%E2%80%8B",        // zero-width space
      "%EF%BB%BF",        // byte-order mark
      "%CC%81",           // a combining mark alone
      "%E2%98%83%E2%82%AC%20~",
      "%C3%28",           // invalid UTF-8: a lead byte without its continuation
      "%FF",              // never valid in UTF-8
      "%C0%AF",           // overlong '/'
      "%ED%A0%80",        // an encoded surrogate
      "Paris%80",         // a stray continuation byte after real letters
  })
  void nothingToLookUpIsRefused(String q, Vertx vertx) {
    FakeProvider p = FakeProvider.start(vertx, json(generic(1, 1, "EPSG:4326", 0.9))).await();
    Stack s = stack(vertx, p);
    RawHttp.Response r = RawHttp.exchange(s.port, RawHttp.get("/v1/geocode?q=" + q));
    assertThat(r.status()).isEqualTo(400);
    assertThat(r.isProblem()).isTrue();
    assertThat(r.json().getString("field")).isEqualTo("q");
    assertThat(p.count()).as("no provider is asked").isZero();
  }

  @Test
  @DisplayName("the same holds for a JSON body, a structured component, and a lone surrogate escaped in JSON")
  void bodiesToo(Vertx vertx) {
    FakeProvider p = FakeProvider.start(vertx, json(generic(1, 1, "EPSG:4326", 0.9))).await();
    Stack s = stack(vertx, p);
    assertThat(field(s, "{\"q\": \"\u2603\"}")).isEqualTo("q");
    assertThat(field(s, "{\"q\": \"\\u200b\\ufeff\"}")).isEqualTo("q");
    assertThat(field(s, "{\"q\": \"Paris \\ud800\"}")).isEqualTo("q");
    assertThat(field(s, "{\"address\": {\"street\": \"\u20ac\", \"locality\": \"Paris\"}}")).isEqualTo("address.street");
    assertThat(p.count()).isZero();
  }

  @Test
  @DisplayName("addresses that are only letters of other scripts, or digits, are still accepted and keep distinct keys")
  void realAddressesStillPass(Vertx vertx) {
    FakeProvider p = FakeProvider.start(vertx, json(generic(1, 1, "EPSG:4326", 0.9))).await();
    Stack s = stack(vertx, p);
    JsonObject tokyo = s.geocode("東京").await().bodyAsJsonObject();
    JsonObject number = s.geocode("10").await().bodyAsJsonObject();
    JsonObject circled = s.geocode("\u2460").await().bodyAsJsonObject(); // ① normalizes to 1
    assertThat(tokyo.getString("status")).isEqualTo("resolved");
    assertThat(number.getString("status")).isEqualTo("resolved");
    assertThat(circled.getString("status")).isEqualTo("resolved");
    assertThat(tokyo.getString("idempotency_key")).isNotEqualTo(number.getString("idempotency_key"));
  }

  private static String field(Stack s, String body) {
    RawHttp.Response r = RawHttp.exchange(s.port, RawHttp.post("/v1/geocode", body), 5000);
    assertThat(r.status()).as(body).isEqualTo(400);
    assertThat(r.isProblem()).isTrue();
    return r.json().getString("field");
  }
}
