package dev.georesolver.batch;

import dev.georesolver.bus.RequestValidator;
import dev.georesolver.geo.Direction;
import io.vertx.core.json.JsonObject;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Turns one row's values into the request to send, or into the problem that keeps it from being
 * sent. The same rules for CSV and JSON rows, and the resolver's own limits
 * ({@link RequestValidator#MAX_ADDRESS_CHARS} code points), so a row passed here is not refused by
 * the resolver for its address. Pure and thread-safe.
 *
 * <p>Text is cleaned first: surrounding space is stripped, a multi-line cell becomes one line with
 * its lines joined by {@code ", "}, and tabs become spaces. What is left must hold an address (not
 * only punctuation) and no other control character.
 */
public final class RowRequests {

  /** Column (or JSON field) of a free-text address. */
  public static final String ADDRESS = "address";
  /** Column of a reverse lookup's latitude, decimal degrees. */
  public static final String LAT = "lat";
  /** Column of a reverse lookup's longitude, decimal degrees. */
  public static final String LON = "lon";

  /**
   * Component columns and the request component each fills (the names of
   * {@code AddressNormalizer.COMPONENT_ORDER}; {@code city} is {@code locality}).
   */
  public static final Map<String, String> COMPONENTS;

  static {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("house_number", "house_number");
    m.put("street", "street");
    m.put("unit", "unit");
    m.put("city", "locality");
    m.put("locality", "locality");
    m.put("region", "region");
    m.put("postcode", "postcode");
    m.put("country", "country");
    COMPONENTS = java.util.Collections.unmodifiableMap(m);
  }

  private static final Pattern PLAIN_DECIMAL = Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)");
  private static final Pattern LINE_BREAK = Pattern.compile("\\R");
  private static final int QUOTED_MAX = 40;

  private RowRequests() {}

  /** A row's request, or why there is none. */
  public sealed interface Built permits Request, Problem {}

  /**
   * A request to send.
   *
   * @param direction forward or reverse
   * @param body the request fields
   */
  public record Request(Direction direction, JsonObject body) implements Built {}

  /** Why the row cannot be sent: a sentence for the {@code error} column. */
  public record Problem(String message) implements Built {}

  /** A free-text address. */
  public static Built text(Object raw) {
    if (raw != null && !(raw instanceof String)) {
      return new Problem("address must be text");
    }
    String t = clean((String) raw);
    String problem = textProblem("address", t);
    return problem != null ? new Problem(problem) : new Request(Direction.FORWARD, new JsonObject().put("q", t));
  }

  /**
   * A structured address.
   *
   * @param byColumn component column name (a key of {@link #COMPONENTS}) → raw value; blank values
   *     are left out
   */
  public static Built components(Map<String, ?> byColumn) {
    JsonObject address = new JsonObject();
    StringBuilder all = new StringBuilder();
    int total = 0;
    for (Map.Entry<String, ?> e : byColumn.entrySet()) {
      String component = COMPONENTS.get(e.getKey());
      Object raw = e.getValue();
      if (raw instanceof Number n) {
        raw = plain(n);
      }
      if (raw != null && !(raw instanceof String)) {
        return new Problem(e.getKey() + " must be text");
      }
      String t = clean((String) raw);
      if (t.isEmpty()) {
        continue;
      }
      if (hasControlCharacter(t)) {
        return new Problem(e.getKey() + " has control characters");
      }
      total += (total == 0 ? 0 : 2) + t.codePointCount(0, t.length());
      all.append(t);
      address.put(component, t);
    }
    if (address.isEmpty() || onlyPunctuation(all.toString())) {
      return new Problem("no address: " + String.join(", ", byColumn.keySet()) + (byColumn.size() == 1 ? " is" : " are") + " empty");
    }
    if (total > RequestValidator.MAX_ADDRESS_CHARS) {
      return new Problem("address is " + total + " characters in all; at most " + RequestValidator.MAX_ADDRESS_CHARS);
    }
    return new Request(Direction.FORWARD, new JsonObject().put("address", address));
  }

  /** A point for a reverse lookup: each coordinate a JSON number or text holding a plain decimal number. */
  public static Built point(Object lat, Object lon) {
    StringBuilder problems = new StringBuilder();
    Double la = coordinate(LAT, lat, 90, problems);
    Double lo = coordinate(LON, lon, 180, problems);
    if (problems.length() > 0) {
      return new Problem(problems.toString());
    }
    return new Request(Direction.REVERSE, new JsonObject().put(LAT, la).put(LON, lo));
  }

  /** Row {@code index} with {@code values}: valid with the request built, or invalid with its problem. */
  public static BatchRow row(long index, List<Object> values, Built built) {
    if (built instanceof Request r) {
      return BatchRow.of(index, values, r.direction(), r.body());
    }
    return BatchRow.invalid(index, values, ((Problem) built).message());
  }

  /** Whether a JSON row names any field this class reads. */
  public static boolean recognises(JsonObject row) {
    return row.containsKey(ADDRESS) || row.containsKey(LAT) || row.containsKey(LON)
        || row.fieldNames().stream().anyMatch(COMPONENTS::containsKey);
  }

  /**
   * A JSON row: {@code address} as text or as an object of components, or component fields, or
   * {@code lat} and {@code lon}. Other fields are the caller's and are ignored here.
   */
  public static Built json(JsonObject row) {
    List<String> components = row.fieldNames().stream().filter(COMPONENTS::containsKey).toList();
    Object address = row.getValue(ADDRESS);
    if (address != null && !components.isEmpty()) {
      return new Problem("has both address and " + String.join(", ", components) + ": give one or the other");
    }
    if (address instanceof JsonObject parts) {
      Map<String, Object> byColumn = new LinkedHashMap<>();
      for (String k : parts.fieldNames()) {
        if (!COMPONENTS.containsKey(k)) {
          return new Problem("address." + quoted(k) + " is not a component (known: " + String.join(", ", COMPONENTS.keySet()) + ")");
        }
        byColumn.put(k, parts.getValue(k));
      }
      return components(byColumn);
    }
    if (row.containsKey(ADDRESS)) {
      return text(address);
    }
    if (!components.isEmpty()) {
      Map<String, Object> byColumn = new LinkedHashMap<>();
      components.forEach(k -> byColumn.put(k, row.getValue(k)));
      return components(byColumn);
    }
    if (row.containsKey(LAT) || row.containsKey(LON)) {
      return point(row.getValue(LAT), row.getValue(LON));
    }
    return new Problem("no address: give address, component fields (" + String.join(", ", COMPONENTS.keySet())
        + "), or lat and lon");
  }

  /** One line of text: stripped, lines joined by ", ", tabs as spaces; "" for null. */
  static String clean(String raw) {
    if (raw == null) {
      return "";
    }
    String t = raw.strip();
    if (t.indexOf('\n') >= 0 || t.indexOf('\r') >= 0 || t.indexOf('\u2028') >= 0 || t.indexOf('\u2029') >= 0) {
      StringBuilder sb = new StringBuilder();
      for (String line : LINE_BREAK.split(t)) {
        String l = line.strip();
        if (!l.isEmpty()) {
          if (sb.length() > 0) {
            sb.append(", ");
          }
          sb.append(l);
        }
      }
      t = sb.toString();
    }
    return t.replace('\t', ' ');
  }

  private static String textProblem(String field, String t) {
    if (t.isEmpty()) {
      return "no address";
    }
    if (onlyPunctuation(t)) {
      return "no address: " + field + " holds only spaces or punctuation";
    }
    if (hasControlCharacter(t)) {
      return field + " has control characters";
    }
    int n = t.codePointCount(0, t.length());
    if (n > RequestValidator.MAX_ADDRESS_CHARS) {
      return field + " is " + n + " characters; at most " + RequestValidator.MAX_ADDRESS_CHARS;
    }
    return null;
  }

  private static Double coordinate(String name, Object v, int bound, StringBuilder problems) {
    double d;
    if (v == null || (v instanceof String s && s.isBlank())) {
      return problem(problems, name + " is missing");
    }
    if (v instanceof String s) {
      String t = s.strip();
      if (t.length() > 32 || !PLAIN_DECIMAL.matcher(t).matches()) {
        return problem(problems, name + " " + quoted(t) + " is not a plain decimal number"
            + (t.indexOf(',') >= 0 ? " (write the decimal separator as a point)" : ""));
      }
      d = new BigDecimal(t).doubleValue();
    } else if (v instanceof Number n) {
      d = n.doubleValue();
      if (!Double.isFinite(d)) {
        return problem(problems, name + " is not a finite number");
      }
    } else {
      return problem(problems, name + " must be a number");
    }
    if (d < -bound || d > bound) {
      return problem(problems, name + " " + plain(d) + " is out of range [-" + bound + ", " + bound + "]");
    }
    return d;
  }

  private static Double problem(StringBuilder problems, String p) {
    if (problems.length() > 0) {
      problems.append("; ");
    }
    problems.append(p);
    return null;
  }

  private static String plain(Object n) {
    if (n instanceof BigDecimal b) {
      return b.toPlainString();
    }
    if (n instanceof Double || n instanceof Float) {
      return BigDecimal.valueOf(((Number) n).doubleValue()).stripTrailingZeros().toPlainString();
    }
    if (n instanceof BigInteger || n instanceof Long || n instanceof Integer || n instanceof Short || n instanceof Byte) {
      return n.toString();
    }
    return String.valueOf(n);
  }

  /**
   * A value from the file quoted for a message: at most {@value #QUOTED_MAX} code points (then an
   * ellipsis), control characters shown as {@code ?}.
   */
  static String quoted(String s) {
    StringBuilder sb = new StringBuilder("'");
    int count = 0;
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      i += Character.charCount(cp);
      if (++count > QUOTED_MAX) {
        sb.append('…');
        break;
      }
      sb.appendCodePoint(Character.getType(cp) == Character.CONTROL ? '?' : cp);
    }
    return sb.append('\'').toString();
  }

  private static boolean hasControlCharacter(String t) {
    for (int i = 0; i < t.length(); i++) {
      if (Character.getType(t.charAt(i)) == Character.CONTROL) {
        return true;
      }
    }
    return false;
  }

  private static final Set<Integer> PUNCTUATION = Set.of((int) Character.CONNECTOR_PUNCTUATION,
      (int) Character.DASH_PUNCTUATION, (int) Character.START_PUNCTUATION, (int) Character.END_PUNCTUATION,
      (int) Character.INITIAL_QUOTE_PUNCTUATION, (int) Character.FINAL_QUOTE_PUNCTUATION, (int) Character.OTHER_PUNCTUATION);

  private static boolean onlyPunctuation(String t) {
    for (int i = 0; i < t.length(); i++) {
      char c = t.charAt(i);
      if (!Character.isWhitespace(c) && !Character.isSpaceChar(c) && !PUNCTUATION.contains(Character.getType(c))) {
        return false;
      }
    }
    return true;
  }
}
