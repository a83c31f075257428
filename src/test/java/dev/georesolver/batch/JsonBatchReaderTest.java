package dev.georesolver.batch;

import dev.georesolver.geo.Direction;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static dev.georesolver.batch.Rows.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** JSON Lines and JSON array batch files: the same row rules as CSV, columns from the fields seen. */
class JsonBatchReaderTest {

  private static BatchInputException.Kind refused(String text) {
    try {
      read(text);
    } catch (BatchInputException e) {
      return e.kind();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    throw new AssertionError("not refused: " + text);
  }

  @Nested
  @DisplayName("JSON Lines")
  class Lines {

    @Test
    @DisplayName("each line an object: free text, components at the top or under address, a point; blank lines and CRLF skipped")
    void rows() throws Exception {
      var r = read("{\"id\": 1, \"address\": \"10 Downing St, London\"}\r\n\n"
          + "{\"id\": 2, \"street\": \"Unter den Linden 1\", \"city\": \"Berlin\"}\n"
          + "{\"id\": 3, \"address\": {\"postcode\": \"75001\", \"country\": \"FR\"}}\n"
          + "{\"id\": 4, \"lat\": 52.52, \"lon\": \"13.405\"}\n   \n");
      assertThat(r.reader().format()).isEqualTo(InputFormat.NDJSON);
      assertThat(r.rows()).extracting(BatchRow::direction).containsExactly(Direction.FORWARD, Direction.FORWARD,
          Direction.FORWARD, Direction.REVERSE);
      assertThat(r.row(0).request()).isEqualTo(new JsonObject().put("q", "10 Downing St, London"));
      assertThat(r.row(1).request()).isEqualTo(new JsonObject().put("address",
          new JsonObject().put("street", "Unter den Linden 1").put("locality", "Berlin")));
      assertThat(r.row(2).request()).isEqualTo(new JsonObject().put("address",
          new JsonObject().put("postcode", "75001").put("country", "FR")));
      assertThat(r.row(3).request()).isEqualTo(new JsonObject().put("lat", 52.52).put("lon", 13.405));
    }

    @Test
    @DisplayName("columns are the fields in order of first appearance; each row's values line up with them")
    void columns() throws Exception {
      var r = read("{\"address\": \"Oslo\", \"id\": 7}\n{\"ref\": \"x\", \"address\": \"Bergen\", \"tags\": [1, 2]}\n");
      assertThat(r.columns()).containsExactly("address", "id", "ref", "tags");
      assertThat(r.row(0).values()).containsExactly("Oslo", 7);
      assertThat(r.row(1).values()).containsExactly("Bergen", null, "x", new JsonArray().add(1).add(2));
    }

    @Test
    @DisplayName("a line that is not JSON, or not an object, or has no address, is an invalid row and reading goes on")
    void perRow() throws Exception {
      var r = read("{\"address\": \"Oslo\"}\n{\"address\": \"Rome\"\n[1, 2]\n{\"name\": \"x\"}\n{\"lat\": 91, \"lon\": true}\n"
          + "{\"address\": \"x\", \"city\": \"y\"}\n{\"address\": {\"town\": \"z\"}}\n{\"address\": 12}\n{\"address\": \"Pisa\"}\n");
      assertThat(r.rows()).extracting(BatchRow::problem).containsExactly(null, "is not JSON", "is not a JSON object",
          "no address: give address, component fields (house_number, street, unit, city, locality, region, postcode, country), or lat and lon",
          "lat 91 is out of range [-90, 90]; lon must be a number",
          "has both address and city: give one or the other",
          "address.'town' is not a component (known: house_number, street, unit, city, locality, region, postcode, country)",
          "address must be text", null);
    }

    @Test
    @DisplayName("a first line that is not JSON, not an object, or names no accepted field refuses the file")
    void firstRow() {
      assertThat(refused("{this is not json\n")).isEqualTo(BatchInputException.Kind.MALFORMED);
      assertThat(refused("{\"name\": \"Ada\", \"phone\": 1}\n{\"address\": \"Oslo\"}\n")).isEqualTo(BatchInputException.Kind.UNKNOWN_COLUMNS);
    }

    @Test
    @DisplayName("a line over the record bound refuses the file; too many rows too")
    void bounds() {
      assertThatThrownBy(() -> read("{\"address\": \"" + "x".repeat(200) + "\"}\n", BatchLimits.defaults().withMaxRecordChars(100)))
          .isInstanceOfSatisfying(BatchInputException.class, e -> assertThat(e.kind()).isEqualTo(BatchInputException.Kind.TOO_LARGE));
      assertThatThrownBy(() -> read("{\"address\": \"a\"}\n{\"address\": \"b\"}\n", BatchLimits.defaults().withMaxRows(1)))
          .isInstanceOfSatisfying(BatchInputException.class, e -> assertThat(e.kind()).isEqualTo(BatchInputException.Kind.TOO_MANY_ROWS));
    }
  }

  @Nested
  @DisplayName("a JSON array")
  class Array {

    @Test
    @DisplayName("elements are rows; nested values are kept as JSON; a UTF-8 byte-order mark and surrounding space are fine")
    void rows() throws Exception {
      var r = read("\uFEFF  [\n {\"address\": \"Zürich\", \"meta\": {\"a\": [1, {\"b\": null}]}, \"n\": 1.5},\n"
          + " {\"lat\": -33.9249, \"lon\": 18.4241, \"ok\": false}\n]\n");
      assertThat(r.reader().format()).isEqualTo(InputFormat.JSON_ARRAY);
      assertThat(r.reader().byteOrderMark()).isTrue();
      assertThat(r.columns()).containsExactly("address", "meta", "n", "lat", "lon", "ok");
      assertThat(r.row(0).values()).containsExactly("Zürich", new JsonObject("{\"a\": [1, {\"b\": null}]}"), 1.5);
      assertThat(r.row(1).values()).containsExactly(null, null, null, -33.9249, 18.4241, false);
      assertThat(r.row(1).request()).isEqualTo(new JsonObject().put("lat", -33.9249).put("lon", 18.4241));
    }

    @Test
    @DisplayName("an element that is not an object is an invalid row; an empty array is no rows")
    void perRow() throws Exception {
      var r = read("[{\"address\": \"Oslo\"}, 12, \"Rome\", [1], null, {\"address\": \"\"}]");
      assertThat(r.rows()).extracting(BatchRow::problem).containsExactly(null, "is not a JSON object", "is not a JSON object",
          "is not a JSON object", "is not a JSON object", "no address");
      assertThat(read("[ ]").rows()).isEmpty();
    }

    @Test
    @DisplayName("broken JSON, an unclosed array, text after it, a first element of something else: the file is refused")
    void refusedFiles() {
      for (String text : Arrays.asList("[{\"address\": \"Oslo\"}, {\"address\": ]", "[{\"address\": \"Oslo\"}",
          "[{\"address\": \"Oslo\"}] trailing", "[{\"address\": \"Oslo\"}][]")) {
        assertThat(refused(text)).as(text).isEqualTo(BatchInputException.Kind.MALFORMED);
      }
      assertThat(refused("[{\"name\": \"Ada\"}]")).isEqualTo(BatchInputException.Kind.UNKNOWN_COLUMNS);
      assertThat(refused("[1, {\"address\": \"Oslo\"}]")).isEqualTo(BatchInputException.Kind.UNKNOWN_COLUMNS);
    }

    @Test
    @DisplayName("an element over the record bound, a string over it, or nesting too deep refuses the file")
    void bounds() {
      BatchLimits small = BatchLimits.defaults().withMaxRecordChars(100);
      String wide = "[{\"address\": \"Oslo\", \"tags\": [" + "1,".repeat(100) + "1]}]";
      String longString = "[{\"address\": \"" + "x".repeat(200) + "\"}]";
      String deep = "[{\"address\": \"Oslo\", \"d\": " + "[".repeat(40) + "]".repeat(40) + "}]";
      for (String text : Arrays.asList(wide, longString)) {
        assertThatThrownBy(() -> read(text, small)).isInstanceOfSatisfying(BatchInputException.class,
            e -> assertThat(e.kind()).isEqualTo(BatchInputException.Kind.TOO_LARGE));
      }
      assertThatThrownBy(() -> read(deep)).isInstanceOfSatisfying(BatchInputException.class,
          e -> assertThat(e.kind()).isEqualTo(BatchInputException.Kind.TOO_LARGE));
    }
  }
}
