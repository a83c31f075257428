package dev.georesolver.logging;

import java.util.function.IntPredicate;

/**
 * Escapes the characters that would end a log line: CR becomes {@code \r}, LF {@code \n}, and the
 * Unicode line and paragraph separators {@code \u2028}/{@code \u2029}. Everything else is kept, so
 * a message reads as before ({@link #escape}). Text from outside the process (a provider's error
 * message) has every control character escaped too ({@link #escapeControls}). Pure and thread-safe.
 */
public final class OneLine {

  private static final IntPredicate BREAK = c -> c == '\r' || c == '\n' || c == '\u2028' || c == '\u2029';
  /** C0 controls, DEL, C1 controls, and the Unicode line and paragraph separators. */
  private static final IntPredicate CONTROL = c -> c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029';

  private OneLine() {}

  /** {@code s} with its line breaks escaped; the same instance when it has none; null stays null. */
  public static String escape(String s) {
    return escape(s, BREAK);
  }

  /**
   * {@code s} with every control character escaped: the line breaks as {@link #escape} writes them,
   * TAB as {@code \t}, and every other C0 or C1 control and DEL as {@code \}{@code uXXXX}; the same
   * instance when it has none; null stays null. For text a party outside the process wrote, which
   * must neither break a log line nor carry terminal escapes into an answer or a log.
   */
  public static String escapeControls(String s) {
    return escape(s, CONTROL);
  }

  private static String escape(String s, IntPredicate escaped) {
    if (s == null) {
      return null;
    }
    int i = first(s, escaped);
    if (i < 0) {
      return s;
    }
    StringBuilder sb = new StringBuilder(s.length() + 16).append(s, 0, i);
    for (; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!escaped.test(c)) {
        sb.append(c);
        continue;
      }
      switch (c) {
        case '\r' -> sb.append("\\r");
        case '\n' -> sb.append("\\n");
        case '\t' -> sb.append("\\t");
        default -> sb.append(String.format("\\u%04x", (int) c));
      }
    }
    return sb.toString();
  }

  private static int first(String s, IntPredicate escaped) {
    for (int i = 0; i < s.length(); i++) {
      if (escaped.test(s.charAt(i))) {
        return i;
      }
    }
    return -1;
  }
}
