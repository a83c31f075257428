package dev.georesolver.provider;

import dev.georesolver.geo.Direction;
import dev.georesolver.geo.FailureClass;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.vertx.core.buffer.Buffer;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Recorded provider bodies (src/test/resources/fixtures/providers, attribution in SOURCES.md there)
 * and the assertions the adapter tests share.
 */
final class Fixtures {

  private Fixtures() {}

  /** The raw bytes of {@code fixtures/providers/<path>}. */
  static Buffer bytes(String path) {
    try (InputStream in = Fixtures.class.getResourceAsStream("/fixtures/providers/" + path)) {
      if (in == null) {
        throw new IllegalArgumentException("no fixture " + path);
      }
      return Buffer.buffer(in.readAllBytes());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The fixture served with HTTP 200 and no headers, as the source projects replayed it. */
  static ProviderResponse ok(String path) {
    return status(200, path);
  }

  /** The fixture served with the given status. */
  static ProviderResponse status(int status, String path) {
    return new ProviderResponse(status, Map.of(), bytes(path));
  }

  /** A hand-written body with a status and headers (names in lower case). */
  static ProviderResponse body(int status, String body, Map<String, String> headers) {
    return new ProviderResponse(status, headers, Buffer.buffer(body));
  }

  /**
   * A recorded success and the point it must parse to.
   *
   * @param path the fixture, relative to fixtures/providers
   * @param direction how the source project asked
   * @param lat the asserted latitude (or the body value where the source asserts none)
   * @param lon the asserted longitude (likewise)
   * @param tolerance the source test's delta, or 1e-6 for body values
   * @param strictValid whether the body holds every field strict validation requires
   */
  record Located(String path, Direction direction, double lat, double lon, double tolerance, boolean strictValid) {

    /** Body values: nobody asserted coordinates, so the file's own values within 1e-6. */
    static Located body(String path, double lat, double lon) {
      return new Located(path, Direction.FORWARD, lat, lon, 1e-6, true);
    }

    /** Coordinates asserted by the source project's test, with its delta. */
    static Located asserted(String path, double lat, double lon, double delta) {
      return new Located(path, Direction.FORWARD, lat, lon, delta, true);
    }

    Located reverse() {
      return new Located(path, Direction.REVERSE, lat, lon, tolerance, strictValid);
    }

    /** The body lacks a field strict validation requires: strict must degrade, relaxed must answer. */
    Located relaxedOnly() {
      return new Located(path, direction, lat, lon, tolerance, false);
    }

    @Override
    public String toString() {
      return path;
    }
  }

  /**
   * Parses a recorded success and checks the best hit's point in every mode the body is valid in;
   * a body that is valid only under relaxed validation must degrade under strict.
   *
   * @return the best hit (relaxed parse)
   */
  static RawHit assertLocated(ProviderAdapter adapter, Located c) {
    RawHit best = best(adapter.parse(c.direction(), ok(c.path()), SchemaMode.RELAXED));
    assertPoint(best, c.lat(), c.lon(), c.tolerance());
    ProviderAnswer strict = adapter.parse(c.direction(), ok(c.path()), SchemaMode.STRICT);
    if (c.strictValid()) {
      assertPoint(best(strict), c.lat(), c.lon(), c.tolerance());
    } else {
      assertFailure(strict, FailureClass.DEGRADABLE);
    }
    return best;
  }

  /** The best hit of a Found answer; fails the test on anything else. */
  static RawHit best(ProviderAnswer answer) {
    assertThat(answer).isInstanceOf(ProviderAnswer.Found.class);
    return ((ProviderAnswer.Found) answer).best();
  }

  /** The hits of a Found answer; fails the test on anything else. */
  static List<RawHit> hits(ProviderAnswer answer) {
    assertThat(answer).isInstanceOf(ProviderAnswer.Found.class);
    return ((ProviderAnswer.Found) answer).hits();
  }

  /** Checks a hit's latitude (y) and longitude (x). */
  static void assertPoint(RawHit hit, double lat, double lon, double tolerance) {
    assertThat(hit.y()).as("latitude (y)").isCloseTo(lat, within(tolerance));
    assertThat(hit.x()).as("longitude (x)").isCloseTo(lon, within(tolerance));
  }

  /** Checks that the answer is a failure of that class, and returns it. */
  static ProviderAnswer.Failed assertFailure(ProviderAnswer answer, FailureClass expected) {
    assertThat(answer).isInstanceOf(ProviderAnswer.Failed.class);
    ProviderAnswer.Failed failed = (ProviderAnswer.Failed) answer;
    assertThat(failed.failureClass()).as("failure class (%s)", failed.detail()).isEqualTo(expected);
    return failed;
  }

  /** The query parameter's decoded value in a built URL, or null. */
  static String param(OutboundRequest r, String name) {
    int q = r.url().indexOf('?');
    if (q < 0) {
      return null;
    }
    for (String pair : r.url().substring(q + 1).split("&")) {
      int eq = pair.indexOf('=');
      String key = URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8);
      if (key.equals(name)) {
        return URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      }
    }
    return null;
  }

  /** The URL without its query string. */
  static String path(OutboundRequest r) {
    int q = r.url().indexOf('?');
    return q < 0 ? r.url() : r.url().substring(0, q);
  }
}
