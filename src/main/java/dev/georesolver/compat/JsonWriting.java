package dev.georesolver.compat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import io.vertx.core.buffer.Buffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Streaming JSON output for the dialects' shapes (one generator per answer, no {@code JsonObject}
 * tree: this runs on every replay), and the number forms they need. Thread-safe.
 */
final class JsonWriting {

  private static final JsonFactory JSON = new JsonFactory();

  private JsonWriting() {}

  /** Writes one JSON value. */
  @FunctionalInterface
  interface Body {
    void write(JsonGenerator g) throws IOException;
  }

  /** The bytes {@code body} writes. */
  static Buffer json(Body body) {
    ByteArrayBuilder out = new ByteArrayBuilder(768);
    try (JsonGenerator g = JSON.createGenerator(out)) {
      body.write(g);
    } catch (IOException e) {
      throw new UncheckedIOException("writing to memory cannot fail", e);
    }
    return Buffer.buffer(out.toByteArray());
  }

  /** A coordinate as Nominatim writes it: a decimal string with exactly 7 decimals. */
  static String fixed7(double v) {
    return BigDecimal.valueOf(v).setScale(7, RoundingMode.HALF_EVEN).toPlainString();
  }

  /** A number rounded to 7 decimals. */
  static double round7(double v) {
    return Math.round(v * 1e7) / 1e7;
  }

  /** {@code v} within [min, max]. */
  static double clamp(double v, double min, double max) {
    return Math.max(min, Math.min(max, v));
  }
}
