package dev.georesolver.issues;

import dev.georesolver.config.KeyDigest;
import dev.georesolver.support.ManifestFiles;
import dev.georesolver.support.Stack;
import dev.georesolver.support.TestState;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** Issue 23 item 11: a reload that revokes a key ends the streams opened with it, and a reload refills no tenant's rate limit. */
@ExtendWith(VertxExtension.class)
class Issue23RevokedStreamsTest {

  private static final String ACME = "tk-acme-23-stream";
  private static final String ACME_NEW = "tk-acme-23-stream-new";
  private static final String ROOT = "tk-root-23-stream";
  private static final String ROOT_NEW = "tk-root-23-stream-new";
  private static final String LIMITED = "tk-limited-23-stream";

  private final Path state = TestState.freshFile();

  private String yaml(String acmeKey, String rootKey, String extraTenant) {
    return manifest().tier("world_gazetteer", "gazetteer", null, "locality", 200, "typical_ms: 2")
        .extra("state: { path: \"" + state + "\" }\n"
            + "tenants:\n"
            + "  - { id: \"acme\", keys: [ { sha256: \"" + hex(acmeKey) + "\" } ] }\n"
            + "  - { id: \"root\", keys: [ { sha256: \"" + hex(rootKey) + "\" } ], admin: true }\n"
            + "  - { id: \"limited\", keys: [ { sha256: \"" + hex(LIMITED) + "\" } ], rate_limit_per_s: 0.001, burst: 2 }\n"
            + extraTenant).yaml();
  }

  private static String hex(String key) {
    return HexFormat.of().formatHex(KeyDigest.sha256(key));
  }

  private Stack deploy(Vertx vertx, Path f) {
    return Stack.deployFile(vertx, f, Map.of("GEO_RELOAD_POLL_MS", "0"), Clock.systemUTC(), Map.of()).await();
  }

  private static HttpResponse<Buffer> reload(Stack s, String rootKey) {
    HttpResponse<Buffer> r = s.client.post(s.port, "localhost", "/admin/reload").putHeader("Authorization", "Bearer " + rootKey)
        .putHeader("X-Requested-By", "test").send().await();
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(200);
    assertThat(r.bodyAsJsonObject().getJsonObject("last_attempt").getString("outcome")).isEqualTo("applied");
    return r;
  }

  /** A stream opened with {@code key} (200 asserted): what completes when it ends. */
  private static io.vertx.core.Future<Void> open(HttpClient http, int port, String path, String key) {
    HttpClientResponse resp = http.request(new RequestOptions().setMethod(HttpMethod.GET).setPort(port).setHost("localhost")
            .setURI(path).putHeader("Authorization", "Bearer " + key))
        .compose(req -> req.send()).await();
    assertThat(resp.statusCode()).as(path).isEqualTo(200);
    resp.handler(b -> { });
    return resp.end();
  }

  @Test
  @DisplayName("/admin/events and /v1/corrections/stream opened with keys a reload revokes end; one whose key stays keeps going")
  void revokedStreamsEnd(Vertx vertx) throws Exception {
    Path f = TestState.freshDir().resolve("manifest.yaml");
    Files.writeString(f, yaml(ACME, ROOT, ""));
    Stack s = deploy(vertx, f);
    HttpClient http = vertx.createHttpClient();
    io.vertx.core.Future<Void> events = open(http, s.port, "/admin/events", ROOT);
    io.vertx.core.Future<Void> corrections = open(http, s.port, "/v1/corrections/stream", ACME);
    io.vertx.core.Future<Void> kept = open(http, s.port, "/v1/corrections/stream", LIMITED);

    assertThat(events.isComplete() || corrections.isComplete() || kept.isComplete()).as("open before the reload").isFalse();
    ManifestFiles.replace(f, yaml(ACME_NEW, ROOT_NEW, ""));
    reload(s, ROOT);

    // Each ends (the await fails the test if it never does: before the fix both outlived their keys).
    events.timeout(30, TimeUnit.SECONDS).await();
    corrections.timeout(30, TimeUnit.SECONDS).await();
    assertThat(kept.isComplete()).as("the stream whose key the reload kept").isFalse();
    open(http, s.port, "/v1/corrections/stream", ACME_NEW);
    HttpResponse<Buffer> again = s.client.get(s.port, "localhost", "/v1/corrections/stream").putHeader("Authorization", "Bearer " + ACME)
        .send().await();
    assertThat(again.statusCode()).as("the old key reconnecting").isEqualTo(401);
    // The stream whose key the reload kept is still open: a second reload that revokes it ends it too.
    ManifestFiles.replace(f, yaml(ACME_NEW, ROOT_NEW, "  - { id: \"other\", keys: [ { sha256: \"" + hex("tk-other") + "\" } ] }\n")
        .replace(hex(LIMITED), hex("tk-limited-rotated")));
    reload(s, ROOT_NEW);
    kept.timeout(30, TimeUnit.SECONDS).await();
  }

  @Test
  @DisplayName("a tenant over its rate limit is still over it after a reload that leaves its limit as it was")
  void reloadRefillsNoBucket(Vertx vertx) throws Exception {
    Path f = TestState.freshDir().resolve("manifest.yaml");
    Files.writeString(f, yaml(ACME, ROOT, ""));
    Stack s = deploy(vertx, f);
    for (int k = 0; k < 2; k++) {
      assertThat(geocode(s, LIMITED, "Paris " + k).statusCode()).isEqualTo(200);
    }
    assertThat(geocode(s, LIMITED, "Paris 3").statusCode()).isEqualTo(429);
    ManifestFiles.replace(f, yaml(ACME, ROOT, "  - { id: \"other\", keys: [ { sha256: \"" + hex("tk-other") + "\" } ] }\n"));
    reload(s, ROOT);
    HttpResponse<Buffer> after = geocode(s, LIMITED, "Paris 4");
    assertThat(after.statusCode()).as("after the reload: %s", after.bodyAsString()).isEqualTo(429);
    // A reload that changes the tenant's own limit gives it the new limit's full bucket.
    ManifestFiles.replace(f, yaml(ACME, ROOT, "").replace("burst: 2", "burst: 3"));
    reload(s, ROOT);
    assertThat(geocode(s, LIMITED, "Paris 5").statusCode()).isEqualTo(200);
  }

  private static HttpResponse<Buffer> geocode(Stack s, String key, String q) {
    return s.client.get(s.port, "localhost", "/v1/geocode").addQueryParam("q", q).putHeader("Authorization", "Bearer " + key)
        .send().await();
  }
}
