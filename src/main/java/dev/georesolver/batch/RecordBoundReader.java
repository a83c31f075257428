package dev.georesolver.batch;

import java.io.FilterReader;
import java.io.IOException;
import java.io.Reader;

/**
 * Counts the characters pulled from a reader since the last record ended and fails once they pass
 * the bound, so an unclosed quote cannot pull a whole file into one field. The count includes what
 * the parser above reads ahead (at most one buffer), so the bound holds within a buffer's length.
 */
final class RecordBoundReader extends FilterReader {

  /** Thrown when one record passes the bound. */
  static final class RecordTooLong extends IOException {
    RecordTooLong() {
      super("record too long", null);
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
      return this;
    }
  }

  private final long bound;
  private long pulled;
  private long recordStart;

  RecordBoundReader(Reader in, long bound) {
    super(in);
    this.bound = bound;
  }

  /** Marks the end of a record: the next one is counted from here. */
  void recordEnded() {
    recordStart = pulled;
  }

  @Override
  public int read() throws IOException {
    int c = super.read();
    if (c >= 0) {
      count(1);
    }
    return c;
  }

  @Override
  public int read(char[] cbuf, int off, int len) throws IOException {
    int n = super.read(cbuf, off, len);
    if (n > 0) {
      count(n);
    }
    return n;
  }

  private void count(int n) throws RecordTooLong {
    pulled += n;
    if (pulled - recordStart > bound) {
      throw new RecordTooLong();
    }
  }
}
