package dev.georesolver.batch;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a CSV header says the rows hold: a free-text {@code address}; or address components; or a
 * {@code lat, lon} point. Names are matched without regard to case or surrounding space; every
 * other column is the caller's, kept as it is.
 *
 * <p>Refused ({@link BatchInputException.Kind#UNKNOWN_COLUMNS}): a header with none of these; an
 * {@code address} column beside component columns (which is the address?); {@code city} beside
 * {@code locality} (the same component); {@code lat} without {@code lon} or the reverse; a column
 * name given twice. With {@code address} or components, {@code lat} and {@code lon} are ordinary
 * columns.
 */
final class ColumnLayout {

  /** What the rows hold. */
  enum Kind { TEXT, COMPONENTS, POINT }

  final Kind kind;
  final List<String> names;
  /** TEXT: the address column; POINT: lat. */
  final int first;
  /** POINT: lon. */
  final int second;
  /** COMPONENTS: column name (lower case) → index, in {@link RowRequests#COMPONENTS} order. */
  final Map<String, Integer> components;

  private ColumnLayout(Kind kind, List<String> names, int first, int second, Map<String, Integer> components) {
    this.kind = kind;
    this.names = names;
    this.first = first;
    this.second = second;
    this.components = components;
  }

  /**
   * Reads a header.
   *
   * @param header the header cells as written; blank ones are named {@code column_<n>} (from 1)
   */
  static ColumnLayout of(List<String> header) throws BatchInputException {
    List<String> names = new ArrayList<>(header.size());
    Map<String, Integer> index = new HashMap<>();
    for (int i = 0; i < header.size(); i++) {
      String name = header.get(i) == null ? "" : header.get(i).strip();
      if (name.isEmpty()) {
        name = "column_" + (i + 1);
      }
      String key = name.toLowerCase(Locale.ROOT);
      if (index.putIfAbsent(key, i) != null) {
        throw unknown("column " + RowRequests.quoted(name) + " appears twice in the header");
      }
      names.add(name);
    }
    Map<String, Integer> components = new LinkedHashMap<>();
    for (String c : RowRequests.COMPONENTS.keySet()) {
      Integer i = index.get(c);
      if (i != null) {
        components.put(c, i);
      }
    }
    Integer address = index.get(RowRequests.ADDRESS);
    if (address != null) {
      if (!components.isEmpty()) {
        throw unknown("the header has an address column and component columns (" + String.join(", ", components.keySet())
            + "): keep one; name a street-line column street");
      }
      return new ColumnLayout(Kind.TEXT, List.copyOf(names), address, -1, Map.of());
    }
    if (!components.isEmpty()) {
      if (components.containsKey("city") && components.containsKey("locality")) {
        throw unknown("the header has both city and locality, which are the same component: keep one");
      }
      return new ColumnLayout(Kind.COMPONENTS, List.copyOf(names), -1, -1, java.util.Collections.unmodifiableMap(components));
    }
    Integer lat = index.get(RowRequests.LAT);
    Integer lon = index.get(RowRequests.LON);
    if (lat != null && lon != null) {
      return new ColumnLayout(Kind.POINT, List.copyOf(names), lat, lon, Map.of());
    }
    if (lat != null || lon != null) {
      throw unknown("the header has " + (lat != null ? "lat but no lon" : "lon but no lat") + " column");
    }
    throw unknown("the header (" + described(names) + ") has none of the accepted columns: address; or "
        + String.join(", ", RowRequests.COMPONENTS.keySet()) + "; or lat and lon");
  }

  private static String described(List<String> names) {
    List<String> shown = names.stream().limit(8).map(RowRequests::quoted).toList();
    return String.join(", ", shown) + (names.size() > 8 ? ", … " + names.size() + " columns" : "");
  }

  private static BatchInputException unknown(String message) {
    return new BatchInputException(BatchInputException.Kind.UNKNOWN_COLUMNS, message);
  }
}
