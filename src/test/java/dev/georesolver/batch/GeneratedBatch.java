package dev.georesolver.batch;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * A batch file made on the fly, row by row, never whole: CSV (quoted multi-line addresses, CRLF,
 * every 1,000th row ragged), JSON Lines or a JSON array, of any number of rows.
 */
final class GeneratedBatch extends InputStream {

  private final InputFormat format;
  private final long rows;
  private long next = -1;
  private byte[] chunk = new byte[0];
  private int pos;

  GeneratedBatch(InputFormat format, long rows) {
    this.format = format;
    this.rows = rows;
  }

  /** Whether row {@code i} is made invalid (ragged in CSV, a point out of range in JSON). */
  static boolean invalid(long i) {
    return i % 1000 == 999;
  }

  @Override
  public int read() {
    if (pos == chunk.length && !refill()) {
      return -1;
    }
    return chunk[pos++] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) {
    if (len == 0) {
      return 0;
    }
    if (pos == chunk.length && !refill()) {
      return -1;
    }
    int n = Math.min(len, chunk.length - pos);
    System.arraycopy(chunk, pos, b, off, n);
    pos += n;
    return n;
  }

  private boolean refill() {
    if (next > rows) {
      return false;
    }
    StringBuilder sb = new StringBuilder();
    for (int k = 0; k < 256 && next <= rows; k++, next++) {
      sb.append(piece(next));
    }
    chunk = sb.toString().getBytes(StandardCharsets.UTF_8);
    pos = 0;
    return chunk.length > 0 || refill();
  }

  /** Piece -1 is the header, 0..rows-1 the rows, rows the trailer. */
  private String piece(long i) {
    if (i < 0) {
      return switch (format) {
        case CSV -> "id,address,note\r\n";
        case NDJSON -> "";
        case JSON_ARRAY -> "[\n";
      };
    }
    if (i == rows) {
      return format == InputFormat.JSON_ARRAY ? "]\n" : "";
    }
    return switch (format) {
      case CSV -> invalid(i) ? i + ",\"" + i + " Main Street\"\r\n"
          : i + ",\"" + i + " Main Street,\nSpringfield\",\"note, " + i + "\"\r\n";
      case NDJSON -> invalid(i) ? "{\"id\": " + i + ", \"lat\": 91, \"lon\": 0}\n"
          : "{\"id\": " + i + ", \"address\": \"" + i + " Main Street, Springfield\"}\n";
      case JSON_ARRAY -> (i > 0 ? "," : "") + (invalid(i) ? "{\"id\": " + i + ", \"lat\": 91, \"lon\": 0}\n"
          : "{\"id\": " + i + ", \"address\": {\"street\": \"" + i + " Main Street\", \"city\": \"Springfield\"}}\n");
    };
  }
}
