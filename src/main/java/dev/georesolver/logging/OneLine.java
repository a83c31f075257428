package dev.georesolver.logging;

/**
 * Escapes the characters that would end a log line: CR becomes {@code \r}, LF {@code \n}, and the
 * Unicode line and paragraph separators {@code \u2028}/{@code \u2029}. Everything else is kept, so
 * a message reads as before. Pure and thread-safe.
 */
public final class OneLine {

  private OneLine() {}

  /** {@code s} with its line breaks escaped; the same instance when it has none; null stays null. */
  public static String escape(String s) {
    if (s == null) {
      return null;
    }
    int i = firstBreak(s);
    if (i < 0) {
      return s;
    }
    StringBuilder sb = new StringBuilder(s.length() + 8).append(s, 0, i);
    for (; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '\r' -> sb.append("\\r");
        case '\n' -> sb.append("\\n");
        case '\u2028' -> sb.append("\\u2028");
        case '\u2029' -> sb.append("\\u2029");
        default -> sb.append(c);
      }
    }
    return sb.toString();
  }

  private static int firstBreak(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\r' || c == '\n' || c == '\u2028' || c == '\u2029') {
        return i;
      }
    }
    return -1;
  }
}
