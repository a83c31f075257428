package dev.georesolver.bus;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static dev.georesolver.bus.Samples.REFUSED;
import static dev.georesolver.bus.Samples.REPLAYED_REVERSE;
import static dev.georesolver.bus.Samples.RESOLVED;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The result JSON byte for byte (field order, absent fields left out): a walk writes its stable
 * fields then its delivery fields; a replay or coalesced delivery writes its delivery fields then the
 * stored bytes, and to another tenant than the one whose request walked, without the walk's own
 * facts (the stable fields end with them, so they are one suffix to leave out).
 */
class ResultJsonBytesTest {

  /** The walk's own facts in {@link #LOUVRE}: the suffix a delivery to another tenant leaves out. */
  static final String LOUVRE_WALK = "\"attempts\":[{\"tier\":\"primary\","
      + "\"outcome\":\"transient\",\"tries\":3,\"ms\":1204,\"detail\":\"HTTP 503\"},{\"tier\":\"osm\","
      + "\"outcome\":\"skipped_admission\",\"tries\":0,\"ms\":0,"
      + "\"detail\":\"usable 80 ms < 0.5 x typical 400 ms\"},{\"tier\":\"cache\",\"outcome\":\"hit\",\"tries\":1,"
      + "\"ms\":4}],\"observed_at_ms\":1767210000000,\"resolved_at_ms\":1767225600000";

  /** The stable fields of {@link Samples#RESOLVED}, without the braces. */
  static final String LOUVRE = "\"status\":\"resolved\",\"lon\":2.3376,\"lat\":48.8606,\"crs\":\"EPSG:4326\","
      + "\"label\":\"Musée du Louvre, Paris\",\"precision\":\"rooftop\",\"resolution_source\":\"cache\","
      + "\"claim\":\"cached\",\"confidence\":0.93,\"degraded\":true,"
      + "\"notice\":\"From a cached result 4 h old, \",\"idempotency_key\":\"ab12cd34\","
      + "\"manifest_revision\":\"0123456789ab-g3f9c2ab\",\"transform\":{\"source_crs\":\"EPSG:3857\","
      + "\"definition\":\"+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1 +units=m +no_defs\","
      + "\"definition_hash\":\"3f9c2ab01d4e\"}," + LOUVRE_WALK;

  /** The stable fields of {@link Samples#REPLAYED_REVERSE}, without the braces. */
  static final String REVERSE = "\"status\":\"resolved\",\"direction\":\"reverse\",\"lon\":-0.1276,\"lat\":51.5072,"
      + "\"crs\":\"EPSG:4326\",\"distance_m\":12.5,\"resolution_source\":\"primary\",\"claim\":\"exact\","
      + "\"confidence\":1.0,\"degraded\":false,\"notice\":\"Matched to the address by primary, \","
      + "\"idempotency_key\":\"ef56\",\"manifest_revision\":\"0123456789ab\",\"attempts\":[],"
      + "\"resolved_at_ms\":1767225000000";

  static final String REFUSED_JSON =
      "{\"status\":\"refused\",\"degraded\":false,"
      + "\"notice\":\"No rung could answer within the time budget.\",\"reason\":\"budget_exhausted\","
      + "\"idempotency_key\":\"ab12cd34\",\"manifest_revision\":\"0123456789ab\","
      + "\"attempts\":[{\"tier\":\"primary\",\"outcome\":\"deadline\",\"tries\":1,\"ms\":2400}],"
      + "\"resolved_at_ms\":1767225600000,\"intent\":\"contain\",\"trace_id\":\"trace-2\",\"elapsed_ms\":2499}";

  @Test
  void shouldWriteAWalksResultAsBefore() {
    assertThat(RESOLVED.toBuffer().toString())
        .isEqualTo("{" + LOUVRE + ",\"intent\":\"describe\",\"trace_id\":\"trace-fwd\",\"elapsed_ms\":1230}");
    assertThat(REFUSED.toBuffer().toString()).isEqualTo(REFUSED_JSON);
    assertThat(REPLAYED_REVERSE.toBuffer().toString()).isEqualTo("{" + REVERSE
        + ",\"intent\":\"measure\",\"trace_id\":\"trace-3\",\"elapsed_ms\":2,\"replayed\":true,\"replay_age_s\":600,"
        + "\"coalesced\":true}");
  }

