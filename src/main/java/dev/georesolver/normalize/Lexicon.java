package dev.georesolver.normalize;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The word tables the normalizer reads: USPS Publication 28 street suffixes (Appendix C1) and
 * secondary unit designators (Appendix C2), directionals, ordinals and the few non-English forms
 * listed in the package documentation.
 *
 * <p>Every table is built once when the class loads and is unmodifiable afterwards, so lookups are
 * safe from any thread. Keys are lower case, as the tokenizer produces them.
 */
final class Lexicon {

  /**
   * Street type spelling → canonical full lower-case word. The ambiguous {@code st}, {@code ste},
   * {@code str} and {@code dr} are absent on purpose: their reading depends on position.
   */
  static final Map<String, String> STREET_TYPES;

  /**
   * Canonical street types that usually precede the name ("rue de la paix", "via roma",
   * "avenue st charles"); after one of them "st" reads as saint.
   */
  static final Set<String> PREFIX_TYPES = Set.of(
      "rue", "avenue", "boulevard", "calle", "carretera", "via", "viale", "piazza", "piazzale",
      "piazzetta", "corso", "largo", "vicolo", "place", "chemin", "impasse", "route", "rua",
      "plaza", "alley", "faubourg", "quai");

  /** Words after which "st" begins a saint's name: "port st lucie", "fort st john". */
  static final Set<String> SAINT_LEADERS = Set.of("port", "fort", "mount", "pointe", "ile", "île");

  /** Secondary unit designator spelling → canonical full lower-case word ("ste" is positional). */
  static final Map<String, String> UNIT_DESIGNATORS;

  /** Canonical designators that USPS says must be followed by an identifier ("apartment 4b"). */
  static final Set<String> UNITS_WITH_IDENTIFIER = Set.of(
      "apartment", "building", "department", "floor", "hangar", "key", "lot", "pier", "room",
      "slip", "space", "stop", "suite", "trailer", "unit");

  /** Abbreviated directional → full word. */
  static final Map<String, String> DIRECTIONALS = Map.of(
      "n", "north", "s", "south", "e", "east", "w", "west",
      "ne", "northeast", "nw", "northwest", "se", "southeast", "sw", "southwest");

  /** The full directional words, already canonical. */
  static final Set<String> DIRECTION_WORDS = Set.copyOf(DIRECTIONALS.values());

  /** Other single-word spellings folded to one form: saints in other languages. */
  static final Map<String, String> OTHER_WORDS = Map.of("sankt", "saint", "sint", "saint");

  /**
   * Dotted Italian abbreviations that the tokenizer keeps whole ("p.zza", "v.le"), mapped to the
   * word they stand for.
   */
  static final Map<String, String> DOTTED = Map.of(
      "p.zza", "piazza", "p.za", "piazza", "p.tta", "piazzetta", "p.le", "piazzale",
      "v.le", "viale", "v.lo", "vicolo", "c.so", "corso", "l.go", "largo");

  /** Ordinal words → numeric ordinal ("fifth" → "5th"). */
  static final Map<String, String> ORDINAL_WORDS;

  /** Tens that combine with a following unit ordinal word: "twenty first" → "21st". */
  static final Map<String, Integer> TENS = Map.of(
      "twenty", 20, "thirty", 30, "forty", 40, "fifty", 50,
      "sixty", 60, "seventy", 70, "eighty", 80, "ninety", 90);

  /** Unit ordinal words that may follow a tens word. */
  static final Map<String, Integer> UNIT_ORDINALS = Map.of(
      "first", 1, "second", 2, "third", 3, "fourth", 4, "fifth", 5,
      "sixth", 6, "seventh", 7, "eighth", 8, "ninth", 9);

  /**
   * US state, district and territory codes; left as they are where they stand as a region, so
   * "hartford, ct 06103" keeps "ct" instead of turning it into "court".
   */
  static final Set<String> US_REGION_CODES = Set.of(
      "al", "ak", "az", "ar", "ca", "co", "ct", "de", "dc", "fl", "ga", "hi", "id", "il", "in",
      "ia", "ks", "ky", "la", "me", "md", "ma", "mi", "mn", "ms", "mo", "mt", "ne", "nv", "nh",
      "nj", "nm", "ny", "nc", "nd", "oh", "ok", "or", "pa", "ri", "sc", "sd", "tn", "tx", "ut",
      "vt", "va", "wa", "wv", "wi", "wy", "pr", "vi", "gu", "as", "mp");

  /** Country words anywhere in the address that make "str" read as Dutch "straat". */
  static final Set<String> DUTCH_COUNTRY_WORDS =
      Set.of("nederland", "netherlands", "holland", "belgie", "belgië", "belgium", "belgique");

