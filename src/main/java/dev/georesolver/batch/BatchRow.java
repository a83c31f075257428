package dev.georesolver.batch;

import dev.georesolver.geo.Direction;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * One data row of a batch file, in input order.
 *
 * <p>A valid row carries the request to send: the public request JSON of {@code geocode.resolve}
 * ({@code {"q"}} or {@code {"address": {…}}}) or {@code geocode.reverse} ({@code {"lat", "lon"}}),
 * without intent, bbox or budget, which belong to the job. An invalid row carries its problem
 * instead, a sentence for the {@code error} column.
 *
 * @param index the row's position among the file's data rows, from 0
 * @param values the row's input values, aligned with the reader's {@link BatchReader#columns()} as
 *     they were when the row was read (a JSON file's later rows may add columns); from CSV each is a
 *     {@code String} (null for a cell a short row lacks), from JSON a JSON value (null when absent);
 *     unmodifiable
 * @param direction forward or reverse; null for an invalid row
 * @param request the request fields, or null for an invalid row; not to be modified (copy it to add
 *     fields)
 * @param problem why the row cannot be resolved, or null
 */
public record BatchRow(long index, List<Object> values, Direction direction, JsonObject request, String problem) {

  /** A row to resolve. */
  public static BatchRow of(long index, List<Object> values, Direction direction, JsonObject request) {
    return new BatchRow(index, values, direction, request, null);
  }

  /** A row that cannot be resolved, and why. */
  public static BatchRow invalid(long index, List<Object> values, String problem) {
    return new BatchRow(index, values, null, null, problem);
  }

  /** Whether the row can be resolved. */
  public boolean valid() {
    return problem == null;
  }

  /** The value of column {@code i}, or null when the row has none there. */
  public Object value(int i) {
    return i < values.size() ? values.get(i) : null;
  }
}
