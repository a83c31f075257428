package dev.georesolver.batch;

/**
 * A file that cannot be read as a batch at all: refused before a job exists. A bad <em>row</em> is
 * never this: it is an invalid {@link BatchRow} and reading goes on.
 *
 * <p>The message is for the person who sent the file: it says what is wrong and where (a line or
 * row number), quoting at most a few characters of the file.
 */
public final class BatchInputException extends Exception {

  /** What is wrong with the file. An HTTP front maps the two size kinds to 413, the others to 400. */
  public enum Kind {
    /** Nothing in it: no header row, or no JSON value. */
    EMPTY,
    /** Not UTF-8 text (binary, UTF-16, a malformed byte sequence). */
    NOT_TEXT,
    /** Broken CSV quoting or JSON syntax that no later row can recover from. */
    MALFORMED,
    /** The header (or the first JSON row) names no accepted column set, or an ambiguous one. */
    UNKNOWN_COLUMNS,
    /** More rows than {@link BatchLimits#maxRows}. */
    TOO_MANY_ROWS,
    /** A record over {@link BatchLimits#maxRecordChars}, or more columns than {@link BatchLimits#maxColumns}. */
    TOO_LARGE
  }

  private final Kind kind;

  public BatchInputException(Kind kind, String message) {
    super(message, null, false, false);
    this.kind = kind;
  }

  /** What is wrong. */
  public Kind kind() {
    return kind;
  }
}
