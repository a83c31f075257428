package dev.georesolver.batch;

import java.io.IOException;
import java.io.Reader;

/** Lines of at most a bound of characters ({@code \n} or {@code \r\n} ended), without holding more. */
final class LineReader {

  /** Thrown when a line passes the bound. */
  static final class LineTooLong extends Exception {
    LineTooLong() {
      super("line too long", null, false, false);
    }
  }

  private final Reader in;
  private final int bound;
  private final char[] buf = new char[8192];
  private int pos;
  private int len;
  private final StringBuilder line = new StringBuilder();

  LineReader(Reader in, int bound) {
    this.in = in;
    this.bound = bound;
  }

  /** The next line without its line end, or null at the end. */
  String next() throws IOException, LineTooLong {
    line.setLength(0);
    boolean any = false;
    while (true) {
      if (pos == len) {
        len = in.read(buf, 0, buf.length);
        pos = 0;
        if (len <= 0) {
          len = 0;
          return any ? finish() : null;
        }
      }
      any = true;
      int start = pos;
      while (pos < len && buf[pos] != '\n') {
        pos++;
      }
      if (line.length() + (pos - start) > bound) {
        throw new LineTooLong();
      }
      line.append(buf, start, pos - start);
      if (pos < len) {
        pos++;
        return finish();
      }
    }
  }

  private String finish() {
    int n = line.length();
    if (n > 0 && line.charAt(n - 1) == '\r') {
      line.setLength(n - 1);
    }
    return line.toString();
  }
}
