package dev.georesolver.issues;

import ch.qos.logback.classic.Level;
import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.LogCapture;
import dev.georesolver.support.RawHttp;
import dev.georesolver.support.Stack;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** Issue 9 defect 9: a malformed percent-escape is a problem+json 400 naming where it is, and logs nothing at ERROR. */
@ExtendWith(VertxExtension.class)
class Issue9MalformedEscapesTest {

  @ParameterizedTest(name = "{0} -> 400 naming {1}")
  @CsvSource(delimiter = '|', value = {
      "/v1/geocode?q=%                 | q",
      "/v1/geocode?q=%ZZ               | q",
      "/v1/geocode?q=Paris%2           | q",
      "/v1/geocode?q=Paris&%ZZ=1       | query",
      "/v1/geocode?q=Paris&bbox=1,2,3%G,4 | bbox",
      "/v1/reverse?lat=4%G5&lon=2      | lat",
      "/v1/reverse?lat=45&lon=%        | lon",
      "/v1/geo%ZZcode?q=Paris          | path",
  })
  void malformedEscapeIsAProblemNotAStackTrace(String target, String field, Vertx vertx) {
    FakeProvider p = FakeProvider.start(vertx, json(generic(1, 1, "EPSG:4326", 0.9))).await();
    Stack s = Stack.deploy(vertx, manifest().tier("primary", "generic", p.url(), "exact", 800).yaml()).await();
    try (LogCapture logs = LogCapture.start()) {
      RawHttp.Response r = RawHttp.exchange(s.port, RawHttp.get(target));
      assertThat(r.status()).isEqualTo(400);
      assertThat(r.isProblem()).as(r.toString()).isTrue();
      assertThat(r.json().getString("field")).isEqualTo(field);
      assertThat(logs.atLeast(Level.ERROR)).as("nothing logged at ERROR").isEmpty();
    }
    assertThat(p.count()).isZero();
  }
}
