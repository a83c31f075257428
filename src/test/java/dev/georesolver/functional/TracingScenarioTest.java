package dev.georesolver.functional;

import dev.georesolver.config.Manifest;
import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.Stack;
import dev.georesolver.trace.SpanNames;
import dev.georesolver.trace.Tracing;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The spans of a failover (tier alpha answering 503, tier bravo answering) as an in-memory
 * exporter receives them: server span → walk → one rung span per tier → attempt client spans, the
 * HTTP semantic-convention and {@code georesolver.*} attributes, the caller's trace continued, the
 * providers sent the attempt's context, and no credential anywhere.
 */
@ExtendWith(VertxExtension.class)
class TracingScenarioTest {

  private static final String ALPHA_KEY = "sk-alpha-T9r4Ce7Wq2";
  private static final String BRAVO_KEY = "sk-bravo-M3n6Bv1Xz8";
  private static final String CALLER_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
  private static final String CALLER_SPAN = "00f067aa0ba902b7";
  private static final String CALLER_PARENT = "00-" + CALLER_TRACE + "-" + CALLER_SPAN + "-01";

  private InMemorySpanExporter exporter;
  private OpenTelemetrySdk sdk;
  private FakeProvider alpha;
  private FakeProvider bravo;

  @BeforeEach
  void setUp(Vertx vertx) {
    exporter = InMemorySpanExporter.create();
    sdk = OpenTelemetrySdk.builder()
        .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build())
        .build();
    alpha = FakeProvider.start(vertx, FakeProvider.status(503, "busy")).await();
    bravo = FakeProvider.start(vertx, json(generic(7.4246, 43.7384, "EPSG:4326", 0.8))).await();
  }

  @AfterEach
  void tearDown() {
    sdk.close();
  }

  private Manifest failoverManifest(Map<String, String> env) {
    return manifest()
        .tier("alpha", "generic", alpha.url(), "exact", 500, "retry_budget: 1", "retry_backoff_ms: 5",
            "credential: { query_param: key, env: ALPHA_KEY }")
        .tier("bravo", "generic", bravo.url(), "open_data", 500, "credential: { header: X-Api-Key, env: BRAVO_KEY }")
        .build(env);
  }

  private Stack deploy(Vertx vertx, Tracing tracing) {
    Map<String, String> env = Map.of("ALPHA_KEY", ALPHA_KEY, "BRAVO_KEY", BRAVO_KEY);
    return Stack.deploy(vertx, failoverManifest(env), env, Clock.systemUTC(), Map.of(), null, tracing).await();
  }

  private static HttpResponse<Buffer> geocode(Stack stack, String q, String traceparent) {
    var req = stack.client.get(stack.port, "localhost", "/v1/geocode").addQueryParam("q", q);
    if (traceparent != null) {
      req.putHeader("traceparent", traceparent).putHeader("tracestate", "caller=abc");
    }
    return req.send().await();
  }

  /** Waits (a correctness deadline, not a speed one) until the server span of {@code traceId} has ended. */
  private List<SpanData> spansOf(String traceId) throws InterruptedException {
    long until = System.nanoTime() + 5_000_000_000L;
    while (System.nanoTime() < until) {
      List<SpanData> spans = exporter.getFinishedSpanItems().stream().filter(s -> s.getTraceId().equals(traceId)).toList();
      if (spans.stream().anyMatch(s -> s.getKind() == SpanKind.SERVER)) {
        return spans;
      }
      Thread.sleep(10);
    }
    throw new AssertionError("no server span for trace " + traceId + "; have " + exporter.getFinishedSpanItems());
  }

  private static SpanData one(List<SpanData> spans, String name) {
    List<SpanData> named = spans.stream().filter(s -> s.getName().equals(name)).toList();
    assertThat(named).as("spans named %s in %s", name, spans).hasSize(1);
    return named.get(0);
  }

  private static <T> T attr(SpanData s, AttributeKey<T> key) {
    return s.getAttributes().get(key);
  }

  @Test
  @DisplayName("a failover continues the caller's trace: server → walk → rungs → attempts, with their attributes and no credential")
  void failoverSpans(Vertx vertx) throws Exception {
    Stack stack = deploy(vertx, Tracing.with(sdk));

    HttpResponse<Buffer> resp = geocode(stack, "1 Trace Street, Monaco", CALLER_PARENT);
    JsonObject result = resp.bodyAsJsonObject();
    assertThat(result.getString("resolution_source")).isEqualTo("bravo");
    assertThat(result.getString("trace_id")).isEqualTo(CALLER_TRACE);
    assertThat(resp.getHeader("X-Trace-Id")).isEqualTo(CALLER_TRACE);

    List<SpanData> spans = spansOf(CALLER_TRACE);
    SpanData server = spans.stream().filter(s -> s.getKind() == SpanKind.SERVER).findFirst().orElseThrow();
    assertThat(server.getName()).isEqualTo("GET /v1/geocode");
    assertThat(server.getParentSpanId()).as("the caller's span is the parent").isEqualTo(CALLER_SPAN);
    assertThat(server.getSpanContext().getTraceState().get("caller")).isEqualTo("abc");
    assertThat(attr(server, SpanNames.HTTP_REQUEST_METHOD)).isEqualTo("GET");
    assertThat(attr(server, SpanNames.URL_PATH)).isEqualTo("/v1/geocode");
    assertThat(attr(server, SpanNames.HTTP_ROUTE)).isEqualTo("/v1/geocode");
    assertThat(attr(server, SpanNames.HTTP_RESPONSE_STATUS_CODE)).isEqualTo(200L);

    SpanData walk = one(spans, SpanNames.WALK);
    assertThat(walk.getParentSpanId()).isEqualTo(server.getSpanId());
    assertThat(attr(walk, SpanNames.OUTCOME)).isEqualTo("resolved");
    assertThat(attr(walk, SpanNames.TIER)).isEqualTo("bravo");
    assertThat(attr(walk, SpanNames.CLAIM)).isEqualTo("open_data");
    assertThat(attr(walk, SpanNames.DEGRADED)).isTrue();
    assertThat(attr(walk, SpanNames.INTENT)).isEqualTo(result.getString("intent"));

    List<SpanData> rungs = spans.stream().filter(s -> s.getName().equals(SpanNames.RUNG)).toList();
    assertThat(rungs).extracting(s -> attr(s, SpanNames.TIER)).containsExactlyInAnyOrder("alpha", "bravo");
    assertThat(rungs).allSatisfy(r -> assertThat(r.getParentSpanId()).isEqualTo(walk.getSpanId()));
    SpanData alphaRung = rungs.stream().filter(r -> "alpha".equals(attr(r, SpanNames.TIER))).findFirst().orElseThrow();
    SpanData bravoRung = rungs.stream().filter(r -> "bravo".equals(attr(r, SpanNames.TIER))).findFirst().orElseThrow();
    assertThat(attr(alphaRung, SpanNames.CLAIM)).isEqualTo("exact");
    assertThat(attr(alphaRung, SpanNames.OUTCOME)).isEqualTo(result.getJsonArray("attempts").getJsonObject(0).getString("outcome"));
    assertThat(attr(alphaRung, SpanNames.TRIES)).isEqualTo(2L);
    assertThat(attr(bravoRung, SpanNames.OUTCOME)).isEqualTo("hit");

    List<SpanData> attempts = spans.stream().filter(s -> s.getKind() == SpanKind.CLIENT).toList();
    assertThat(attempts).hasSize(3);
    List<SpanData> alphaAttempts = attempts.stream().filter(a -> "alpha".equals(attr(a, SpanNames.TIER))).toList();
    assertThat(alphaAttempts).hasSize(2).allSatisfy(a -> {
      assertThat(a.getName()).isEqualTo("GET");
      assertThat(a.getParentSpanId()).isEqualTo(alphaRung.getSpanId());
      assertThat(attr(a, SpanNames.CLAIM)).isEqualTo("exact");
      assertThat(attr(a, SpanNames.OUTCOME)).isEqualTo("transient");
      assertThat(attr(a, SpanNames.HTTP_RESPONSE_STATUS_CODE)).isEqualTo(503L);
      assertThat(attr(a, SpanNames.SERVER_ADDRESS)).isEqualTo("localhost");
      assertThat(attr(a, SpanNames.URL_FULL)).startsWith(alpha.url()).contains("key=REDACTED");
      assertThat(a.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
    });
    assertThat(alphaAttempts).extracting(a -> Optional.ofNullable(attr(a, SpanNames.HTTP_REQUEST_RESEND_COUNT)).orElse(0L))
        .containsExactlyInAnyOrder(0L, 1L);
    SpanData bravoAttempt = attempts.stream().filter(a -> "bravo".equals(attr(a, SpanNames.TIER))).findFirst().orElseThrow();
    assertThat(bravoAttempt.getParentSpanId()).isEqualTo(bravoRung.getSpanId());
    assertThat(attr(bravoAttempt, SpanNames.OUTCOME)).isEqualTo("hit");
    assertThat(attr(bravoAttempt, SpanNames.HTTP_RESPONSE_STATUS_CODE)).isEqualTo(200L);
    assertThat(attr(bravoAttempt, SpanNames.SERVER_PORT)).isEqualTo((long) Integer.parseInt(bravo.url().replaceAll(".*:", "")));
    assertThat(bravoAttempt.getStatus().getStatusCode()).isNotEqualTo(StatusCode.ERROR);

    // Each provider was sent its own attempt's context, and the caller's tracestate.
    assertThat(alpha.seen()).extracting(s -> s.headers().get("traceparent"))
        .containsExactlyInAnyOrderElementsOf(alphaAttempts.stream().map(a -> "00-" + CALLER_TRACE + "-" + a.getSpanId() + "-01").toList());
    assertThat(bravo.seen()).singleElement().satisfies(s -> {
      assertThat(s.headers().get("traceparent")).isEqualTo("00-" + CALLER_TRACE + "-" + bravoAttempt.getSpanId() + "-01");
      assertThat(s.headers().get("tracestate")).isEqualTo("caller=abc");
    });

    for (SpanData s : spans) {
      s.getAttributes().forEach((k, v) -> assertThat(String.valueOf(v)).as("%s of %s", k, s.getName())
          .doesNotContain(ALPHA_KEY).doesNotContain(BRAVO_KEY).doesNotContain("sk-").doesNotContain("Trace Street")
          .doesNotContain("Trace+Street").doesNotContain("Trace%20Street"));
      assertThat(s.getName()).doesNotContain("sk-");
    }
  }

  @Test
  @DisplayName("without a traceparent a new trace starts: the result's trace_id is the server span's W3C trace id")
  void newTrace(Vertx vertx) throws Exception {
    Stack stack = deploy(vertx, Tracing.with(sdk));
    JsonObject result = geocode(stack, "2 Trace Street, Monaco", null).bodyAsJsonObject();
    String traceId = result.getString("trace_id");
    assertThat(traceId).matches("[0-9a-f]{32}").isNotEqualTo(CALLER_TRACE);
    SpanData server = spansOf(traceId).stream().filter(s -> s.getKind() == SpanKind.SERVER).findFirst().orElseThrow();
    assertThat(server.getParentSpanContext().isValid()).isFalse();
  }

  @Test
  @DisplayName("a malformed traceparent is dropped: a new trace, and nothing of it reaches a provider")
  void malformedTraceparent(Vertx vertx) throws Exception {
    Stack stack = deploy(vertx, Tracing.with(sdk));
    String bad = "00-" + "0".repeat(32) + "-" + CALLER_SPAN + "-01";
    JsonObject result = geocode(stack, "3 Trace Street, Monaco", bad).bodyAsJsonObject();
    assertThat(result.getString("trace_id")).matches("[0-9a-f]{32}").isNotEqualTo("0".repeat(32));
    assertThat(bravo.seen()).singleElement().satisfies(s -> assertThat(s.headers().get("traceparent"))
        .startsWith("00-" + result.getString("trace_id") + "-").doesNotContain(CALLER_SPAN));
  }

  @Test
  @DisplayName("with tracing off no span is made, the caller's trace id is the result's and its traceparent reaches the providers unchanged")
  void tracingOff(Vertx vertx) throws Exception {
    Stack stack = deploy(vertx, Tracing.off());
    HttpResponse<Buffer> resp = geocode(stack, "4 Trace Street, Monaco", CALLER_PARENT);
    assertThat(resp.bodyAsJsonObject().getString("trace_id")).isEqualTo(CALLER_TRACE);
    assertThat(alpha.seen()).isNotEmpty().allSatisfy(s -> assertThat(s.headers().get("traceparent")).isEqualTo(CALLER_PARENT));
    assertThat(bravo.seen()).singleElement().satisfies(s -> assertThat(s.headers().get("tracestate")).isEqualTo("caller=abc"));

    JsonObject fresh = geocode(stack, "5 Trace Street, Monaco", null).bodyAsJsonObject();
    assertThat(fresh.getString("trace_id")).as("one id format whether or not spans are exported").matches("[0-9a-f]{32}");
    assertThat(bravo.seen().get(1).headers().get("traceparent")).matches("00-" + fresh.getString("trace_id") + "-[0-9a-f]{16}-00");
    assertThat(exporter.getFinishedSpanItems()).isEmpty();
  }

  @Test
  @DisplayName("the compatible endpoints continue the caller's trace too, and their server span holds no query (where a key travels)")
  void compatEndpoint(Vertx vertx) throws Exception {
    Stack stack = deploy(vertx, Tracing.with(sdk));
    HttpResponse<Buffer> resp = stack.client.get(stack.port, "localhost", "/maps/api/geocode/json")
        .addQueryParam("address", "6 Trace Street, Monaco").addQueryParam("key", "client-key-Xy7")
        .putHeader("traceparent", CALLER_PARENT).send().await();
    assertThat(resp.getHeader("X-Trace-Id")).isEqualTo(CALLER_TRACE);
    List<SpanData> spans = spansOf(CALLER_TRACE);
    SpanData server = spans.stream().filter(s -> s.getKind() == SpanKind.SERVER).findFirst().orElseThrow();
    assertThat(server.getName()).isEqualTo("GET /maps/api/geocode/json");
    assertThat(server.getParentSpanId()).isEqualTo(CALLER_SPAN);
    assertThat(one(spans, SpanNames.WALK).getParentSpanId()).isEqualTo(server.getSpanId());
    for (SpanData s : spans) {
      s.getAttributes().forEach((k, v) -> assertThat(String.valueOf(v)).doesNotContain("client-key").doesNotContain("Trace Street"));
    }
  }
}
