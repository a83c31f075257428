package dev.georesolver.functional;

import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.FailureCode;
import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.Stack;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Map;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The interfaces of DESIGN §9: HTTP, the event bus, health, manifest, and bad input. */
@ExtendWith(VertxExtension.class)
class InterfaceScenarioTest {

  private static final String LONG = "a".repeat(1001);

  private Stack stack(Vertx vertx, FakeProvider p) {
    return Stack.deploy(vertx, manifest()
        .tier("primary", "generic", p.url(), "exact", 800)
        .yaml()).await();
  }

  @Test
  @DisplayName("other verticles resolve over geocode.resolve with JSON and get the same result JSON as HTTP")
  void eventBusJsonContract(Vertx vertx) {
    FakeProvider p = FakeProvider.start(vertx, json(generic(4.35, 50.85, "EPSG:4326", 0.9))).await();
    Stack s = stack(vertx, p);
    JsonObject viaBus = vertx.eventBus()
        .<JsonObject>request(Addresses.RESOLVE, new JsonObject().put("q", "Grand Place, Brussels").put("budget_ms", 1500))
        .map(Message::body).await();
    JsonObject viaHttp = s.geocode("Grand Place, Brussels", "intent", "measure").await().bodyAsJsonObject();

    assertThat(viaBus.getString("status")).isEqualTo("resolved");
    assertThat(viaBus.getDouble("lon")).isEqualTo(4.35);
    assertThat(viaBus.getString("claim")).isEqualTo("exact");
    assertThat(viaBus.fieldNames()).containsAll(viaHttp.fieldNames().stream().filter(f -> !f.startsWith("replay")).toList());
  }

  @Test
  @DisplayName("reverse lookups over geocode.reverse take JSON lat/lon and answer the result JSON")
  void eventBusReverse(Vertx vertx) {
    FakeProvider p = FakeProvider.start(vertx, json(generic(4.3517, 50.8466, "EPSG:4326", 0.8).put("label", "Grand-Place"))).await();
    stack(vertx, p);
    JsonObject j = vertx.eventBus()
        .<JsonObject>request(Addresses.REVERSE, new JsonObject().put("lat", 50.8467).put("lon", 4.3525))
        .map(Message::body).await();
    assertThat(j.getString("status")).isEqualTo("resolved");
    assertThat(j.getString("direction")).isEqualTo("reverse");
    assertThat(j.getString("label")).isEqualTo("Grand-Place");
    assertThat(p.seen().get(0).query().get("lat")).isEqualTo("50.8467");
    ReplyException e = catchThrowableOfType(ReplyException.class, () -> vertx.eventBus()
        .request(Addresses.REVERSE, new JsonObject().put("lat", 95).put("lon", 0)).await());
    assertThat(new JsonObject(e.getMessage()).getString("field")).isEqualTo("lat");
  }

  @Test
  @DisplayName("invalid JSON over the event bus fails with code 400 and problem JSON naming the field")
  void eventBusBadInput(Vertx vertx) {
    FakeProvider p = FakeProvider.start(vertx, json(generic(1, 1, "EPSG:4326", 0.9))).await();
    stack(vertx, p);
    ReplyException e = catchThrowableOfType(ReplyException.class, () -> vertx.eventBus()
        .request(Addresses.RESOLVE, new JsonObject().put("q", "x").put("bbox", "1,2,3")).await());
    assertThat(e.failureCode()).isEqualTo(FailureCode.BAD_REQUEST.code());
    assertThat(new JsonObject(e.getMessage()).getString("field")).isEqualTo("bbox");
    assertThat(p.count()).isZero();
  }

  @Test
  @DisplayName("a tier refuses at the door a visit whose budget is already spent")
  void tierRefusesSpentBudget(Vertx vertx) {
    FakeProvider p = FakeProvider.start(vertx, json(generic(1, 1, "EPSG:4326", 0.9))).await();
    stack(vertx, p);
    ReplyException e = catchThrowableOfType(ReplyException.class, () -> vertx.eventBus()
        .request(Addresses.tier("primary"), new JsonObject(), new DeliveryOptions().addHeader(Addresses.DEADLINE_HEADER, "0"))
        .await());
    assertThat(e.failureCode()).isEqualTo(FailureCode.DEADLINE_EXCEEDED.code());
    assertThat(p.count()).isZero();
  }

