package dev.georesolver.normalize;

/**
 * Reads each word of a tokenized address in its context and writes the canonical form; the rules
 * are listed in the package documentation. Stateless: all state lives in
 * locals of one {@link #resolve} call.
 */
final class Resolver {

  /** What an emitted word is, as far as its right-hand neighbours care. */
  private enum Kind {
    /** A house number or other digit-led word that is not an ordinal. */
    NUMBER,
    /** Anything without a more specific reading: names, ordinals, localities. */
    NAME,
    DIRECTIONAL,
    /** A street type written in full ("street", "park"). */
    TYPE,
    /** A street type that was abbreviated ("st", "ave"), hence most likely ends a street. */
    TYPE_ABBREVIATED,
    /** A street type that leads the name ("rue", "via", "avenue"). */
    TYPE_LEADING,
    /** "port", "fort", "mount": a following "st" starts a saint's name. */
    SAINT_LEADER,
    /** A unit designator that expects an identifier. */
    UNIT,
    /** The identifier that follows a unit designator. */
    IDENTIFIER
  }

  private static final String SAINT = "saint";

  private Resolver() {}

  /** The canonical string of {@code t}: resolved words joined by single blanks. */
  static String resolve(Tokens t) {
    dropHashAfterDesignator(t);
    joinOrdinals(t);
    int n = t.size;
    StringBuilder out = new StringBuilder(n * 8);
    Kind[] kinds = new Kind[n];
    int[] segments = new int[n];
    int emitted = 0;
    String strasse = null;
    boolean identifierExpected = false;

    for (int i = 0; i < n; i++) {
      String w = t.words[i];
      int seg = t.segments[i];
      Kind prev = emitted > 0 && segments[emitted - 1] == seg ? kinds[emitted - 1] : null;
      Kind last = emitted > 0 ? kinds[emitted - 1] : null;
      Kind beforeLast = emitted > 1 ? kinds[emitted - 2] : null;
      boolean expecting = identifierExpected;
      identifierExpected = false;

      String canonical;
      Kind kind;
      if (expecting && isIdentifier(w)) {
        canonical = w;
        kind = Kind.IDENTIFIER;
      } else if ("#".equals(w)) {
        identifierExpected = true;
        canonical = "unit";
        kind = Kind.UNIT;
      } else if (Lexicon.US_REGION_CODES.contains(w) && standsAsRegion(t, i)) {
        canonical = w;
        kind = Kind.NAME;
      } else if ("st".equals(w)) {
        boolean saint = startsName(t, i, prev);
        canonical = saint ? SAINT : "street";
        kind = saint ? Kind.NAME : Kind.TYPE_ABBREVIATED;
      } else if ("ste".equals(w)) {
        String next = t.neighbour(i, i + 1);
        boolean sainte = startsName(t, i, prev) && next.length() > 1;
        canonical = sainte ? "sainte" : "suite";
        kind = sainte ? Kind.NAME : Kind.UNIT;
        identifierExpected = !sainte;
      } else if ("dr".equals(w)) {
        boolean doctor = startsName(t, i, prev);
        canonical = doctor ? "doctor" : "drive";
        kind = doctor ? Kind.NAME : Kind.TYPE_ABBREVIATED;
      } else if ("str".equals(w)) {
        canonical = strReading(t, true);
        kind = Kind.TYPE_ABBREVIATED;
      } else if (Lexicon.DIRECTIONALS.containsKey(w)) {
        boolean letter = directionalIsName(t, i, last, beforeLast);
        canonical = letter ? w : Lexicon.DIRECTIONALS.get(w);
        kind = letter ? Kind.NAME : Kind.DIRECTIONAL;
      } else if (isPostOfficeBox(t, i)) {
        canonical = "po";
        kind = Kind.NAME;
        i++;
      } else if (Lexicon.UNIT_DESIGNATORS.containsKey(w)) {
        canonical = Lexicon.UNIT_DESIGNATORS.get(w);
        identifierExpected = Lexicon.UNITS_WITH_IDENTIFIER.contains(canonical);
        kind = identifierExpected ? Kind.UNIT : Kind.NAME;
      } else if (Lexicon.STREET_TYPES.containsKey(w)) {
        canonical = Lexicon.STREET_TYPES.get(w);
        kind = streetTypeKind(w, canonical);
      } else if (Lexicon.OTHER_WORDS.containsKey(w)) {
        canonical = Lexicon.OTHER_WORDS.get(w);
        kind = Kind.NAME;
      } else if (Lexicon.DIRECTION_WORDS.contains(w)) {
        canonical = w;
        kind = Kind.DIRECTIONAL;
      } else if (isStrCompound(w)) {
        if (strasse == null) {
          strasse = strReading(t, false);
        }
        canonical = w.substring(0, w.length() - 3) + strasse;
        kind = Kind.TYPE;
      } else {
        canonical = w;
        kind = isNumber(w) ? Kind.NUMBER
            : isStreetCompound(w) ? Kind.TYPE
            : Lexicon.SAINT_LEADERS.contains(w) ? Kind.SAINT_LEADER
            : Kind.NAME;
      }

      if (out.length() > 0) {
        out.append(' ');
      }
      out.append(canonical);
      kinds[emitted] = kind;
      segments[emitted] = seg;
      emitted++;
    }
    return out.toString();
  }

