package dev.georesolver.functional;

import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.RedisServer;
import dev.georesolver.support.Stack;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.function.BooleanSupplier;

import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The batch API end to end through a real stand-in provider, on the SQLite file and on a real
 * Redis: submit, idempotent resubmission (by content and by {@code Idempotency-Key}), per-row
 * problems in the results, files refused before any job exists, cancel.
 */
@ExtendWith(VertxExtension.class)
class BatchApiScenarioTest {

  private static RedisServer redis;

  @BeforeAll
  static void redis() {
    redis = RedisServer.start();
  }

  @AfterAll
  static void stopRedis() {
    redis.close();
  }

  /** A point per address, the same every time; "nowhere" is not found. */
  static FakeProvider.Behaviour answer(io.vertx.core.http.HttpServerRequest r, long delayMs) {
    String q = r.getParam("q");
    if (q != null && q.toLowerCase(Locale.ROOT).contains("nowhere")) {
      return FakeProvider.status(404, "");
    }
    if (q == null) {
      return FakeProvider.json(FakeProvider.generic(Double.parseDouble(r.getParam("lon")), Double.parseDouble(r.getParam("lat")),
          "EPSG:4326", 0.9), delayMs);
    }
    int h = Math.floorMod(q.hashCode(), 1000);
    return FakeProvider.json(FakeProvider.generic(6 + h / 1000.0, 46 + h / 1000.0, "EPSG:4326", 0.95), delayMs);
  }

  private static Stack deploy(Vertx vertx, FakeProvider p, String backend, String batch) {
    String yaml = manifest().budget(8000)
        .tier("stand_in", "generic", p.url(), "exact", 6000, "typical_ms: 20")
        .extra("batch: { " + batch + " }")
        .yaml();
    return "redis".equals(backend) ? Stack.deployWithRedis(vertx, yaml, redis.url()).await() : Stack.deploy(vertx, yaml).await();
  }

  static HttpResponse<Buffer> submit(Stack s, String body, String key) {
    var req = s.client.request(HttpMethod.POST, s.port, "localhost", "/v1/batches");
    if (key != null) {
      req.putHeader("Idempotency-Key", key);
    }
    return req.sendBuffer(Buffer.buffer(body)).await();
  }

  static JsonObject awaitEnd(Stack s, String id) throws InterruptedException {
    JsonObject[] last = new JsonObject[1];
    await("job " + id + " ends", 60_000, () -> {
      last[0] = s.get("/v1/batches/" + id).await().bodyAsJsonObject();
      return List.of("done", "cancelled", "failed").contains(last[0].getString("state"));
    });
    return last[0];
  }

