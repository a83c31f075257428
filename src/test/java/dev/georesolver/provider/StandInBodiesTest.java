package dev.georesolver.provider;

import dev.georesolver.geo.Direction;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The bodies {@code validate --simulate}'s stand-ins answer: each parses through its real adapter to a hit at the stand-in point. */
class StandInBodiesTest {

  static Stream<String> httpAdapters() {
    return AdapterRegistry.names().stream().filter(n -> !AdapterRegistry.isLocal(n));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("httpAdapters")
  @DisplayName("every HTTP adapter's stand-in body is a hit at the stand-in point under strict validation")
  void parsesToAHit(String adapter) {
    String body = StandInBodies.forward(adapter).orElseThrow();
    ProviderAnswer a = AdapterRegistry.http(adapter).orElseThrow().parse(Direction.FORWARD,
        new ProviderResponse(200, Map.of("content-type", "application/json"), io.vertx.core.buffer.Buffer.buffer(body)),
        SchemaMode.STRICT);
    assertThat(a).as(adapter + ": " + a).isInstanceOf(ProviderAnswer.Found.class);
    RawHit hit = ((ProviderAnswer.Found) a).best();
    assertThat(hit.x()).as(adapter).isCloseTo(StandInBodies.LON, within(1e-6));
    assertThat(hit.y()).as(adapter).isCloseTo(StandInBodies.LAT, within(1e-6));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.georesolver.provider.StandInBodiesTest#localAdapters")
  @DisplayName("a local rung has no stand-in: it needs none")
  void localHasNone(String adapter) {
    assertThat(StandInBodies.forward(adapter)).isEmpty();
  }

  static Stream<String> localAdapters() {
    return Stream.of(AdapterRegistry.CACHED_INDEX, AdapterRegistry.GAZETTEER, "no_such_adapter");
  }
}
