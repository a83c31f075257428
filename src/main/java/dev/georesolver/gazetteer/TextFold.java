package dev.georesolver.gazetteer;

import java.text.Normalizer;

/**
 * The one text form that gazetteer names and queries are compared in: case- and accent-free,
 * punctuation turned into single spaces.
 *
 * <p>Rules: Unicode NFD with combining marks dropped ({@code São → sao}); a few letters that do
 * not decompose spelled out ({@code ß → ss}, {@code æ → ae}, {@code ø → o}, {@code ł → l},
 * {@code đ/ð → d}, {@code þ → th}, {@code œ → oe}, {@code ı → i}); lower case; apostrophes and
 * full stops removed without a space ({@code D.C. → dc}, {@code St. John's → st johns}); any other
 * run of non-letters and non-digits becomes one space; no leading or trailing space. Letters of
 * other scripts are kept, lower-cased. Works code point by code point.
 *
 * <p>{@code scripts/gazetteer/build.mjs} applies the same rules to the names it writes into the
 * bundled index; {@code GazetteerDataTest} checks the two agree on every city's own name.
 *
 * <p>Stateless and thread-safe.
 */
final class TextFold {

  private TextFold() {}

  /** The folded form of {@code s}; empty for null or blank input. */
  static String fold(String s) {
    if (s == null || s.isEmpty()) {
      return "";
    }
    String src = isAscii(s) ? s : Normalizer.normalize(s, Normalizer.Form.NFD);
    StringBuilder out = new StringBuilder(src.length());
    boolean gap = false;
    for (int i = 0; i < src.length(); ) {
      int cp = src.codePointAt(i);
      i += Character.charCount(cp);
      String spelled = null;
      int kept = -1;
      if (cp < 128) {
        if ((cp >= 'a' && cp <= 'z') || (cp >= '0' && cp <= '9')) {
          kept = cp;
        } else if (cp >= 'A' && cp <= 'Z') {
          kept = cp + ('a' - 'A');
        } else if (cp == '\'' || cp == '.' || cp == '`') {
          continue;
        }
      } else {
        int type = Character.getType(cp);
        if (type == Character.NON_SPACING_MARK
            || type == Character.COMBINING_SPACING_MARK
            || type == Character.ENCLOSING_MARK) {
          continue;
        }
        switch (cp) {
          case 'ß' -> spelled = "ss";
          case 'æ', 'Æ' -> spelled = "ae";
          case 'œ', 'Œ' -> spelled = "oe";
          case 'ø', 'Ø' -> kept = 'o';
          case 'ł', 'Ł' -> kept = 'l';
          case 'đ', 'Đ', 'ð', 'Ð' -> kept = 'd';
          case 'þ', 'Þ' -> spelled = "th";
          case 'ı' -> kept = 'i';
          case '’', '‘', 'ʻ', 'ʼ' -> {
            continue;
          }
          default -> {
            if (Character.isLetterOrDigit(cp)) {
              kept = Character.toLowerCase(cp);
            }
          }
        }
      }
      if (kept < 0 && spelled == null) {
        gap = true;
        continue;
      }
      if (gap && out.length() > 0) {
        out.append(' ');
      }
      gap = false;
      if (spelled != null) {
        out.append(spelled);
      } else {
        out.appendCodePoint(kept);
      }
    }
    return out.toString();
  }

  private static boolean isAscii(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) >= 128) {
        return false;
      }
    }
    return true;
  }
}
