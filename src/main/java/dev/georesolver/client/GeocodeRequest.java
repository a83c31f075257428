package dev.georesolver.client;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One request to the resolver: an address to find ({@link #address(String)},
 * {@link #address(StructuredAddress)}) or a point to describe ({@link #point}), with what goes with
 * it — the intent, the budget, the tenant, the language, a bounding box, the caller's trace context.
 *
 * <pre>{@code
 * GeocodeRequest.address("10 Downing St, London").intent("describe").budget(Duration.ofMillis(800)).language("en")
 * GeocodeRequest.point(51.5034, -0.1276)
 * }</pre>
 *
 * <p>Immutable and thread-safe: every setter returns a new request, so one request may be kept and
 * sent any number of times, from any thread. Unset values take the client's default
 * ({@link GeoClient#withBudget}, {@link GeoClient#withTenant}) or the resolver's (the manifest's
 * {@code default_intent}). The client checks here only what it needs to send the request (no nulls
 * where a value is required, a budget of at least a millisecond, finite coordinates, a well-formed
 * trace context); the resolver checks the rest, as it checks an HTTP request, and refuses with every
 * problem named by its field ({@link GeoClientException.Code#BAD_REQUEST}).
 */
public final class GeocodeRequest {

  /** A W3C {@code traceparent}: version, 32 hex digits of trace id, 16 of parent span id, flags; lower case. */
  private static final Pattern TRACEPARENT = Pattern.compile("[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}");
  /** The longest {@code tracestate} sent, characters (the W3C limit is 32 members of at most 256 characters). */
  static final int MAX_TRACESTATE_CHARS = 512;

  private final boolean reverse;
  private final String text;
  private final StructuredAddress components;
  private final double lat;
  private final double lon;
  private final double[] bbox;
  private final String intent;
  private final Duration budget;
  private final String tenant;
  private final String language;
  private final String traceparent;
  private final String tracestate;

  private GeocodeRequest(boolean reverse, String text, StructuredAddress components, double lat, double lon, double[] bbox,
      String intent, Duration budget, String tenant, String language, String traceparent, String tracestate) {
    this.reverse = reverse;
    this.text = text;
    this.components = components;
    this.lat = lat;
    this.lon = lon;
    this.bbox = bbox;
    this.intent = intent;
    this.budget = budget;
    this.tenant = tenant;
    this.language = language;
    this.traceparent = traceparent;
    this.tracestate = tracestate;
  }

  /**
   * Forward resolution of a one-line address, sent as {@code q}. The resolver refuses an empty
   * or blank one, one of only punctuation, and one over 1,000 characters (field {@code q}).
   */
  public static GeocodeRequest address(String oneLine) {
    Objects.requireNonNull(oneLine, "address");
    return new GeocodeRequest(false, oneLine, null, 0, 0, null, null, null, null, null, null, null);
  }

  /** Forward resolution of an address given by its parts, sent as the {@code address} object. */
  public static GeocodeRequest address(StructuredAddress address) {
    Objects.requireNonNull(address, "address");
    return new GeocodeRequest(false, null, address, 0, 0, null, null, null, null, null, null, null);
  }

  /**
   * Reverse resolution of a point in EPSG:4326, degrees; the resolver refuses a latitude outside
   * [-90, 90] or a longitude outside [-180, 180] (fields {@code lat}, {@code lon}).
   *
   * @throws IllegalArgumentException for a coordinate that is not a finite number (JSON has none such)
   */
  public static GeocodeRequest point(double lat, double lon) {
    if (!Double.isFinite(lat) || !Double.isFinite(lon)) {
      throw new IllegalArgumentException("lat and lon must be finite numbers");
    }
    return new GeocodeRequest(true, null, null, lat, lon, null, null, null, null, null, null, null);
  }

  /** This request with the intent named (one of the manifest's, e.g. {@code describe}); null: the manifest's default. */
  public GeocodeRequest intent(String intent) {
    return new GeocodeRequest(reverse, text, components, lat, lon, bbox, intent, budget, tenant, language, traceparent, tracestate);
  }

  /**
   * This request with its own budget: the time the resolver may spend on it, sent as
   * {@code x-deadline-ms}; the client waits that long plus its margin for the reply
   * ({@link GeoClient#withMargin}). Null: the client's budget.
   *
   * @throws IllegalArgumentException for a budget under one millisecond
   */
  public GeocodeRequest budget(Duration budget) {
    if (budget != null) {
      GeoClient.checkBudget(budget);
    }
    return new GeocodeRequest(reverse, text, components, lat, lon, bbox, intent, budget, tenant, language, traceparent, tracestate);
  }

  /**
   * This request made for {@code tenant}, sent as {@code x-tenant}: when the resolver has tenants
   * configured, its intents and residency apply, and a missing or unknown tenant is a bad request
   * (field {@code x-tenant}); without tenants it is ignored. Null: the client's tenant.
   */
  public GeocodeRequest tenant(String tenant) {
    return new GeocodeRequest(reverse, text, components, lat, lon, bbox, intent, budget, tenant, language, traceparent, tracestate);
  }

  /** This request with the language of the answer's label (a tag such as {@code en} or {@code pt-BR}); null: none. */
  public GeocodeRequest language(String language) {
    return new GeocodeRequest(reverse, text, components, lat, lon, bbox, intent, budget, tenant, language, traceparent, tracestate);
  }

  /**
   * This forward request searched within a box, EPSG:4326 degrees, sent as {@code bbox}
   * {@code [minLon, minLat, maxLon, maxLat]}; the resolver checks the order and ranges.
   *
   * @throws IllegalStateException on a reverse request (a point has no box)
   * @throws IllegalArgumentException for a bound that is not a finite number
   */
  public GeocodeRequest bbox(double minLon, double minLat, double maxLon, double maxLat) {
    if (reverse) {
      throw new IllegalStateException("bbox applies to an address, not to a point");
    }
    double[] b = {minLon, minLat, maxLon, maxLat};
    for (double d : b) {
      if (!Double.isFinite(d)) {
        throw new IllegalArgumentException("bbox bounds must be finite numbers");
      }
    }
    return new GeocodeRequest(reverse, text, components, lat, lon, b, intent, budget, tenant, language, traceparent, tracestate);
  }

  /**
   * This request continuing the caller's trace: its W3C {@code traceparent}
   * ({@code 00-<32 hex trace id>-<16 hex span id>-<2 hex flags>}), sent as the header of that name.
   * The resolver's spans are children of that span, and the result's {@code trace_id} is its trace
   * id. Null: none (the resolver starts a new trace).
   *
   * @throws IllegalArgumentException when it is not a valid traceparent (lower-case hex, trace and
   *     span ids not all zeros, version not {@code ff})
   */
  public GeocodeRequest traceparent(String traceparent) {
    if (traceparent != null && !validTraceparent(traceparent)) {
      throw new IllegalArgumentException("traceparent must be a W3C trace context: 00-<32 hex>-<16 hex>-<2 hex>, lower case");
    }
    return new GeocodeRequest(reverse, text, components, lat, lon, bbox, intent, budget, tenant, language, traceparent, tracestate);
  }

  /**
   * This request with the W3C {@code tracestate} that goes with its {@link #traceparent}; null: none.
   *
   * @throws IllegalArgumentException when longer than 512 characters or not printable ASCII
   */
  public GeocodeRequest tracestate(String tracestate) {
    if (tracestate != null && (tracestate.length() > MAX_TRACESTATE_CHARS || !tracestate.chars().allMatch(c -> c >= 0x20 && c < 0x7f))) {
      throw new IllegalArgumentException("tracestate must be printable ASCII of at most " + MAX_TRACESTATE_CHARS + " characters");
    }
    return new GeocodeRequest(reverse, text, components, lat, lon, bbox, intent, budget, tenant, language, traceparent, tracestate);
  }

  static boolean validTraceparent(String t) {
    return TRACEPARENT.matcher(t).matches() && !t.startsWith("ff")
        && !t.substring(3, 35).equals("0".repeat(32)) && !t.substring(36, 52).equals("0".repeat(16));
  }

  /** Whether this is a reverse request ({@link #point}), sent to {@code geocode.reverse}. */
  public boolean isReverse() {
    return reverse;
  }

  /** The one-line address, or null (a structured address, or a point). */
  public String text() {
    return text;
  }

  /** The structured address, or null. */
  public StructuredAddress components() {
    return components;
  }

  /** A reverse request's latitude, degrees; 0 for a forward request. */
  public double lat() {
    return lat;
  }

  /** A reverse request's longitude, degrees; 0 for a forward request. */
  public double lon() {
    return lon;
  }

  /** The bounding box {@code [minLon, minLat, maxLon, maxLat]} (a copy), or null. */
  public double[] bbox() {
    return bbox == null ? null : bbox.clone();
  }

  /** The intent, or null for the manifest's default. */
  public String intent() {
    return intent;
  }

  /** This request's own budget, or null for the client's. */
  public Duration budget() {
    return budget;
  }

  /** This request's own tenant, or null for the client's. */
  public String tenant() {
    return tenant;
  }

  /** The language tag, or null. */
  public String language() {
    return language;
  }

  /** The caller's traceparent, or null. */
  public String traceparent() {
    return traceparent;
  }

  /** The caller's tracestate, or null. */
  public String tracestate() {
    return tracestate;
  }

  /**
   * The body sent: the public request JSON ({@code q} or {@code address}, {@code bbox},
   * {@code intent}, {@code language} forward; {@code lat}, {@code lon}, {@code intent},
   * {@code language} reverse), as {@code POST /v1/geocode} takes it. The budget, tenant and trace
   * context travel as headers. A new object on every call.
   */
  public JsonObject toJson() {
    JsonObject j = new JsonObject();
    if (reverse) {
      j.put("lat", lat).put("lon", lon);
    } else if (text != null) {
      j.put("q", text);
    } else {
      j.put("address", components.toJson());
    }
    if (bbox != null) {
      j.put("bbox", new JsonArray().add(bbox[0]).add(bbox[1]).add(bbox[2]).add(bbox[3]));
    }
    if (intent != null) {
      j.put("intent", intent);
    }
    if (language != null) {
      j.put("language", language);
    }
    return j;
  }

  @Override
  public String toString() {
    // The address is a client's data: it stays out of logs that print requests.
    return "GeocodeRequest[" + (reverse ? "reverse" : "forward") + (intent == null ? "" : ", intent " + intent)
        + (tenant == null ? "" : ", tenant " + tenant) + "]";
  }
}
