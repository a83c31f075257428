package dev.georesolver.issues;

import dev.georesolver.config.Manifest;
import dev.georesolver.ingress.IngressVerticle;
import dev.georesolver.metrics.Metrics;
import dev.georesolver.support.Stack;
import dev.georesolver.web.LocalCaller;
import dev.georesolver.web.ServerLimits;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Base64;
import java.util.Map;

import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Issue 23 item 3: with no admin key only local callers reach the admin surface, and commands need what a cross-site page cannot send. */
@ExtendWith(VertxExtension.class)
class Issue23AdminSurfaceTest {

  private static final String ACME = "tk-acme-23-admin";
  private static final String ROOT = "tk-root-23-admin";

  private static String ladder() {
    return manifest().tier("world_gazetteer", "gazetteer", null, "locality", 200, "typical_ms: 2").yaml();
  }

  private static Stack open(Vertx vertx) {
    return Stack.deploy(vertx, ladder()).await();
  }

  private static Stack withTenants(Vertx vertx) {
    return Stack.deploy(vertx, ladder() + """
        tenants:
          - { id: "acme", keys: [ { env: "ACME_KEY" } ] }
          - { id: "root", keys: [ { env: "ROOT_KEY" } ], admin: true }
        """, Map.of("ACME_KEY", ACME, "ROOT_KEY", ROOT), Clock.systemUTC(), Map.of()).await();
  }

  private static HttpResponse<Buffer> send(Stack s, HttpMethod method, String path, String... headers) {
    HttpRequest<Buffer> r = s.client.request(method, s.port, "localhost", path);
    for (int k = 0; k < headers.length; k += 2) {
      r.putHeader(headers[k], headers[k + 1]);
    }
    return r.send().await();
  }

  private static String basic(String key) {
    return "Basic " + Base64.getEncoder().encodeToString(("operator:" + key).getBytes(StandardCharsets.UTF_8));
  }

  @Test
  @DisplayName("without tenants: a caller behind a proxy or under another Host (DNS rebinding) gets 403 from every admin route")
  void openAdminAnswersOnlyLocalCallers(Vertx vertx) {
    Stack s = open(vertx);
    assertThat(send(s, HttpMethod.GET, "/manifest").statusCode()).as("a local caller").isEqualTo(200);
    for (String path : new String[] {"/manifest", "/v1/reconcile", "/dashboard/"}) {
      assertThat(send(s, HttpMethod.GET, path, "X-Forwarded-For", "203.0.113.9").statusCode()).as(path + " via a proxy").isEqualTo(403);
      assertThat(send(s, HttpMethod.GET, path, "Host", "evil.example:" + s.port).statusCode()).as(path + " rebinding").isEqualTo(403);
    }
    HttpResponse<Buffer> forced = send(s, HttpMethod.POST, "/admin/tiers/world_gazetteer/force-open", "Forwarded", "for=198.51.100.7",
        "X-Requested-By", "x");
    assertThat(forced.statusCode()).isEqualTo(403);
    assertThat(forced.bodyAsJsonObject().getString("detail")).contains("only on this machine");
    assertThat(s.geocode("Paris").await().bodyAsJsonObject().getString("status")).as("the API stays open").isEqualTo("resolved");
  }

  @Test
  @DisplayName("without tenants: a command from this machine needs X-Requested-By or a JSON content type (no-cors fetch cannot send either)")
  void openCommandsNeedTheMarker(Vertx vertx) {
    Stack s = open(vertx);
    String path = "/admin/tiers/world_gazetteer/release";
    assertThat(send(s, HttpMethod.POST, path).statusCode()).as("as fetch(..., {mode: 'no-cors'})").isEqualTo(403);
    assertThat(send(s, HttpMethod.POST, path, "Content-Type", "text/plain").statusCode()).isEqualTo(403);
    assertThat(send(s, HttpMethod.POST, path, "Content-Type", "application/x-www-form-urlencoded").statusCode()).isEqualTo(403);
    assertThat(send(s, HttpMethod.POST, path, "X-Requested-By", "curl").statusCode()).isEqualTo(200);
    assertThat(send(s, HttpMethod.POST, path, "Content-Type", "application/json").statusCode()).isEqualTo(200);
  }

  @Test
  @DisplayName("with tenants: Basic admin credentials read the admin surface but change nothing; a Bearer key with the marker does")
  void basicCredentialsOnlyRead(Vertx vertx) {
    Stack s = withTenants(vertx);
    String path = "/admin/tiers/world_gazetteer/release";
    assertThat(send(s, HttpMethod.GET, "/manifest", "Authorization", basic(ROOT)).statusCode()).isEqualTo(200);
    HttpResponse<Buffer> cached = send(s, HttpMethod.POST, path, "Authorization", basic(ROOT), "X-Requested-By", "x");
    assertThat(cached.statusCode()).isEqualTo(403);
    assertThat(cached.bodyAsJsonObject().getString("detail")).contains("Basic");
    assertThat(send(s, HttpMethod.POST, path, "Authorization", "Bearer " + ROOT).statusCode()).as("unmarked").isEqualTo(403);
    assertThat(send(s, HttpMethod.POST, path, "Authorization", "Bearer " + ROOT, "X-Requested-By", "x").statusCode()).isEqualTo(200);
    assertThat(send(s, HttpMethod.POST, path, "X-Api-Key", ROOT, "Content-Type", "application/json").statusCode()).isEqualTo(200);
  }

