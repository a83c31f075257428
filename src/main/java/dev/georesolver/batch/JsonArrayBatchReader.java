package dev.georesolver.batch;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;
import java.util.List;

/**
 * One JSON array of objects, read element by element with Jackson's streaming parser: only the
 * element at hand is ever built. An element that is not an object is an invalid row; broken JSON
 * ends the file (nothing after it can be trusted to be where it seems).
 */
final class JsonArrayBatchReader extends CountingReader {

  private static final int MAX_DEPTH = 32;

  private final JsonParser parser;
  private final JsonRows json;
  private long elementStart;
  private boolean ended;

  JsonArrayBatchReader(Reader reader, boolean bom, BatchLimits limits) throws IOException, BatchInputException {
    super(limits, bom);
    JsonFactory factory = JsonFactory.builder()
        .streamReadConstraints(StreamReadConstraints.builder()
            .maxStringLength(limits.maxRecordChars())
            .maxNestingDepth(MAX_DEPTH)
            .build())
        .build();
    this.parser = factory.createParser(reader);
    this.json = new JsonRows(limits);
    JsonToken first = token();
    if (first != JsonToken.START_ARRAY) {
      throw new BatchInputException(BatchInputException.Kind.MALFORMED, "a JSON batch must be one array of objects");
    }
  }

  @Override
  public InputFormat format() {
    return InputFormat.JSON_ARRAY;
  }

  @Override
  public List<String> columns() {
    return json.columns();
  }

  @Override
  public BatchRow next() throws IOException, BatchInputException {
    if (ended) {
      return null;
    }
    JsonToken t = token();
    if (t == null) {
      throw malformed("the array is not closed");
    }
    if (t == JsonToken.END_ARRAY) {
      ended = true;
      if (token() != null) {
        throw malformed("there is more after the array");
      }
      return null;
    }
    long index = nextIndex();
    elementStart = parser.currentTokenLocation().getCharOffset();
    Object value;
    try {
      value = value(t);
    } catch (JsonProcessingException e) {
      // A value's text is decoded lazily, so its bounds are checked here, not only at nextToken.
      throw translate(e);
    }
    return json.row(index, value);
  }

  private Object value(JsonToken t) throws IOException, BatchInputException {
    return switch (t) {
      case START_OBJECT -> object();
      case START_ARRAY -> array();
      case VALUE_STRING -> parser.getText();
      case VALUE_NUMBER_INT -> parser.getNumberValue();
      case VALUE_NUMBER_FLOAT -> parser.getDoubleValue();
      case VALUE_TRUE -> Boolean.TRUE;
      case VALUE_FALSE -> Boolean.FALSE;
      case VALUE_NULL -> null;
      default -> throw malformed("unexpected " + t);
    };
  }

  private JsonObject object() throws IOException, BatchInputException {
    JsonObject o = new JsonObject();
    for (JsonToken t = token(); t != JsonToken.END_OBJECT; t = token()) {
      if (t != JsonToken.FIELD_NAME) {
        throw malformed(t == null ? "an object is not closed" : "unexpected " + t);
      }
      String name = parser.currentName();
      o.put(name, value(token()));
      bounded();
    }
    return o;
  }

  private JsonArray array() throws IOException, BatchInputException {
    JsonArray a = new JsonArray();
    for (JsonToken t = token(); t != JsonToken.END_ARRAY; t = token()) {
      if (t == null) {
        throw malformed("an array is not closed");
      }
      a.add(value(t));
      bounded();
    }
    return a;
  }

  private void bounded() throws BatchInputException {
    if (parser.currentLocation().getCharOffset() - elementStart > limits.maxRecordChars()) {
      throw new BatchInputException(BatchInputException.Kind.TOO_LARGE,
          "element " + rowsRead() + " of the array is longer than " + limits.maxRecordChars() + " characters");
    }
  }

  private JsonToken token() throws IOException, BatchInputException {
    try {
      return parser.nextToken();
    } catch (JsonProcessingException e) {
      throw translate(e);
    } catch (CharacterCodingException e) {
      throw BatchReaders.notUtf8("after row " + rowsRead());
    }
  }

  private BatchInputException translate(JsonProcessingException e) {
    if (e instanceof StreamConstraintsException) {
      return new BatchInputException(BatchInputException.Kind.TOO_LARGE, "after row " + rowsRead() + ": " + e.getOriginalMessage());
    }
    var at = e.getLocation();
    return malformed(at == null ? "not JSON" : "not JSON at line " + at.getLineNr() + ", column " + at.getColumnNr());
  }

  private BatchInputException malformed(String what) {
    return new BatchInputException(BatchInputException.Kind.MALFORMED, "malformed JSON array after row " + rowsRead() + ": " + what);
  }

  @Override
  public void close() throws IOException {
    parser.close();
  }
}
