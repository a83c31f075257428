package dev.georesolver.provider;

import dev.georesolver.geo.Address;
import dev.georesolver.geo.Direction;
import dev.georesolver.geo.FailureClass;
import dev.georesolver.geo.ForwardQuery;
import dev.georesolver.geo.ReverseQuery;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

/**
 * The seed's provider contract ({@code adapter: generic}).
 *
 * <p>Forward: {@code GET {endpoint}?q=…[&bbox=minLon,minLat,maxLon,maxLat]}. Reverse (our
 * extension): {@code GET {endpoint}?lat=…&lon=…}. The provider answers
 * {@code {"x": …, "y": …, "crs": "EPSG:…", "confidence": 0..1}} with {@code x} the easting or
 * longitude and {@code y} the northing or latitude; an empty body or HTTP 404 means no match. An
 * optional {@code label} is passed through, and an optional {@code address} object whose members
 * are {@link Address}'s component names ({@code {"road": "Downing Street", "country_code": "GB"}})
 * becomes the hit's address ({@link #address}).
 *
 * <p>Strict schema: {@code x}, {@code y} (finite numbers), {@code crs} (string) and
 * {@code confidence} (number in [0, 1]) are required. Relaxed: only {@code x} and {@code y};
 * {@code crs} defaults to EPSG:4326 and {@code confidence} to 0.5.
 */
public final class GenericAdapter implements ProviderAdapter {

  /** Confidence assumed under relaxed validation when the provider gives none. */
  static final double DEFAULT_CONFIDENCE = 0.5;

  @Override
  public OutboundRequest forward(String endpoint, ForwardQuery q) {
    return OutboundRequest.get(endpoint, "")
        .param("q", q.text())
        .param("bbox", q.bbox() == null ? null
            : q.bbox().minLon() + "," + q.bbox().minLat() + "," + q.bbox().maxLon() + "," + q.bbox().maxLat())
        .build();
  }

  @Override
  public OutboundRequest reverse(String endpoint, ReverseQuery q) {
    return OutboundRequest.get(endpoint, "").param("lat", q.lat()).param("lon", q.lon()).build();
  }

  @Override
  public ProviderAnswer parse(Direction direction, ProviderResponse r, SchemaMode mode) {
    ProviderAnswer.Failed byStatus = HttpStatusClassifier.classify(r, true);
    if (byStatus != null) {
      return byStatus;
    }
    if (r.body().length() == 0 || r.body().toString().isBlank()) {
      return ProviderAnswer.noMatch("empty body");
    }
    JsonObject j;
    try {
      j = r.body().toJsonObject();
    } catch (DecodeException | ClassCastException e) {
      return ProviderAnswer.failed(FailureClass.DEGRADABLE, "body is not a JSON object");
    }
    if (j.isEmpty()) {
      return ProviderAnswer.noMatch("empty object");
    }
    Double x = number(j, "x");
    Double y = number(j, "y");
    if (x == null || y == null) {
      return ProviderAnswer.failed(FailureClass.DEGRADABLE, "x and y must be finite numbers");
    }
    Object crs = j.getValue("crs");
    Double confidence = number(j, "confidence");
    if (mode == SchemaMode.STRICT) {
      if (!(crs instanceof String)) {
        return ProviderAnswer.failed(FailureClass.DEGRADABLE, "crs is required (strict)");
      }
      if (confidence == null || confidence < 0 || confidence > 1) {
        return ProviderAnswer.failed(FailureClass.DEGRADABLE, "confidence must be a number in [0, 1] (strict)");
      }
    }
    String crsText = crs instanceof String s ? s : "EPSG:4326";
    double conf = confidence == null ? DEFAULT_CONFIDENCE : Math.max(0, Math.min(1, confidence));
    Object label = j.getValue("label");
    return ProviderAnswer.found(RawHit.of(x, y, crsText, conf, label instanceof String s ? s : null, null)
        .withAddress(address(Parsing.object(j, "address"))));
  }

  /**
   * The optional {@code address} object, whose members are the component names themselves
   * ({@code house_number}, {@code road}, …, {@code country_code}, {@code place_type}): each read as
   * text, a member of another type or name ignored, in either schema mode.
   */
  static Address address(JsonObject a) {
    if (a == null) {
      return Address.EMPTY;
    }
    Address.Builder b = Address.builder();
    for (Address.Component c : Address.components()) {
      AddressFields.fill(b, c, a, c.key());
    }
    return b.build();
  }

  private static Double number(JsonObject j, String key) {
    Object v = j.getValue(key);
    if (v instanceof Number n && Double.isFinite(n.doubleValue())) {
      return n.doubleValue();
    }
    return null;
  }
}
