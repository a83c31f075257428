package dev.georesolver.batch;

import dev.georesolver.geo.Address;
import dev.georesolver.geo.Direction;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Results written in input order with the input columns kept, and a resumed writer finishing the same bytes. */
class ResultWritersTest {

  private static final RowResult PARIS = new RowResult("resolved", 2.3488, 48.85341, "Paris, Île-de-France, France",
      "locality", "world_gazetteer", 0.9, true, "Working from the city centre only, ", null,
      Address.builder().put(Address.Component.LOCALITY, "Paris").put(Address.Component.REGION, "Île-de-France")
          .put(Address.Component.COUNTRY, "France").put(Address.Component.COUNTRY_CODE, "FR").build());
  /** The address columns' header, after {@code error}. */
  private static final String ADDRESS_HEADER = ",house_number,road,neighbourhood,locality,county,region,postcode,country,country_code,place_type";
  /** A row's address columns when it has none. */
  private static final String NO_ADDRESS = ",,,,,,,,,,";
  private static final RowResult REFUSED = new RowResult("refused", null, null, null, null, null, null, false,
      "No rung could answer: world_gazetteer found nothing.", "not_found");

  private static BatchRow row(long i, Object... values) {
    return BatchRow.of(i, Arrays.asList(values), Direction.FORWARD, new JsonObject());
  }