  static void await(String what, long ms, BooleanSupplier ok) throws InterruptedException {
    long until = System.nanoTime() + ms * 1_000_000;
    while (!ok.getAsBoolean()) {
      assertThat(System.nanoTime()).as(what).isLessThan(until);
      Thread.sleep(50);
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"sqlite", "redis"})
  @DisplayName("a CSV becomes one job, resolved row by row; the same file again is the same job; results keep input order and columns")
  void submitResolveDownload(String backend, Vertx vertx) throws Exception {
    FakeProvider p = FakeProvider.start(vertx, r -> answer(r, 0)).await();
    Stack s = deploy(vertx, p, backend, "slice_rows: 7");
    StringBuilder csv = new StringBuilder("\uFEFFid;address\n");
    for (int i = 0; i < 40; i++) {
      csv.append(i).append(';').append(i == 5 ? "" : i == 9 ? "nowhere " + backend : "\"" + i + " Main St,\nSpringfield " + backend + "\"")
          .append('\n');
    }
    csv.append("40;ragged;row\n");
    HttpResponse<Buffer> created = submit(s, csv.toString(), null);
    assertThat(created.statusCode()).as(created.bodyAsString()).isEqualTo(201);
    String id = created.bodyAsJsonObject().getString("id");
    assertThat(created.getHeader("Location")).isEqualTo("/v1/batches/" + id);
    assertThat(created.bodyAsJsonObject().getLong("total")).isEqualTo(41);

    HttpResponse<Buffer> again = submit(s, csv.toString(), null);
    assertThat(again.statusCode()).as("the same content is the same job").isEqualTo(200);
    assertThat(again.bodyAsJsonObject().getString("id")).isEqualTo(id);

    JsonObject end = awaitEnd(s, id);
    assertThat(end.getString("state")).isEqualTo("done");
    assertThat(end.getLong("done")).isEqualTo(41);
    assertThat(end.getLong("resolved")).isEqualTo(38);
    assertThat(end.getLong("refused")).isEqualTo(1);
    assertThat(end.getLong("invalid")).isEqualTo(2);
    assertThat(end.getLong("eta_s")).isZero();
    // Each answered address once upstream; the unanswerable one (a 404, which a row may be sent
    // again for when the tier's failure reads as pushback) at least once.
    // Only this job's addresses: on the shared Redis another test's open job may be worked by this stack too.
    Map<String, Long> asked = p.seen().stream().map(x -> x.query().get("q")).filter(java.util.Objects::nonNull)
        .filter(q -> q.endsWith("Springfield " + backend) || q.equals("nowhere " + backend))
        .collect(java.util.stream.Collectors.groupingBy(q -> q, java.util.stream.Collectors.counting()));
    assertThat(asked).as("every address with an answer or a refusal asked upstream").hasSize(39);
    asked.forEach((q, n) -> {
      if (!q.toLowerCase(Locale.ROOT).contains("nowhere")) {
        assertThat(n).as("each answered address asked upstream once: " + q).isEqualTo(1);
      }
    });

    String out = s.get("/v1/batches/" + id + "/results?format=csv").await().bodyAsString();
    assertThat(out).startsWith("\uFEFFid;address;status;lon;lat;");
    List<String> records = org.apache.commons.csv.CSVFormat.DEFAULT.builder().setDelimiter(';').get()
        .parse(new java.io.StringReader(out.substring(1))).stream().map(r -> r.get(0) + "|" + r.get(2)).toList();
    assertThat(records).hasSize(42);
    assertThat(records.get(1)).isEqualTo("0|resolved");
    assertThat(records.get(6)).isEqualTo("5|invalid");
    assertThat(records.get(10)).isEqualTo("9|refused");
    assertThat(records.get(41)).isEqualTo("40|invalid");
    assertThat(out).as("the input's embedded newline is kept").contains("\"0 Main St,\nSpringfield " + backend + "\"");

    String nd = s.get("/v1/batches/" + id + "/results?format=ndjson").await().bodyAsString();
    assertThat(nd.lines()).hasSize(41);
    assertThat(new JsonObject(nd.lines().toList().get(5)).getString("error")).isNotBlank();
    JsonObject geo = s.get("/v1/batches/" + id + "/results?format=geojson").await().bodyAsJsonObject();
    assertThat(geo.getJsonArray("features")).hasSize(41);

    JsonObject list = s.get("/v1/batches").await().bodyAsJsonObject();
    assertThat(list.getJsonArray("batches").stream().map(j -> ((JsonObject) j).getString("id"))).contains(id);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"sqlite", "redis"})
  @DisplayName("the same Idempotency-Key is the same job whatever the body; files that are no batch are refused before a job exists")
  void idempotencyKeyAndRefusals(String backend, Vertx vertx) throws Exception {
    FakeProvider p = FakeProvider.start(vertx, r -> answer(r, 0)).await();
    Stack s = deploy(vertx, p, backend, "max_rows: 5");
    String key = "import-" + backend + "-" + System.nanoTime();
    HttpResponse<Buffer> first = submit(s, "address\n1 Key St " + backend + "\n", key);
    assertThat(first.statusCode()).isEqualTo(201);
    HttpResponse<Buffer> second = submit(s, "address\n2 Other St " + backend + "\n", key);
    assertThat(second.statusCode()).isEqualTo(200);
    assertThat(second.bodyAsJsonObject().getString("id")).isEqualTo(first.bodyAsJsonObject().getString("id"));

    int before = s.get("/v1/batches").await().bodyAsJsonObject().getJsonArray("batches").size();
    HttpResponse<Buffer> binary = submit(s, "\u0000\u0001\u0002PK binary", null);
    assertThat(binary.statusCode()).as(binary.bodyAsString()).isEqualTo(400);
    assertThat(binary.getHeader("content-type")).isEqualTo("application/problem+json");
    HttpResponse<Buffer> columns = submit(s, "name,phone\nAda,123\n", null);
    assertThat(columns.statusCode()).as(columns.bodyAsString()).isEqualTo(400);
    HttpResponse<Buffer> tooMany = submit(s, "address\na 1\na 2\na 3\na 4\na 5\na 6\n", null);
    assertThat(tooMany.statusCode()).as(tooMany.bodyAsString()).isEqualTo(413);
    assertThat(s.get("/v1/batches").await().bodyAsJsonObject().getJsonArray("batches")).as("no job made").hasSize(before);
    assertThat(s.get("/v1/batches/b_00000000000000000000").await().statusCode()).isEqualTo(404);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"sqlite", "redis"})
  @DisplayName("DELETE cancels: no more rows go upstream, and the results say which rows were not resolved")
  void cancel(String backend, Vertx vertx) throws Exception {
    FakeProvider p = FakeProvider.start(vertx, r -> answer(r, 100)).await();
    Stack s = deploy(vertx, p, backend, "concurrency: 2, max_in_flight: 2, slice_rows: 10, lease_ms: 600");
    StringBuilder csv = new StringBuilder("address\n");
    for (int i = 0; i < 200; i++) {
      csv.append(i).append(" Cancel Rd ").append(backend).append('\n');
    }
    String id = submit(s, csv.toString(), null).bodyAsJsonObject().getString("id");
    await("some rows upstream", 20_000, () -> p.count() >= 4);
    JsonObject cancelled = s.client.request(HttpMethod.DELETE, s.port, "localhost", "/v1/batches/" + id).send().await()
        .bodyAsJsonObject();
    assertThat(cancelled.getString("state")).isEqualTo("cancelled");
    Thread.sleep(1000);
    int after = p.count();
    Thread.sleep(1000);
    assertThat(p.count()).as("nothing more sent once the lease was checked").isEqualTo(after);
    assertThat(after).isLessThan(100);
    String out = s.get("/v1/batches/" + id + "/results?format=csv").await().bodyAsString();
    assertThat(out.lines()).hasSize(201);
    assertThat(out).contains(",cancelled,");
  }
}
