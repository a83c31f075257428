package dev.georesolver.provider;

import dev.georesolver.geo.FailureClass;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * Collects the candidates of one response under a {@link SchemaMode} and turns them into an answer.
 *
 * <p>Adapters hand over each candidate in the provider's order (which is the provider's ranking, so
 * the answer stays best first), or report why a candidate is unusable. Under {@link SchemaMode#STRICT}
 * one violation fails the whole response as {@link FailureClass#DEGRADABLE}; under
 * {@link SchemaMode#RELAXED} an unusable candidate is skipped, and the response fails only when no
 * candidate was usable. An empty list is {@link FailureClass#NO_MATCH}.
 *
 * <p>Not thread-safe: one instance per {@code parse} call.
 */
final class Hits {

  private final SchemaMode mode;
  private final List<RawHit> hits = new ArrayList<>();
  private String firstViolation;

  Hits(SchemaMode mode) {
    this.mode = mode;
  }

  /** Whether missing required fields are violations (STRICT) rather than defaults (RELAXED). */
  boolean strict() {
    return mode == SchemaMode.STRICT;
  }

  /**
   * Records a missing field that STRICT requires and RELAXED can default.
   *
   * @return true when the field is missing and the mode is STRICT (the caller skips the candidate)
   */
  boolean missingRequired(Object value, String field) {
    if (value != null || !strict()) {
      return false;
    }
    violation(field + " is missing");
    return true;
  }

  /** Records a candidate that cannot be used in any mode (no coordinates, say). */
  void violation(String reason) {
    if (firstViolation == null) {
      firstViolation = reason;
    }
  }

  /** Adds a candidate in WGS84 degrees; one outside the valid range is a violation instead. */
  void addWgs84(RawHit hit) {
    if (!Parsing.isWgs84(hit.x(), hit.y())) {
      violation("coordinates out of WGS84 range: lon " + hit.x() + ", lat " + hit.y());
      return;
    }
    hits.add(hit);
  }

  /** Adds a candidate in a projected or otherwise non-WGS84 CRS: no degree range applies. */
  void addProjected(RawHit hit) {
    hits.add(hit);
  }

  /**
   * Reads one candidate of a result list into {@code hits}: adds it, or records why it is unusable.
   * Adapters pass a static method, so reading allocates no reader.
   */
  @FunctionalInterface
  interface Candidate {
    void read(JsonObject candidate, Hits hits);
  }

  /** Reads one GeoJSON feature that has a point: its {@code properties} (may be null) and the point. */
  @FunctionalInterface
  interface PointFeature {
    void read(JsonObject properties, double lon, double lat, Hits hits);
  }

  /**
   * Hands each element of a provider's result list to {@code reader} in the provider's order (null
   * for an element that is not an object). Returns the answer.
   */
  ProviderAnswer each(JsonArray candidates, Candidate reader) {
    for (int i = 0; i < candidates.size(); i++) {
      reader.read(Parsing.object(candidates, i), this);
    }
    return answer();
  }

  /**
   * Hands each feature of a GeoJSON FeatureCollection that has a point geometry to {@code reader}; a
   * feature without one is a violation. Returns the answer.
   */
  ProviderAnswer pointFeatures(JsonArray features, PointFeature reader) {
    for (int i = 0; i < features.size(); i++) {
      JsonObject f = Parsing.object(features, i);
      double[] lonLat = f == null ? null : Parsing.geoJsonPoint(f);
      if (lonLat == null) {
        violation("feature without a point geometry");
      } else {
        reader.read(Parsing.object(f, "properties"), lonLat[0], lonLat[1], this);
      }
    }
    return answer();
  }

  /** The answer: candidates best first, or the failure the collected evidence calls for. */
  ProviderAnswer answer() {
    if (firstViolation != null && (strict() || hits.isEmpty())) {
      return ProviderAnswer.failed(FailureClass.DEGRADABLE, "schema: " + firstViolation);
    }
    if (hits.isEmpty()) {
      return ProviderAnswer.noMatch("no results");
    }
    return new ProviderAnswer.Found(hits);
  }
}
