package dev.georesolver.batch;

import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The columns of a JSON batch (top-level fields in order of first appearance) and its rows. The
 * first row must name a field {@link RowRequests} reads, so a file of something else entirely is
 * refused at once instead of coming out as a million invalid rows.
 */
final class JsonRows {

  private final Map<String, Integer> index = new HashMap<>();
  private final List<String> names = new ArrayList<>();
  private final BatchLimits limits;

  JsonRows(BatchLimits limits) {
    this.limits = limits;
  }

  /** The columns seen so far. */
  List<String> columns() {
    return List.copyOf(names);
  }

  /** Row {@code index} from one JSON value. */
  BatchRow row(long index, Object value) throws BatchInputException {
    if (!(value instanceof JsonObject o)) {
      if (index == 0) {
        throw new BatchInputException(BatchInputException.Kind.UNKNOWN_COLUMNS,
            "the first row is not a JSON object: each row must be an object such as {\"address\": \"…\"}");
      }
      return BatchRow.invalid(index, List.of(), "is not a JSON object");
    }
    if (index == 0 && !RowRequests.recognises(o)) {
      throw new BatchInputException(BatchInputException.Kind.UNKNOWN_COLUMNS, "the first row has none of the accepted fields "
          + "(address; or " + String.join(", ", RowRequests.COMPONENTS.keySet()) + "; or lat and lon)");
    }
    List<Object> values = align(o);
    return RowRequests.row(index, values, RowRequests.json(o));
  }

  private List<Object> align(JsonObject o) throws BatchInputException {
    for (String k : o.fieldNames()) {
      if (!index.containsKey(k)) {
        if (names.size() >= limits.maxColumns()) {
          throw new BatchInputException(BatchInputException.Kind.TOO_LARGE,
              "the rows have more than " + limits.maxColumns() + " distinct fields");
        }
        index.put(k, names.size());
        names.add(k);
      }
    }
    Object[] v = new Object[names.size()];
    for (String k : o.fieldNames()) {
      v[index.get(k)] = o.getValue(k);
    }
    return Collections.unmodifiableList(Arrays.asList(v));
  }
}