  @ParameterizedTest(name = "{0} -> 400 naming {1}")
  @CsvSource(delimiter = '|', value = {
      "/v1/geocode                                     | q",
      "/v1/geocode?q=                                  | q",
      "/v1/geocode?q=%20%20                            | q",
      "/v1/geocode?q=a%01b                             | q",
      "/v1/geocode?q=x&bbox=1,2,3                      | bbox",
      "/v1/geocode?q=x&bbox=a,b,c,d                    | bbox",
      "/v1/geocode?q=x&bbox=10,0,5,1                   | bbox",
      "/v1/geocode?q=x&bbox=0,0,1,91                   | bbox",
      "/v1/geocode?q=x&bbox=-181,0,1,1                 | bbox",
      "/v1/geocode?q=x&budget_ms=0                     | budget_ms",
      "/v1/geocode?q=x&budget_ms=-5                    | budget_ms",
      "/v1/geocode?q=x&budget_ms=1.5                   | budget_ms",
      "/v1/geocode?q=x&budget_ms=soon                  | budget_ms",
      "/v1/geocode?q=x&intent=guess                    | intent",
      "/v1/geocode?q=x&q=y                             | q",
      "/v1/geocode?q=x&colour=blue                     | colour",
      "/v1/reverse?lat=91&lon=0                        | lat",
      "/v1/reverse?lat=1                               | lon",
  })
  void badInputIsA400NamingTheField(String path, String field, Vertx vertx) {
    FakeProvider p = FakeProvider.start(vertx, json(generic(1, 1, "EPSG:4326", 0.9))).await();
    Stack s = stack(vertx, p);
    var r = s.get(path).await();
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.getHeader("content-type")).isEqualTo("application/problem+json");
    JsonObject problem = r.bodyAsJsonObject();
    assertThat(problem.getInteger("status")).isEqualTo(400);
    assertThat(problem.getJsonArray("errors")).extracting(o -> ((JsonObject) o).getString("field")).contains(field);
    assertThat(p.count()).as("nothing else happens").isZero();
  }

  @Test
  @DisplayName("an address over 1,000 characters, a malformed body or a bad structured address is refused with 400")
  void badBodies(Vertx vertx) {
    FakeProvider p = FakeProvider.start(vertx, json(generic(1, 1, "EPSG:4326", 0.9))).await();
    Stack s = stack(vertx, p);
    assertThat(s.geocode(LONG).await().bodyAsJsonObject().getString("field")).isEqualTo("q");
    var malformed = s.postRaw("/v1/geocode", "{\"q\": ").await();
    assertThat(malformed.statusCode()).isEqualTo(400);
    assertThat(malformed.bodyAsJsonObject().getString("field")).isEqualTo("body");
    var notObject = s.postRaw("/v1/geocode", "[1,2]").await();
    assertThat(notObject.statusCode()).isEqualTo(400);
    var both = s.post("/v1/geocode", new JsonObject().put("q", "x").put("address", new JsonObject().put("street", "y"))).await();
    assertThat(both.statusCode()).isEqualTo(400);
    var unknownComponent = s.post("/v1/geocode", new JsonObject().put("address", new JsonObject().put("planet", "Mars"))).await();
    assertThat(unknownComponent.bodyAsJsonObject().getString("field")).isEqualTo("address.planet");
    var bboxArray = s.post("/v1/geocode", new JsonObject().put("q", "x").put("bbox", new JsonArray().add(1).add("2").add(3).add(4))).await();
    assertThat(bboxArray.bodyAsJsonObject().getString("field")).isEqualTo("bbox");
    assertThat(p.count()).isZero();
  }

  @Test
  @DisplayName("POST takes free text or structured components, ordered canonically into one key")
  void postStructured(Vertx vertx) {
    FakeProvider p = FakeProvider.start(vertx, json(generic(1, 1, "EPSG:4326", 0.9))).await();
    Stack s = stack(vertx, p);
    JsonObject structured = s.post("/v1/geocode", new JsonObject().put("address", new JsonObject()
        .put("locality", "Springfield").put("street", "Main St.").put("house_number", "123"))).await().bodyAsJsonObject();
    JsonObject text = s.post("/v1/geocode", new JsonObject().put("q", "123 Main Street, Springfield")).await().bodyAsJsonObject();
    assertThat(structured.getString("status")).isEqualTo("resolved");
    assertThat(p.seen().get(0).query().get("q")).isEqualTo("123, Main St., Springfield");
    assertThat(text.getString("idempotency_key")).isEqualTo(structured.getString("idempotency_key"));
  }

  @Test
  @DisplayName("a budget over max_budget_ms is capped, not refused; Request-Timeout is read when budget_ms is absent")
  void budgetIsCapped(Vertx vertx) {
    FakeProvider p = FakeProvider.start(vertx, json(generic(1, 1, "EPSG:4326", 0.9))).await();
    Stack s = stack(vertx, p);
    assertThat(s.geocode("x", "budget_ms", "99999999").await().statusCode()).isEqualTo(200);
    var bad = s.client.get(s.port, "localhost", "/v1/geocode?q=y").putHeader("Request-Timeout", "never").send().await();
    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(bad.bodyAsJsonObject().getString("field")).isEqualTo("Request-Timeout");
  }

  @Test
  @DisplayName("health and manifest endpoints tell the truth about the ladder")
  void healthAndManifest(Vertx vertx) {
    FakeProvider p = FakeProvider.start(vertx, json(generic(1, 1, "EPSG:4326", 0.9))).await();
    Stack s = stack(vertx, p);
    assertThat(s.get("/health/live").await().statusCode()).isEqualTo(200);
    var ready = s.get("/health/ready").await();
    assertThat(ready.statusCode()).isEqualTo(200);
    JsonObject r = ready.bodyAsJsonObject();
    assertThat(r.getJsonArray("tiers").getJsonObject(0).getString("state")).isEqualTo("closed");
    assertThat(r.getJsonObject("store").getBoolean("reachable")).isTrue();
    JsonObject m = s.get("/manifest").await().bodyAsJsonObject();
    assertThat(m.getString("revision")).isEqualTo(s.manifest.revision());
    assertThat(m.getJsonArray("enabled_tiers")).containsExactly("primary");
    assertThat(m.getJsonObject("manifest").getJsonObject("routing").getJsonArray("tiers").getJsonObject(0).getLong("typical_ms"))
        .as("the effective configuration, defaults filled in").isEqualTo(400L);
    var missing = s.get("/v2/nothing").await();
    assertThat(missing.statusCode()).isEqualTo(404);
    assertThat(missing.getHeader("content-type")).isEqualTo("application/problem+json");
  }

  @Test
  @DisplayName("/metrics counts results by outcome and claim, rung outcomes, bad input and breaker state")
  void metrics(Vertx vertx) {
    FakeProvider p = FakeProvider.start(vertx, json(generic(1, 1, "EPSG:4326", 0.9))).await();
    Stack s = stack(vertx, p);
    s.geocode("one").await();
    s.geocode("one").await();
    s.geocode("x", "bbox", "1,2").await();
    p.behave(FakeProvider.status(404, ""));
    s.geocode("two").await();
    var r = s.get("/metrics").await();
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.getHeader("content-type")).startsWith("text/plain");
    String m = r.bodyAsString();
    assertThat(m).contains("georesolver_requests_total{claim=\"exact\",degraded=\"false\",direction=\"forward\",source=\"primary\",status=\"resolved\"} 2.0");
    assertThat(m).contains("georesolver_requests_total{claim=\"none\",degraded=\"false\",direction=\"forward\",source=\"none\",status=\"refused\"} 1.0");
    assertThat(m).contains("georesolver_deliveries_total{kind=\"replayed\"} 1.0");
    assertThat(m).contains("georesolver_rung_total{outcome=\"no_match\",tier=\"primary\"} 1.0");
    assertThat(m).contains("georesolver_bad_requests_total{field=\"bbox\"} 1.0");
    assertThat(m).contains("georesolver_breaker_state{tier=\"primary\"} 0.0");
    assertThat(m).contains("georesolver_request_seconds_bucket");
  }

  @Test
  @DisplayName("an intent whose only rung is disabled (credential unset) is answered 503 misconfigured, naming why")
  void misconfiguredIntent(Vertx vertx) {
    FakeProvider p = FakeProvider.start(vertx, json(generic(1, 1, "EPSG:4326", 0.9))).await();
    FakeProvider q = FakeProvider.start(vertx, json(generic(2, 2, "EPSG:4326", 0.9))).await();
    Stack s = Stack.deploy(vertx, manifest()
        .tier("commercial", "generic", p.url(), "exact", 800, "credential: { header: X-Key, env: NO_SUCH_KEY_VAR }")
        .tier("osm", "generic", q.url(), "open_data", 800)
        .yaml(), Map.of(), java.time.Clock.systemUTC(), Map.of()).await();
    var r = s.geocode("x", "intent", "contain").await();
    assertThat(r.statusCode()).isEqualTo(503);
    assertThat(r.bodyAsJsonObject().getString("type")).endsWith("/misconfigured");
    assertThat(r.bodyAsJsonObject().getString("detail")).contains("NO_SUCH_KEY_VAR");
    assertThat(s.geocode("x").await().bodyAsJsonObject().getString("resolution_source")).isEqualTo("osm");
  }
}
