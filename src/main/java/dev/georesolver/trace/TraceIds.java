package dev.georesolver.trace;

import java.util.concurrent.ThreadLocalRandom;

/**
 * W3C-format ids for work that arrives with no trace context while tracing is off: a trace id of 32
 * lowercase hex digits (16 random bytes) and a span id of 16, never all zeros (which W3C reserves
 * for "invalid"). So a client sees one id format whether or not spans are exported. Thread-safe.
 */
public final class TraceIds {

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private TraceIds() {}

  /** A new trace id: 32 lowercase hex digits. */
  public static String next() {
    ThreadLocalRandom r = ThreadLocalRandom.current();
    long hi = r.nextLong();
    long lo = r.nextLong();
    if (hi == 0 && lo == 0) {
      lo = 1;
    }
    char[] c = new char[32];
    hex(hi, c, 0);
    hex(lo, c, 16);
    return new String(c);
  }

  /** A new span id: 16 lowercase hex digits. */
  public static String nextSpanId() {
    long v = ThreadLocalRandom.current().nextLong();
    char[] c = new char[16];
    hex(v == 0 ? 1 : v, c, 0);
    return new String(c);
  }

  /** Whether {@code s} is a W3C trace id: 32 lowercase hex digits, not all zeros. */
  public static boolean isTraceId(String s) {
    if (s == null || s.length() != 32) {
      return false;
    }
    boolean nonZero = false;
    for (int i = 0; i < 32; i++) {
      char ch = s.charAt(i);
      if ((ch < '0' || ch > '9') && (ch < 'a' || ch > 'f')) {
        return false;
      }
      nonZero |= ch != '0';
    }
    return nonZero;
  }

  private static void hex(long v, char[] into, int at) {
    for (int i = 15; i >= 0; i--) {
      into[at + i] = HEX[(int) (v & 0xF)];
      v >>>= 4;
    }
  }
}
