package dev.georesolver.batch;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;

/**
 * Reads a batch file one row at a time, never holding more than the row at hand. Opened by
 * {@link BatchReaders#open}. Not thread-safe: one reader, one thread.
 */
public interface BatchReader extends Closeable {

  /** What the file is. */
  InputFormat format();

  /**
   * The input columns, in order: a CSV file's header (blank names as {@code column_<n>}); for JSON,
   * the top-level fields of the rows read so far in order of first appearance (complete once
   * {@link #next()} has returned null).
   */
  List<String> columns();

  /**
   * The next row, or null at the end of the file. A row that cannot be resolved comes back invalid
   * with its problem; reading goes on.
   *
   * @throws BatchInputException when the file cannot be read as a batch from here on (malformed
   *     quoting or JSON, a record too long, one row more than allowed)
   * @throws IOException when reading the underlying stream fails
   */
  BatchRow next() throws IOException, BatchInputException;

  /** Data rows returned so far. */
  long rowsRead();

  /** A CSV file's delimiter ({@code ,} {@code ;} or tab); {@code ,} for JSON. */
  char delimiter();

  /** Whether the file began with a UTF-8 byte-order mark (a writer may put one back for spreadsheets). */
  boolean byteOrderMark();
}
