package dev.georesolver.issues;

import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.RawHttp;
import dev.georesolver.support.Stack;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** Issue 9 defect 11: numbers are plain decimals, a JSON key given twice is a 400 naming it, and lengths count characters, not UTF-16 units. */
@ExtendWith(VertxExtension.class)
class Issue9StrictParsingTest {

  private static Stack stack(Vertx vertx, FakeProvider p) {
    return Stack.deploy(vertx, manifest().tier("primary", "generic", p.url(), "exact", 800).yaml()).await();
  }

  @ParameterizedTest(name = "{0} -> 400 naming {1}")
  @CsvSource(delimiter = '|', value = {
      "/v1/reverse?lat=0x1p4&lon=2                  | lat",
      "/v1/reverse?lat=45d&lon=2                    | lat",
      "/v1/reverse?lat=45&lon=2f                    | lon",
      "/v1/reverse?lat=4.5e1&lon=2                  | lat",
      "/v1/reverse?lat=Infinity&lon=2               | lat",
      "/v1/reverse?lat=%EF%BC%94%EF%BC%95&lon=2     | lat",
      "/v1/geocode?q=Paris&bbox=0x1,0,0x2,1         | bbox",
      "/v1/geocode?q=Paris&bbox=1d,2,3,4            | bbox",
  })
  void onlyPlainDecimals(String target, String field, Vertx vertx) {
    FakeProvider p = FakeProvider.start(vertx, json(generic(1, 1, "EPSG:4326", 0.9))).await();
    Stack s = stack(vertx, p);
    RawHttp.Response r = RawHttp.exchange(s.port, RawHttp.get(target));
    assertThat(r.status()).isEqualTo(400);
    assertThat(r.isProblem()).isTrue();
    assertThat(r.json().getString("field")).isEqualTo(field);
    assertThat(p.count()).isZero();
  }

  @Test
  @DisplayName("plain decimals in every spelling clients send still pass")
  void plainDecimalsPass(Vertx vertx) {
    FakeProvider p = FakeProvider.start(vertx, json(generic(2.35, 48.85, "EPSG:4326", 0.9))).await();
    Stack s = stack(vertx, p);
    for (String q : new String[] {"lat=48.85&lon=2.35", "lat=-48&lon=+2", "lat=48.&lon=.5", "lat=%2048.85&lon=2.35"}) {
      assertThat(RawHttp.exchange(s.port, RawHttp.get("/v1/reverse?" + q)).status()).as(q).isEqualTo(200);
    }
    assertThat(RawHttp.exchange(s.port, RawHttp.get("/v1/geocode?q=Paris&bbox=2.2,48.8,2.5,48.9")).status()).isEqualTo(200);
  }

  @Test
  @DisplayName("a key given twice in a JSON body is a 400 naming the key, as a repeated query parameter is")
  void duplicateJsonKeys(Vertx vertx) {
    FakeProvider p = FakeProvider.start(vertx, json(generic(1, 1, "EPSG:4326", 0.9))).await();
    Stack s = stack(vertx, p);
    assertThat(problemField(s, RawHttp.post("/v1/geocode", "{\"q\":\"Paris\",\"q\":\"Berlin\"}"))).isEqualTo("q");
    assertThat(problemField(s, RawHttp.post("/v1/geocode",
        "{\"address\":{\"street\":\"Main St\",\"locality\":\"Springfield\",\"street\":\"Elm St\"}}"))).isEqualTo("address.street");
    assertThat(problemField(s, RawHttp.post("/v1/geocode", "{\"q\":\"Paris\"} {\"q\":\"Berlin\"}"))).isEqualTo("body");
    assertThat(problemField(s, RawHttp.get("/v1/geocode?q=Paris&q=Berlin"))).isEqualTo("q");
    assertThat(p.count()).isZero();
  }

  @Test
  @DisplayName("an address with 600 emoji is 606 characters (within 1,000); 1,001 are refused, and the count given is in characters")
  void lengthsInCodePoints(Vertx vertx) {
    FakeProvider p = FakeProvider.start(vertx, json(generic(1, 1, "EPSG:4326", 0.9))).await();
    Stack s = stack(vertx, p);
    String emoji = "\uD83D\uDDFA"; // one character, two UTF-16 units
    String address = "Paris " + emoji.repeat(600);
    RawHttp.Response ok = RawHttp.exchange(s.port, RawHttp.post("/v1/geocode", "{\"q\":\"" + address + "\"}"), 5000);
    assertThat(ok.status()).isEqualTo(200);
    RawHttp.Response get = RawHttp.exchange(s.port, RawHttp.get("/v1/geocode?q=" + URLEncoder.encode(address, StandardCharsets.UTF_8)));
    assertThat(get.status()).isEqualTo(200);

    String over = "Paris " + emoji.repeat(995);
    RawHttp.Response tooLong = RawHttp.exchange(s.port, RawHttp.post("/v1/geocode", "{\"q\":\"" + over + "\"}"), 5000);
    assertThat(tooLong.status()).isEqualTo(400);
    assertThat(tooLong.json().getString("field")).isEqualTo("q");
    assertThat(tooLong.json().getString("detail")).contains("got 1001");
  }

  private static String problemField(Stack s, Object request) {
    RawHttp.Response r = request instanceof String get ? RawHttp.exchange(s.port, get)
        : RawHttp.exchange(s.port, (byte[]) request, 5000);
    assertThat(r.status()).as(r.toString()).isEqualTo(400);
    assertThat(r.isProblem()).isTrue();
    return r.json().getString("field");
  }
}