  /**
   * "apt #4" → "apt 4": a "#" after a designator that takes an identifier says nothing more. It
   * goes before any rule looks at neighbours, so that they see the words the result will hold.
   */
  private static void dropHashAfterDesignator(Tokens t) {
    for (int i = t.size - 1; i > 0; i--) {
      if ("#".equals(t.words[i])) {
        String before = t.words[i - 1];
        String unit = Lexicon.UNIT_DESIGNATORS.get(before);
        if ("ste".equals(before) || "#".equals(before)
            || unit != null && Lexicon.UNITS_WITH_IDENTIFIER.contains(unit)) {
          t.remove(i);
        }
      }
    }
  }

  /**
   * "1 st avenue" → "1st avenue" when the suffix fits the number and a street type or directional
   * follows (so "1 st paul st" keeps its house number 1); "fifth" → "5th";
   * "twenty first" → "21st". Like the directional rules this looks across commas, because the
   * words it leaves apart ("11 th") are ambiguous themselves.
   */
  private static void joinOrdinals(Tokens t) {
    for (int i = 0; i < t.size; i++) {
      String w = t.words[i];
      String next = i + 1 < t.size ? t.words[i + 1] : null;
      Integer tens = Lexicon.TENS.get(w);
      if (tens != null) {
        Integer unit = next == null ? null : Lexicon.UNIT_ORDINALS.get(next);
        if (unit != null) {
          t.merge(i, Lexicon.ordinal(tens + unit));
        }
        continue;
      }
      String ordinal = Lexicon.ORDINAL_WORDS.get(w);
      if (ordinal != null) {
        t.words[i] = ordinal;
        continue;
      }
      if (next != null && isAllDigits(w) && next.equals(ordinalSuffix(w))
          && i + 2 < t.size
          && (isStreetTypeAt(t, i + 2, Kind.NAME) || isDirectionalAt(t, i + 2))) {
        t.merge(i, w + next);
      }
    }
  }

  /**
   * Whether "st", "ste" or "dr" at {@code i} begins a name (saint, sainte, doctor): a name word
   * follows, and before it stands nothing, a number, a directional, a street type that was
   * abbreviated or leads the name, a saint leader, or a unit identifier. After a plain name word
   * it ends the street instead: "main st louis" → "main street louis".
   */
  private static boolean startsName(Tokens t, int i, Kind prev) {
    return nameWordAt(t, i, i + 1) && isSaintPosition(prev);
  }

  private static boolean isSaintPosition(Kind prev) {
    return prev == null || prev == Kind.NUMBER || prev == Kind.DIRECTIONAL
        || prev == Kind.TYPE_ABBREVIATED || prev == Kind.TYPE_LEADING
        || prev == Kind.SAINT_LEADER || prev == Kind.IDENTIFIER;
  }

