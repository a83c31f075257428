package dev.georesolver.bus;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import static dev.georesolver.bus.Samples.FORWARD;
import static dev.georesolver.bus.Samples.REVERSE;
import static dev.georesolver.bus.Samples.overTheWire;
import static org.assertj.core.api.Assertions.assertThat;

/** {@link ResolveRequest}'s JSON form. */
class ResolveRequestTest {

  @Test
  void shouldRoundTripAForwardRequest() {
    assertThat(ResolveRequest.fromJson(FORWARD.toJson())).isEqualTo(FORWARD);
    assertThat(ResolveRequest.fromJson(overTheWire(FORWARD.toJson()))).isEqualTo(FORWARD);
  }

  @Test
  void shouldRoundTripAReverseRequest() {
    assertThat(ResolveRequest.fromJson(overTheWire(REVERSE.toJson()))).isEqualTo(REVERSE);
  }

  @Test
  void shouldWriteTheBboxAsAnArrayAndTheTraceIdInSnakeCase() {
    JsonObject j = FORWARD.toJson();

    assertThat(j.getString("direction")).isEqualTo("FORWARD");
    assertThat(j.getJsonArray("bbox").getList()).containsExactly(2.2, 48.8, 2.4, 48.9);
    assertThat(j.getString("trace_id")).isEqualTo("trace-fwd");
    assertThat(j.getJsonObject("components").getString("street")).isEqualTo("Rue de Rivoli");
  }

  @Test
  void shouldReadMissingComponentsAsEmpty() {
    JsonObject j = REVERSE.toJson();
    j.remove("components");

    assertThat(ResolveRequest.fromJson(j).components()).isEmpty();
  }
}
