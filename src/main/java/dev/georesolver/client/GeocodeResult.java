package dev.georesolver.client;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The resolver's answer, as a record: the result JSON that {@code /v1/geocode} and
 * {@code /v1/reverse} give, field by field ({@code docs/api.md} says what each means). A refusal
 * ({@code status} {@code refused}: no rung could answer, with its {@link #reason}) is an answer,
 * not a failure: the future succeeds with it.
 *
 * <p>Absent values are null (or false, 0, an empty list). A field this client does not know yet — one
 * a newer resolver added — is not lost: {@link #json()} is the whole reply, so an old client keeps
 * working with a new resolver and can still read the new field. Fields of an unexpected type read as
 * absent rather than failing. Immutable and thread-safe ({@link #json()} hands out copies).
 *
 * @param status {@code resolved} or {@code refused}
 * @param direction {@code forward} or {@code reverse}
 * @param lon longitude, degrees in {@link #crs} (EPSG:4326), 7 decimals; null when refused
 * @param lat latitude, degrees; null when refused
 * @param crs {@code EPSG:4326} when there is a point, else null
 * @param label what was matched ({@code Paris, Texas, United States}), or null
 * @param precision {@code rooftop}, {@code street}, {@code locality}…, or null
 * @param distanceM reverse: metres from the point asked to the place answered, or null
 * @param address the structured address, by component wire name ({@code road}, {@code locality},
 *     {@code postcode}, {@code country_code} as ISO 3166-1 alpha-2…), only the components known;
 *     never null (empty when none), unmodifiable
 * @param resolutionSource the tier (rung) that answered, by its manifest name, or null
 * @param claim what the answer may claim: {@code exact}, {@code open_data}, {@code cached},
 *     {@code locality} (a string, so a claim added later still reads), or null
 * @param confidence the provider's confidence mapped to [0, 1], or null
 * @param degraded whether the answer came from below the first rung that could serve it
 * @param notice a sentence opener to show before the answer ({@code Working from the city centre only, }), or null
 * @param reason why it was refused ({@code not_found_where_asked}, {@code budget_exhausted}, …), or null
 * @param intent the intent the request was served under
 * @param idempotencyKey the request's key: identical requests have the same one
 * @param manifestRevision the revision of the manifest that served it
 * @param traceId this delivery's trace id
 * @param elapsedMs this delivery's time in the resolver, milliseconds
 * @param attempts what each rung visited did, in ladder order; never null, unmodifiable
 * @param replayed whether this is a stored answer replayed within the intent's age limit
 * @param replayAgeS a replay's age, seconds; null unless replayed
 * @param coalesced whether this delivery shared the walk of an identical request made at the same time
 * @param observedAtMs for a cached answer: when it was first resolved, epoch milliseconds; else null
 * @param resolvedAtMs when this answer was produced, epoch milliseconds, or null
 * @param json the whole reply, unknown fields included
 */
public record GeocodeResult(
    String status,
    String direction,
    Double lon,
    Double lat,
    String crs,
    String label,
    String precision,
    Double distanceM,
    Map<String, String> address,
    String resolutionSource,
    String claim,
    Double confidence,
    boolean degraded,
    String notice,
    String reason,
    String intent,
    String idempotencyKey,
    String manifestRevision,
    String traceId,
    long elapsedMs,
    List<Attempt> attempts,
    boolean replayed,
    Long replayAgeS,
    boolean coalesced,
    Long observedAtMs,
    Long resolvedAtMs,
    JsonObject json) {

  /** {@link #status} of an answer a rung gave. */
  public static final String RESOLVED = "resolved";
  /** {@link #status} of a refusal. */
  public static final String REFUSED = "refused";

  /**
   * What happened at one rung, as the result's {@code attempts} lists it.
   *
   * @param tier the tier's manifest name
   * @param outcome {@code hit}, a failure class ({@code transient}, {@code no_match}, …), or a skip
   *     ({@code skipped_admission}, {@code skipped_breaker_open}, {@code skipped_rate_limited}, …)
   * @param tries HTTP attempts made at the rung
   * @param ms milliseconds spent at the rung
   * @param detail a short reason, or null
   */
  public record Attempt(String tier, String outcome, int tries, long ms, String detail) {}

  public GeocodeResult {
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(direction, "direction");
    attempts = List.copyOf(attempts);
    json = json.copy();
  }

  /** The whole reply as the resolver sent it (a copy: changing it changes nothing here). */
  @Override
  public JsonObject json() {
    return json.copy();
  }

  /** Whether a rung answered ({@code status} {@code resolved}); false for a refusal. */
  public boolean resolved() {
    return RESOLVED.equals(status);
  }

  /**
   * Reads the result JSON.
   *
   * @throws IllegalArgumentException when it has no {@code status}: not a result
   */
  public static GeocodeResult fromJson(JsonObject j) {
    String status = string(j, "status");
    if (status == null) {
      throw new IllegalArgumentException("not a result: no status");
    }
    List<Attempt> attempts = new ArrayList<>();
    if (j.getValue("attempts") instanceof JsonArray a) {
      for (Object o : a) {
        if (o instanceof JsonObject at) {
          Long tries = integer(at, "tries");
          Long ms = integer(at, "ms");
          attempts.add(new Attempt(string(at, "tier"), string(at, "outcome"), tries == null ? 0 : (int) (long) tries,
              ms == null ? 0 : ms, string(at, "detail")));
        }
      }
    }
    String direction = string(j, "direction");
    Long elapsed = integer(j, "elapsed_ms");
    return new GeocodeResult(status, direction == null ? "forward" : direction, number(j, "lon"), number(j, "lat"),
        string(j, "crs"), string(j, "label"), string(j, "precision"), number(j, "distance_m"), address(j), string(j, "resolution_source"),
        string(j, "claim"), number(j, "confidence"), bool(j, "degraded"), string(j, "notice"), string(j, "reason"),
        string(j, "intent"), string(j, "idempotency_key"), string(j, "manifest_revision"), string(j, "trace_id"),
        elapsed == null ? 0 : elapsed, attempts, bool(j, "replayed"), integer(j, "replay_age_s"), bool(j, "coalesced"),
        integer(j, "observed_at_ms"), integer(j, "resolved_at_ms"), j);
  }

  // Lenient readers: a value of another type than expected reads as absent.

  private static Map<String, String> address(JsonObject j) {
    if (!(j.getValue("address") instanceof JsonObject a)) {
      return Map.of();
    }
    Map<String, String> out = new java.util.LinkedHashMap<>();
    a.forEach(e -> {
      if (e.getValue() instanceof String v) {
        out.put(e.getKey(), v);
      }
    });
    return java.util.Collections.unmodifiableMap(out);
  }

  private static String string(JsonObject j, String k) {
    return j.getValue(k) instanceof String s ? s : null;
  }

  private static Double number(JsonObject j, String k) {
    return j.getValue(k) instanceof Number n ? n.doubleValue() : null;
  }

  private static Long integer(JsonObject j, String k) {
    return j.getValue(k) instanceof Number n ? n.longValue() : null;
  }

  private static boolean bool(JsonObject j, String k) {
    return j.getValue(k) instanceof Boolean b && b;
  }
}
