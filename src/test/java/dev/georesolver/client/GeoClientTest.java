package dev.georesolver.client;

import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.FailureCode;
import dev.georesolver.bus.FieldProblem;
import dev.georesolver.bus.RequestValidator;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * What the client puts on the bus and how it reads what comes back, against consumers standing in
 * for the chain on the real addresses: the body and headers of the contract, and each failure of
 * the resolver mapped to its code. The names it copies are held to the resolver's own.
 */
@ExtendWith(VertxExtension.class)
class GeoClientTest {

  private static final JsonObject RESULT = new JsonObject().put("status", "resolved").put("lon", 4.84671).put("lat", 45.74846)
      .put("crs", "EPSG:4326").put("resolution_source", "world_gazetteer");

  /** The message a stand-in chain on {@code address} received, answered by {@code answer}. */
  private static CompletableFuture<Message<Object>> standIn(Vertx vertx, String address, Consumer<Message<Object>> answer) {
    CompletableFuture<Message<Object>> got = new CompletableFuture<>();
    vertx.eventBus().consumer(address, m -> {
      got.complete(m);
      answer.accept(m);
    }).completion().await();
    return got;
  }

  @Test
  @DisplayName("the names the client copies are the resolver's: addresses, headers, failure codes")
  void wireNamesAreTheResolvers() {
    assertThat(Wire.RESOLVE).isEqualTo(Addresses.RESOLVE);
    assertThat(Wire.REVERSE).isEqualTo(Addresses.REVERSE);
    assertThat(Wire.DEADLINE_HEADER).isEqualTo(Addresses.DEADLINE_HEADER);
    assertThat(Wire.TENANT_HEADER).isEqualTo(Addresses.TENANT_HEADER);
    assertThat(Wire.TRACEPARENT_HEADER).isEqualTo(Addresses.TRACEPARENT_HEADER);
    assertThat(Wire.TRACESTATE_HEADER).isEqualTo(Addresses.TRACESTATE_HEADER);
    assertThat(List.of(Wire.BAD_REQUEST, Wire.FORBIDDEN, Wire.DEADLINE_EXCEEDED, Wire.ROUTER_ERROR, Wire.MISCONFIGURED,
        Wire.REFUSED, Wire.STORE_UNAVAILABLE)).containsExactlyInAnyOrder(
        java.util.Arrays.stream(FailureCode.values()).map(FailureCode::code).toArray(Integer[]::new));
    assertThat(Wire.BAD_REQUEST).isEqualTo(FailureCode.BAD_REQUEST.code());
    assertThat(Wire.FORBIDDEN).isEqualTo(FailureCode.FORBIDDEN.code());
    assertThat(Wire.DEADLINE_EXCEEDED).isEqualTo(FailureCode.DEADLINE_EXCEEDED.code());
    assertThat(Wire.ROUTER_ERROR).isEqualTo(FailureCode.ROUTER_ERROR.code());
    assertThat(Wire.MISCONFIGURED).isEqualTo(FailureCode.MISCONFIGURED.code());
    assertThat(Wire.STORE_UNAVAILABLE).isEqualTo(FailureCode.STORE_UNAVAILABLE.code());
  }

