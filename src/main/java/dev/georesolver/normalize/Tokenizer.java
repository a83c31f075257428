package dev.georesolver.normalize;

import java.text.Normalizer;
import java.util.Locale;

/**
 * Splits text into lower-case words after Unicode NFKC. Punctuation separates words except where
 * it carries meaning, which the tokenizer keeps inside the word:
 *
 * <ul>
 *   <li>{@code -} between digits ("12-14", "63101-1234", also "12 – 14"); dropped between a
 *       digit and a letter ("4-b" → "4b"); a separator between letters ("saint-louis").
 *   <li>{@code /} between digits ("1/2", and "½" becomes " 1/2"); "c/" stays whole for calle.
 *   <li>{@code .} between digits; dotted initials join ("n.e." → "ne", "p.o." → "po"); dotted
 *       Italian abbreviations become their word ("p.zza" → "piazza").
 *   <li>{@code #} is a word of its own; {@code &} becomes "and"; apostrophes vanish
 *       ("o'brien" → "obrien").
 *   <li>{@code ,} {@code ;} and line breaks end a segment.
 * </ul>
 *
 * <p>Digits of any script become ASCII digits and "ß" becomes "ss". Stateless.
 */
final class Tokenizer {

  private Tokenizer() {}

  /** Appends the words of {@code text} to {@code out}, starting a new segment first. */
  static void scan(String text, Tokens out) {
    out.breakSegment();
    String s = Normalizer.normalize(prepare(text), Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
    StringBuilder buf = new StringBuilder(16);
    // Whether buf was built only of single letters joined at dots ("n.e." → "ne").
    boolean initials = false;
    // Whether only blanks separate the last flushed word from the current position.
    boolean blankGap = false;
    int len = s.length();
    int i = 0;
    while (i < len) {
      int cp = s.codePointAt(i);
      int next = i + Character.charCount(cp);
      if (Character.isLetter(cp) || isMark(cp)) {
        appendLetter(buf, cp);
      } else if (Character.isDigit(cp)) {
        buf.append((char) ('0' + Character.digit(cp, 10)));
      } else if (isApostrophe(cp)) {
        // dropped: "o'brien" → "obrien", "mary's" → "marys"
      } else if (cp == '.') {
        if (endsWithDigit(buf) && isDigitAt(s, next)) {
          buf.append('.');
        } else if (isLetterAt(s, next) && (buf.length() == 1 && Character.isLetter(buf.charAt(0))
            || initials)) {
          int end = next;
          while (isLetterAt(s, end)) {
            end += Character.charCount(s.codePointAt(end));
          }
          String dotted = initials ? null : Lexicon.DOTTED.get(buf + "." + s.substring(next, end));
          if (dotted != null) {
            buf.setLength(0);
            buf.append(dotted);
            next = end;
          } else if (end - next == 1 && !isDigitAt(s, end)) {
            appendLetter(buf, s.charAt(next));
            initials = true;
            next = end;
          } else {
            flush(buf, out);
          }
        } else {
          flush(buf, out);
        }
        blankGap = false;
      } else if (cp == '/' || cp == '\u2044') {
        if (endsWithDigit(buf) && isDigitAt(s, next)) {
          buf.append('/');
        } else {
          if (buf.length() == 1 && buf.charAt(0) == 'c' && !isDigitAt(s, next)) {
            buf.append('/');
          }
          flush(buf, out);
          blankGap = false;
        }
      } else if (isDash(cp)) {
        int j = next;
        while (j < len && isBlank(s.charAt(j))) {
          j++;
        }
        boolean adjacent = buf.length() > 0 && j == next;
        boolean leftDigit = buf.length() > 0
            ? endsWithDigit(buf)
            : blankGap && out.lastInCurrentSegment() && endsWithDigit(out.words[out.size - 1]);
        if (leftDigit && isDigitAt(s, j)) {
          if (buf.length() == 0) {
            buf.append(out.removeLast());
          }
          buf.append('-');
          next = j;
        } else if (adjacent && (leftDigit ? isLetterAt(s, j) : isDigitAt(s, j))) {
          next = j;
        } else {
          flush(buf, out);
          blankGap = false;
        }
      } else if (cp == '#' || cp == '&') {
        flush(buf, out);
        out.add(cp == '#' ? "#" : "and");
        blankGap = false;
      } else if (cp == ',' || cp == ';' || cp == '\n' || cp == '\r' || cp == '\u2028') {
        flush(buf, out);
        out.breakSegment();
        blankGap = false;
      } else if (isBlank(cp)) {
        if (buf.length() > 0) {
          flush(buf, out);
          blankGap = true;
        }
      } else {
        flush(buf, out);
        blankGap = false;
      }
      if (buf.length() == 0) {
        initials = false;
      }
      i = next;
    }
    flush(buf, out);
  }

  /**
   * Rewrites the few characters NFKC would mangle: a vulgar fraction gets a blank before it so
   * "123½" reads "123 1/2", not "1231/2"; the acute accent used as an apostrophe becomes one.
   */
  private static String prepare(String text) {
    int len = text.length();
    int first = -1;
    for (int i = 0; i < len; i++) {
      if (needsPreparing(text.charAt(i))) {
        first = i;
        break;
      }
    }
    if (first < 0) {
      return text;
    }
    StringBuilder sb = new StringBuilder(len + 8).append(text, 0, first);
    for (int i = first; i < len; i++) {
      char c = text.charAt(i);
      if (c == '\u00B4') {
        sb.append('\'');
      } else if (needsPreparing(c)) {
        sb.append(' ').append(c);
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  private static boolean needsPreparing(char c) {
    return c == '\u00B4' || (c >= '\u00BC' && c <= '\u00BE') || (c >= '\u2150' && c <= '\u215F')
        || c == '\u2189';
  }

  private static void appendLetter(StringBuilder buf, int cp) {
    if (cp == 'ß') {
      buf.append("ss");
    } else {
      buf.appendCodePoint(cp);
    }
  }

  /** Adds the buffered word, if any, and empties the buffer. */
  private static void flush(StringBuilder buf, Tokens out) {
    if (buf.length() > 0) {
      out.add(buf.toString());
      buf.setLength(0);
    }
  }

  private static boolean isMark(int cp) {
    int t = Character.getType(cp);
    return t == Character.NON_SPACING_MARK || t == Character.COMBINING_SPACING_MARK
        || t == Character.ENCLOSING_MARK;
  }

  private static boolean isApostrophe(int cp) {
    return cp == '\'' || cp == '\u2019' || cp == '\u2018' || cp == '\u02BC' || cp == '`';
  }

  private static boolean isDash(int cp) {
    return cp == '-' || cp == '\u2212' || Character.getType(cp) == Character.DASH_PUNCTUATION;
  }

  private static boolean isBlank(int cp) {
    return cp == ' ' || cp == '\t' || Character.isSpaceChar(cp);
  }

  private static boolean endsWithDigit(CharSequence cs) {
    int n = cs.length();
    return n > 0 && cs.charAt(n - 1) >= '0' && cs.charAt(n - 1) <= '9';
  }

  private static boolean isDigitAt(String s, int i) {
    return i < s.length() && Character.isDigit(s.codePointAt(i));
  }

  private static boolean isLetterAt(String s, int i) {
    return i < s.length() && Character.isLetter(s.codePointAt(i));
  }
}
