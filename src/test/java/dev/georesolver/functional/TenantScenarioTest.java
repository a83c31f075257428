package dev.georesolver.functional;

import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.FailureCode;
import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.LogScanner;
import dev.georesolver.support.Stack;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
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
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** A resolver with tenants: authentication, intents, rate limits and the trust boundary, end to end over HTTP and the bus. */
@ExtendWith(VertxExtension.class)
class TenantScenarioTest {

  private static final String ACME = "tk-acme-4b1d9e0f33";
  private static final String LIMITED = "tk-limited-77c2aa";
  private static final String ROOT = "tk-root-e5a9017bd4";
  private static final String TIER_KEY = "sk-tier-0a0b0c0d";

  private LogScanner logs;
  private FakeProvider provider;
  private Stack stack;

  @BeforeEach
  void start(Vertx vertx) {
    logs = LogScanner.start(ACME, LIMITED, ROOT, TIER_KEY);
    provider = FakeProvider.start(vertx, json(generic(-0.1276, 51.5033, "EPSG:4326", 0.97))).await();
    stack = Stack.deploy(vertx, manifest()
        .tier("primary", "generic", provider.url(), "exact", 800, "credential: { header: X-Api-Key, env: TIER_KEY }")
        .extra("""
            tenants:
              - { id: "acme", keys: [ { env: "ACME_KEY" } ], intents: [describe, measure] }
              - { id: "limited", keys: [ { env: "LIMITED_KEY" } ], rate_limit_per_s: 0.001, burst: 2 }
              - { id: "root", keys: [ { env: "ROOT_KEY" } ], admin: true }
            """).yaml(), Map.of("ACME_KEY", ACME, "LIMITED_KEY", LIMITED, "ROOT_KEY", ROOT, "TIER_KEY", TIER_KEY),
        Clock.systemUTC(), Map.of()).await();
  }

  @AfterEach
  void releaseLogs() {
    logs.close();
  }

  private HttpResponse<Buffer> get(String path, String bearer) {
    HttpRequest<Buffer> r = stack.client.get(stack.port, "localhost", path);
    if (bearer != null) {
      r.putHeader("Authorization", "Bearer " + bearer);
    }
    return r.send().await();
  }

  private static void assertProblem(HttpResponse<Buffer> r, int status) {
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(status);
    assertThat(r.getHeader("content-type")).isEqualTo("application/problem+json");
    assertThat(r.bodyAsJsonObject().getInteger("status")).isEqualTo(status);
  }

  @Test
  @DisplayName("401 without a key or with a wrong one, 403 for an intent the tenant may not use, 429 over its limit: none reaches the chain")
  void shouldRefuseBeforeTheChain() {
    HttpResponse<Buffer> none = get("/v1/geocode?q=10+Downing+St", null);
    assertProblem(none, 401);
    assertThat(none.getHeader("WWW-Authenticate")).startsWith("Bearer realm=");
    assertProblem(get("/v1/geocode?q=10+Downing+St", ACME.toUpperCase()), 401);
    assertProblem(stack.client.post(stack.port, "localhost", "/v1/geocode").putHeader("X-Api-Key", "nope")
        .sendJsonObject(new JsonObject().put("q", "10 Downing St")).await(), 401);
    assertProblem(get("/v1/reverse?lat=51.5&lon=-0.12", null), 401);
    HttpResponse<Buffer> forbidden = get("/v1/geocode?q=10+Downing+St&intent=contain", ACME);
    assertProblem(forbidden, 403);
    assertThat(forbidden.bodyAsJsonObject().getString("detail")).isEqualTo("tenant acme may not use intent 'contain'");
    assertThat(get("/v1/geocode?q=1+Limited+Lane", LIMITED).statusCode()).isEqualTo(200);
    assertThat(get("/v1/geocode?q=2+Limited+Lane", LIMITED).statusCode()).isEqualTo(200);
    HttpResponse<Buffer> limited = get("/v1/geocode?q=3+Limited+Lane", LIMITED);
    assertProblem(limited, 429);
    assertThat(Long.parseLong(limited.getHeader("Retry-After"))).isBetween(1L, 1000L);

    assertThat(provider.count()).as("only the two admitted requests reached a provider").isEqualTo(2);
    String metrics = get("/metrics", ROOT).bodyAsString();
    assertThat(metrics).contains("georesolver_unauthenticated_total{reason=\"missing_key\"} 2.0")
        .contains("georesolver_unauthenticated_total{reason=\"unknown_key\"} 2.0")
        .contains("georesolver_tenant_requests_total{outcome=\"forbidden\",tenant=\"acme\"} 1.0")
        .contains("georesolver_tenant_requests_total{outcome=\"rate_limited\",tenant=\"limited\"} 1.0")
        .contains("georesolver_tenant_requests_total{outcome=\"admitted\",tenant=\"limited\"} 2.0")
        // root's one request is this read of /metrics, which needs an admin key once tenants exist.
        .contains("georesolver_tenant_requests_total{outcome=\"admitted\",tenant=\"root\"} 1.0");
    assertThat(metrics.lines().filter(l -> l.startsWith("georesolver_requests_total")).mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum())
        .as("results the chain delivered").isEqualTo(2.0);
  }