  @Test
  @DisplayName("a replay and a coalesced delivery write their own fields first, then the stored bytes, as before")
  void shouldWriteARedeliveryAsBefore() {
    Redelivery replay = StoredAnswer.of(RESOLVED).replayed(null, 0, "measure", "trace-77", 4, 120);
    Redelivery joined = StoredAnswer.of(REPLAYED_REVERSE).joined(null, 0, "describe", "trace-78", 0);

    assertThat(replay.toBuffer().toString()).isEqualTo(
        "{\"intent\":\"measure\",\"trace_id\":\"trace-77\",\"elapsed_ms\":4,\"replayed\":true,\"replay_age_s\":120,"
        + LOUVRE + "}");
    assertThat(joined.toBuffer().toString())
        .isEqualTo("{\"intent\":\"describe\",\"trace_id\":\"trace-78\",\"elapsed_ms\":0,\"coalesced\":true," + REVERSE + "}");
  }

  @Test
  @DisplayName("replayed to the tenant that walked it shows the walk; to another, only its own request: no attempts, its own time, no age")
  void shouldShowAReplayOnlyWhatTheViewersRequestDid() {
    StoredAnswer walkedForAcme = StoredAnswer.of(RESOLVED, "acme");
    assertThat(walkedForAcme.toBuffer().toString()).isEqualTo("{" + LOUVRE + ",\"walked_by\":\"acme\"}");

    String own = walkedForAcme.replayed("acme", 1767229000000L, "measure", "trace-77", 4, 120).toBuffer().toString();
    assertThat(own).isEqualTo("{\"intent\":\"measure\",\"trace_id\":\"trace-77\",\"elapsed_ms\":4,\"replayed\":true,"
        + "\"replay_age_s\":120," + LOUVRE + "}");

    String stable = LOUVRE.substring(0, LOUVRE.length() - LOUVRE_WALK.length());
    String foreign = "{\"intent\":\"measure\",\"trace_id\":\"trace-79\",\"elapsed_ms\":3,\"replayed\":true," + stable
        + "\"attempts\":[],\"resolved_at_ms\":1767229000000}";
    assertThat(walkedForAcme.replayed("acmex", 1767229000000L, "measure", "trace-79", 3, 120).toBuffer().toString())
        .as("a tenant whose id starts with the walker's is another tenant").isEqualTo(foreign);
    assertThat(walkedForAcme.replayed("acm", 1767229000000L, "measure", "trace-79", 3, 120).toBuffer().toString()).isEqualTo(foreign);
    assertThat(StoredAnswer.of(RESOLVED).replayed("acme", 1767229000000L, "measure", "trace-79", 3, 120).toBuffer().toString())
        .as("an answer stored without a tenant is nobody's own").isEqualTo(foreign);
    assertThat(walkedForAcme.joined("beta", 1767229000000L, "measure", "trace-79", 3).toBuffer().toString())
        .isEqualTo(foreign.replace("\"replayed\":true,", "\"coalesced\":true,"));

    Redelivery shown = walkedForAcme.replayed("beta", 1767229000000L, "measure", "trace-79", 3, 120);
    assertThat(Redelivery.fromJson(new io.vertx.core.json.JsonObject(shown.toBuffer())).toBuffer().toString())
        .as("read back from the wire and shown again, it stays as it was shown").isEqualTo(shown.toBuffer().toString());
  }

  @Test
  void shouldStoreTheStableFieldsAlone() {
    assertThat(StoredAnswer.of(RESOLVED).toBuffer().toString()).isEqualTo("{" + LOUVRE + "}");
    assertThat(StoredAnswer.of(REPLAYED_REVERSE).toBuffer().toString()).isEqualTo("{" + REVERSE + "}");
  }
}
