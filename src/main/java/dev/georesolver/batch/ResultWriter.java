package dev.georesolver.batch;

import java.io.Closeable;
import java.io.Flushable;
import java.io.IOException;

/**
 * Writes a batch's results, one row at a time in input order, streamed. Opened by
 * {@link ResultWriters#open}. Not thread-safe.
 */
public interface ResultWriter extends Closeable, Flushable {

  /** Writes the next row with its result. */
  void write(BatchRow row, RowResult result) throws IOException;

  /** Rows in the output so far, counting those it held when this writer was opened. */
  long rowsWritten();

  /** Ends the output (a GeoJSON collection's closing brackets) and flushes; nothing is written after. */
  void finish() throws IOException;

  /** Flushes what is written to the stream below. */
  @Override
  void flush() throws IOException;
}
