package dev.georesolver.functional;

import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.OtlpCollector;
import dev.georesolver.support.ResolverProcess;
import io.opentelemetry.proto.trace.v1.Span;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A resolver process started with {@code OTEL_EXPORTER_OTLP_ENDPOINT} exports the spans of a
 * failover over OTLP/HTTP to a stand-in collector: protobuf, the service name, the whole tree from
 * the server span to each tier's attempts, no credential in any byte sent. The batch delay is set
 * long, so the spans arrive only because stopping the process flushes them.
 */
@ExtendWith(VertxExtension.class)
class OtlpExportScenarioTest {

  private static final String ALPHA_KEY = "sk-alpha-Otlp4Kq8Zr";
  private static final String BRAVO_KEY = "sk-bravo-Otlp7Hn2Vd";

  @Test
  @DisplayName("the spans of a failover reach an OTLP/HTTP collector when the process stops, tier by tier, without a credential")
  void failoverIsExported(Vertx vertx) throws Exception {
    OtlpCollector collector = OtlpCollector.start(vertx).await();
    FakeProvider alpha = FakeProvider.start(vertx, FakeProvider.status(503, "busy")).await();
    FakeProvider bravo = FakeProvider.start(vertx, json(generic(7.4246, 43.7384, "EPSG:4326", 0.8))).await();
    Path m = Files.createTempFile("otlp-export", ".yaml");
    // Generous timeouts: a fresh process loads the SDK's classes on its first spans.
    Files.writeString(m, manifest().budget(9000)
        .tier("alpha", "generic", alpha.url(), "exact", 3000, "retry_budget: 0", "credential: { query_param: key, env: ALPHA_KEY }")
        .tier("bravo", "generic", bravo.url(), "open_data", 3000, "credential: { header: X-Api-Key, env: BRAVO_KEY }")
        .yaml());
    JsonObject result;
    List<String> stdout;
    try (ResolverProcess p = ResolverProcess.start(Map.of("ALPHA_KEY", ALPHA_KEY, "BRAVO_KEY", BRAVO_KEY,
            "OTEL_EXPORTER_OTLP_ENDPOINT", collector.endpoint(), "OTEL_SERVICE_NAME", "georesolver-otlp-test",
            "OTEL_BSP_SCHEDULE_DELAY", "600000"),
        "--manifest", m.toString(), "--port", "0", "--event-loops", "1")) {
      result = WebClient.create(vertx).get(p.port(), "localhost", "/v1/geocode").addQueryParam("q", "1 Export Road, Monaco")
          .send().await().bodyAsJsonObject();
      assertThat(collector.spans()).as("nothing exported before the batch delay or the stop").isEmpty();
      p.close();
      stdout = p.stdout();
    } finally {
      Files.deleteIfExists(m);
    }
    assertThat(result.getString("resolution_source")).as("%s; log %s", result, stdout).isEqualTo("bravo");
    String traceId = result.getString("trace_id");
    assertThat(stdout).anySatisfy(l -> assertThat(l).contains("tracing: OTLP/HTTP to " + collector.endpoint()));

    assertThat(collector.contentTypes()).isNotEmpty().allSatisfy(ct -> assertThat(ct).isEqualTo("application/x-protobuf"));
    List<OtlpCollector.Received> spans = collector.spans().stream().filter(s -> s.traceId().equals(traceId)).toList();
    System.out.println("trace " + traceId + " as the collector received it:");
    spans.forEach(s -> System.out.println("  " + s.spanId() + " <- " + s.parentSpanId() + " " + s.kind() + " " + s.name()
        + " " + new java.util.TreeMap<>(s.attributes())));
    assertThat(spans).allSatisfy(s -> assertThat(s.resource()).containsEntry("service.name", "georesolver-otlp-test"));
    OtlpCollector.Received server = spans.stream().filter(s -> s.kind() == Span.SpanKind.SPAN_KIND_SERVER).findFirst().orElseThrow();
    assertThat(server.name()).isEqualTo("GET /v1/geocode");
    assertThat(server.attributes()).containsEntry("http.response.status_code", "200");
    OtlpCollector.Received walk = spans.stream().filter(s -> s.name().equals("georesolver.walk")).findFirst().orElseThrow();
    assertThat(walk.parentSpanId()).isEqualTo(server.spanId());
    assertThat(walk.attributes()).containsEntry("georesolver.tier", "bravo").containsEntry("georesolver.outcome", "resolved");
    List<OtlpCollector.Received> clients = spans.stream().filter(s -> s.kind() == Span.SpanKind.SPAN_KIND_CLIENT).toList();
    assertThat(clients).extracting(s -> s.attributes().get("georesolver.tier")).containsExactlyInAnyOrder("alpha", "bravo");
    OtlpCollector.Received failed = clients.stream().filter(s -> "alpha".equals(s.attributes().get("georesolver.tier"))).findFirst().orElseThrow();
    assertThat(failed.attributes()).containsEntry("http.response.status_code", "503").containsEntry("georesolver.claim", "exact");
    assertThat(failed.statusCode()).as("STATUS_CODE_ERROR").isEqualTo(2);
    assertThat(alpha.seen()).singleElement()
        .satisfies(s -> assertThat(s.headers().get("traceparent")).matches("00-" + traceId + "-" + failed.spanId() + "-0[13]"));

    for (byte[] body : collector.bodies()) {
      String text = new String(body, StandardCharsets.ISO_8859_1);
      assertThat(text).doesNotContain(ALPHA_KEY).doesNotContain(BRAVO_KEY).doesNotContain("sk-");
    }
  }
}