  @Test
  @DisplayName("an admitted tenant resolves; the key it sent never reaches the provider, a log line, a result or /metrics")
  void shouldKeepTheClientsKeyToItself() {
    JsonObject j = get("/v1/geocode?q=10+Downing+St", ACME).bodyAsJsonObject();
    HttpResponse<Buffer> google = stack.get("/maps/api/geocode/json?address=10+Downing+St%2C+London&key=" + ACME).await();
    HttpResponse<Buffer> nominatim = stack.client.get(stack.port, "localhost", "/search?q=11+Downing+St&format=jsonv2")
        .putHeader("X-Api-Key", ACME).send().await();

    assertThat(j.getString("status")).isEqualTo("resolved");
    assertThat(google.bodyAsJsonObject().getString("status")).isEqualTo("OK");
    assertThat(new JsonArray(nominatim.bodyAsString())).hasSize(1);
    assertThat(provider.seen()).hasSize(3).allSatisfy(s -> {
      assertThat(s.headers().get("X-Api-Key")).as("the tier's own credential").isEqualTo(TIER_KEY);
      assertThat(s.headers().get("Authorization")).isNull();
      assertThat(s.headers().toString() + s.query() + s.path()).doesNotContain(ACME);
    });
    String everything = j.encode() + google.bodyAsString() + google.headers() + nominatim.bodyAsString() + get("/metrics", ROOT).bodyAsString()
        + get("/manifest", ROOT).bodyAsString();
    assertThat(everything).doesNotContain(ACME).doesNotContain(TIER_KEY);
    assertThat(logs.events()).as("log events read, at every level of the resolver's loggers").isPositive();
    assertThat(logs.leaks()).as("a key in the log").isEmpty();
  }

  @Test
  @DisplayName("the compatible endpoints ask the same tenants: Google key=, Nominatim headers, each in its own dialect")
  void shouldGateTheCompatibleEndpoints() {
    assertThat(stack.get("/maps/api/geocode/json?address=10+Downing+St").await().bodyAsJsonObject().getString("status"))
        .isEqualTo("REQUEST_DENIED");
    assertThat(stack.get("/maps/api/geocode/json?address=10+Downing+St&key=wrong").await().bodyAsJsonObject().getString("status"))
        .isEqualTo("REQUEST_DENIED");
    assertThat(stack.get("/maps/api/geocode/json?address=10+Downing+St&intent=contain&key=" + ACME).await().bodyAsJsonObject()
        .getString("status")).isEqualTo("REQUEST_DENIED");
    HttpResponse<Buffer> noKey = stack.get("/search?q=10+Downing+St&format=jsonv2").await();
    assertThat(noKey.statusCode()).isEqualTo(401);
    assertThat(noKey.getHeader("WWW-Authenticate")).isNotNull();
    assertThat(noKey.bodyAsJsonObject().getJsonObject("error").getInteger("code")).isEqualTo(401);
    HttpResponse<Buffer> contain = stack.client.get(stack.port, "localhost", "/search?q=10+Downing+St&intent=contain")
        .putHeader("Authorization", "Bearer " + ACME).send().await();
    assertThat(contain.statusCode()).isEqualTo(403);
    get("/v1/geocode?q=a", LIMITED);
    get("/v1/geocode?q=b", LIMITED);
    assertThat(stack.get("/maps/api/geocode/json?address=c&key=" + LIMITED).await().bodyAsJsonObject().getString("status"))
        .isEqualTo("OVER_QUERY_LIMIT");
    assertThat(provider.count()).isEqualTo(2);
  }

  @Test
  @DisplayName("/health stays open and names no tenant; /metrics and /manifest need an admin key")
  void shouldKeepOperatorEndpointsAsDesigned() {
    assertThat(get("/health/live", null).statusCode()).isEqualTo(200);
    HttpResponse<Buffer> ready = get("/health/ready", null);
    assertThat(ready.statusCode()).isEqualTo(200);
    assertThat(ready.bodyAsString()).doesNotContain("acme").doesNotContain("limited");
    assertProblem(get("/metrics", null), 401);
    assertProblem(get("/metrics", ACME), 403);
    assertThat(get("/metrics", ROOT).statusCode()).isEqualTo(200);
    assertThat(get("/status?format=json", null).statusCode()).isEqualTo(200);
    assertProblem(get("/manifest", null), 401);
    assertProblem(get("/manifest", ACME), 403);
    HttpResponse<Buffer> m = get("/manifest", ROOT);
    assertThat(m.statusCode()).isEqualTo(200);
    assertThat(m.bodyAsJsonObject().getJsonObject("manifest").getJsonArray("tenants")).hasSize(3);
    assertProblem(get("/admin/tiers/primary/force-open", ACME), 403);
  }

