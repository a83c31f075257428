package dev.georesolver.web;

import dev.georesolver.config.Manifest;
import dev.georesolver.metrics.Metrics;
import dev.georesolver.support.FakeClock;
import dev.georesolver.support.ManifestBuilder;
import dev.georesolver.support.RawHttp;
import dev.georesolver.tenant.Tenants;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The tenant guard in front of routes it knows nothing about, as the admin, reconcile and
 * corrections routes will put it: stand-in handlers that count every request reaching them.
 */
@ExtendWith(VertxExtension.class)
class TenantAuthTest {

  private static final String ACME = "tk-acme-c0ffee01";
  private static final String BETA = "tk-beta-c0ffee02";
  private static final String ROOT = "tk-root-c0ffee03";

  private final AtomicInteger reached = new AtomicInteger();

  private static Manifest manifest(boolean tenants) {
    ManifestBuilder b = ManifestBuilder.manifest().tier("t1", "generic", "http://geo.example", "exact", 500);
    if (tenants) {
      b.extra("""
          tenants:
            - { id: "acme", keys: [ { env: "ACME" } ], rate_limit_per_s: 0.01, burst: 3 }
            - { id: "beta", keys: [ { env: "BETA" } ] }
            - { id: "root", keys: [ { env: "ROOT" } ], admin: true }
          """);
    }
    return b.build(Map.of("ACME", ACME, "BETA", BETA, "ROOT", ROOT));
  }

  /** The guards as the ingress mounts them, and stand-ins for the routes behind them. */
  private WebClient serve(Vertx vertx, Manifest m, Metrics metrics) {
    TenantAuth auth = new TenantAuth(Tenants.of(m, new FakeClock()), metrics);
    Router r = Router.router(vertx);
    r.route("/v1/*").handler(auth);
    r.route("/v1/reconcile").handler(auth.admin());
    r.route("/v1/reconcile/*").handler(auth.admin());
    r.route("/admin/*").handler(auth.admin());
    r.get("/v1/corrections").handler(ctx -> {
      String feed = auth.feedTenant(ctx, ctx.queryParams().get("tenant"));
      if (feed != null) {
        reached.incrementAndGet();
        ctx.end("feed of " + feed);
      }
    });
    r.get("/v1/whoami").handler(ctx -> {
      reached.incrementAndGet();
      ctx.end(auth.tenant(ctx).id());
    });
    r.get("/v1/reconcile").handler(ctx -> ctx.end(count("reconcile")));
    r.get("/admin").handler(ctx -> ctx.end(count("admin")));
    r.get("/admin/events").handler(ctx -> ctx.end(count("events")));
    r.post("/admin/tiers/:name/force-open").handler(ctx -> ctx.end(count("forced " + ctx.pathParam("name"))));
    HttpServer server = vertx.createHttpServer().requestHandler(r).listen(0).await();
    return WebClient.create(vertx, new io.vertx.ext.web.client.WebClientOptions().setDefaultPort(server.actualPort()));
  }

  private String count(String what) {
    reached.incrementAndGet();
    return what;
  }

  private static HttpResponse<Buffer> send(WebClient c, HttpMethod method, String path, String key) {
    var req = c.request(method, path).putHeader("X-Requested-By", "test");
    if (key != null) {
      req.putHeader("Authorization", "Bearer " + key);
    }
    return req.send().await();
  }

  private static void assertProblem(HttpResponse<Buffer> r, int status, String type) {
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(status);
    assertThat(r.getHeader("content-type")).isEqualTo("application/problem+json");
    JsonObject p = r.bodyAsJsonObject();
    assertThat(p.getInteger("status")).isEqualTo(status);
    assertThat(p.getString("type")).endsWith("/" + type);
  }

  @Test
  @DisplayName("no key or a wrong key is a 401 problem with a Bearer challenge, and reaches nothing")
  void shouldChallengeAMissingOrWrongKey(Vertx vertx) {
    WebClient c = serve(vertx, manifest(true), new Metrics());

    HttpResponse<Buffer> none = send(c, HttpMethod.GET, "/v1/whoami", null);
    assertProblem(none, 401, "unauthenticated");
    assertThat(none.getHeader("WWW-Authenticate")).isEqualTo("Bearer realm=\"georesolver\"");
    HttpResponse<Buffer> wrong = send(c, HttpMethod.GET, "/v1/whoami", ACME + "0");
    assertProblem(wrong, 401, "unauthenticated");
    assertThat(wrong.getHeader("WWW-Authenticate")).isEqualTo("Bearer realm=\"georesolver\", error=\"invalid_token\"");
    assertThat(wrong.bodyAsString()).doesNotContain(ACME);
    assertProblem(send(c, HttpMethod.GET, "/v1/nothing-here", null), 401, "unauthenticated");
    assertThat(reached).hasValue(0);

    assertThat(send(c, HttpMethod.GET, "/v1/whoami", ACME).bodyAsString()).isEqualTo("acme");
    assertThat(c.get("/v1/whoami").putHeader("X-Api-Key", BETA).send().await().bodyAsString()).isEqualTo("beta");
  }

