package dev.georesolver.batch;

/** The formats a batch file may come in, told from its content (never from its name). */
public enum InputFormat {
  /** CSV with a header row; {@code ,} {@code ;} or tab. */
  CSV,
  /** JSON Lines: one JSON object a line. */
  NDJSON,
  /** One JSON array of objects. */
  JSON_ARRAY
}
