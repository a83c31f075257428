package dev.georesolver.batch;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;
import java.util.List;

/** JSON Lines: one JSON object a line; blank lines skipped; a line that is not JSON is an invalid row. */
final class JsonLinesBatchReader extends CountingReader {

  private final Reader reader;
  private final LineReader lines;
  private final JsonRows json;
  private long lineNo;

  JsonLinesBatchReader(Reader reader, boolean bom, BatchLimits limits) {
    super(limits, bom);
    this.reader = reader;
    this.lines = new LineReader(reader, limits.maxRecordChars());
    this.json = new JsonRows(limits);
  }

  @Override
  public InputFormat format() {
    return InputFormat.NDJSON;
  }

  @Override
  public List<String> columns() {
    return json.columns();
  }

  @Override
  public BatchRow next() throws IOException, BatchInputException {
    String line;
    do {
      line = line();
      if (line == null) {
        return null;
      }
    } while (line.isBlank());
    long index = nextIndex();
    Object value;
    try {
      value = Json.decodeValue(line);
    } catch (DecodeException e) {
      if (index == 0) {
        throw new BatchInputException(BatchInputException.Kind.MALFORMED,
            "line " + lineNo + " begins like JSON Lines but is not JSON");
      }
      return BatchRow.invalid(index, List.of(), "is not JSON");
    }
    return json.row(index, value);
  }

  private String line() throws IOException, BatchInputException {
    try {
      String l = lines.next();
      lineNo++;
      return l;
    } catch (LineReader.LineTooLong e) {
      throw new BatchInputException(BatchInputException.Kind.TOO_LARGE,
          "line " + (lineNo + 1) + " is longer than " + limits.maxRecordChars() + " characters");
    } catch (CharacterCodingException e) {
      throw BatchReaders.notUtf8("on line " + (lineNo + 1));
    }
  }

  @Override
  public void close() throws IOException {
    reader.close();
  }
}