  @Test
  @DisplayName("a non-admin key cannot reach anything under /admin or /v1/reconcile, an admin key can")
  void shouldKeepAdminRoutesForAdmins(Vertx vertx) {
    WebClient c = serve(vertx, manifest(true), new Metrics());

    for (String path : new String[] {"/admin", "/admin/events", "/v1/reconcile", "/v1/reconcile/anything", "/v1/../admin/events",
        "/admin//events", "/admin/./events"}) {
      assertProblem(send(c, HttpMethod.GET, path, BETA), 403, "forbidden");
      assertProblem(send(c, HttpMethod.GET, path, null), 401, "unauthenticated");
    }
    assertProblem(send(c, HttpMethod.POST, "/admin/tiers/t1/force-open", BETA), 403, "forbidden");
    assertThat(reached).hasValue(0);

    assertThat(send(c, HttpMethod.GET, "/admin", ROOT).bodyAsString()).isEqualTo("admin");
    assertThat(send(c, HttpMethod.GET, "/admin/events", ROOT).bodyAsString()).isEqualTo("events");
    assertThat(send(c, HttpMethod.GET, "/v1/reconcile", ROOT).bodyAsString()).isEqualTo("reconcile");
    assertThat(send(c, HttpMethod.POST, "/admin/tiers/t1/force-open", ROOT).bodyAsString()).isEqualTo("forced t1");
  }

  @Test
  @DisplayName("a tenant reads its own corrections feed only; an admin may name any tenant")
  void shouldLimitAFeedToTheCallersTenant(Vertx vertx) {
    WebClient c = serve(vertx, manifest(true), new Metrics());

    assertThat(send(c, HttpMethod.GET, "/v1/corrections", ACME).bodyAsString()).isEqualTo("feed of acme");
    assertThat(send(c, HttpMethod.GET, "/v1/corrections?tenant=acme", ACME).bodyAsString()).isEqualTo("feed of acme");
    assertProblem(send(c, HttpMethod.GET, "/v1/corrections?tenant=beta", ACME), 403, "forbidden");
    assertThat(send(c, HttpMethod.GET, "/v1/corrections?tenant=beta", ROOT).bodyAsString()).isEqualTo("feed of beta");
    assertThat(reached).hasValue(3);
  }

  @Test
  @DisplayName("stacked guards authenticate and rate-limit once; over the limit is a 429 with Retry-After")
  void shouldTakeOneTokenPerRequestBehindStackedGuards(Vertx vertx) {
    Metrics metrics = new Metrics();
    WebClient c = serve(vertx, manifest(true), metrics);

    // acme's bucket holds 3 and refills once in 100 s; /v1/reconcile is behind two guards.
    for (int i = 0; i < 3; i++) {
      assertProblem(send(c, HttpMethod.GET, "/v1/reconcile", ACME), 403, "forbidden");
    }
    HttpResponse<Buffer> limited = send(c, HttpMethod.GET, "/v1/whoami", ACME);
    assertProblem(limited, 429, "rate_limited");
    assertThat(limited.getHeader("Retry-After")).isEqualTo("100");
    assertThat(send(c, HttpMethod.GET, "/v1/whoami", BETA).statusCode()).as("another tenant's limit").isEqualTo(200);

    String scrape = metrics.scrape();
    assertThat(scrape).contains("georesolver_tenant_requests_total{outcome=\"admitted\",tenant=\"acme\"} 3.0")
        .contains("georesolver_tenant_requests_total{outcome=\"forbidden\",tenant=\"acme\"} 3.0")
        .contains("georesolver_tenant_requests_total{outcome=\"rate_limited\",tenant=\"acme\"} 1.0")
        .contains("georesolver_tenant_requests_total{outcome=\"admitted\",tenant=\"beta\"} 1.0")
        .doesNotContain(ACME).doesNotContain(BETA);
  }

  @Test
  @DisplayName("a refused request whose body is still coming is answered, its body read and dropped, broken or not")
  void shouldAnswerARefusedRequestBeforeItsBody(Vertx vertx) {
    TenantAuth auth = new TenantAuth(Tenants.of(manifest(true), new FakeClock()), new Metrics());
    Router r = Router.router(vertx);
    r.route("/v1/*").handler(auth);
    r.post("/v1/geocode").handler(ctx -> ctx.end(count("reached")));
    int port = vertx.createHttpServer().requestHandler(r).listen(0).await().actualPort();
    String head = "POST /v1/geocode HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n";

    for (String request : new String[] {
        head + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n0x10\r\n{\"q\": \"Paris\"}\r\n0\r\n\r\n",
        head + "Transfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n",
        head + "Content-Length: 14\r\nConnection: close\r\n\r\n{\"q\": \"Paris\"}",
        head + "Content-Length: 400\r\nConnection: close\r\n\r\n{\"q\": ",
    }) {
      RawHttp.Response answer = RawHttp.exchange(port, request.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1), 5000);
      assertThat(answer.status()).as(request).isEqualTo(401);
      assertThat(answer.isProblem()).isTrue();
    }
    assertThat(reached).hasValue(0);
  }

  @Test
  @DisplayName("without tenants every route is open, as tenant public, admin routes included")
  void shouldLetEverythingThroughWithoutTenants(Vertx vertx) {
    WebClient c = serve(vertx, manifest(false), new Metrics());

    assertThat(send(c, HttpMethod.GET, "/v1/whoami", null).bodyAsString()).isEqualTo("public");
    assertThat(send(c, HttpMethod.GET, "/v1/whoami", "any key at all").bodyAsString()).isEqualTo("public");
    assertThat(send(c, HttpMethod.GET, "/admin/events", null).bodyAsString()).isEqualTo("events");
    assertThat(send(c, HttpMethod.GET, "/v1/corrections?tenant=other", null).bodyAsString()).isEqualTo("feed of other");
  }
}
