package dev.georesolver.trace;

import io.opentelemetry.api.common.AttributeKey;

/**
 * The span names and attribute keys the resolver records: the OpenTelemetry HTTP semantic
 * conventions' names for the HTTP parts, {@code georesolver.*} for the ladder. Attribute values
 * never hold a credential, a query string, or a provider's URL unredacted ({@link UrlRedaction}).
 */
public final class SpanNames {

  private SpanNames() {}

  /** The chain's span of one request: dedupe claim, then each rung until a hit or the bottom. */
  public static final String WALK = "georesolver.walk";

  /** The chain's span of one rung: admitted or skipped, the visit to the tier, its reply. */
  public static final String RUNG = "georesolver.rung";

  /** A tier's span of one attempt at an in-process (local) adapter; HTTP attempts are named by their method. */
  public static final String LOCAL_ATTEMPT = "georesolver.local";

  public static final AttributeKey<String> HTTP_REQUEST_METHOD = AttributeKey.stringKey("http.request.method");
  public static final AttributeKey<Long> HTTP_RESPONSE_STATUS_CODE = AttributeKey.longKey("http.response.status_code");
  public static final AttributeKey<Long> HTTP_REQUEST_RESEND_COUNT = AttributeKey.longKey("http.request.resend_count");
  public static final AttributeKey<String> HTTP_ROUTE = AttributeKey.stringKey("http.route");
  public static final AttributeKey<String> URL_PATH = AttributeKey.stringKey("url.path");
  public static final AttributeKey<String> URL_SCHEME = AttributeKey.stringKey("url.scheme");
  /** A provider URL with every query value replaced by {@code REDACTED} and no user info. */
  public static final AttributeKey<String> URL_FULL = AttributeKey.stringKey("url.full");
  public static final AttributeKey<String> SERVER_ADDRESS = AttributeKey.stringKey("server.address");
  public static final AttributeKey<Long> SERVER_PORT = AttributeKey.longKey("server.port");
  public static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");

  /** The rung's tier name (rung and attempt spans), or the tier that answered (walk span). */
  public static final AttributeKey<String> TIER = AttributeKey.stringKey("georesolver.tier");
  /** The rung's claim ({@code exact}, {@code open_data}, …), or the answer's (walk span). */
  public static final AttributeKey<String> CLAIM = AttributeKey.stringKey("georesolver.claim");
  /**
   * What came of it: on a walk {@code resolved}, {@code refused}, {@code replayed} or
   * {@code joined}; on a rung the attempt outcome of the result's {@code attempts[]} ({@code hit},
   * {@code not_found}, a failure class, {@code skipped_admission}, {@code breaker_open}, …); on an
   * attempt {@code hit} or the failure class.
   */
  public static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("georesolver.outcome");
  public static final AttributeKey<String> INTENT = AttributeKey.stringKey("georesolver.intent");
  public static final AttributeKey<String> DIRECTION = AttributeKey.stringKey("georesolver.direction");
  public static final AttributeKey<Boolean> DEGRADED = AttributeKey.booleanKey("georesolver.degraded");
  public static final AttributeKey<Long> RUNG_INDEX = AttributeKey.longKey("georesolver.rung_index");
  public static final AttributeKey<Long> TRIES = AttributeKey.longKey("georesolver.tries");
  public static final AttributeKey<String> MANIFEST_REVISION = AttributeKey.stringKey("georesolver.manifest_revision");
}
