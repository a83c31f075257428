package dev.georesolver.issues;

import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.RawHttp;
import dev.georesolver.support.Stack;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** Issue 9 defect 10: every refusal at the HTTP layer is problem+json with its status, and the longest valid address fits a GET. */
@ExtendWith(VertxExtension.class)
class Issue9HttpLayerProblemsTest {

  private static Stack stack(Vertx vertx, FakeProvider p) {
    return Stack.deploy(vertx, manifest().tier("primary", "generic", p.url(), "exact", 800).yaml()).await();
  }

  private static String encoded(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  @Test
  @DisplayName("a 702-character Chinese address and 1,000 four-byte characters (12 KB percent-encoded) are taken by GET")
  void longestAddressesFitAGet(Vertx vertx) {
    // The offline gazetteer: a stand-in provider's own 4 KB request line would turn the long query away.
    Stack s = Stack.deploy(vertx, manifest().tier("gazetteer", "gazetteer", null, "locality", 500).yaml()).await();
    String chinese = "北京市东城区东长安街".repeat(78); // 702 characters, 3 UTF-8 bytes each
    String extB = "\uD841\uDF0E".repeat(1000);     // U+2070E, a CJK letter: 4 UTF-8 bytes each
    for (String address : new String[] {chinese, extB}) {
      RawHttp.Response r = RawHttp.exchange(s.port, RawHttp.get("/v1/geocode?q=" + encoded(address)
          + "&bbox=-180,-90,180,90&intent=describe&budget_ms=2000&language=zh-Hans"));
      assertThat(r.status()).as("%d characters", address.codePointCount(0, address.length())).isEqualTo(200);
      assertThat(r.json().getString("status")).isIn("resolved", "refused");
      assertThat(r.json().getJsonArray("attempts")).as("the ladder was walked").isNotEmpty();
    }
  }

  @Test
  @DisplayName("a request line over the limit is 414, headers over the limit 431, a body over it 413: each problem+json")
  void sizeLimits(Vertx vertx) {
    FakeProvider p = FakeProvider.start(vertx, json(generic(1, 1, "EPSG:4326", 0.9))).await();
    Stack s = stack(vertx, p);
    RawHttp.Response line = RawHttp.exchange(s.port, RawHttp.get("/v1/geocode?q=" + "a".repeat(20_000)));
    assertThat(line.status()).isEqualTo(414);
    assertThat(line.isProblem()).isTrue();
    assertThat(line.json().getString("detail")).contains("16384 bytes");

    RawHttp.Response headers = RawHttp.exchange(s.port,
        "GET /v1/geocode?q=Paris HTTP/1.1\r\nHost: localhost\r\nX-Big: " + "a".repeat(9 * 1024) + "\r\n\r\n");
    assertThat(headers.status()).isEqualTo(431);
    assertThat(headers.isProblem()).isTrue();

    RawHttp.Response body = RawHttp.exchange(s.port, RawHttp.post("/v1/geocode", "{\"q\": \"" + "a".repeat(70_000) + "\"}"), 5000);
    assertThat(body.status()).isEqualTo(413);
    assertThat(body.isProblem()).isTrue();

    String chunkedHead = "POST /v1/geocode HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        + "Transfer-Encoding: chunked\r\n\r\n";
    String chunk = "8000\r\n" + "a".repeat(0x8000) + "\r\n";
    RawHttp.Response chunked = RawHttp.exchange(s.port, chunkedHead + chunk + chunk + chunk + "0\r\n\r\n");
    assertThat(chunked.status()).as("a chunked body is bounded as it arrives").isEqualTo(413);
    assertThat(chunked.isProblem()).isTrue();
    assertThat(p.count()).isZero();
  }

  @Test
  @DisplayName("broken chunk framing and a malformed request line are a 400 problem+json naming the part, not a silent close")
  void malformedFraming(Vertx vertx) {
    FakeProvider p = FakeProvider.start(vertx, json(generic(1, 1, "EPSG:4326", 0.9))).await();
    Stack s = stack(vertx, p);
    RawHttp.Response chunk = RawHttp.exchange(s.port, "POST /v1/geocode HTTP/1.1\r\nHost: localhost\r\n"
        + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n{\"q\":1}\r\n0\r\n\r\n");
    assertThat(chunk.status()).isEqualTo(400);
    assertThat(chunk.isProblem()).isTrue();
    assertThat(chunk.json().getString("field")).isEqualTo("body");

    RawHttp.Response garbage = RawHttp.exchange(s.port, "GARBAGE\r\n\r\n");
    assertThat(garbage.status()).isEqualTo(400);
    assertThat(garbage.isProblem()).isTrue();
    assertThat(garbage.json().getString("field")).isEqualTo("request");

    RawHttp.Response badHeader = RawHttp.exchange(s.port, "GET /v1/geocode?q=Paris HTTP/1.1\r\nHost: localhost\r\nBad Header: x\r\n\r\n");
    assertThat(badHeader.status()).isEqualTo(400);
    assertThat(badHeader.isProblem()).isTrue();
    assertThat(p.count()).isZero();
  }
}
