package dev.georesolver.functional;

import dev.georesolver.support.FakeProvider;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import static dev.georesolver.support.ManifestBuilder.manifest;

/**
 * The ladder the compatibility scenarios run on: a commercial rung (claim exact) and an open-data
 * rung (claim open_data), each a real HTTP server answering with recorded Google and Nominatim
 * responses. What they answer depends on the question, so one running resolver serves every
 * scenario:
 *
 * <ul>
 *   <li>an address with "Downing": both rungs know it (Google: ROOFTOP);
 *   <li>"Nowhere": both find nothing;
 *   <li>"Outage": both fail with HTTP 503 (every rung failing);
 *   <li>"Degraded": the commercial rung fails, the open-data rung answers;
 *   <li>reverse at latitude 48.86…: both know it; at 0.5: nothing; at 1.5: both fail.
 * </ul>
 */
final class StandInLadder {

  final FakeProvider google;
  final FakeProvider nominatim;

  private StandInLadder(FakeProvider google, FakeProvider nominatim) {
    this.google = google;
    this.nominatim = nominatim;
  }

  static StandInLadder start(Vertx vertx) {
    FakeProvider g = FakeProvider.start(vertx, StandInLadder::googleAnswer).await();
    FakeProvider n = FakeProvider.start(vertx, StandInLadder::nominatimAnswer).await();
    return new StandInLadder(g, n);
  }

  /**
   * The manifest: commercial then open data, breakers that do not open during a test, no retries;
   * {@code osmFields} are extra YAML lines for the open-data tier.
   */
  String manifestYaml(String... osmFields) {
    String[] osm = new String[osmFields.length + 2];
    osm[0] = "retry_budget: 0";
    osm[1] = "circuit_breaker: { failure_threshold: 1000, half_open_timeout_ms: 1000, success_threshold: 1 }";
    System.arraycopy(osmFields, 0, osm, 2, osmFields.length);
    return manifest()
        .tier("commercial", "google", google.url() + "/maps/api/geocode/json", "exact", 1500,
            "retry_budget: 0", "circuit_breaker: { failure_threshold: 1000, half_open_timeout_ms: 1000, success_threshold: 1 }")
        .tier("osm", "nominatim", nominatim.url(), "open_data", 1500, osm)
        .yaml();
  }

  private static FakeProvider.Behaviour googleAnswer(HttpServerRequest r) {
    String question = r.getParam("address", "") + r.getParam("latlng", "");
    if (question.contains("Outage") || question.contains("Degraded") || question.startsWith("1.5")) {
      return FakeProvider.status(503, "unavailable");
    }
    if (question.contains("Downing")) {
      return fixture("google/geocode-10-downing-st-london-en.json");
    }
    if (question.startsWith("48.86")) {
      return fixture("google/reverse-48.863151-2.388911.json");
    }
    return fixture("google/geocode-zero-results.json");
  }

  private static FakeProvider.Behaviour nominatimAnswer(HttpServerRequest r) {
    String question = r.getParam("q", "") + r.getParam("street", "") + r.getParam("lat", "");
    if (question.contains("Outage") || question.startsWith("1.5")) {
      return FakeProvider.status(503, "unavailable");
    }
    if (question.contains("Downing") || question.contains("Degraded")) {
      return fixture("nominatim/search-jsonv2-10-downing-st-london-en.json");
    }
    if (question.startsWith("48.86")) {
      return fixture("nominatim/reverse-jsonv2-48.86-2.35.json");
    }
    return r.path().endsWith("/reverse")
        ? json("{\"error\":\"Unable to geocode\"}")
        : fixture("nominatim/search-jsonv2-no-results.json");
  }

  static FakeProvider.Respond fixture(String path) {
    try (InputStream in = StandInLadder.class.getResourceAsStream("/fixtures/providers/" + path)) {
      if (in == null) {
        throw new IllegalArgumentException("no fixture " + path);
      }
      return json(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static FakeProvider.Respond json(String body) {
    return new FakeProvider.Respond(200, body, MultiMap.caseInsensitiveMultiMap().add("content-type", "application/json"), 0);
  }
}
