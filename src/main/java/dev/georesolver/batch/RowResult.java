package dev.georesolver.batch;

import dev.georesolver.geo.Address;
import io.vertx.core.json.JsonObject;

import java.util.LinkedHashMap;

/**
 * What became of one row: the result columns of the output, in {@link ResultColumns#NAMES} order.
 * Immutable.
 *
 * @param status {@value #RESOLVED}, {@value #REFUSED} (an honest "no rung could answer"),
 *     {@value #INVALID} (the row could not be sent), or {@value #FAILED} (the resolver failed on it:
 *     a router error or no answer in time)
 * @param lon longitude, EPSG:4326, or null
 * @param lat latitude, EPSG:4326, or null
 * @param label what was matched, or null
 * @param claim what the answer may claim, or null
 * @param resolutionSource the tier that answered, or null
 * @param confidence [0, 1], or null
 * @param degraded whether the answer came from below the first eligible rung; null when nothing answered
 * @param notice the result's notice, or null
 * @param error a refusal's reason code, an invalid row's problem, or a failure; null when resolved
 * @param address the answer's address components, one column each; {@link Address#EMPTY} when
 *     none, never null
 */
public record RowResult(String status, Double lon, Double lat, String label, String claim, String resolutionSource,
    Double confidence, Boolean degraded, String notice, String error, Address address) {

  public RowResult {
    address = address == null ? Address.EMPTY : address;
  }

  /** A row's result without address components. */
  public RowResult(String status, Double lon, Double lat, String label, String claim, String resolutionSource,
      Double confidence, Boolean degraded, String notice, String error) {
    this(status, lon, lat, label, claim, resolutionSource, confidence, degraded, notice, error, Address.EMPTY);
  }

  public static final String RESOLVED = "resolved";
  public static final String REFUSED = "refused";
  public static final String INVALID = "invalid";
  public static final String FAILED = "failed";

  /** From a result JSON ({@code geocode.resolve}'s reply, or {@code /v1/geocode}'s body). */
  public static RowResult fromResult(JsonObject r) {
    String status = r.getString("status");
    if (!RESOLVED.equals(status) && !REFUSED.equals(status)) {
      return failed("the resolver answered status " + status);
    }
    return new RowResult(status, number(r, "lon"), number(r, "lat"), text(r, "label"), text(r, "claim"),
        text(r, "resolution_source"), number(r, "confidence"), r.getValue("degraded") instanceof Boolean b ? b : null,
        text(r, "notice"), REFUSED.equals(status) ? text(r, "reason") : null, address(r));
  }

  /** A row that could not be sent, and why. */
  public static RowResult invalid(String problem) {
    return new RowResult(INVALID, null, null, null, null, null, null, null, null, problem);
  }

  /** A row the resolver failed on, and how. */
  public static RowResult failed(String error) {
    return new RowResult(FAILED, null, null, null, null, null, null, null, null, error);
  }

  /** Whether the row resolved. */
  public boolean resolved() {
    return RESOLVED.equals(status);
  }

  /** The result columns as JSON, absent values left out; read back by {@link #fromJson}. */
  public JsonObject toJson() {
    JsonObject j = new JsonObject().put("status", status);
    putIf(j, "lon", lon);
    putIf(j, "lat", lat);
    putIf(j, "label", label);
    putIf(j, "claim", claim);
    putIf(j, "resolution_source", resolutionSource);
    putIf(j, "confidence", confidence);
    putIf(j, "degraded", degraded);
    putIf(j, "notice", notice);
    putIf(j, "error", error);
    if (!address.isEmpty()) {
      j.put("address", new JsonObject(new LinkedHashMap<String, Object>(address.toMap())));
    }
    return j;
  }

  /** Reads {@link #toJson()}. */
  public static RowResult fromJson(JsonObject j) {
    return new RowResult(j.getString("status"), number(j, "lon"), number(j, "lat"), text(j, "label"), text(j, "claim"),
        text(j, "resolution_source"), number(j, "confidence"), j.getValue("degraded") instanceof Boolean b ? b : null,
        text(j, "notice"), text(j, "error"), address(j));
  }

  /** The value of result column {@code i} of {@link ResultColumns#NAMES}. */
  Object column(int i) {
    return switch (i) {
      case 0 -> status;
      case 1 -> lon;
      case 2 -> lat;
      case 3 -> label;
      case 4 -> claim;
      case 5 -> resolutionSource;
      case 6 -> confidence;
      case 7 -> degraded;
      case 8 -> notice;
      case 9 -> error;
      default -> {
        if (i - ResultColumns.FIRST_ADDRESS >= Address.components().size()) {
          throw new IndexOutOfBoundsException(i);
        }
        yield address.get(Address.components().get(i - ResultColumns.FIRST_ADDRESS));
      }
    };
  }

  private static void putIf(JsonObject j, String k, Object v) {
    if (v != null) {
      j.put(k, v);
    }
  }

  /** The {@code address} object's components, or none. */
  private static Address address(JsonObject j) {
    return j.getValue("address") instanceof JsonObject a ? Address.fromMap(a.getMap()) : Address.EMPTY;
  }

  private static Double number(JsonObject j, String k) {
    return j.getValue(k) instanceof Number n ? n.doubleValue() : null;
  }

  private static String text(JsonObject j, String k) {
    return j.getValue(k) instanceof String s ? s : null;
  }
}
