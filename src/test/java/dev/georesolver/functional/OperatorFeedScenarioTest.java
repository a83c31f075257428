package dev.georesolver.functional;

import dev.georesolver.bus.Addresses;
import dev.georesolver.support.EventStream;
import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.Stack;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The operator's feed and page: {@code GET /admin/events} streams a {@code hello} with the whole
 * picture, a traffic snapshot a second, breaker transitions as they happen and the reconciler's
 * news; {@code /dashboard} serves its files from the jar with a strict Content-Security-Policy and
 * revalidation.
 */
@ExtendWith(VertxExtension.class)
class OperatorFeedScenarioTest {

  private static final Duration WAIT = Duration.ofSeconds(10);

  private static Stack stack(Vertx vertx) {
    FakeProvider primary = FakeProvider.start(vertx, json(generic(1, 1, "EPSG:4326", 0.95))).await();
    FakeProvider secondary = FakeProvider.start(vertx, json(generic(2, 2, "EPSG:4326", 0.8))).await();
    return Stack.deploy(vertx, manifest()
        .tier("primary", "generic", primary.url(), "exact", 500)
        .tier("secondary", "generic", secondary.url(), "open_data", 500)
        .yaml()).await();
  }

  private static double share(JsonObject snapshot, String source) {
    JsonObject s = snapshot.getJsonObject("window").getJsonObject("routing_share");
    return s.containsKey(source) ? s.getDouble(source) : 0;
  }

  @Test
  @DisplayName("hello, then snapshots that follow the traffic, breaker transitions relayed at once, and reconciler news")
  void feedFollowsWhatHappens(Vertx vertx) throws Exception {
    Stack s = stack(vertx);
    try (EventStream feed = EventStream.open(vertx, s.port, "/admin/events", "accept-encoding", "gzip")) {
      assertThat(feed.status()).isEqualTo(200);
      assertThat(feed.headers().get("content-type")).isEqualTo("text/event-stream; charset=utf-8");
      assertThat(feed.headers().get("cache-control")).isEqualTo("no-store");
      assertThat(feed.headers().get("content-encoding")).as("never compressed, so events are not held back").isNull();

      JsonObject hello = feed.await("hello", WAIT).data();
      assertThat(hello.getString("manifest_revision")).isEqualTo(s.manifest.revision());
      assertThat(hello.getJsonArray("tiers").stream().map(t -> ((JsonObject) t).getString("tier") + "=" + ((JsonObject) t).getString("state")))
          .containsExactly("primary=closed", "secondary=closed");
      assertThat(hello.getValue("reconcile")).as("no reconciler has spoken").isNull();
      assertThat(hello.getJsonArray("history")).isNotNull();
      assertThat(hello.getJsonObject("shadow").getString("state")).as("shadow sampling is off by default").isEqualTo("off");

      for (int i = 0; i < 5; i++) {
        s.geocode(i + " Feed Street").await();
      }
      JsonObject before = feed.await("snapshot", e -> share(e, "primary") == 1.0, WAIT).data();
      assertThat(before.getJsonObject("window").getDouble("refusal_rate")).isEqualTo(0.0);
      assertThat(before.getJsonObject("window").getJsonObject("latency_ms").getDouble("p50")).isNotNull();

      s.client.post(s.port, "localhost", "/admin/tiers/primary/force-open").putHeader("X-Requested-By", "test").send().await();
      JsonObject breaker = feed.await("breaker", WAIT).data();
      assertThat(breaker.getMap()).containsEntry("tier", "primary").containsEntry("from", "closed").containsEntry("to", "forced_open")
          .containsEntry("reason", "force_open");
      feed.await("snapshot", e -> e.getJsonArray("tiers").getJsonObject(0).getString("state").equals("forced_open"), WAIT);
      for (int i = 0; i < 20; i++) {
        s.geocode(i + " Shifted Street").await();
      }
      feed.await("snapshot", e -> share(e, "secondary") > 0.5, WAIT);

      vertx.eventBus().publish(Addresses.RECONCILE_EVENTS, new JsonObject().put("type", "reconcile").put("pending", 4)
          .put("oldest_pending_age_s", 12.5));
      vertx.eventBus().publish(Addresses.RECONCILE_EVENTS, new JsonObject().put("type", "correction").put("served_by", "secondary")
          .put("corrected_by", "primary").put("moved_m", 140));
      assertThat(feed.await("reconcile", WAIT).data().getInteger("pending")).isEqualTo(4);
      assertThat(feed.await("correction", WAIT).data().getString("corrected_by")).isEqualTo("primary");
      assertThat(feed.raw()).allSatisfy(block -> assertThat(block).matches("(?s)(retry: 2000|event: [a-z_]+\ndata: \\{[^\n]*\\})"));

      try (EventStream late = EventStream.open(vertx, s.port, "/admin/events")) {
        JsonObject again = late.await("hello", WAIT).data();
        assertThat(again.getJsonArray("tiers").getJsonObject(0).getString("state")).isEqualTo("forced_open");
        assertThat(again.getJsonObject("reconcile").getInteger("pending")).isEqualTo(4);
        assertThat(again.getJsonArray("corrections")).hasSize(1);
        JsonArray kept = again.getJsonArray("breaker_events");
        assertThat(kept.getJsonObject(kept.size() - 1).getString("to")).isEqualTo("forced_open");
        assertThat(again.getJsonArray("history").size()).as("the snapshots so far").isGreaterThan(1);
      }
    }
  }

