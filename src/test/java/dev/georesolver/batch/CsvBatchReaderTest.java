package dev.georesolver.batch;

import dev.georesolver.geo.Direction;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

import static dev.georesolver.batch.Rows.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** CSV batch files as spreadsheets and scripts really write them, and the rows they give. */
class CsvBatchReaderTest {

  private static JsonObject q(String text) {
    return new JsonObject().put("q", text);
  }

  @Nested
  @DisplayName("awkward but valid files")
  class Awkward {

    @Test
    @DisplayName("quoted fields hold the delimiter, doubled quotes and line breaks; a multi-line address is sent as one line")
    void quotedNewlines() throws Exception {
      var r = read("id,address\n1,\"10 Downing St,\nLondon\"\n2,\"The \"\"Old\"\" Mill, Bath\"\n");
      assertThat(r.columns()).containsExactly("id", "address");
      assertThat(r.rows()).hasSize(2);
      assertThat(r.row(0).values()).containsExactly("1", "10 Downing St,\nLondon");
      assertThat(r.row(0).request()).isEqualTo(q("10 Downing St,, London"));
      assertThat(r.row(1).request()).isEqualTo(q("The \"Old\" Mill, Bath"));
      assertThat(r.row(1).index()).isEqualTo(1);
    }

    @Test
    @DisplayName("a UTF-8 byte-order mark is not part of the first column's name, and is remembered")
    void byteOrderMark() throws Exception {
      var r = read("\uFEFFaddress\nZürich\n");
      assertThat(r.columns()).containsExactly("address");
      assertThat(r.reader().byteOrderMark()).isTrue();
      assertThat(r.row(0).request()).isEqualTo(q("Zürich"));
      assertThat(read("address\nZürich\n").reader().byteOrderMark()).isFalse();
    }

    @Test
    @DisplayName("semicolons (a European spreadsheet's CSV) are told from the header, and commas inside stay in the value")
    void semicolons() throws Exception {
      var r = read("street;city;country\n10 Downing St;London;UK\n\"Rue de Rivoli; 1\";Paris, 1er;FR\n");
      assertThat(r.reader().delimiter()).isEqualTo(';');
      assertThat(r.row(0).request()).isEqualTo(new JsonObject().put("address",
          new JsonObject().put("street", "10 Downing St").put("locality", "London").put("country", "UK")));
      assertThat(r.row(1).values()).containsExactly("Rue de Rivoli; 1", "Paris, 1er", "FR");
    }

    @Test
    @DisplayName("tabs are told from the header")
    void tabs() throws Exception {
      var r = read("lat\tlon\tname\n52.52\t13.405\tBerlin, Mitte\n");
      assertThat(r.reader().delimiter()).isEqualTo('\t');
      assertThat(r.row(0).direction()).isEqualTo(Direction.REVERSE);
      assertThat(r.row(0).request()).isEqualTo(new JsonObject().put("lat", 52.52).put("lon", 13.405));
    }

    @Test
    @DisplayName("CRLF line ends, blank lines and a trailing empty line are not rows")
    void crlfAndTrailingLines() throws Exception {
      var r = read("address\r\nParis\r\n\r\nLyon\r\n\r\n");
      assertThat(r.rows()).extracting(BatchRow::values).containsExactly(java.util.List.of("Paris"), java.util.List.of("Lyon"));
      assertThat(r.reader().rowsRead()).isEqualTo(2);
    }

    @Test
    @DisplayName("a header with only column names and no rows is a file of no rows")
    void headerOnly() throws Exception {
      assertThat(read("address\n").rows()).isEmpty();
    }

    @Test
    @DisplayName("column names match without regard to case or space; blank names become column_<n>; other columns are kept")
    void names() throws Exception {
      var r = read(" Address ,,Customer\nOslo,,42\n");
      assertThat(r.columns()).containsExactly("Address", "column_2", "Customer");
      assertThat(r.row(0).values()).containsExactly("Oslo", "", "42");
      assertThat(r.row(0).request()).isEqualTo(q("Oslo"));
    }

