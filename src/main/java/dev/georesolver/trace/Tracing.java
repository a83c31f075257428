package dev.georesolver.trace;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.vertx.core.Future;
import io.vertx.core.Promise;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Whether this process records spans, and the tracer it records them with. One per resolver,
 * handed to the verticles that make spans (ingress, chain, tiers); never the global OpenTelemetry,
 * so several resolvers in one JVM (the tests) keep their spans apart. Thread-safe.
 *
 * <p>{@link #fromEnv} builds an OpenTelemetry SDK only when {@code OTEL_EXPORTER_OTLP_ENDPOINT} (or
 * {@code OTEL_EXPORTER_OTLP_TRACES_ENDPOINT}) is set and {@code OTEL_SDK_DISABLED} is not
 * {@code true}; it exports OTLP over HTTP (protobuf), whatever protocol the environment names,
 * and nothing but traces. The other {@code OTEL_*} variables are read as the specification names
 * them ({@code OTEL_SERVICE_NAME}, default {@code georesolver}; {@code OTEL_TRACES_SAMPLER} and
 * its argument; {@code OTEL_EXPORTER_OTLP_HEADERS}; {@code OTEL_BSP_*}; {@code OTEL_RESOURCE_ATTRIBUTES}).
 * Otherwise it is {@link #off()}: no SDK, no exporter, no span object on any path — the verticles
 * only pass the caller's {@code traceparent} along ({@link Hop}).
 */
public final class Tracing {

  /** The instrumentation scope of every span. */
  public static final String SCOPE = "dev.georesolver";

  /** Environment variable whose presence turns span export on. */
  public static final String ENDPOINT_ENV = "OTEL_EXPORTER_OTLP_ENDPOINT";

  private static final Tracing OFF = new Tracing(null, null, null);

  /** Settings the resolver fixes whatever the environment says: OTLP/HTTP traces, nothing else. */
  private static final Map<String, String> FIXED = Map.of(
      "otel.traces.exporter", "otlp",
      "otel.exporter.otlp.traces.protocol", "http/protobuf",
      "otel.metrics.exporter", "none",
      "otel.logs.exporter", "none",
      "otel.propagators", "tracecontext");

  private final Tracer tracer;
  private final OpenTelemetrySdk owned;
  private final String description;

  private Tracing(Tracer tracer, OpenTelemetrySdk owned, String description) {
    this.tracer = tracer;
    this.owned = owned;
    this.description = description;
  }

  /** No spans: the caller's trace context is passed along, trace ids are made when none comes. */
  public static Tracing off() {
    return OFF;
  }

  /** Spans recorded with {@code otel}'s tracer; {@code otel} stays the caller's to shut down (tests). */
  public static Tracing with(OpenTelemetry otel) {
    return new Tracing(otel.getTracer(SCOPE), null, "spans to the given OpenTelemetry");
  }

  /**
   * Tracing as {@code env} configures it: {@link #off()} without an OTLP endpoint, else an SDK
   * exporting there. Builds the SDK (class loading, a batch thread): call it off the event loop.
   *
   * @throws RuntimeException the SDK's own configuration error (a malformed sampler argument, …)
   */
  public static Tracing fromEnv(Map<String, String> env) {
    if (!exporting(env)) {
      return OFF;
    }
    OpenTelemetrySdk sdk = AutoConfiguredOpenTelemetrySdk.builder()
        .addPropertiesSupplier(() -> properties(env))
        .addPropertiesCustomizer(config -> FIXED)
        .disableShutdownHook()
        .build()
        .getOpenTelemetrySdk();
    String endpoint = env.getOrDefault("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", env.get(ENDPOINT_ENV));
    return new Tracing(sdk.getTracer(SCOPE), sdk, "OTLP/HTTP to " + withoutUserInfo(endpoint)
        + " as service " + env.getOrDefault("OTEL_SERVICE_NAME", "georesolver"));
  }

  /** Whether {@code env} asks for span export. */
  static boolean exporting(Map<String, String> env) {
    if ("true".equalsIgnoreCase(String.valueOf(env.get("OTEL_SDK_DISABLED")).trim())) {
      return false;
    }
    return notBlank(env.get(ENDPOINT_ENV)) || notBlank(env.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"));
  }

  /** The {@code OTEL_*} variables as SDK properties ({@code OTEL_SERVICE_NAME} → {@code otel.service.name}). */
  static Map<String, String> properties(Map<String, String> env) {
    Map<String, String> p = new HashMap<>();
    p.put("otel.service.name", "georesolver");
    env.forEach((k, v) -> {
      if (k.startsWith("OTEL_") && v != null) {
        p.put(k.toLowerCase(Locale.ROOT).replace('_', '.'), v);
      }
    });
    return p;
  }

  private static boolean notBlank(String s) {
    return s != null && !s.isBlank();
  }

  /** A URL without {@code user:password@}, for the log. */
  static String withoutUserInfo(String url) {
    int scheme = url.indexOf("://");
    int at = url.indexOf('@');
    int slash = url.indexOf('/', scheme < 0 ? 0 : scheme + 3);
    if (scheme >= 0 && at > scheme && (slash < 0 || at < slash)) {
      return url.substring(0, scheme + 3) + url.substring(at + 1);
    }
    return url;
  }

  /** Whether spans are made. */
  public boolean on() {
    return tracer != null;
  }

  /** The tracer; null when {@link #on()} is false. */
  public Tracer tracer() {
    return tracer;
  }

  /** What this tracing does, for the start-up log line. */
  public String describe() {
    return description == null ? "off (no " + ENDPOINT_ENV + "): trace context passed through, no spans" : description;
  }

  /**
   * Flushes the spans still queued and stops the exporter (within 5 s), when this tracing owns an
   * SDK; completes at once otherwise. Does not block: the SDK's own threads do the work.
   */
  public Future<Void> shutdown() {
    if (owned == null) {
      return Future.succeededFuture();
    }
    Promise<Void> done = Promise.promise();
    var result = owned.shutdown();
    result.whenComplete(done::tryComplete);
    // The SDK's result completes when the exporter gives up too; this only bounds a hung one.
    Thread t = new Thread(() -> {
      result.join(5, TimeUnit.SECONDS);
      done.tryComplete();
    }, "georesolver-tracing-shutdown");
    t.setDaemon(true);
    t.start();
    return done.future();
  }
}
