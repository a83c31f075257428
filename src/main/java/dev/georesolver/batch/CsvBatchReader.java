package dev.georesolver.batch;

import org.apache.commons.csv.CSVException;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * CSV with a header row (RFC 4180: fields in double quotes may hold the delimiter, quotes doubled,
 * and line breaks; records end in CRLF or LF; blank lines are skipped), through Commons CSV, one
 * record at a time.
 */
final class CsvBatchReader extends CountingReader {

  private final RecordBoundReader in;
  private final CSVParser parser;
  private final Iterator<CSVRecord> records;
  private final char delimiter;
  private final ColumnLayout layout;

  CsvBatchReader(Reader reader, char delimiter, boolean bom, BatchLimits limits) throws IOException, BatchInputException {
    super(limits, bom);
    this.in = new RecordBoundReader(reader, limits.maxRecordChars());
    this.delimiter = delimiter;
    CSVFormat format = CSVFormat.RFC4180.builder().setDelimiter(delimiter).setIgnoreEmptyLines(true).get();
    this.parser = CSVParser.builder().setReader(in).setFormat(format).get();
    this.records = parser.iterator();
    CSVRecord header = nextRecord();
    if (header == null) {
      throw new BatchInputException(BatchInputException.Kind.EMPTY, "the file is empty: a header row is needed");
    }
    if (header.size() > limits.maxColumns()) {
      throw new BatchInputException(BatchInputException.Kind.TOO_LARGE,
          "the header has " + header.size() + " columns; at most " + limits.maxColumns());
    }
    this.layout = ColumnLayout.of(header.toList());
  }

  @Override
  public InputFormat format() {
    return InputFormat.CSV;
  }

  @Override
  public List<String> columns() {
    return layout.names;
  }

  @Override
  public BatchRow next() throws IOException, BatchInputException {
    CSVRecord r = nextRecord();
    if (r == null) {
      return null;
    }
    long index = nextIndex();
    int width = layout.names.size();
    Object[] v = new Object[width];
    for (int i = 0; i < Math.min(width, r.size()); i++) {
      v[i] = r.get(i);
    }
    List<Object> values = Collections.unmodifiableList(Arrays.asList(v));
    if (r.size() != width) {
      return BatchRow.invalid(index, values, "has " + r.size() + (r.size() == 1 ? " field" : " fields") + "; the header has "
          + width + (r.size() > width ? " (a value holding '" + shown(delimiter) + "' not in double quotes?)" : ""));
    }
    return RowRequests.row(index, values, build(v));
  }

  private RowRequests.Built build(Object[] v) {
    return switch (layout.kind) {
      case TEXT -> RowRequests.text(v[layout.first]);
      case POINT -> RowRequests.point(v[layout.first], v[layout.second]);
      case COMPONENTS -> {
        Map<String, Object> byColumn = new LinkedHashMap<>();
        layout.components.forEach((name, i) -> byColumn.put(name, v[i]));
        yield RowRequests.components(byColumn);
      }
    };
  }

  private CSVRecord nextRecord() throws IOException, BatchInputException {
    try {
      if (!records.hasNext()) {
        return null;
      }
      CSVRecord r = records.next();
      in.recordEnded();
      return r;
    } catch (UncheckedIOException e) {
      throw translate(e.getCause());
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      // Commons CSV's iterator lets its IOExceptions (CSVException among them) through undeclared.
      if (e instanceof IOException io) {
        throw translate(io);
      }
      throw new IllegalStateException(e);
    }
  }

  private BatchInputException translate(IOException e) throws IOException {
    long line = parser.getCurrentLineNumber();
    if (e instanceof RecordBoundReader.RecordTooLong) {
      return new BatchInputException(BatchInputException.Kind.TOO_LARGE, "the record after row " + rowsRead() + " (near line " + line
          + ") is longer than " + limits.maxRecordChars() + " characters: an unclosed double quote?");
    }
    if (e instanceof CharacterCodingException) {
      return BatchReaders.notUtf8("near line " + line);
    }
    if (!(e instanceof CSVException)) {
      // A failure of the stream itself, not of the text in it.
      throw e;
    }
    return new BatchInputException(BatchInputException.Kind.MALFORMED, "malformed CSV after row " + rowsRead() + " (near line "
        + line + "): " + e.getMessage());
  }

  private static String shown(char c) {
    return c == '\t' ? "\\t" : String.valueOf(c);
  }

  @Override
  public char delimiter() {
    return delimiter;
  }

  @Override
  public void close() throws IOException {
    parser.close();
  }
}