  /** Country codes that, as the last word, make "str" read as Dutch "straat". */
  static final Set<String> DUTCH_COUNTRY_CODES = Set.of("nl", "nld", "be", "bel");

  /** Country words anywhere in the address that make "str" read as German "strasse". */
  static final Set<String> GERMAN_COUNTRY_WORDS = Set.of(
      "deutschland", "germany", "österreich", "osterreich", "oesterreich", "austria", "schweiz",
      "switzerland", "liechtenstein");

  /** Country codes that, as the last word, make "str" read as German "strasse". */
  static final Set<String> GERMAN_COUNTRY_CODES =
      Set.of("de", "deu", "at", "aut", "ch", "che", "li", "lie");

  static {
    Map<String, String> types = new HashMap<>(512);
    // USPS Publication 28, Appendix C1: primary name, then common and standard abbreviations.
    type(types, "alley", "allee ally aly");
    type(types, "annex", "anex annx anx");
    type(types, "arcade", "arc");
    type(types, "avenue", "av ave aven avenu avn avnue");
    type(types, "bayou", "bayoo byu");
    type(types, "beach", "bch");
    type(types, "bend", "bnd");
    type(types, "bluff", "blf bluf");
    type(types, "bluffs", "blfs");
    type(types, "bottom", "bot btm bottm");
    type(types, "boulevard", "blvd boul boulv");
    type(types, "branch", "br brnch");
    type(types, "bridge", "brdge brg");
    type(types, "brook", "brk");
    type(types, "brooks", "brks");
    type(types, "burg", "bg");
    type(types, "burgs", "bgs");
    type(types, "bypass", "byp bypa bypas byps");
    type(types, "camp", "cp cmp");
    type(types, "canyon", "canyn cnyn cyn");
    type(types, "cape", "cpe");
    type(types, "causeway", "causwa cswy");
    type(types, "center", "cen cent centr centre cnter cntr ctr");
    type(types, "centers", "ctrs");
    type(types, "circle", "cir circ circl crcl crcle");
    type(types, "circles", "cirs");
    type(types, "cliff", "clf");
    type(types, "cliffs", "clfs");
    type(types, "club", "clb");
    type(types, "common", "cmn");
    type(types, "commons", "cmns");
    type(types, "corner", "cor");
    type(types, "corners", "cors");
    type(types, "course", "crse");
    type(types, "court", "ct");
    type(types, "courts", "cts");
    type(types, "cove", "cv");
    type(types, "coves", "cvs");
    type(types, "creek", "crk");
    type(types, "crescent", "cres crsent crsnt");
    type(types, "crest", "crst");
    type(types, "crossing", "crssng xing");
    type(types, "crossroad", "xrd");
    type(types, "crossroads", "xrds");
    type(types, "curve", "curv");
    type(types, "dale", "dl");
    type(types, "dam", "dm");
    type(types, "divide", "div dv dvd");
    type(types, "drive", "driv drv");
    type(types, "drives", "drs");
    type(types, "estate", "est");
    type(types, "estates", "ests");
    type(types, "expressway", "exp expr express expw expy");
    type(types, "extension", "ext extn extnsn");
    type(types, "extensions", "exts");
    type(types, "fall", "");
    type(types, "falls", "fls");
    type(types, "ferry", "frry fry");
    type(types, "field", "fld");
    type(types, "fields", "flds");
    type(types, "flat", "flt");
    type(types, "flats", "flts");
    type(types, "ford", "frd");
    type(types, "fords", "frds");
    type(types, "forest", "forests frst");
    type(types, "forge", "forg frg");
    type(types, "forges", "frgs");
    type(types, "fork", "frk");
    type(types, "forks", "frks");
    type(types, "fort", "frt ft");
    type(types, "freeway", "freewy frway frwy fwy");
    type(types, "garden", "gardn grden grdn gdn");
    type(types, "gardens", "gdns grdns");
    type(types, "gateway", "gatewy gatway gtway gtwy");
    type(types, "glen", "gln");
    type(types, "glens", "glns");
    type(types, "green", "grn");
    type(types, "greens", "grns");
    type(types, "grove", "grov grv");
    type(types, "groves", "grvs");
    type(types, "harbor", "harb harbr hbr hrbor");
    type(types, "harbors", "hbrs");
    type(types, "haven", "hvn");
    type(types, "heights", "ht hts");
    type(types, "highway", "highwy hiway hiwy hway hwy");
    type(types, "hill", "hl");
    type(types, "hills", "hls");
    type(types, "hollow", "hllw hollows holw holws");
    type(types, "inlet", "inlt");
    type(types, "island", "is islnd");
    type(types, "islands", "islnds iss");
    type(types, "isle", "isles");
    type(types, "junction", "jct jction jctn junctn juncton");
    type(types, "junctions", "jctns jcts");
    type(types, "key", "ky");
    type(types, "keys", "kys");
    type(types, "knoll", "knl knol");
    type(types, "knolls", "knls");
    type(types, "lake", "lk");
    type(types, "lakes", "lks");
    type(types, "land", "");
    type(types, "landing", "lndg lndng");
    type(types, "lane", "ln");
    type(types, "light", "lgt");
    type(types, "lights", "lgts");
    type(types, "loaf", "lf");
    type(types, "lock", "lck");
    type(types, "locks", "lcks");
    type(types, "lodge", "ldg ldge lodg");
    type(types, "loop", "loops");
    type(types, "mall", "");
    type(types, "manor", "mnr");
    type(types, "manors", "mnrs");
    type(types, "meadow", "");
    type(types, "meadows", "mdw mdws medows");
    type(types, "mews", "");
    type(types, "mill", "ml");
    type(types, "mills", "mls");
    type(types, "mission", "missn mssn msn");
    type(types, "motorway", "mtwy");
    type(types, "mount", "mnt mt");
    type(types, "mountain", "mntain mntn mountin mtin mtn");
    type(types, "mountains", "mntns mtns");
    type(types, "neck", "nck");
    type(types, "orchard", "orch orchrd");
    type(types, "oval", "ovl");
    type(types, "overpass", "opas");
    type(types, "park", "prk parks");
    type(types, "parkway", "parkwy pkway pkwy pky parkways pkwys");
    type(types, "pass", "");
    type(types, "passage", "psge");
    type(types, "path", "paths");
    type(types, "pike", "pikes");
    type(types, "pine", "pne");
    type(types, "pines", "pnes");
    type(types, "place", "pl");
    type(types, "plain", "pln");
    type(types, "plains", "plns");
    type(types, "plaza", "plz plza");
    type(types, "point", "pt");
    type(types, "points", "pts");
    type(types, "port", "prt");
    type(types, "ports", "prts");
    type(types, "prairie", "pr prr");
    type(types, "radial", "rad radiel radl");
    type(types, "ramp", "");
    type(types, "ranch", "ranches rnch rnchs");
    type(types, "rapid", "rpd");
    type(types, "rapids", "rpds");
    type(types, "rest", "rst");
    type(types, "ridge", "rdg rdge");
    type(types, "ridges", "rdgs");
    type(types, "river", "riv rvr rivr");
    type(types, "road", "rd");
    type(types, "roads", "rds");
    type(types, "route", "rte");
    type(types, "row", "");
    type(types, "rue", "");
    type(types, "run", "");
    type(types, "shoal", "shl");
    type(types, "shoals", "shls");
    type(types, "shore", "shoar shr");
    type(types, "shores", "shoars shrs");
    type(types, "skyway", "skwy");
    type(types, "spring", "spg spng sprng");
    type(types, "springs", "spgs spngs sprngs");
    type(types, "spur", "spurs");
    type(types, "square", "sq sqr sqre squ");
    type(types, "squares", "sqrs sqs");
    type(types, "station", "sta statn stn");
    type(types, "stravenue", "stra strav straven stravn strvn strvnue");
    type(types, "stream", "streme strm");
    type(types, "street", "strt");
    type(types, "streets", "sts");
    type(types, "summit", "smt sumit sumitt");
    type(types, "terrace", "ter terr");
    type(types, "throughway", "trwy");
    type(types, "trace", "traces trce");
    type(types, "track", "tracks trak trk trks");
    type(types, "trafficway", "trfy");
    type(types, "trail", "trails trl trls");
    type(types, "trailer", "trlr trlrs");
    type(types, "tunnel", "tunel tunl tunls tunnels tunnl");
    type(types, "turnpike", "trnpk turnpk tpke");
    type(types, "underpass", "upas");
    type(types, "union", "un");
    type(types, "unions", "uns");
    type(types, "valley", "vally vlly vly");
    type(types, "valleys", "vlys");
    // USPS also lists "via" for viaduct; here "via" stays the Italian street type.
    type(types, "viaduct", "vdct viadct");
    type(types, "view", "vw");
    type(types, "views", "vws");
    type(types, "village", "vill villag villg villiage vlg");
    type(types, "villages", "vlgs");
    type(types, "ville", "vl");
    type(types, "vista", "vis vist vst vsta");
    type(types, "walk", "walks");
    type(types, "wall", "");
    type(types, "way", "wy");
    type(types, "ways", "");
    type(types, "well", "wl");
    type(types, "wells", "wls");

    // Common Commonwealth abbreviations outside Publication 28.
    type(types, "terrace", "tce");
    type(types, "court", "crt");
    type(types, "parade", "pde");
    type(types, "circuit", "cct");
    type(types, "esplanade", "esp");

    // Non-English street types. "av"/"ave" are shared by English, French, Spanish and
    // Portuguese, so avenida is folded into avenue; likewise bd/boul into boulevard.
    type(types, "avenue", "avenida avda avd");
    type(types, "boulevard", "bd bvd");
    type(types, "alley", "allée");
    type(types, "impasse", "imp");
    type(types, "chemin", "chem");
    type(types, "faubourg", "fbg");
    type(types, "quai", "");
    type(types, "calle", "c/");
    type(types, "carretera", "ctra");
    type(types, "rua", "");
    type(types, "via", "");
    type(types, "viale", "");
    type(types, "piazza", "");
    type(types, "piazzale", "");
    type(types, "piazzetta", "");
    type(types, "corso", "");
    type(types, "largo", "");
    type(types, "vicolo", "");
    type(types, "strasse", "");
    type(types, "straat", "");
    STREET_TYPES = Map.copyOf(types);

    Map<String, String> units = new HashMap<>(64);
    // USPS Publication 28, Appendix C2 ("ste" is resolved by position, see Resolver).
    type(units, "apartment", "apt appt");
    type(units, "basement", "bsmt");
    type(units, "building", "bldg");
    type(units, "department", "dept");
    type(units, "floor", "fl flr");
    type(units, "front", "frnt");
    type(units, "hangar", "hngr");
    type(units, "key", "");
    type(units, "lobby", "lbby");
    type(units, "lot", "");
    type(units, "lower", "lowr");
    type(units, "office", "ofc");
    type(units, "penthouse", "ph");
    type(units, "pier", "");
    type(units, "rear", "");
    type(units, "room", "rm");
    type(units, "side", "");
    type(units, "slip", "");
    type(units, "space", "spc");
    type(units, "stop", "");
    type(units, "suite", "");
    type(units, "trailer", "trlr");
    type(units, "unit", "");
    type(units, "upper", "uppr");
    // "key" and "trailer" are street types too; every spelling of them reads as the designator,
    // so that "ky 4" and "key 4" are the same words in the same role.
    types.forEach((spelling, canonical) -> {
      if (units.containsKey(canonical)) {
        units.putIfAbsent(spelling, canonical);
      }
    });
    UNIT_DESIGNATORS = Map.copyOf(units);

    Map<String, String> ordinals = new HashMap<>(64);
    String[] words = {
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
        "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth",
        "seventeenth", "eighteenth", "nineteenth", "twentieth"};
    for (int i = 0; i < words.length; i++) {
      ordinals.put(words[i], ordinal(i + 1));
    }
    String[] tens = {
        "thirtieth", "fortieth", "fiftieth", "sixtieth", "seventieth", "eightieth", "ninetieth"};
    for (int i = 0; i < tens.length; i++) {
      ordinals.put(tens[i], ordinal(30 + 10 * i));
    }
    ordinals.put("hundredth", ordinal(100));
    ORDINAL_WORDS = Map.copyOf(ordinals);
  }