  private static String write(OutputFormat f, List<String> columns, char delimiter, boolean bom, List<BatchRow> rows,
      List<RowResult> results) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (ResultWriter w = ResultWriters.open(f, out, columns, delimiter, bom, 0)) {
      for (int i = 0; i < rows.size(); i++) {
        w.write(rows.get(i), results.get(i));
      }
      w.finish();
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  @DisplayName("CSV: input columns as read, then the result columns; quoted only where needed; CRLF; numbers plain")
  void csv() throws Exception {
    String out = write(OutputFormat.CSV, List.of("id", "address"), ',', false,
        List.of(row(0, "1", "Paris,\nFrance"), row(1, "2", "qwxzv"), row(2, "3", "")),
        List.of(PARIS, REFUSED, RowResult.invalid("no address")));
    assertThat(out).isEqualTo("id,address,status,lon,lat,label,claim,resolution_source,confidence,degraded,notice,error"
        + ADDRESS_HEADER + "\r\n"
        + "1,\"Paris,\nFrance\",resolved,2.3488,48.85341,\"Paris, Île-de-France, France\",locality,world_gazetteer,0.9,true,"
        + "\"Working from the city centre only, \",,,,,Paris,,Île-de-France,,France,FR,\r\n"
        + "2,qwxzv,refused,,,,,,,false,No rung could answer: world_gazetteer found nothing.,not_found" + NO_ADDRESS + "\r\n"
        + "3,,invalid,,,,,,,,,no address" + NO_ADDRESS + "\r\n");
  }

  @Test
  @DisplayName("CSV: the input's delimiter and byte-order mark; JSON values as JSON text; tiny numbers without an exponent")
  void csvDelimiterAndValues() throws Exception {
    RowResult tiny = new RowResult("resolved", 0.0001, -1.0E-7, null, "exact", "t", 1.0, false, null, null);
    String out = write(OutputFormat.CSV, List.of("address", "meta"), ';', true,
        List.of(row(0, "Oslo; Norway", new JsonObject().put("a", new JsonArray().add(1)))), List.of(tiny));
    assertThat(out).startsWith("\uFEFFaddress;meta;status;");
    assertThat(out).endsWith("\r\n\"Oslo; Norway\";\"{\"\"a\"\":[1]}\";resolved;0.0001;-0.0000001;;exact;t;1.0;false;;"
        + NO_ADDRESS.replace(',', ';') + "\r\n");
  }

  @Test
  @DisplayName("a reverse batch's lat and lon are kept; the result's are result_lon and result_lat")
  void collisions() {
    assertThat(ResultColumns.named(List.of("lat", "lon", "Status"))).containsExactly("result_status", "result_lon", "result_lat",
        "label", "claim", "resolution_source", "confidence", "degraded", "notice", "error", "house_number", "road",
        "neighbourhood", "locality", "county", "region", "postcode", "country", "country_code", "place_type");
    assertThat(ResultColumns.named(List.of("address", "locality", "country"))).as("input component columns are kept")
        .contains("result_locality", "result_country", "region");
  }

  @Test
  @DisplayName("CSV: provider text that a spreadsheet would run as a formula gets a leading quote; input columns never change")
  void formulaGuard() throws Exception {
    RowResult hostile = new RowResult("resolved", 1.0, 2.0, "=HYPERLINK(\"http://x\")", "exact", "t", 1.0, false,
        "@SUM(A1)", null, Address.builder().put(Address.Component.ROAD, "+cmd|' /C calc'!A0").build());
    String out = write(OutputFormat.CSV, List.of("address"), ',', false, List.of(row(0, "=1+1")), List.of(hostile));
    assertThat(out.lines().toList().get(1)).isEqualTo("=1+1,resolved,1.0,2.0,\"'=HYPERLINK(\"\"http://x\"\")\",exact,t,1.0,false,'@SUM(A1),,,'+cmd|' /C calc'!A0,,,,,,,,");
  }

  @Test
  @DisplayName("NDJSON: one object a line with the same fields, JSON input values keeping their types, absent values left out")
  void ndjson() throws Exception {
    String out = write(OutputFormat.NDJSON, List.of("address", "n", "tags"), ',', false,
        List.of(row(0, "Paris", 7, new JsonArray().add("a")), row(1, "x", null, null)), List.of(PARIS, REFUSED));
    List<String> lines = out.lines().toList();
    assertThat(lines).hasSize(2);
    assertThat(new JsonObject(lines.get(0))).isEqualTo(new JsonObject().put("address", "Paris").put("n", 7)
        .put("tags", new JsonArray().add("a")).put("status", "resolved").put("lon", 2.3488).put("lat", 48.85341)
        .put("label", "Paris, Île-de-France, France").put("claim", "locality").put("resolution_source", "world_gazetteer")
        .put("confidence", 0.9).put("degraded", true).put("notice", "Working from the city centre only, ")
        .put("locality", "Paris").put("region", "Île-de-France").put("country", "France").put("country_code", "FR"));
    assertThat(new JsonObject(lines.get(1)).fieldNames()).containsExactly("address", "status", "degraded", "notice", "error");
  }

  @Test
  @DisplayName("GeoJSON: a FeatureCollection with a lon/lat Point per resolved row and null geometry otherwise")
  void geojson() throws Exception {
    String out = write(OutputFormat.GEOJSON, List.of("lat", "lon"), ',', false,
        List.of(row(0, "48.8584", "2.2945"), row(1, "0", "0")), List.of(PARIS, REFUSED));
    JsonObject fc = new JsonObject(out);
    assertThat(fc.getString("type")).isEqualTo("FeatureCollection");
    JsonArray features = fc.getJsonArray("features");
    assertThat(features).hasSize(2);
    JsonObject first = features.getJsonObject(0);
    assertThat(first.getJsonObject("geometry")).isEqualTo(new JsonObject().put("type", "Point")
        .put("coordinates", new JsonArray().add(2.3488).add(48.85341)));
    assertThat(first.getJsonObject("properties").getString("lat")).isEqualTo("48.8584");
    assertThat(first.getJsonObject("properties").containsKey("result_lat")).isFalse();
    assertThat(features.getJsonObject(1).getValue("geometry")).isNull();
    assertThat(new JsonObject(write(OutputFormat.GEOJSON, List.of("a"), ',', false, List.of(), List.of())).getJsonArray("features")).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(OutputFormat.class)
  @DisplayName("a writer continuing a file that holds the first k rows finishes it byte for byte as one writer would, for every k")
  void resumedWriterMakesTheSameBytes(OutputFormat f) throws Exception {
    List<BatchRow> rows = new ArrayList<>();
    List<RowResult> results = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      rows.add(row(i, "addr " + i));
      results.add(i % 3 == 0 ? REFUSED : PARIS);
    }
    String whole = write(f, List.of("address"), ',', true, rows, results);
    for (int k = 0; k <= rows.size(); k++) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ResultWriter first = ResultWriters.open(f, out, List.of("address"), ',', true, 0);
      for (int i = 0; i < k; i++) {
        first.write(rows.get(i), results.get(i));
      }
      first.flush();
      if (k == 0) {
        // No row written: a resumed run starts the file anew (alreadyWritten 0 means a new file).
        out.reset();
      }
      ResultWriter second = ResultWriters.open(f, out, List.of("address"), ',', true, k);
      for (int i = k; i < rows.size(); i++) {
        second.write(rows.get(i), results.get(i));
      }
      assertThat(second.rowsWritten()).isEqualTo(rows.size());
      second.finish();
      assertThat(out.toString(StandardCharsets.UTF_8)).as("resumed after %d rows", k).isEqualTo(whole);
    }
  }

  @Test
  @DisplayName("RowResult reads a result JSON: a refusal's reason is its error; anything but resolved/refused is a failure")
  void fromResult() {
    RowResult r = RowResult.fromResult(new JsonObject().put("status", "refused").put("degraded", false).put("reason", "not_found")
        .put("notice", "No rung could answer."));
    assertThat(r).isEqualTo(new RowResult("refused", null, null, null, null, null, null, false, "No rung could answer.", "not_found"));
    assertThat(RowResult.fromJson(PARIS.toJson())).isEqualTo(PARIS);
    assertThat(RowResult.fromResult(new JsonObject().put("status", "weird")).status()).isEqualTo(RowResult.FAILED);
  }
}
