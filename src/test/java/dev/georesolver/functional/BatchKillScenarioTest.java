package dev.georesolver.functional;

import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.RedisServer;
import dev.georesolver.support.ResolverProcess;
import dev.georesolver.support.Stack;
import dev.georesolver.support.TestState;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A batch job survives {@code kill -9} of the resolver (a real child JVM) in the middle of the job:
 * once restarted on the same state it finishes with nothing lost, no address answered twice
 * upstream, and the same results file as an uninterrupted run. The stand-in counts the answers it
 * gives per address; while "held" it answers 429, so the rows in flight at the kill have no answer
 * upstream (and the job only slows down meanwhile). On the SQLite file, and on a real Redis with a
 * second instance sharing the job and taking over the killed one's slices.
 */
@ExtendWith(VertxExtension.class)
class BatchKillScenarioTest {

  static final int ROWS = 240;

  private static RedisServer redis;

  @BeforeAll
  static void redis() {
    redis = RedisServer.start();
  }

  @AfterAll
  static void stop() {
    redis.close();
  }

  /** The stand-in: answers counted per address and per instance path; 429 while held. */
  static final class Upstream {
    final Map<String, AtomicInteger> answered = new ConcurrentHashMap<>();
    final Map<String, AtomicInteger> byPath = new ConcurrentHashMap<>();
    final AtomicBoolean held = new AtomicBoolean();
    final AtomicInteger total = new AtomicInteger();
    FakeProvider provider;

    FakeProvider.Behaviour answer(io.vertx.core.http.HttpServerRequest r) {
      if (held.get()) {
        return FakeProvider.status(429, "");
      }
      String q = r.getParam("q");
      answered.computeIfAbsent(q, k -> new AtomicInteger()).incrementAndGet();
      byPath.computeIfAbsent(r.path(), k -> new AtomicInteger()).incrementAndGet();
      total.incrementAndGet();
      return BatchApiScenarioTest.answer(r, 5);
    }
  }

  @Test
  @DisplayName("kill -9 mid-job on SQLite: the restarted resolver finishes it, nothing lost, nothing asked twice, same file")
  void sqlite(Vertx vertx) throws Exception {
    run(vertx, TestState.freshFile().toString(), null);
  }

  @Test
  @DisplayName("kill -9 mid-job on Redis: a second instance shares the job and takes over the killed one's slices")
  void redis(Vertx vertx) throws Exception {
    run(vertx, null, redis.url());
  }

  static String yaml(String url, String state) {
    return manifest().budget(8000)
        .tier("stand_in", "generic", url, "exact", 6000, "typical_ms: 20",
            "circuit_breaker: { failure_threshold: 100000, half_open_timeout_ms: 200, success_threshold: 1 }")
        .extra((state == null ? "" : "state: { path: \"" + state + "\" }\n")
            + "batch: { concurrency: 4, max_in_flight: 4, slice_rows: 20, lease_ms: 1500, backoff_ms: 50 }")
        .yaml();
  }

  static String csv() {
    StringBuilder csv = new StringBuilder("ref,address\n");
    for (int i = 0; i < ROWS; i++) {
      csv.append("r").append(i).append(",\"").append(i).append(" Kill Street, Bern\"\n");
    }
    return csv.toString();
  }

  private static JsonObject job(WebClient web, int port, String id) {
    return web.get(port, "127.0.0.1", "/v1/batches/" + id).send().await().bodyAsJsonObject();
  }

  private static ResolverProcess start(Path manifest, String redisUrl) throws Exception {
    List<String> args = new ArrayList<>(List.of("--manifest", manifest.toString(), "--port", "0", "--event-loops", "1"));
    if (redisUrl != null) {
      args.addAll(List.of("--redis", redisUrl));
    }
    return ResolverProcess.start(120, Map.of(), args.toArray(String[]::new));
  }

  private static void run(Vertx vertx, String statePath, String redisUrl) throws Exception {
    Upstream up = new Upstream();
    up.provider = FakeProvider.start(vertx, up::answer).await();
    WebClient web = WebClient.create(vertx);
    Path dir = TestState.freshDir();
    Path ma = dir.resolve("a.yaml");
    Files.writeString(ma, yaml(up.provider.url() + "/a", statePath));
    Path mb = dir.resolve("b.yaml");
    Files.writeString(mb, yaml(up.provider.url() + "/b", statePath));
    String body = csv();
    String id;
    ResolverProcess second = redisUrl == null ? null : start(mb, redisUrl);
    try {
      try (ResolverProcess first = start(ma, redisUrl)) {
        var created = web.request(HttpMethod.POST, first.port(), "127.0.0.1", "/v1/batches").sendBuffer(Buffer.buffer(body)).await();
        assertThat(created.statusCode()).as(created.bodyAsString()).isEqualTo(201);
        id = created.bodyAsJsonObject().getString("id");
        BatchApiScenarioTest.await("a third of the rows answered", 60_000, () -> up.total.get() >= ROWS / 3);
        up.held.set(true);
        int port = first.port();
        // Every answer given upstream is recorded in the job before the kill: what is in flight now has none.
        BatchApiScenarioTest.await("the answers recorded", 60_000, () -> job(web, port, id).getLong("done") == up.total.get());
        assertThat(job(web, port, id).getLong("done")).as("killed in the middle").isLessThan(ROWS);
        first.kill();
      }
      up.held.set(false);
      try (ResolverProcess again = start(ma, redisUrl)) {
        int port = again.port();
        BatchApiScenarioTest.await("the restarted resolver finished the job", 240_000,
            () -> "done".equals(job(web, port, id).getString("state")));
        JsonObject end = job(web, port, id);
        assertThat(end.getLong("done")).isEqualTo(ROWS);
        assertThat(end.getLong("resolved")).as("nothing lost").isEqualTo(ROWS);
        assertThat(up.answered).as("every address answered upstream").hasSize(ROWS);
        assertThat(up.answered.values()).as("no address answered twice upstream").allSatisfy(n -> assertThat(n.get()).isEqualTo(1));
        if (second != null) {
          assertThat(up.byPath.getOrDefault("/b", new AtomicInteger()).get()).as("the second instance shared the job").isPositive();
        }
        String results = web.get(port, "127.0.0.1", "/v1/batches/" + id + "/results?format=csv").send().await().bodyAsString();

        // The same file through an uninterrupted run, for comparison.
        Stack clean = Stack.deploy(vertx, yaml(up.provider.url() + "/a", null)).await();
        var c = web.request(HttpMethod.POST, clean.port, "127.0.0.1", "/v1/batches").sendBuffer(Buffer.buffer(body)).await();
        String cid = c.bodyAsJsonObject().getString("id");
        BatchApiScenarioTest.await("the uninterrupted run", 60_000, () -> "done".equals(job(web, clean.port, cid).getString("state")));
        String expected = web.get(clean.port, "127.0.0.1", "/v1/batches/" + cid + "/results?format=csv").send().await().bodyAsString();
        assertThat(results).as("the same results file as an uninterrupted run").isEqualTo(expected);
      }
    } finally {
      if (second != null) {
        second.close();
      }
    }
  }
}
