package dev.georesolver.issues;

import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.Stack;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** Issue 9 defect 5: field names made up by clients are counted as {@code other}, so /metrics does not grow with bad requests. */
@ExtendWith(VertxExtension.class)
class Issue9MetricLabelsTest {

  @Test
  @DisplayName("2,000 requests with distinct long unknown parameter names leave /metrics the size it was, counted under field=other")
  void unknownFieldsDoNotBecomeLabels(Vertx vertx) {
    FakeProvider p = FakeProvider.start(vertx, json(generic(1, 1, "EPSG:4326", 0.9))).await();
    Stack s = Stack.deploy(vertx, manifest().tier("primary", "generic", p.url(), "exact", 800).yaml()).await();
    s.geocode("x", "colour", "blue").await();
    s.geocode("x", "bbox", "1,2").await();
    int before = s.get("/metrics").await().bodyAsString().length();

    for (int batch = 0; batch < 20; batch++) {
      List<Future<?>> sent = new ArrayList<>();
      for (int i = 0; i < 100; i++) {
        sent.add(s.get("/v1/geocode?q=x&unknown_" + batch + "_" + i + "_" + "z".repeat(200) + "=1"));
      }
      Future.all(sent).await();
    }

    String after = s.get("/metrics").await().bodyAsString();
    assertThat(after.length() - before).as("bytes /metrics grew").isLessThan(200);
    assertThat(after).contains("georesolver_bad_requests_total{field=\"other\"} 2001.0");
    assertThat(after).contains("georesolver_bad_requests_total{field=\"bbox\"} 1.0");
    assertThat(after).doesNotContain("unknown_").doesNotContain("colour");
  }
}