  @Test
  @DisplayName("a tenant reads its own corrections feed: another tenant's or everyone's needs an admin key")
  void shouldKeepEachTenantToItsOwnCorrections() {
    assertProblem(get("/v1/corrections", null), 401);
    HttpResponse<Buffer> own = get("/v1/corrections", ACME);
    assertThat(own.statusCode()).as(own.bodyAsString()).isEqualTo(200);
    assertThat(own.bodyAsJsonObject().getJsonArray("corrections")).isEmpty();
    assertProblem(get("/v1/corrections?tenant=root", ACME), 403);
    assertProblem(get("/v1/corrections?tenant=*", ACME), 403);
    assertProblem(get("/v1/reconcile", ACME), 403);
    assertThat(get("/v1/corrections?tenant=acme", ROOT).statusCode()).isEqualTo(200);
    assertThat(get("/v1/corrections?tenant=*", ROOT).statusCode()).isEqualTo(200);
    assertThat(get("/v1/reconcile", ROOT).statusCode()).isEqualTo(200);
  }

  @Test
  @DisplayName("the dashboard and its event stream take the admin key as a browser sends it (Basic), after a 401 that asks for it")
  void shouldLetABrowserReachTheDashboardWithTheAdminKey(Vertx vertx) {
    HttpResponse<Buffer> asked = get("/dashboard/", null);
    assertProblem(asked, 401);
    assertThat(asked.headers().getAll("WWW-Authenticate")).anySatisfy(h -> assertThat(h).startsWith("Basic realm="));
    assertThat(get("/v1/geocode?q=x", null).headers().getAll("WWW-Authenticate"))
        .as("an API answer never asks a browser for a login").noneSatisfy(h -> assertThat(h).startsWith("Basic"));

    assertProblem(basic("/dashboard/", ACME), 403);
    HttpResponse<Buffer> page = basic("/dashboard/", ROOT);
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.getHeader("content-type")).startsWith("text/html");

    HttpClient http = vertx.createHttpClient();
    HttpClientResponse events = http.request(HttpMethod.GET, stack.port, "localhost", "/admin/events")
        .compose(req -> req.putHeader("Authorization", basicHeader(ROOT)).send()).await();
    assertThat(events.statusCode()).isEqualTo(200);
    assertThat(events.getHeader("content-type")).startsWith("text/event-stream");
    events.request().reset();
    http.close();
  }

  private HttpResponse<Buffer> basic(String path, String key) {
    return stack.client.get(stack.port, "localhost", path).putHeader("Authorization", basicHeader(key)).send().await();
  }

  private static String basicHeader(String key) {
    return "Basic " + Base64.getEncoder().encodeToString(("operator:" + key).getBytes(StandardCharsets.UTF_8));
  }

  @Test
  @DisplayName("event-bus callers name the tenant in x-tenant: its intents apply; a missing or unknown tenant is a bad request")
  void shouldTrustTheTenantNamedOnTheBus(Vertx vertx) {
    JsonObject q = new JsonObject().put("q", "10 Downing St");
    DeliveryOptions acme = new DeliveryOptions().addHeader(Addresses.TENANT_HEADER, "acme").addHeader(Addresses.DEADLINE_HEADER, "2000");
    JsonObject answer = vertx.eventBus().<JsonObject>request(Addresses.RESOLVE, q, acme).await().body();
    assertThat(answer.getString("status")).isEqualTo("resolved");

    ReplyException forbidden = catchThrowableOfType(ReplyException.class, () ->
        vertx.eventBus().request(Addresses.RESOLVE, q.copy().put("intent", "contain"), acme).await());
    assertThat(forbidden.failureCode()).isEqualTo(FailureCode.FORBIDDEN.code());
    for (DeliveryOptions o : List.of(new DeliveryOptions(), new DeliveryOptions().addHeader(Addresses.TENANT_HEADER, "public"),
        new DeliveryOptions().addHeader(Addresses.TENANT_HEADER, "nobody"))) {
      ReplyException bad = catchThrowableOfType(ReplyException.class, () -> vertx.eventBus().request(Addresses.RESOLVE, q, o).await());
      assertThat(bad.failureCode()).isEqualTo(FailureCode.BAD_REQUEST.code());
      assertThat(new JsonObject(bad.getMessage()).getString("field")).isEqualTo("x-tenant");
    }
  }
}
