package dev.georesolver.bus;

import dev.georesolver.geo.Bbox;
import dev.georesolver.geo.Direction;
import dev.georesolver.geo.ForwardQuery;
import dev.georesolver.geo.ReverseQuery;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static dev.georesolver.bus.Samples.overTheWire;
import static org.assertj.core.api.Assertions.assertThat;

/** {@link TierRequest}'s JSON form. */
class TierRequestTest {

  private static final TierRequest FORWARD = new TierRequest(Direction.FORWARD,
      new ForwardQuery("99, Rue de Rivoli, Paris", Map.of("house_number", "99", "street", "Rue de Rivoli"),
          Bbox.of(2.2, 48.8, 2.4, 48.9), "fr"),
      null, "ab12cd34", "trace-1", 325, 604_800_000L);

  private static final TierRequest REVERSE = new TierRequest(Direction.REVERSE, null,
      new ReverseQuery(48.8606, 2.3376, "en"), "ef56", "trace-2", 0, 0);

  @Test
  void shouldRoundTripAForwardVisit() {
    assertThat(TierRequest.fromJson(FORWARD.toJson())).isEqualTo(FORWARD);
    assertThat(TierRequest.fromJson(overTheWire(FORWARD.toJson()))).isEqualTo(FORWARD);
  }

  @Test
  void shouldRoundTripAReverseVisit() {
    assertThat(TierRequest.fromJson(overTheWire(REVERSE.toJson()))).isEqualTo(REVERSE);
  }

  @Test
  void shouldRoundTripAForwardVisitWithoutBboxOrLanguage() {
    TierRequest r = new TierRequest(Direction.FORWARD, ForwardQuery.of("Louvre"), null, "k", "t", 0, 3_600_000L);

    assertThat(TierRequest.fromJson(overTheWire(r.toJson()))).isEqualTo(r);
  }

  @Test
  void shouldCarryTheReserveAndMaxCacheAge() {
    JsonObject j = FORWARD.toJson();

    assertThat(j.getLong("reserve_ms")).isEqualTo(325);
    assertThat(j.getLong("max_cache_age_ms")).isEqualTo(604_800_000L);
    assertThat(j.containsKey("reverse")).isFalse();
  }

  @Test
  void shouldReadAMissingMaxCacheAgeAsZero() {
    JsonObject j = REVERSE.toJson();
    j.remove("max_cache_age_ms");

    assertThat(TierRequest.fromJson(j).maxCacheAgeMs()).isZero();
  }
}