  private Lexicon() {}

  /** Registers {@code canonical} and each space-separated variant as spellings of it. */
  private static void type(Map<String, String> table, String canonical, String variants) {
    put(table, canonical, canonical);
    if (!variants.isEmpty()) {
      for (String v : variants.split(" ")) {
        put(table, v, canonical);
      }
    }
  }

  private static void put(Map<String, String> table, String key, String canonical) {
    String previous = table.putIfAbsent(key, canonical);
    if (previous != null && !previous.equals(canonical)) {
      throw new IllegalStateException(key + " maps to both " + previous + " and " + canonical);
    }
  }

  /** "1" → "1st", "12" → "12th", "23" → "23rd". */
  static String ordinal(int n) {
    return n + ordinalSuffix(n);
  }

  /** The English ordinal suffix of {@code n}: st, nd, rd or th. */
  static String ordinalSuffix(int n) {
    int lastTwo = n % 100;
    if (lastTwo >= 11 && lastTwo <= 13) {
      return "th";
    }
    return switch (n % 10) {
      case 1 -> "st";
      case 2 -> "nd";
      case 3 -> "rd";
      default -> "th";
    };
  }

  /** True for a word with any reading in the tables: not a plain name word. */
  static boolean isKeyword(String w) {
    return STREET_TYPES.containsKey(w) || UNIT_DESIGNATORS.containsKey(w)
        || DIRECTIONALS.containsKey(w) || DIRECTION_WORDS.contains(w)
        || "st".equals(w) || "ste".equals(w) || "str".equals(w) || "dr".equals(w)
        || "#".equals(w);
  }
}
