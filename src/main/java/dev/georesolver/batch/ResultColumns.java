package dev.georesolver.batch;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The columns a batch's results add to its input columns, in this order:
 * {@code status, lon, lat, label, claim, resolution_source, confidence, degraded, notice, error}.
 * A result column whose name the input already uses (a reverse batch's {@code lat} and {@code lon},
 * a sheet's own {@code status}) is written {@code result_<name>}, so the input columns are kept as
 * they were and no name is given twice.
 */
public final class ResultColumns {

  /** The result columns; {@link RowResult}'s components in the same order. */
  public static final List<String> NAMES = List.of("status", "lon", "lat", "label", "claim", "resolution_source",
      "confidence", "degraded", "notice", "error");

  static final int LON = 1;
  static final int LAT = 2;

  private ResultColumns() {}

  /** The result columns' names beside {@code inputColumns}, in {@link #NAMES} order. */
  public static List<String> named(List<String> inputColumns) {
    Set<String> taken = new HashSet<>();
    inputColumns.forEach(c -> taken.add(c.toLowerCase(Locale.ROOT)));
    List<String> out = new ArrayList<>(NAMES.size());
    for (String n : NAMES) {
      String name = n;
      while (taken.contains(name)) {
        name = "result_" + name;
      }
      taken.add(name);
      out.add(name);
    }
    return List.copyOf(out);
  }
}
