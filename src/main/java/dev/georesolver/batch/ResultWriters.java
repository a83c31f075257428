package dev.georesolver.batch;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Opens result writers. Every format writes the same fields: the input columns as read (CSV text
 * as it was; JSON values with their types), then {@link ResultColumns}; numbers in plain decimal
 * notation. A writer opened on output that already holds its first {@code alreadyWritten} rows
 * (a resumed run, the stream positioned at the end of the last whole row) writes no header and
 * continues as if it had written them, so the finished file is byte for byte what one uninterrupted
 * writer makes.
 *
 * <p>CSV output is RFC 4180 (CRLF, fields quoted only when needed), in the delimiter given. The
 * result columns that carry provider text ({@code label}, {@code notice}, {@code error}) get a
 * leading {@code '} when they begin with {@code = + - @}, a tab or a carriage return, so a
 * spreadsheet shows them instead of running them as formulas; input columns are never changed.
 */
public final class ResultWriters {

  private static final int LABEL = 3;
  private static final int NOTICE = 8;
  private static final int ERROR = 9;

  private ResultWriters() {}

  /**
   * A writer onto {@code out}, which it owns.
   *
   * @param format the output format
   * @param inputColumns the input columns (for JSON input: all of them, known once the file was read through)
   * @param delimiter CSV only: the delimiter ({@code ,} {@code ;} or tab)
   * @param byteOrderMark CSV only: start a new file with a UTF-8 byte-order mark
   * @param alreadyWritten rows the output holds already; 0 for a new file
   */
  public static ResultWriter open(OutputFormat format, OutputStream out, List<String> inputColumns, char delimiter,
      boolean byteOrderMark, long alreadyWritten) throws IOException {
    return switch (format) {
      case CSV -> new Csv(out, inputColumns, delimiter, byteOrderMark, alreadyWritten);
      case NDJSON -> new Json(out, inputColumns, false, alreadyWritten);
      case GEOJSON -> new Json(out, inputColumns, true, alreadyWritten);
    };
  }

  /** A number as plain decimal text (never an exponent). */
  public static String plain(Number n) {
    if (n instanceof Double || n instanceof Float) {
      // The shortest decimal that reads back as the double, without an exponent; whole numbers keep ".0".
      String s = BigDecimal.valueOf(n.doubleValue()).stripTrailingZeros().toPlainString();
      return s.indexOf('.') < 0 ? s + ".0" : s;
    }
    if (n instanceof BigDecimal b) {
      return b.toPlainString();
    }
    return n.toString();
  }

  private static final class Csv implements ResultWriter {
    private final CSVPrinter printer;
    private final int inputs;
    private final List<Object> record = new ArrayList<>();
    private long rows;

    Csv(OutputStream out, List<String> inputColumns, char delimiter, boolean bom, long already) throws IOException {
      BufferedWriter w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
      this.printer = new CSVPrinter(w, CSVFormat.RFC4180.builder().setDelimiter(delimiter).get());
      this.inputs = inputColumns.size();
      this.rows = already;
      if (already == 0) {
        if (bom) {
          w.write('\uFEFF');
        }
        List<String> header = new ArrayList<>(inputColumns);
        header.addAll(ResultColumns.named(inputColumns));
        printer.printRecord(header);
      }
    }

    @Override
    public void write(BatchRow row, RowResult result) throws IOException {
      record.clear();
      for (int i = 0; i < inputs; i++) {
        record.add(text(row.value(i)));
      }
      for (int i = 0; i < ResultColumns.NAMES.size(); i++) {
        Object v = result.column(i);
        String t = text(v);
        record.add(i == LABEL || i == NOTICE || i == ERROR || i >= ResultColumns.FIRST_ADDRESS ? guarded(t) : t);
      }
      printer.printRecord(record);
      rows++;
    }

    private static String text(Object v) {
      if (v == null) {
        return "";
      }
      if (v instanceof String s) {
        return s;
      }
      if (v instanceof Number n) {
        return plain(n);
      }
      if (v instanceof JsonObject o) {
        return o.encode();
      }
      if (v instanceof JsonArray a) {
        return a.encode();
      }
      return String.valueOf(v);
    }

    private static String guarded(String t) {
      if (!t.isEmpty() && "=+-@\t\r".indexOf(t.charAt(0)) >= 0) {
        return "'" + t;
      }
      return t;
    }

    @Override
    public long rowsWritten() {
      return rows;
    }

    @Override
    public void finish() throws IOException {
      printer.flush();
    }

    @Override
    public void flush() throws IOException {
      printer.flush();
    }

    @Override
    public void close() throws IOException {
      printer.close();
    }
  }

  private static final class Json implements ResultWriter {
    private final JsonGenerator gen;
    private final List<String> inputColumns;
    private final List<String> resultNames;
    private final boolean geojson;
    private long rows;

    Json(OutputStream out, List<String> inputColumns, boolean geojson, long already) throws IOException {
      this.gen = new JsonFactory().createGenerator(out, JsonEncoding.UTF8);
      gen.setRootValueSeparator(null);
      this.inputColumns = List.copyOf(inputColumns);
      this.resultNames = ResultColumns.named(inputColumns);
      this.geojson = geojson;
      this.rows = already;
      if (geojson && already == 0) {
        gen.writeRaw("{\"type\":\"FeatureCollection\",\"features\":[\n");
      }
    }

    @Override
    public void write(BatchRow row, RowResult result) throws IOException {
      if (geojson) {
        if (rows > 0) {
          gen.writeRaw(",\n");
        }
        gen.writeStartObject();
        gen.writeStringField("type", "Feature");
        gen.writeFieldName("geometry");
        if (result.lon() != null && result.lat() != null) {
          gen.writeStartObject();
          gen.writeStringField("type", "Point");
          gen.writeArrayFieldStart("coordinates");
          gen.writeNumber(plain(result.lon()));
          gen.writeNumber(plain(result.lat()));
          gen.writeEndArray();
          gen.writeEndObject();
        } else {
          gen.writeNull();
        }
        gen.writeFieldName("properties");
      }
      gen.writeStartObject();
      for (int i = 0; i < inputColumns.size(); i++) {
        field(inputColumns.get(i), row.value(i));
      }
      for (int i = 0; i < resultNames.size(); i++) {
        if (!geojson || (i != ResultColumns.LON && i != ResultColumns.LAT)) {
          field(resultNames.get(i), result.column(i));
        }
      }
      gen.writeEndObject();
      if (geojson) {
        gen.writeEndObject();
      } else {
        gen.writeRaw('\n');
      }
      rows++;
    }

    private void field(String name, Object v) throws IOException {
      if (v == null) {
        return;
      }
      gen.writeFieldName(name);
      if (v instanceof String s) {
        gen.writeString(s);
      } else if (v instanceof Boolean b) {
        gen.writeBoolean(b);
      } else if (v instanceof BigInteger || v instanceof Long || v instanceof Integer) {
        gen.writeNumber(v.toString());
      } else if (v instanceof Number n) {
        gen.writeNumber(plain(n));
      } else if (v instanceof JsonObject o) {
        gen.writeRawValue(o.encode());
      } else if (v instanceof JsonArray a) {
        gen.writeRawValue(a.encode());
      } else {
        gen.writeString(String.valueOf(v));
      }
    }

    @Override
    public long rowsWritten() {
      return rows;
    }

    @Override
    public void finish() throws IOException {
      if (geojson) {
        gen.writeRaw(rows > 0 ? "\n]}\n" : "]}\n");
      }
      gen.flush();
    }

    @Override
    public void flush() throws IOException {
      gen.flush();
    }

    @Override
    public void close() throws IOException {
      gen.close();
    }
  }
}
