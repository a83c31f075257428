package dev.georesolver.functional;

import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.ResolverProcess;
import io.vertx.core.Vertx;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * A whole failover in a resolver process of its own, logging in each format at DEBUG: every fallback
 * activation is one record, breaker transitions are records, every line is one event, and neither
 * tier's credential appears on any line.
 */
@ExtendWith(VertxExtension.class)
class StructuredLogScenarioTest {

  private static final String ALPHA_KEY = "sk-alpha-Q7d2LmX9vT";
  private static final String BRAVO_KEY = "sk-bravo-Z3k8PwR1nB";
  /** Provider text that would be a forged line of its own if written raw. */
  private static final String FORGED_JSON = "{\"ts\":\"2026-01-01T00:00:00.000Z\",\"level\":\"ERROR\",\"msg\":\"forged\"}";
  private static final String FORGED_TEXT = "00:00:00.000 ERROR dev.georesolver.cli.Main - forged";
  private static final Pattern TEXT_EVENT = Pattern.compile("\\d\\d:\\d\\d:\\d\\d\\.\\d{3} (ERROR|WARN |INFO |DEBUG|TRACE) \\S+ - .*");

  /** What the failover produced: the three results and the process's output. */
  private record Run(List<JsonObject> results, List<String> stdout, List<String> stderr) {}

  private Run failover(Vertx vertx, String format) throws Exception {
    FakeProvider alpha = FakeProvider.start(vertx, FakeProvider.status(503, "busy")).await();
    JsonObject denied = new JsonObject().put("status", "REQUEST_DENIED")
        .put("error_message", "The provided API key is invalid.\n" + FORGED_JSON + "\r\n" + FORGED_TEXT);
    FakeProvider bravo = FakeProvider.start(vertx, json(denied)).await();
    FakeProvider charlie = FakeProvider.start(vertx, json(generic(7.4246, 43.7384, "EPSG:4326", 0.8))).await();
    Path m = Files.createTempFile("structured-log", ".yaml");
    Files.writeString(m, manifest()
        .tier("alpha", "generic", alpha.url(), "exact", 500, "retry_budget: 1", "retry_backoff_ms: 5",
            "credential: { query_param: key, env: ALPHA_KEY }",
            "circuit_breaker: { failure_threshold: 2, half_open_timeout_ms: 60000, success_threshold: 1 }")
        .tier("bravo", "google", bravo.url(), "exact", 500, "credential: { header: X-Goog-Api-Key, env: BRAVO_KEY }")
        .tier("charlie", "generic", charlie.url(), "open_data", 500)
        .yaml());
    List<JsonObject> results = new ArrayList<>();
    try (ResolverProcess p = ResolverProcess.start(Map.of("ALPHA_KEY", ALPHA_KEY, "BRAVO_KEY", BRAVO_KEY, "GEO_LOG_LEVEL", "DEBUG"),
        "--manifest", m.toString(), "--port", "0", "--event-loops", "1", "--log-format", format)) {
      WebClient client = WebClient.create(vertx);
      for (String q : List.of("1 Failover Way, Monaco", "2 Failover Way, Monaco")) {
        results.add(client.get(p.port(), "localhost", "/v1/geocode").addQueryParam("q", q).send().await().bodyAsJsonObject());
      }
      charlie.behave(FakeProvider.status(503, "down too"));
      results.add(client.get(p.port(), "localhost", "/v1/geocode").addQueryParam("q", "3 Failover Way, Monaco").send().await()
          .bodyAsJsonObject());
      awaitFallbackRecords(p, results.size());
      p.close();
      assertThat(alpha.seen()).isNotEmpty().allSatisfy(s -> assertThat(s.query().get("key")).isEqualTo(ALPHA_KEY));
      assertThat(bravo.seen()).isNotEmpty().allSatisfy(s -> assertThat(s.headers().get("X-Goog-Api-Key")).isEqualTo(BRAVO_KEY));
      return new Run(results, p.stdout(), p.stderr());
    } finally {
      Files.deleteIfExists(m);
    }
  }

  /**
   * Waits (up to 10 s) until the process has written {@code n} fallback records, so that a record
   * the pipe or a slow machine delivers after the last answer is still seen; the assertions then
   * count them exactly.
   */
  private static void awaitFallbackRecords(ResolverProcess p, int n) throws InterruptedException {
    long until = System.nanoTime() + 10_000_000_000L;
    while (p.stdout().stream().filter(l -> l.contains("fallback_chain_activated")).count() < n && System.nanoTime() < until) {
      Thread.sleep(20);
    }
  }

  private static void assertTheFailoverHappened(Run run) {
    assertThat(run.results().get(0).getString("resolution_source")).isEqualTo("charlie");
    assertThat(run.results().get(0).getBoolean("degraded")).isTrue();
    assertThat(run.results().get(1).getString("resolution_source")).isEqualTo("charlie");
    assertThat(run.results().get(2).getString("status")).isEqualTo("refused");
  }

  private static void assertNoSecretAnywhere(Run run) {
    for (List<String> lines : List.of(run.stdout(), run.stderr())) {
      for (String line : lines) {
        assertThat(line).doesNotContain(ALPHA_KEY).doesNotContain(BRAVO_KEY).doesNotContain("sk-alpha").doesNotContain("sk-bravo");
      }
    }
  }