    @Test
    @DisplayName("house_number, unit and locality are components too; with an address column, lat and lon are ordinary columns")
    void moreComponents() throws Exception {
      var r = read("house_number,street,locality,postcode\n10,Downing St,London,SW1A 2AA\n");
      assertThat(r.row(0).request().getJsonObject("address").getMap())
          .containsExactly(java.util.Map.entry("house_number", "10"), java.util.Map.entry("street", "Downing St"),
              java.util.Map.entry("locality", "London"), java.util.Map.entry("postcode", "SW1A 2AA"));
      var both = read("address,lat,lon\nParis,1,2\n");
      assertThat(both.row(0).direction()).isEqualTo(Direction.FORWARD);
    }
  }

  @Nested
  @DisplayName("a bad row is reported on its row, and reading goes on")
  class PerRow {

    @Test
    @DisplayName("a ragged row, short or long, is invalid and says how many fields it has")
    void ragged() throws Exception {
      var r = read("address,id\nParis\nLondon, UK,2\nBerlin,3\n");
      assertThat(r.row(0).problem()).isEqualTo("has 1 field; the header has 2");
      assertThat(r.row(0).values()).containsExactly("Paris", null);
      assertThat(r.row(1).problem()).isEqualTo("has 3 fields; the header has 2 (a value holding ',' not in double quotes?)");
      assertThat(r.row(1).values()).containsExactly("London", " UK");
      assertThat(r.row(2).valid()).isTrue();
    }

    @Test
    @DisplayName("no address, only punctuation, control characters, or more than 1,000 characters")
    void addresses() throws Exception {
      var r = read("address,n\n,1\n\" - , \",2\n\"a\u0007b\",3\n" + "x".repeat(1001) + ",4\n" + "y".repeat(1000) + ",5\n");
      assertThat(r.rows()).extracting(BatchRow::problem).containsExactly("no address",
          "no address: address holds only spaces or punctuation", "address has control characters",
          "address is 1001 characters; at most 1000", null);
    }

    @Test
    @DisplayName("components all blank, or too long together")
    void components() throws Exception {
      var r = read("street,city\n , \n" + "a".repeat(600) + "," + "b".repeat(400) + "\n");
      assertThat(r.row(0).problem()).isEqualTo("no address: street, city are empty");
      assertThat(r.row(1).problem()).isEqualTo("address is 1002 characters in all; at most 1000");
    }

    @Test
    @DisplayName("lat/lon missing, out of range, or not plain decimal numbers (a decimal comma, an exponent, hex, NaN) are invalid")
    void points() throws Exception {
      var r = read("lat;lon\n52,5;13,4\n95;0\n;1\n1e2;0x10\nNaN;2\n-33.9249;+18.4241\n.5;-0.\n");
      assertThat(r.rows()).extracting(BatchRow::problem).containsExactly(
          "lat '52,5' is not a plain decimal number (write the decimal separator as a point); "
              + "lon '13,4' is not a plain decimal number (write the decimal separator as a point)",
          "lat 95 is out of range [-90, 90]",
          "lat is missing",
          "lat '1e2' is not a plain decimal number; lon '0x10' is not a plain decimal number",
          "lat 'NaN' is not a plain decimal number",
          null, null);
      assertThat(r.row(5).request()).isEqualTo(new JsonObject().put("lat", -33.9249).put("lon", 18.4241));
    }

    @Test
    @DisplayName("a value quoted in a problem is cut at 40 characters and shows control characters as ?")
    void quotedValuesAreBounded() throws Exception {
      var r = read("lat,lon\n\"" + "9".repeat(30) + "x\u0001" + "9".repeat(30) + "\",0\n");
      assertThat(r.row(0).problem()).isEqualTo("lat '" + "9".repeat(30) + "x?" + "9".repeat(8) + "…' is not a plain decimal number");
    }
  }

  @Nested
  @DisplayName("a file that cannot be a batch is refused before any row")
  class Refused {

    private BatchInputException.Kind kindOf(byte[] bytes, BatchLimits limits) {
      try {
        Rows.read(bytes, limits);
      } catch (BatchInputException e) {
        return e.kind();
      } catch (Exception e) {
        throw new AssertionError(e);
      }
      throw new AssertionError("not refused");
    }