  @Test
  @DisplayName("with tenants: /metrics and the readiness detail need an admin key; liveness and the readiness status stay open")
  void operatorDataNeedsAKey(Vertx vertx) {
    Stack s = withTenants(vertx);
    assertThat(send(s, HttpMethod.GET, "/metrics").statusCode()).isEqualTo(401);
    assertThat(send(s, HttpMethod.GET, "/metrics", "Authorization", "Bearer " + ACME).statusCode()).isEqualTo(403);
    assertThat(send(s, HttpMethod.GET, "/metrics", "Authorization", "Bearer " + ROOT).bodyAsString()).contains("tenant=\"acme\"");
    assertThat(send(s, HttpMethod.GET, "/health/live").statusCode()).isEqualTo(200);
    for (String key : new String[] {null, ACME, "not-a-key"}) {
      HttpResponse<Buffer> ready = key == null ? send(s, HttpMethod.GET, "/health/ready")
          : send(s, HttpMethod.GET, "/health/ready", "Authorization", "Bearer " + key);
      assertThat(ready.statusCode()).isEqualTo(200);
      assertThat(ready.bodyAsJsonObject()).as("key " + key).isEqualTo(new JsonObject().put("ready", true));
    }
    JsonObject detail = send(s, HttpMethod.GET, "/health/ready", "Authorization", basic(ROOT)).bodyAsJsonObject();
    assertThat(detail.getBoolean("ready")).isTrue();
    assertThat(detail.containsKey("state")).isTrue();
    assertThat(detail.containsKey("tiers")).isTrue();
  }

  @Test
  @DisplayName("server.host (and serve --host) chooses the address listened on: bound to 127.0.0.2, nothing answers on 127.0.0.1")
  void hostChoosesTheBindAddress(Vertx vertx) throws Exception {
    Stack s = open(vertx);
    Manifest m = manifest().tier("world_gazetteer", "gazetteer", null, "locality", 200, "typical_ms: 2")
        .extra("server: { host: \"127.0.0.2\" }\n").build();
    assertThat(m.server().host()).isEqualTo("127.0.0.2");
    IngressVerticle ingress = new IngressVerticle(m, 0, new Metrics(), ServerLimits.defaults());
    vertx.deployVerticle(ingress).await();
    int port = ingress.actualPort();
    try (Socket ok = new Socket()) {
      ok.connect(new InetSocketAddress("127.0.0.2", port), 2000);
      assertThat(ok.isConnected()).isTrue();
    }
    assertThatThrownBy(() -> {
      try (Socket refused = new Socket()) {
        refused.connect(new InetSocketAddress("127.0.0.1", port), 2000);
      }
    }).isInstanceOf(ConnectException.class);
    IngressVerticle flag = new IngressVerticle(s.manifest, 0, new Metrics(), ServerLimits.defaults()).host("127.0.0.2");
    vertx.deployVerticle(flag).await();
    assertThatThrownBy(() -> {
      try (Socket refused = new Socket()) {
        refused.connect(new InetSocketAddress("127.0.0.1", flag.actualPort()), 2000);
      }
    }).isInstanceOf(IOException.class);
  }

  @Test
  @DisplayName("who is local: loopback peers without proxy headers, under a loopback Host; nothing else")
  void localCallers() {
    assertThat(LocalCaller.isLocal("127.0.0.1", "localhost:8080", false)).isTrue();
    assertThat(LocalCaller.isLocal("0:0:0:0:0:0:0:1", "[::1]:8080", false)).isTrue();
    assertThat(LocalCaller.isLocal("::ffff:127.0.0.1", null, false)).isTrue();
    assertThat(LocalCaller.isLocal("127.0.0.1", "app.localhost", false)).isTrue();
    assertThat(LocalCaller.isLocal("192.0.2.2", "localhost", false)).as("another interface").isFalse();
    assertThat(LocalCaller.isLocal("::ffff:192.0.2.2", "localhost", false)).isFalse();
    assertThat(LocalCaller.isLocal("127.0.0.1", "localhost", true)).as("a proxy").isFalse();
    assertThat(LocalCaller.isLocal("127.0.0.1", "127.0.0.1.evil.example", false)).isFalse();
    assertThat(LocalCaller.isLocal("127.0.0.1", "localhost.evil.example:8080", false)).isFalse();
    assertThat(LocalCaller.isLocal("127.0.0.1", "localhost:80:80", false)).isFalse();
    assertThat(LocalCaller.isLocal("1270.0.0.1", "localhost", false)).isFalse();
    assertThat(LocalCaller.isLocal(null, "localhost", false)).isFalse();
  }
}
