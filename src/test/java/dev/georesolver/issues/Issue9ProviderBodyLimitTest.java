package dev.georesolver.issues;

import ch.qos.logback.classic.Level;
import dev.georesolver.support.GzipBomb;
import dev.georesolver.support.LogCapture;
import dev.georesolver.support.RawProvider;
import dev.georesolver.support.Stack;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.function.Consumer;

import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** Issue 9 defect 1: a provider body is capped however it arrives (chunked, until close, gzip, a lying Content-Length), as a degradable failure, the connection reset, the next rung answering in budget, and nothing logged at ERROR. */
@ExtendWith(VertxExtension.class)
class Issue9ProviderBodyLimitTest {

  private static final long CAP = 4L * 1024 * 1024;
  private static final long BUDGET_MS = 3000;
  /** What a stand-in writes at most, so a resolver that reads without end still ends the test. */
  private static final long WRITE_LIMIT = 1024L * 1024 * 1024;

  private static final Consumer<RawProvider.Exchange> CHUNKED_ENDLESS = ex -> {
    ex.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        + "10\r\n{\"label\": \"aaaaa\r\n");
    ex.pump(Buffer.buffer("2000\r\n" + "a".repeat(0x2000) + "\r\n"), WRITE_LIMIT);
  };

  private static final Consumer<RawProvider.Exchange> UNTIL_CLOSE = ex -> {
    ex.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n[");
    ex.pump(Buffer.buffer("1,".repeat(4096)), WRITE_LIMIT);
  };

  private static final Consumer<RawProvider.Exchange> GZIP_BOMB = new Consumer<>() {
    private final byte[] bomb = GzipBomb.halfGigabyte();

    @Override
    public void accept(RawProvider.Exchange ex) {
      ex.respond(200, "application/json", Buffer.buffer(bomb), "Content-Encoding: gzip");
    }
  };

  private static final Consumer<RawProvider.Exchange> LYING_LENGTH = ex -> {
    ex.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + 64L * 1024 * 1024 + "\r\n\r\n");
    ex.pump(Buffer.buffer("a".repeat(64 * 1024)), WRITE_LIMIT);
  };

  private static final Consumer<RawProvider.Exchange> TRICKLE = ex -> {
    String body = "{\"x\": 2.35, \"y\": 48.85, \"crs\": \"EPSG:4326\", \"confidence\": 0.9}";
    ex.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + body.length() + "\r\n\r\n");
    int[] at = {0};
    ex.vertx().setPeriodic(50, id -> {
      if (ex.closed() || at[0] == body.length()) {
        ex.vertx().cancelTimer(id);
      } else {
        ex.write(body.substring(at[0], ++at[0]));
      }
    });
  };

  private Stack stack(Vertx vertx, RawProvider p, long timeoutMs) {
    return Stack.deploy(vertx, manifest().maxBudget(10_000)
        .tier("hostile", "generic", p.url("/geocode"), "exact", timeoutMs, "typical_ms: 50",
            "circuit_breaker: { failure_threshold: 2, half_open_timeout_ms: 60000, success_threshold: 1 }")
        .tier("world_gazetteer", "gazetteer", null, "locality", 200, "typical_ms: 2")
        .yaml()).await();
  }

  /** Resolves {@code city}; the gazetteer must answer within the budget after the hostile rung failed. */
  private static JsonObject fallsThrough(Stack s, String city, String outcome) {
    JsonObject r = s.geocode(city, "budget_ms", Long.toString(BUDGET_MS)).await().bodyAsJsonObject();
    assertThat(r.getString("status")).as(r.encode()).isEqualTo("resolved");
    assertThat(r.getString("resolution_source")).isEqualTo("world_gazetteer");
    assertThat(r.getLong("elapsed_ms")).isLessThanOrEqualTo(BUDGET_MS);
    JsonObject first = r.getJsonArray("attempts").getJsonObject(0);
    assertThat(first.getString("tier")).isEqualTo("hostile");
    assertThat(first.getString("outcome")).as(first.encode()).isEqualTo(outcome);
    return first;
  }

  private static void resetSoon(RawProvider p) throws InterruptedException {
    for (int i = 0; i < 100 && p.closedConnections() == 0; i++) {
      Thread.sleep(20);
    }
    assertThat(p.closedConnections()).as("the resolver reset the connection").isPositive();
  }

  private static void nothingAtErrorNorBlocked(LogCapture logs) {
    assertThat(logs.atLeast(Level.ERROR)).as("lines at ERROR").isEmpty();
    assertThat(logs.lines()).noneMatch(l -> l.contains("Stream reset") || l.contains("has been blocked"));
  }

  @Test
  @DisplayName("a chunked body without end: refused at the cap, the connection reset, counted against the breaker")
  void chunkedWithoutEnd(Vertx vertx) throws Exception {
    RawProvider p = RawProvider.start(vertx, CHUNKED_ENDLESS).await();
    Stack s = stack(vertx, p, 1000);
    try (LogCapture logs = LogCapture.start()) {
      JsonObject first = fallsThrough(s, "Paris, France", "degradable");
      assertThat(first.getString("detail")).isEqualTo("body over " + CAP + " bytes");
      assertThat(first.getInteger("tries")).as("not retried").isEqualTo(1);
      resetSoon(p);
      assertThat(p.bytesWritten()).as("bytes the provider got to write before the reset").isLessThan(64L * 1024 * 1024);

      fallsThrough(s, "Berlin, Germany", "degradable");
      fallsThrough(s, "Madrid, Spain", "skipped_breaker_open");
      assertThat(p.requests()).as("two failures opened the breaker").isEqualTo(2);
      nothingAtErrorNorBlocked(logs);
    }
  }

  @Test
  @DisplayName("a body read until the connection closes, without end: refused at the cap, the connection reset")
  void readUntilCloseWithoutEnd(Vertx vertx) throws Exception {
    RawProvider p = RawProvider.start(vertx, UNTIL_CLOSE).await();
    Stack s = stack(vertx, p, 1000);
    try (LogCapture logs = LogCapture.start()) {
      assertThat(fallsThrough(s, "Paris, France", "degradable").getString("detail")).isEqualTo("body over " + CAP + " bytes");
      resetSoon(p);
      assertThat(p.bytesWritten()).isLessThan(64L * 1024 * 1024);
      nothingAtErrorNorBlocked(logs);
    }
  }

  @Test
  @DisplayName("a gzip bomb (half a megabyte, 512 MiB inflated): refused once 4 MiB are inflated, well inside the attempt's timeout, no loop blocked")
  void gzipBomb(Vertx vertx) throws Exception {
    RawProvider p = RawProvider.start(vertx, GZIP_BOMB).await();
    Stack s = stack(vertx, p, 1000);
    try (LogCapture logs = LogCapture.start()) {
      JsonObject first = fallsThrough(s, "Paris, France", "degradable");
      assertThat(first.getString("detail")).isEqualTo("body over " + CAP + " bytes once inflated");
      assertThat(first.getLong("ms")).as("ms at the rung, against its 1,000 ms timeout").isLessThan(1000);
      resetSoon(p);
      nothingAtErrorNorBlocked(logs);
    }
    assertThat(p.requests()).isEqualTo(1);
  }

  @Test
  @DisplayName("a Content-Length over the cap: refused before the body is read, and quietly (no Stream reset at ERROR)")
  void contentLengthOverTheCap(Vertx vertx) throws Exception {
    RawProvider p = RawProvider.start(vertx, LYING_LENGTH).await();
    Stack s = stack(vertx, p, 1000);
    try (LogCapture logs = LogCapture.start()) {
      for (String city : new String[] {"Paris, France", "Berlin, Germany"}) {
        assertThat(fallsThrough(s, city, "degradable").getString("detail"))
            .isEqualTo("body over " + CAP + " bytes: Content-Length " + 64L * 1024 * 1024);
      }
      resetSoon(p);
      nothingAtErrorNorBlocked(logs);
    }
  }

  @Test
  @DisplayName("a body trickled a byte every 50 ms: cut by the attempt's timeout, the next rung answering in budget")
  void trickle(Vertx vertx) throws Exception {
    RawProvider p = RawProvider.start(vertx, TRICKLE).await();
    Stack s = stack(vertx, p, 500);
    try (LogCapture logs = LogCapture.start()) {
      JsonObject first = fallsThrough(s, "Paris, France", "transient");
      assertThat(first.getString("detail")).startsWith("attempt timed out after");
      resetSoon(p);
      nothingAtErrorNorBlocked(logs);
    }
  }

  @Test
  @DisplayName("broken chunk framing, or a status line quoting the key: a failed attempt, nothing at ERROR, no key in the answer")
  void malformedResponses(Vertx vertx) throws Exception {
    String[] answers = {
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"x\":1,\"y\"\r\n",
        "HTTP/1.1 2OO you sent key=K3Y-in-status-line\r\nContent-Length: 2\r\n\r\n{}",
    };
    int[] n = {0};
    RawProvider p = RawProvider.start(vertx, ex -> ex.write(answers[n[0]++ % answers.length])).await();
    Stack s = Stack.deploy(vertx, manifest().maxBudget(10_000)
        .tier("hostile", "generic", p.url("/geocode"), "exact", 1000, "typical_ms: 50",
            "credential: { query_param: \"key\", env: \"K\" }")
        .tier("world_gazetteer", "gazetteer", null, "locality", 200, "typical_ms: 2")
        .yaml(), java.util.Map.of("K", "K3Y-in-status-line"), java.time.Clock.systemUTC(), java.util.Map.of()).await();
    try (LogCapture logs = LogCapture.start()) {
      for (String city : new String[] {"Paris, France", "Berlin, Germany"}) {
        JsonObject r = s.geocode(city, "budget_ms", Long.toString(BUDGET_MS)).await().bodyAsJsonObject();
        assertThat(r.getString("resolution_source")).as(r.encode()).isEqualTo("world_gazetteer");
        assertThat(r.encode()).doesNotContain("K3Y-in-status-line");
      }
      nothingAtErrorNorBlocked(logs);
      assertThat(logs.lines()).noneMatch(l -> l.contains("K3Y-in-status-line"));
    }
  }

  @Test
  @DisplayName("an ordinary gzip answer is read, and Accept-Encoding offers only what the tier decodes")
  void ordinaryGzipAnswer(Vertx vertx) throws Exception {
    String[] accept = new String[1];
    RawProvider p = RawProvider.start(vertx, ex -> {
      accept[0] = ex.headers.get("accept-encoding");
      byte[] body = "{\"x\": 2.35, \"y\": 48.85, \"crs\": \"EPSG:4326\", \"confidence\": 0.9, \"label\": \"Paris\"}"
          .getBytes(java.nio.charset.StandardCharsets.UTF_8);
      java.io.ByteArrayOutputStream z = new java.io.ByteArrayOutputStream();
      try (java.util.zip.GZIPOutputStream g = new java.util.zip.GZIPOutputStream(z)) {
        g.write(body);
      } catch (java.io.IOException e) {
        throw new IllegalStateException(e);
      }
      ex.respond(200, "application/json", Buffer.buffer(z.toByteArray()), "Content-Encoding: gzip");
    }).await();
    Stack s = stack(vertx, p, 1000);
    JsonObject r = s.geocode("Paris, France").await().bodyAsJsonObject();
    assertThat(r.getString("resolution_source")).as(r.encode()).isEqualTo("hostile");
    assertThat(r.getString("label")).isEqualTo("Paris");
    assertThat(accept[0]).isEqualTo("gzip, deflate");
  }
}