    private BatchInputException.Kind kindOf(String text) {
      return kindOf(text.getBytes(StandardCharsets.UTF_8), BatchLimits.defaults());
    }

    @ParameterizedTest
    @ValueSource(strings = {"name,phone\nAda,1\n", "hello world\n", "address,street\nx,y\n", "city,locality\nx,y\n",
        "lat,name\n1,x\n", "address,Address\nx,y\n"})
    @DisplayName("no accepted column set, or an ambiguous one")
    void unknownColumns(String text) {
      assertThat(kindOf(text)).isEqualTo(BatchInputException.Kind.UNKNOWN_COLUMNS);
    }

    @Test
    @DisplayName("the message lists the columns found and the accepted sets")
    void unknownColumnsMessage() {
      assertThatThrownBy(() -> read("name,phone\nAda,1\n")).hasMessage("the header ('name', 'phone') has none of the accepted "
          + "columns: address; or house_number, street, unit, city, locality, region, postcode, country; or lat and lon");
    }

    @Test
    @DisplayName("an empty file, or one of blank lines")
    void empty() {
      assertThat(kindOf("")).isEqualTo(BatchInputException.Kind.EMPTY);
      assertThat(kindOf("\n\r\n  \n")).isEqualTo(BatchInputException.Kind.EMPTY);
    }

    @Test
    @DisplayName("binary, UTF-16 (with or without a byte-order mark) and malformed UTF-8 are not text")
    void notText() throws Exception {
      byte[] png = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 0x0d};
      assertThat(kindOf(png, BatchLimits.defaults())).isEqualTo(BatchInputException.Kind.NOT_TEXT);
      assertThat(kindOf("\uFEFFaddress\nParis\n".getBytes(StandardCharsets.UTF_16LE), BatchLimits.defaults()))
          .isEqualTo(BatchInputException.Kind.NOT_TEXT);
      assertThat(kindOf("address\nParis\n".getBytes(StandardCharsets.UTF_16LE), BatchLimits.defaults()))
          .isEqualTo(BatchInputException.Kind.NOT_TEXT);
      ByteArrayOutputStream late = new ByteArrayOutputStream();
      late.write("address\nParis\n".getBytes(StandardCharsets.UTF_8));
      late.write(new byte[] {(byte) 0xC3, 0x28, '\n'});
      assertThat(kindOf(late.toByteArray(), BatchLimits.defaults())).isEqualTo(BatchInputException.Kind.NOT_TEXT);
    }

    @Test
    @DisplayName("more rows than max_rows, found on the row after the last allowed")
    void tooManyRows() throws Exception {
      BatchLimits two = BatchLimits.defaults().withMaxRows(2);
      assertThat(read("address\na\nb\n", two).rows()).hasSize(2);
      assertThatThrownBy(() -> read("address\na\nb\nc\n", two)).isInstanceOfSatisfying(BatchInputException.class,
          e -> assertThat(e.kind()).isEqualTo(BatchInputException.Kind.TOO_MANY_ROWS)).hasMessage("the file has more than 2 rows");
    }

    @Test
    @DisplayName("an unclosed quote is refused: at the end of the file as malformed, or when the record passes the bound")
    void unclosedQuote() throws Exception {
      assertThat(kindOf("address\n\"Paris\nLyon\n")).isEqualTo(BatchInputException.Kind.MALFORMED);
      String endless = "address\nParis\n\"" + "Lyon\n".repeat(100_000);
      assertThat(kindOf(endless.getBytes(StandardCharsets.UTF_8), BatchLimits.defaults().withMaxRecordChars(100_000)))
          .isEqualTo(BatchInputException.Kind.TOO_LARGE);
    }

    @Test
    @DisplayName("text after a closing quote is malformed CSV, and the message says near which line")
    void textAfterQuote() {
      assertThatThrownBy(() -> read("address,n\nParis,1\n\"Lyon\"x,2\n")).isInstanceOfSatisfying(BatchInputException.class,
          e -> assertThat(e.kind()).isEqualTo(BatchInputException.Kind.MALFORMED)).hasMessageContaining("after row 1 (near line 3)");
    }
  }
}
