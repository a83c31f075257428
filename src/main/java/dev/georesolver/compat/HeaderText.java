package dev.georesolver.compat;

import java.nio.charset.StandardCharsets;

/**
 * Makes text safe as an HTTP header value: printable ASCII stays as it is; {@code %} and every
 * non-ASCII character are percent-encoded as UTF-8 (so {@code decodeURIComponent} gives the text
 * back); control characters (CR, LF, tab, NUL…) become one space; the ends are stripped; the result is at most
 * {@value #MAX_CHARS} characters, never cut inside an escape. Pure and thread-safe.
 */
public final class HeaderText {

  /** The longest value written, characters. */
  public static final int MAX_CHARS = 1024;

  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private HeaderText() {}

  /** The header-safe form of {@code s}; empty for null. */
  public static String of(String s) {
    if (s == null) {
      return "";
    }
    if (plain(s)) {
      return s.strip();
    }
    StringBuilder out = new StringBuilder(Math.min(s.length() + 16, MAX_CHARS));
    boolean lastSpace = false;
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      i += Character.charCount(cp);
      String piece;
      if (cp < 0x20 || cp == 0x7F || Character.getType(cp) == Character.CONTROL) {
        if (lastSpace) {
          continue;
        }
        piece = " ";
      } else if (cp < 0x7F && cp != '%') {
        piece = String.valueOf((char) cp);
      } else {
        piece = escape(cp);
      }
      if (out.length() + piece.length() > MAX_CHARS) {
        break;
      }
      out.append(piece);
      lastSpace = piece.equals(" ");
    }
    return out.toString().strip();
  }

  private static boolean plain(String s) {
    if (s.length() > MAX_CHARS) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c >= 0x7F || c == '%') {
        return false;
      }
    }
    return true;
  }

  private static String escape(int cp) {
    byte[] bytes = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8);
    StringBuilder sb = new StringBuilder(bytes.length * 3);
    for (byte b : bytes) {
      sb.append('%').append(HEX[(b >> 4) & 0xF]).append(HEX[b & 0xF]);
    }
    return sb.toString();
  }
}