  @Test
  @DisplayName("an address goes to geocode.resolve as the public JSON, the budget as x-deadline-ms, the tenant and trace context as headers")
  void forwardRequestOnTheWire(Vertx vertx) throws Exception {
    var got = standIn(vertx, Addresses.RESOLVE, m -> m.reply(RESULT));
    GeoClient geo = GeoClient.create(vertx).withTenant("acme").withBudget(Duration.ofMillis(1200));

    GeocodeResult r = geo.geocode(GeocodeRequest.address("10 Downing St, London").intent("describe").language("en")
        .bbox(-0.51, 51.28, 0.33, 51.69)
        .traceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01").tracestate("vendor=opaque")).await();

    Message<Object> m = got.get(10, TimeUnit.SECONDS);
    assertThat(m.body()).isEqualTo(new JsonObject().put("q", "10 Downing St, London")
        .put("bbox", new JsonArray().add(-0.51).add(51.28).add(0.33).add(51.69)).put("intent", "describe").put("language", "en"));
    MultiMap h = m.headers();
    assertThat(h.get(Addresses.DEADLINE_HEADER)).isEqualTo("1200");
    assertThat(h.get(Addresses.TENANT_HEADER)).isEqualTo("acme");
    assertThat(h.get(Addresses.TRACEPARENT_HEADER)).isEqualTo("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
    assertThat(h.get(Addresses.TRACESTATE_HEADER)).isEqualTo("vendor=opaque");
    assertThat(h.names()).containsExactlyInAnyOrder(Addresses.DEADLINE_HEADER, Addresses.TENANT_HEADER,
        Addresses.TRACEPARENT_HEADER, Addresses.TRACESTATE_HEADER);
    assertThat(r.resolutionSource()).isEqualTo("world_gazetteer");
    assertThat(r.lat()).isEqualTo(45.74846);
  }

  @Test
  @DisplayName("a point goes to geocode.reverse; a request's own budget and tenant win over the client's; without any, no tenant header")
  void reverseRequestAndOverrides(Vertx vertx) throws Exception {
    var got = standIn(vertx, Addresses.REVERSE, m -> m.reply(RESULT.copy().put("direction", "reverse")));
    GeoClient geo = GeoClient.create(vertx).withTenant("acme");

    GeocodeResult r = geo.geocode(GeocodeRequest.point(48.8584, 2.2945).tenant("beta").budget(Duration.ofMillis(300))).await();

    Message<Object> m = got.get(10, TimeUnit.SECONDS);
    assertThat(m.body()).isEqualTo(new JsonObject().put("lat", 48.8584).put("lon", 2.2945));
    assertThat(m.headers().get(Addresses.DEADLINE_HEADER)).isEqualTo("300");
    assertThat(m.headers().get(Addresses.TENANT_HEADER)).isEqualTo("beta");
    assertThat(r.direction()).isEqualTo("reverse");

    var plain = standIn(vertx, Addresses.RESOLVE, x -> x.reply(RESULT));
    GeoClient.create(vertx).geocode(GeocodeRequest.address(StructuredAddress.builder().houseNumber("10").street("Downing St")
        .locality("London").build())).await();
    Message<Object> p = plain.get(10, TimeUnit.SECONDS);
    assertThat(p.body()).isEqualTo(new JsonObject().put("address",
        new JsonObject().put("house_number", "10").put("street", "Downing St").put("locality", "London")));
    assertThat(p.headers().names()).containsExactly(Addresses.DEADLINE_HEADER);
    assertThat(p.headers().get(Addresses.DEADLINE_HEADER)).isEqualTo(Long.toString(GeoClient.DEFAULT_BUDGET.toMillis()));
  }

  @Test
  @DisplayName("a bad request carries every problem the resolver named, with its field")
  void badRequestNamesTheFields(Vertx vertx) {
    JsonObject problem = RequestValidator.problemJson(List.of(new FieldProblem("lat", "must be a number in [-90, 90]"),
        new FieldProblem("intent", "must be one of describe, measure")));
    standIn(vertx, Addresses.REVERSE, m -> m.fail(FailureCode.BAD_REQUEST.code(), problem.encode()));

    GeoClientException e = catchThrowableOfType(GeoClientException.class,
        () -> GeoClient.create(vertx).geocode(GeocodeRequest.point(91, 0).intent("nope")).await());

    assertThat(e.code()).isEqualTo(GeoClientException.Code.BAD_REQUEST);
    assertThat(e.failureCode()).isEqualTo(400);
    assertThat(e.field()).isEqualTo("lat");
    assertThat(e.problems()).containsExactly(new GeoClientException.Problem("lat", "must be a number in [-90, 90]"),
        new GeoClientException.Problem("intent", "must be one of describe, measure"));
    assertThat(e.getMessage()).isEqualTo("lat must be a number in [-90, 90]");
    assertThat(e.problem()).isEqualTo(problem);
  }

  @Test
  @DisplayName("each failure of the resolver maps to its code, keeping the resolver's message")
  void failuresMapToCodes(Vertx vertx) {
    record Case(int failureCode, GeoClientException.Code expected) {}
    List<Case> cases = List.of(new Case(403, GeoClientException.Code.FORBIDDEN), new Case(408, GeoClientException.Code.TIMEOUT),
        new Case(503, GeoClientException.Code.MISCONFIGURED), new Case(500, GeoClientException.Code.INTERNAL),
        new Case(507, GeoClientException.Code.UNAVAILABLE), new Case(418, GeoClientException.Code.INTERNAL),
        new Case(400, GeoClientException.Code.BAD_REQUEST));
    int[] next = {0};
    standIn(vertx, Addresses.RESOLVE, m -> m.fail(cases.get(next[0]).failureCode(), "said " + cases.get(next[0]).failureCode()));
    for (Case c : cases) {
      GeoClientException e = catchThrowableOfType(GeoClientException.class,
          () -> GeoClient.create(vertx).geocode(GeocodeRequest.address("Lyon")).await());
      next[0]++;
      assertThat(e.code()).as("failure %d", c.failureCode()).isEqualTo(c.expected());
      assertThat(e.failureCode()).isEqualTo(c.failureCode());
      assertThat(e.getMessage()).contains("said " + c.failureCode());
    }
  }

  @Test
  @DisplayName("no reply within the budget and the margin fails TIMEOUT; a reply that is not a result fails INTERNAL")
  void timeoutsAndNonResults(Vertx vertx) {
    standIn(vertx, Addresses.REVERSE, m -> {});
    GeoClientException late = catchThrowableOfType(GeoClientException.class, () -> GeoClient.create(vertx)
        .withBudget(Duration.ofMillis(20)).withMargin(Duration.ZERO).geocode(GeocodeRequest.point(1, 2)).await());
    assertThat(late.code()).isEqualTo(GeoClientException.Code.TIMEOUT);
    assertThat(late.failureCode()).isEqualTo(-1);

    standIn(vertx, Addresses.RESOLVE, m -> m.reply(new JsonObject().put("no", "status")));
    GeoClientException odd = catchThrowableOfType(GeoClientException.class,
        () -> GeoClient.create(vertx).geocode(GeocodeRequest.address("Lyon")).await());
    assertThat(odd.code()).isEqualTo(GeoClientException.Code.INTERNAL);
    assertThat(odd.getMessage()).contains("not a result");
  }

  @Test
  @DisplayName("the client refuses what it cannot send: no budget under 1 ms, no negative margin, no malformed trace context, no box on a point")
  void refusesWhatItCannotSend(Vertx vertx) {
    assertThatThrownBy(() -> GeocodeRequest.address("x").budget(Duration.ofNanos(999_999))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> GeoClient.create(vertx).withBudget(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> GeoClient.create(vertx).withMargin(Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class);
    for (String bad : List.of("00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01", "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01\r\nx: y", "")) {
      assertThatThrownBy(() -> GeocodeRequest.address("x").traceparent(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
    }
    assertThatThrownBy(() -> GeocodeRequest.address("x").tracestate("a=b\n")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> GeocodeRequest.address("x").tracestate("a".repeat(513))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> GeocodeRequest.point(1, 2).bbox(0, 0, 1, 1)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> GeocodeRequest.point(Double.NaN, 2)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> GeocodeRequest.address("x").bbox(0, 0, Double.POSITIVE_INFINITY, 1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> GeocodeRequest.address((String) null)).isInstanceOf(NullPointerException.class);
  }

  @Test
  @DisplayName("a request is immutable: each setter returns a new one, and the address stays out of its toString")
  void requestsAreImmutable() {
    GeocodeRequest base = GeocodeRequest.address("10 Downing St, London");
    GeocodeRequest described = base.intent("describe").tenant("acme");
    assertThat(base.intent()).isNull();
    assertThat(base.tenant()).isNull();
    assertThat(described.intent()).isEqualTo("describe");
    assertThat(described.text()).isEqualTo("10 Downing St, London");
    GeocodeRequest boxed = base.bbox(0, 0, 1, 1);
    double[] box = boxed.bbox();
    box[0] = 99;
    assertThat(boxed.bbox()).containsExactly(0, 0, 1, 1);
    assertThat(base.bbox()).isNull();
    assertThat(described.toString()).doesNotContain("Downing").contains("describe", "acme");
  }
}
