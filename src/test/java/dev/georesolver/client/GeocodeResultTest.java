package dev.georesolver.client;

import dev.georesolver.bus.Attempt;
import dev.georesolver.bus.ResolveResult;
import dev.georesolver.crs.TransformInfo;
import dev.georesolver.geo.Claim;
import dev.georesolver.geo.Direction;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The result record read from the resolver's own result JSON: every field, unknown ones kept, odd types read as absent. */
class GeocodeResultTest {

  /** Result fields the record keeps in {@link GeocodeResult#json()} only. */
  private static final Set<String> RAW_ONLY = Set.of("transform");

  private static final ResolveResult REPLAYED_REVERSE = ResolveResult.builder()
      .status(ResolveResult.RESOLVED)
      .direction(Direction.REVERSE)
      .lon(2.3488)
      .lat(48.85341)
      .label("Paris, Île-de-France, France")
      .precision("locality")
      .distanceM(4011.2)
      .resolutionSource("world_gazetteer")
      .claim(Claim.LOCALITY)
      .confidence(0.7)
      .degraded(true)
      .notice("Working from the city centre only, ")
      .intent("describe")
      .idempotencyKey("ab12cd34")
      .manifestRevision("0123456789ab")
      .traceId("4bf92f3577b34da6a3ce929d0e0e4736")
      .elapsedMs(12)
      .attempts(List.of(new Attempt("osm", "transient", 2, 700, "HTTP 503"), new Attempt("world_gazetteer", "hit", 1, 3, null)))
      .transform(new TransformInfo("EPSG:4326", "", ""))
      .observedAtMs(1_767_210_000_000L)
      .resolvedAtMs(1_767_225_600_000L)
      .replayAgeS(42L)
      .coalesced(true)
      .build();

  @Test
  @DisplayName("every field of the resolver's result has a component of the same name (transform stays in json())")
  void mirrorsEveryResultField() {
    Set<String> mine = Arrays.stream(GeocodeResult.class.getRecordComponents()).map(RecordComponent::getName).collect(Collectors.toSet());
    List<String> missing = Arrays.stream(ResolveResult.class.getRecordComponents()).map(RecordComponent::getName)
        .filter(n -> !RAW_ONLY.contains(n) && !mine.contains(n)).toList();
    assertThat(missing).as("ResolveResult components GeocodeResult does not mirror").isEmpty();
  }

  @Test
  @DisplayName("the result JSON reads into every component, the attempts in order")
  void readsTheResultJson() {
    GeocodeResult r = GeocodeResult.fromJson(REPLAYED_REVERSE.toJson());

    assertThat(r.status()).isEqualTo("resolved");
    assertThat(r.resolved()).isTrue();
    assertThat(r.direction()).isEqualTo("reverse");
    assertThat(r.lon()).isEqualTo(2.3488);
    assertThat(r.lat()).isEqualTo(48.85341);
    assertThat(r.crs()).isEqualTo("EPSG:4326");
    assertThat(r.label()).isEqualTo("Paris, Île-de-France, France");
    assertThat(r.precision()).isEqualTo("locality");
    assertThat(r.distanceM()).isEqualTo(4011.2);
    assertThat(r.resolutionSource()).isEqualTo("world_gazetteer");
    assertThat(r.claim()).isEqualTo("locality");
    assertThat(r.confidence()).isEqualTo(0.7);
    assertThat(r.degraded()).isTrue();
    assertThat(r.notice()).isEqualTo("Working from the city centre only, ");
    assertThat(r.reason()).isNull();
    assertThat(r.intent()).isEqualTo("describe");
    assertThat(r.idempotencyKey()).isEqualTo("ab12cd34");
    assertThat(r.manifestRevision()).isEqualTo("0123456789ab");
    assertThat(r.traceId()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
    assertThat(r.elapsedMs()).isEqualTo(12);
    assertThat(r.attempts()).containsExactly(new GeocodeResult.Attempt("osm", "transient", 2, 700, "HTTP 503"),
        new GeocodeResult.Attempt("world_gazetteer", "hit", 1, 3, null));
    assertThat(r.replayed()).isTrue();
    assertThat(r.replayAgeS()).isEqualTo(42L);
    assertThat(r.coalesced()).isTrue();
    assertThat(r.observedAtMs()).isEqualTo(1_767_210_000_000L);
    assertThat(r.resolvedAtMs()).isEqualTo(1_767_225_600_000L);
    assertThat(r.json().getJsonObject("transform").getString("source_crs")).isEqualTo("EPSG:4326");
  }

  @Test
  @DisplayName("a refusal reads with its reason and no point; a forward result reads as forward")
  void readsARefusal() {
    GeocodeResult r = GeocodeResult.fromJson(new JsonObject().put("status", "refused").put("degraded", false)
        .put("reason", "not_found_where_asked").put("attempts", new JsonArray()).put("elapsed_ms", 3));
    assertThat(r.resolved()).isFalse();
    assertThat(r.reason()).isEqualTo("not_found_where_asked");
    assertThat(r.direction()).isEqualTo("forward");
    assertThat(r.lat()).isNull();
    assertThat(r.crs()).isNull();
    assertThat(r.replayed()).isFalse();
    assertThat(r.replayAgeS()).isNull();
    assertThat(r.attempts()).isEmpty();
  }

  @Test
  @DisplayName("a field a newer resolver adds is kept in json(), and a field of an unexpected type reads as absent")
  void newerResolversDoNotBreakIt() {
    JsonObject j = REPLAYED_REVERSE.toJson().put("h3_cell", "8a1fb46622dffff").put("confidence", "high")
        .put("attempts", new JsonArray().add("not an attempt").add(new JsonObject().put("tier", "t").put("tries", "two")));
    GeocodeResult r = GeocodeResult.fromJson(j);
    assertThat(r.json().getString("h3_cell")).isEqualTo("8a1fb46622dffff");
    assertThat(r.confidence()).isNull();
    assertThat(r.attempts()).containsExactly(new GeocodeResult.Attempt("t", null, 0, 0, null));
    assertThat(r.label()).isEqualTo("Paris, Île-de-France, France");
  }

  @Test
  @DisplayName("json() is a copy: changing it or the object read changes nothing in the record")
  void jsonIsACopy() {
    JsonObject j = REPLAYED_REVERSE.toJson();
    GeocodeResult r = GeocodeResult.fromJson(j);
    j.put("label", "changed");
    r.json().put("label", "changed too");
    assertThat(r.json().getString("label")).isEqualTo("Paris, Île-de-France, France");
  }

  @Test
  @DisplayName("a JSON object without a status is not a result")
  void noStatusIsNoResult() {
    assertThatThrownBy(() -> GeocodeResult.fromJson(new JsonObject().put("lat", 1))).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("status");
  }
}