  @Test
  @DisplayName("at most 32 streams per ingress instance; the next is a 503 problem, and a closed stream frees its place")
  void streamsAreCapped(Vertx vertx) throws Exception {
    Stack s = stack(vertx);
    List<EventStream> open = new ArrayList<>();
    try {
      for (int i = 0; i < 32; i++) {
        EventStream e = EventStream.open(vertx, s.port, "/admin/events");
        e.await("hello", WAIT);
        open.add(e);
      }
      HttpResponse<Buffer> refused = s.get("/admin/events").await();
      assertThat(refused.statusCode()).isEqualTo(503);
      assertThat(refused.bodyAsJsonObject().getString("type")).endsWith("/events_unavailable");
      open.remove(0).close();
      long until = System.nanoTime() + WAIT.toNanos();
      EventStream again = null;
      while (again == null && System.nanoTime() < until) {
        EventStream e = EventStream.open(vertx, s.port, "/admin/events");
        if (e.status() == 200) {
          again = e;
        } else {
          e.close();
          Thread.sleep(50);
        }
      }
      assertThat(again).as("a place freed by a closed stream").isNotNull();
      open.add(again);
      again.await("hello", WAIT);
    } finally {
      open.forEach(EventStream::close);
    }
  }

  @Test
  @DisplayName("the dashboard: its files from the jar, a strict CSP, no inline script or style, revalidated by ETag; nothing else")
  void dashboardFiles(Vertx vertx) {
    Stack s = stack(vertx);
    HttpResponse<Buffer> bare = s.client.get(s.port, "localhost", "/dashboard").followRedirects(false).send().await();
    assertThat(bare.statusCode()).isEqualTo(301);
    assertThat(bare.getHeader("location")).isEqualTo("dashboard/");

    HttpResponse<Buffer> page = s.get("/dashboard/").await();
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.getHeader("content-type")).isEqualTo("text/html; charset=utf-8");
    assertThat(page.getHeader("content-security-policy")).contains("default-src 'none'", "script-src 'self'", "style-src 'self'",
        "connect-src 'self'", "frame-ancestors 'none'").doesNotContain("unsafe");
    assertThat(page.getHeader("x-content-type-options")).isEqualTo("nosniff");
    assertThat(page.getHeader("cache-control")).isEqualTo("no-cache");
    String html = page.bodyAsString();
    assertThat(Pattern.compile("<script(?![^>]*\\bsrc=)").matcher(html).find()).as("no inline script").isFalse();
    assertThat(html).doesNotContain("<style").doesNotContainPattern("\\sstyle=").doesNotContainPattern("\\son[a-z]+=");

    for (String file : List.of("dashboard.js", "dashboard.css", "favicon.svg", "index.html")) {
      HttpResponse<Buffer> f = s.get("/dashboard/" + file).await();
      assertThat(f.statusCode()).as(file).isEqualTo(200);
      String etag = f.getHeader("etag");
      assertThat(etag).as(file).matches("\"[0-9a-f]{16}\"");
      HttpResponse<Buffer> again = s.client.get(s.port, "localhost", "/dashboard/" + file).putHeader("if-none-match", etag).send().await();
      assertThat(again.statusCode()).as(file + " revalidated").isEqualTo(304);
    }
    assertThat(s.get("/dashboard/dashboard.js").await().getHeader("content-type")).isEqualTo("text/javascript; charset=utf-8");
    for (String path : List.of("/dashboard/missing.js", "/dashboard/../pom.xml", "/dashboard/%2e%2e/pom.xml", "/dashboard/sub/index.html")) {
      HttpResponse<Buffer> r = s.get(path).await();
      assertThat(r.statusCode()).as(path).isIn(400, 404);
      assertThat(r.bodyAsString()).as(path).doesNotContain("<project");
    }
  }
}
