package dev.georesolver.state.rules;


/**
 * Outbox cursors: opaque to clients, ordered. SQLite's are the outbox sequence number
 * ({@code "42"}), Redis's its stream entry id ({@code "1767225600000-0"}); both compare as a pair
 * of non-negative integers. Pure.
 */
public final class Cursors {

  private Cursors() {}

  /** Whether {@code c} is a cursor: digits, or digits-digits. */
  public static boolean valid(String c) {
    return c != null && c.matches("\\d{1,19}(-\\d{1,19})?");
  }

  /** Compares two cursors (null is before every cursor). */
  public static int compare(String a, String b) {
    if (a == null || b == null) {
      return a == null ? (b == null ? 0 : -1) : 1;
    }
    long[] x = parts(a);
    long[] y = parts(b);
    int c = Long.compare(x[0], y[0]);
    return c != 0 ? c : Long.compare(x[1], y[1]);
  }

  private static long[] parts(String c) {
    int dash = c.indexOf('-');
    return dash < 0 ? new long[] {Long.parseLong(c), 0}
        : new long[] {Long.parseLong(c.substring(0, dash)), Long.parseLong(c.substring(dash + 1))};
  }
}
