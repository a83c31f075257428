package dev.georesolver.batch;

import dev.georesolver.geo.Address;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The columns a batch's results add to its input columns, in this order:
 * {@code status, lon, lat, label, claim, resolution_source, confidence, degraded, notice, error},
 * then one per address component ({@link Address#keys()}: {@code house_number, road,
 * neighbourhood, locality, county, region, postcode, country, country_code, place_type}), empty
 * where the answer does not know it.
 * A result column whose name the input already uses (a reverse batch's {@code lat} and {@code lon},
 * a sheet's own {@code status}) is written {@code result_<name>}, so the input columns are kept as
 * they were and no name is given twice.
 */
public final class ResultColumns {

  /** The result columns; {@link RowResult}'s components in the same order. */
  public static final List<String> NAMES = names();

  /** The index of the first address component's column in {@link #NAMES}. */
  static final int FIRST_ADDRESS = 10;

  static final int LON = 1;
  static final int LAT = 2;

  private ResultColumns() {}

  private static List<String> names() {
    List<String> n = new ArrayList<>(List.of("status", "lon", "lat", "label", "claim", "resolution_source",
        "confidence", "degraded", "notice", "error"));
    n.addAll(Address.keys());
    return List.copyOf(n);
  }

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
