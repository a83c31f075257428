package dev.georesolver.batch;

/**
 * Bounds on a batch file, all checked while reading.
 *
 * @param maxRows data rows a file may hold (the header row not counted); default
 *     {@value #DEFAULT_MAX_ROWS}; one more is {@link BatchInputException.Kind#TOO_MANY_ROWS}
 * @param maxRecordChars characters one record (a CSV row with its quoted newlines, a JSON Lines
 *     line, a JSON array element) may take, approximately (within one read buffer); default
 *     {@value #DEFAULT_MAX_RECORD_CHARS}; a longer one is {@link BatchInputException.Kind#TOO_LARGE}
 * @param maxColumns columns a CSV header, or distinct top-level fields the JSON rows of one file,
 *     may have; default {@value #DEFAULT_MAX_COLUMNS}
 */
public record BatchLimits(long maxRows, int maxRecordChars, int maxColumns) {

  /** Default {@link #maxRows}: the manifest's {@code batch.max_rows} default. */
  public static final long DEFAULT_MAX_ROWS = 1_000_000;
  /** Default {@link #maxRecordChars}: 1 MiB of characters (a spreadsheet cell holds at most 32,767). */
  public static final int DEFAULT_MAX_RECORD_CHARS = 1 << 20;
  /** Default {@link #maxColumns}. */
  public static final int DEFAULT_MAX_COLUMNS = 1024;

  public BatchLimits {
    if (maxRows < 0 || maxRecordChars < 1 || maxColumns < 1) {
      throw new IllegalArgumentException("batch limits must be positive");
    }
  }

  /** The defaults. */
  public static BatchLimits defaults() {
    return new BatchLimits(DEFAULT_MAX_ROWS, DEFAULT_MAX_RECORD_CHARS, DEFAULT_MAX_COLUMNS);
  }

  /** These limits with another row bound. */
  public BatchLimits withMaxRows(long rows) {
    return new BatchLimits(rows, maxRecordChars, maxColumns);
  }

  /** These limits with another record bound. */
  public BatchLimits withMaxRecordChars(int chars) {
    return new BatchLimits(maxRows, chars, maxColumns);
  }
}
