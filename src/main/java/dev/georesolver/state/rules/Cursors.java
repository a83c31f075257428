package dev.georesolver.state.rules;


/**
 * Outbox cursors: opaque to clients, ordered: the outbox entry's number ({@code "42"}). Earlier
 * releases on Redis handed out stream entry ids ({@code "1767225600000-3"}); a client may still hold
 * one, so it is read as the number its entry was migrated to ({@link #seq}). Pure.
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

  /**
   * The entry number a cursor stands for: the number itself, or, for an earlier release's Redis
   * stream id {@code <ms>-<n>}, {@code ms * 1000 + n} (the numbers a migrated outbox keeps).
   */
  public static long seq(String c) {
    long[] p = parts(c);
    return c.indexOf('-') < 0 ? p[0] : legacy(p[0], p[1]);
  }

  /** The number an earlier release's stream entry {@code <ms>-<n>} keeps once migrated. */
  public static long legacy(long ms, long n) {
    return ms * 1000 + Math.min(n, 999);
  }
}
