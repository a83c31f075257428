package dev.georesolver.compat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.georesolver.bus.ResolveResult;
import dev.georesolver.bus.StoredAnswer;
import dev.georesolver.geo.Address;
import dev.georesolver.geo.Claim;
import dev.georesolver.geo.Direction;
import io.vertx.core.buffer.Buffer;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The part of a {@link ResolveResult} the compatible APIs render: what was found, where, and what
 * it may claim. Immutable and thread-safe.
 *
 * <p>{@link #of(ResolveResult)} reads a fresh result's accessors; a {@link StoredAnswer} (a replayed
 * or coalesced delivery) keeps these fields only in its encoded stable JSON, which is read here with a streaming parser
 * (no {@code JsonObject} per answer: this runs on every replay).
 *
 * @param resolved whether a rung answered
 * @param direction forward or reverse
 * @param lon longitude (EPSG:4326), null when refused
 * @param lat latitude, null when refused
 * @param label what was matched, or null
 * @param precision rooftop, street, locality… ({@link dev.georesolver.geo.Precision}), or null
 * @param source the tier that answered, or null
 * @param claim what the answer may claim, or null
 * @param confidence [0, 1], or null
 * @param degraded whether the answer came from below the first eligible rung
 * @param notice the result's notice, or null
 * @param reason a refusal's reason code ({@code not_found}, {@code budget_exhausted},
 *     {@code not_found_where_asked}, {@code no_rung_available}), or null
 * @param idempotencyKey the request's key (hex), or null
 * @param resolvedAtMs when the answer was produced (epoch milliseconds; a replay keeps the time of
 *     the answer it replays), or 0 when unknown
 * @param address the answer's address components; {@link Address#EMPTY} when none, never null
 */
public record Answer(
    boolean resolved,
    Direction direction,
    Double lon,
    Double lat,
    String label,
    String precision,
    String source,
    Claim claim,
    Double confidence,
    boolean degraded,
    String notice,
    String reason,
    String idempotencyKey,
    long resolvedAtMs,
    Address address) {

  public Answer {
    address = address == null ? Address.EMPTY : address;
  }

  /** The refusal reason that means every rung asked answered and found nothing. */
  public static final String NOT_FOUND = "not_found";

  private static final JsonFactory JSON = new JsonFactory();

  /** Whether this is a refusal because nothing was found (as opposed to rungs failing). */
  public boolean notFound() {
    return !resolved && NOT_FOUND.equals(reason);
  }

  /** The answer of a result fresh from a walk. */
  public static Answer of(ResolveResult r) {
    return new Answer(r.resolved(), r.direction(), r.lon(), r.lat(), r.label(), r.precision(), r.resolutionSource(),
        r.claim(), r.confidence(), r.degraded(), r.notice(), r.reason(), r.idempotencyKey(), r.resolvedAtMs(), r.address());
  }

  /** The answer of a stored one (a replay, a coalesced delivery): read from its encoded stable JSON. */
  public static Answer of(StoredAnswer s) {
    return parse(s.toBuffer(), s.direction());
  }

  /** Reads the fields above from result JSON ({@code ResolveResult#toBuffer()} or its stable part). */
  static Answer parse(Buffer json, Direction fallbackDirection) {
    boolean resolved = false;
    Direction direction = fallbackDirection;
    Double lon = null;
    Double lat = null;
    Double confidence = null;
    String label = null;
    String precision = null;
    String source = null;
    Claim claim = null;
    boolean degraded = false;
    String notice = null;
    String reason = null;
    String key = null;
    long resolvedAt = 0;
    Address address = Address.EMPTY;
    try (JsonParser p = JSON.createParser(json.getBytes())) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new IllegalArgumentException("result JSON is not an object");
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken t = p.nextToken();
        if (t == JsonToken.START_OBJECT && field.equals("address")) {
          address = address(p);
          continue;
        }
        if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
          p.skipChildren();
          continue;
        }
        switch (field) {
          case "status" -> resolved = ResolveResult.RESOLVED.equals(p.getText());
          case "direction" -> direction = "reverse".equals(p.getText()) ? Direction.REVERSE : Direction.FORWARD;
          case "lon" -> lon = p.getDoubleValue();
          case "lat" -> lat = p.getDoubleValue();
          case "label" -> label = p.getText();
          case "precision" -> precision = p.getText();
          case "resolution_source" -> source = p.getText();
          case "claim" -> claim = Claim.fromWire(p.getText()).orElse(null);
          case "confidence" -> confidence = p.getDoubleValue();
          case "degraded" -> degraded = t == JsonToken.VALUE_TRUE;
          case "notice" -> notice = p.getText();
          case "reason" -> reason = p.getText();
          case "idempotency_key" -> key = p.getText();
          case "resolved_at_ms" -> resolvedAt = p.getLongValue();
          default -> { }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("unreadable result JSON", e);
    }
    return new Answer(resolved, direction, lon, lat, label, precision, source, claim, confidence, degraded, notice,
        reason, key, resolvedAt, address);
  }

  /** The components of the {@code address} object the parser is at the start of (its end consumed). */
  private static Address address(JsonParser p) throws IOException {
    Address.Builder b = Address.builder();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      Address.Component c = Address.Component.byKey(p.currentName());
      JsonToken v = p.nextToken();
      if (v == JsonToken.START_OBJECT || v == JsonToken.START_ARRAY) {
        p.skipChildren();
      } else if (c != null && v == JsonToken.VALUE_STRING) {
        b.put(c, p.getText());
      }
    }
    return b.build();
  }
}