  @ParameterizedTest(name = "--log-format {0}")
  @ValueSource(strings = {"json", "text"})
  @DisplayName("a failover run logs one fallback record per activation, breaker transitions, one event a line and no credential")
  void failoverLogs(String format, Vertx vertx) throws Exception {
    Run run = failover(vertx, format);

    assertTheFailoverHappened(run);
    assertNoSecretAnywhere(run);
    assertThat(run.stdout()).as("the run logged at DEBUG").hasSizeGreaterThan(10);
    if (format.equals("json")) {
      assertJsonLines(run);
    } else {
      assertTextLines(run);
    }
  }

  private static void assertJsonLines(Run run) {
    List<JsonObject> events = new ArrayList<>();
    for (String line : run.stdout()) {
      JsonObject j;
      try {
        j = new JsonObject(line);
      } catch (DecodeException e) {
        fail("not one JSON object: " + line);
        return;
      }
      assertThat(j.getString("ts")).as(line).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z");
      assertThat(j.getString("level")).as(line).isIn("ERROR", "WARN", "INFO", "DEBUG", "TRACE");
      assertThat(j.getString("logger")).as(line).isNotBlank();
      assertThat(j.getString("thread")).as(line).isNotBlank();
      assertThat(j.getString("msg")).as(line).isNotNull().isNotEqualTo("forged");
      events.add(j);
    }

    List<JsonObject> fallbacks = events.stream().filter(e -> e.getBoolean("fallback_chain_activated", false)).toList();
    assertThat(fallbacks).as("one record per activation; the answers were %s", run.results()).extracting(e -> e.getString("trace_id"))
        .containsExactlyElementsOf(run.results().stream().map(r -> r.getString("trace_id")).toList());
    JsonObject first = fallbacks.get(0);
    JsonObject r0 = run.results().get(0);
    assertThat(first.getString("logger")).isEqualTo("dev.georesolver.fallback");
    assertThat(first.getString("status")).isEqualTo("resolved");
    assertThat(first.getBoolean("degraded")).isTrue();
    assertThat(first.getString("rung")).isEqualTo("charlie");
    assertThat(first.getInteger("rung_index")).isEqualTo(2);
    assertThat(first.getString("first_rung")).isEqualTo("alpha");
    assertThat(first.getString("claim")).isEqualTo("open_data");
    assertThat(first.getDouble("confidence")).isEqualTo(r0.getDouble("confidence"));
    assertThat(first.getString("transform")).isEqualTo("EPSG:4326");
    assertThat(first.getString("idempotency_key")).isEqualTo(r0.getString("idempotency_key"));
    assertThat(first.getString("attempts")).startsWith("alpha:transient:2:").contains(" > bravo:credential:1:").contains(" > charlie:hit:1:");
    JsonObject refusal = fallbacks.get(2);
    assertThat(refusal.getString("status")).isEqualTo("refused");
    assertThat(refusal.getString("reason")).isEqualTo(run.results().get(2).getString("reason"));
    assertThat(refusal.getString("attempts")).startsWith("alpha:skipped_breaker_open:0:");

    assertThat(events).anySatisfy(e -> {
      assertThat(e.getString("event")).isEqualTo("breaker_transition");
      assertThat(e.getString("level")).isEqualTo("WARN");
      assertThat(e.getString("tier")).isEqualTo("alpha");
      assertThat(e.getString("from")).isEqualTo("closed");
      assertThat(e.getString("to")).isEqualTo("open");
      assertThat(e.getString("reason")).isNotBlank();
    });
    assertThat(events).as("the provider's text arrives inside one record, its line breaks escaped by JSON").anySatisfy(e -> {
      assertThat(e.getString("level")).isEqualTo("ERROR");
      assertThat(e.getString("msg")).contains("bravo REJECTED ITS CREDENTIAL").contains(FORGED_JSON).contains(FORGED_TEXT);
    });
  }

  private static void assertTextLines(Run run) {
    for (String line : run.stdout()) {
      assertThat(line).as("one event a line, or an indented stack frame").matches(l -> TEXT_EVENT.matcher(l).matches()
          || l.startsWith("\t") || l.startsWith("Caused by: ") || l.matches("[\\w.$]+(Exception|Error)(: .*)?"));
      assertThat(line).doesNotStartWith(FORGED_TEXT).doesNotStartWith(FORGED_JSON);
    }
    List<String> fallbacks = run.stdout().stream().filter(l -> l.contains("fallback_chain_activated=\"true\"")).toList();
    assertThat(fallbacks).as("one record per activation; the answers were %s", run.results()).hasSize(3);
    for (int i = 0; i < 3; i++) {
      assertThat(fallbacks.get(i)).contains(" INFO  d.georesolver.fallback - fallback chain activated ")
          .contains("trace_id=\"" + run.results().get(i).getString("trace_id") + "\"");
    }
    assertThat(run.stdout()).anySatisfy(l -> assertThat(l).contains("WARN ").contains("event=\"breaker_transition\"")
        .contains("tier=\"alpha\" from=\"closed\" to=\"open\""));
    assertThat(run.stdout()).anySatisfy(l -> assertThat(l).contains("bravo REJECTED ITS CREDENTIAL")
        .contains("invalid.\\n" + FORGED_JSON + "\\r\\n" + FORGED_TEXT));
  }
}