  /** True when word {@code j} is in {@code i}'s segment, starts with a letter and is no keyword. */
  private static boolean nameWordAt(Tokens t, int i, int j) {
    String w = t.neighbour(i, j);
    return w != null && Character.isLetter(w.codePointAt(0)) && !Lexicon.isKeyword(w)
        && !(Lexicon.US_REGION_CODES.contains(w) && standsAsRegion(t, j));
  }

  /**
   * Whether an abbreviated directional is really a letter name: the name of a letter street
   * ("e st nw" → "e street northwest", while "n park ave" keeps "north"), or the letter after a
   * leading street type ("avenue n"). These rules look across commas, unlike the others: the
   * letter they keep is itself ambiguous, so its reading must not depend on commas that the
   * result drops.
   */
  private static boolean directionalIsName(Tokens t, int i, Kind last, Kind beforeLast) {
    if (isStreetTypeAt(t, i + 1, Kind.DIRECTIONAL)
        && !isStreetTypeAt(t, i + 2, typeKind(t.words[i + 1]))) {
      return true;
    }
    boolean afterType = last == Kind.TYPE || last == Kind.TYPE_ABBREVIATED
        || last == Kind.TYPE_LEADING;
    return t.words[i].length() == 1 && afterType
        && (beforeLast == null || beforeLast == Kind.NUMBER || beforeLast == Kind.IDENTIFIER);
  }

  /**
   * Whether word {@code j} reads as a street type when the word before it is of kind
   * {@code before}; "st" and "dr" are types unless they begin a name (see {@link #startsName}).
   */
  private static boolean isStreetTypeAt(Tokens t, int j, Kind before) {
    if (j >= t.size) {
      return false;
    }
    String w = t.words[j];
    if ("st".equals(w) || "dr".equals(w)) {
      return !(nameWordAt(t, j, j + 1) && isSaintPosition(before));
    }
    if (Lexicon.US_REGION_CODES.contains(w) && standsAsRegion(t, j)) {
      return false;
    }
    return "str".equals(w) || Lexicon.STREET_TYPES.containsKey(w);
  }

  /** The kind that {@link #resolve} gives a word that {@link #isStreetTypeAt} accepted. */
  private static Kind typeKind(String w) {
    String unit = Lexicon.UNIT_DESIGNATORS.get(w);
    if (unit != null) {
      return Lexicon.UNITS_WITH_IDENTIFIER.contains(unit) ? Kind.UNIT : Kind.NAME;
    }
    String canonical = Lexicon.STREET_TYPES.get(w);
    return canonical == null ? Kind.TYPE_ABBREVIATED : streetTypeKind(w, canonical);
  }

  private static boolean isDirectionalAt(Tokens t, int j) {
    String w = t.words[j];
    return Lexicon.DIRECTIONALS.containsKey(w) || Lexicon.DIRECTION_WORDS.contains(w);
  }

  /**
   * A US state code stands as a region when a ZIP code follows it, with or without a comma
   * between: "hartford, ct 06103". Without a ZIP it is read like any other word ("ct" → "court"),
   * the same way for every spelling, so that the result never depends on commas it drops.
   */
  private static boolean standsAsRegion(Tokens t, int i) {
    return i + 1 < t.size && isZip(t.words[i + 1]);
  }

  private static boolean isZip(String w) {
    int len = w.length();
    if (len != 5 && len != 10) {
      return false;
    }
    for (int k = 0; k < len; k++) {
      char c = w.charAt(k);
      boolean ok = k == 5 ? c == '-' : c >= '0' && c <= '9';
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  /** "post office box" or "p o box" at {@code i}, read across commas like the ordinals. */
  private static boolean isPostOfficeBox(Tokens t, int i) {
    if (i + 2 >= t.size || !"box".equals(t.words[i + 2])) {
      return false;
    }
    String w = t.words[i];
    String next = t.words[i + 1];
    return "post".equals(w) && "office".equals(next) || "p".equals(w) && "o".equals(next);
  }

  private static Kind streetTypeKind(String written, String canonical) {
    if (Lexicon.SAINT_LEADERS.contains(canonical)) {
      return Kind.SAINT_LEADER;
    }
    if (Lexicon.PREFIX_TYPES.contains(canonical)) {
      return Kind.TYPE_LEADING;
    }
    return written.equals(canonical) ? Kind.TYPE : Kind.TYPE_ABBREVIATED;
  }

  /**
   * What "str" stands for in this address. Dutch "straat" when the address names the Netherlands
   * or Belgium; German "strasse" when it names Germany, Austria, Switzerland or Liechtenstein;
   * otherwise English "street" for a standalone "str" in an address that starts with its house
   * number (the English order), German "strasse" for everything else and for all compounds.
   */
  private static String strReading(Tokens t, boolean standalone) {
    String last = t.words[t.size - 1];
    boolean dutch = Lexicon.DUTCH_COUNTRY_CODES.contains(last);
    boolean german = Lexicon.GERMAN_COUNTRY_CODES.contains(last);
    for (int k = 0; k < t.size && !dutch && !german; k++) {
      dutch = Lexicon.DUTCH_COUNTRY_WORDS.contains(t.words[k]);
      german = Lexicon.GERMAN_COUNTRY_WORDS.contains(t.words[k]);
    }
    if (dutch) {
      return "straat";
    }
    if (german) {
      return "strasse";
    }
    return standalone && isNumber(t.words[0]) ? "street" : "strasse";
  }

  /** "hauptstr", "kalverstr": a word of at least two letters glued to "str". */
  private static boolean isStrCompound(String w) {
    int len = w.length();
    return len >= 5 && w.endsWith("str") && Character.isLetter(w.charAt(0))
        && Character.isLetter(w.charAt(len - 4))
        && Character.isLetter(w.charAt(len - 5));
  }

  /** "hauptstrasse", "kalverstraat": a compound already in canonical form. */
  private static boolean isStreetCompound(String w) {
    return Character.isLetter(w.charAt(0))
        && (w.length() > 7 && w.endsWith("strasse") || w.length() > 6 && w.endsWith("straat"));
  }

  /** A word that can follow a unit designator as its identifier: "4b", "12", "b", "ne". */
  private static boolean isIdentifier(String w) {
    char c = w.charAt(0);
    return c >= '0' && c <= '9'
        || w.length() == 1 && Character.isLetter(c)
        || Lexicon.DIRECTIONALS.containsKey(w);
  }

  /** Digit-led and not an ordinal: house numbers, ranges, fractions, postcodes. */
  private static boolean isNumber(String w) {
    char c = w.charAt(0);
    return c >= '0' && c <= '9' && !isOrdinal(w);
  }

  /** Digits followed by the suffix that fits them: "1st", "12th", "23rd". */
  private static boolean isOrdinal(String w) {
    int digits = w.length() - 2;
    if (digits < 1) {
      return false;
    }
    for (int k = 0; k < digits; k++) {
      char c = w.charAt(k);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    int tens = digits >= 2 ? (w.charAt(digits - 2) - '0') * 10 : 0;
    int lastTwo = tens + w.charAt(digits - 1) - '0';
    return w.startsWith(Lexicon.ordinalSuffix(lastTwo), digits);
  }

  private static boolean isAllDigits(String w) {
    if (w.isEmpty()) {
      return false;
    }
    for (int k = 0; k < w.length(); k++) {
      char c = w.charAt(k);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }

  /** The ordinal suffix of a string of ASCII digits, from its last two digits. */
  private static String ordinalSuffix(String digits) {
    int len = digits.length();
    int lastTwo = len >= 2
        ? (digits.charAt(len - 2) - '0') * 10 + (digits.charAt(len - 1) - '0')
        : digits.charAt(len - 1) - '0';
    return Lexicon.ordinalSuffix(lastTwo);
  }
}
