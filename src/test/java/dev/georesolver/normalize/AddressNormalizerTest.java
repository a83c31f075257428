package dev.georesolver.normalize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import java.util.Locale;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Each normalization rule on its own, as input → exact normalized string. */
@DisplayName("AddressNormalizer free text")
class AddressNormalizerTest {

  private static final AddressNormalizer NORMALIZER = AddressNormalizer.standard();

  private static String normalize(String text) {
    return NORMALIZER.normalize(text);
  }

  @Test
  @DisplayName("standard() is one shared instance")
  void standardIsShared() {
    assertThat(AddressNormalizer.standard()).isSameAs(NORMALIZER);
  }

  @Test
  @DisplayName("null text is rejected, empty and blank text give an empty string")
  void nullAndEmpty() {
    assertThatNullPointerException().isThrownBy(() -> NORMALIZER.normalize((String) null));
    assertThat(normalize("")).isEmpty();
    assertThat(normalize(" \t ,;\n ")).isEmpty();
  }

  @Nested
  @DisplayName("characters")
  class Characters {

    @Test
    @DisplayName("NFKC folds compatibility forms: fullwidth, ligatures, superscripts")
    void nfkc() {
      assertThat(normalize("１２３ Ｍａｉｎ Ｓｔ")).isEqualTo("123 main street");
      assertThat(normalize("5 Oﬃce Park")).isEqualTo("5 office park");
      assertThat(normalize("1ˢᵗ Ave")).isEqualTo("1st avenue");
    }

    @Test
    @DisplayName("composed and decomposed accents give the same string; accents are kept")
    void accents() {
      assertThat(normalize("Montre\u0301al")).isEqualTo(normalize("Montr\u00e9al"))
          .isEqualTo("montréal");
      assertThat(normalize("Montreal")).isNotEqualTo(normalize("Montréal"));
    }

    @Test
    @DisplayName("lower case ignores the default locale")
    void lowerCaseInRootLocale() {
      Locale saved = Locale.getDefault();
      Locale.setDefault(Locale.forLanguageTag("tr-TR"));
      try {
        assertThat(normalize("ISTANBUL")).isEqualTo("istanbul");
      } finally {
        Locale.setDefault(saved);
      }
    }

    @Test
    @DisplayName("sharp s becomes ss and digits of any script become ASCII")
    void sharpSAndDigits() {
      assertThat(normalize("Großer Weg ٣")).isEqualTo("grosser weg 3");
    }

    @ParameterizedTest(name = "\"{0}\" → \"{1}\"")
    @CsvSource(delimiter = '|', value = {
        "123 Main St. (rear)!     | 123 main street rear",
        "'123'  Main   Street     | 123 main street",
        "1 O'Brien Rd             | 1 obrien road",
        "1 O\u2019Brien Rd        | 1 obrien road",
        "St. Mary's Church        | saint marys church",
        "Johnson & Johnson Plaza  | johnson and johnson plaza",
        "10 Main St * @ ~ Suite 5 | 10 main street suite 5"
    })
    @DisplayName("punctuation and symbols are stripped, whitespace collapsed")
    void punctuation(String input, String expected) {
      assertThat(normalize(input)).isEqualTo(expected);
    }

    @Test
    @DisplayName("tabs and line breaks count as blanks; line breaks also end a segment")
    void whitespace() {
      assertThat(normalize("  123\tMain  St\n  Springfield  "))
          .isEqualTo("123 main street springfield");
    }

    @ParameterizedTest(name = "\"{0}\" → \"{1}\"")
    @CsvSource(delimiter = '|', value = {
        "12-14 High St        | 12-14 high street",
        "12 - 14 High St      | 12-14 high street",
        "12\u201314 High St   | 12-14 high street",
        "63101-1234           | 63101-1234",
        "221-B Baker St       | 221b baker street",
        "Apt B-12             | apartment b12",
        "Wilkes-Barre         | wilkes barre",
        "123 1/2 Main St      | 123 1/2 main street",
        "123\u00bd Main St    | 123 1/2 main street",
        "123 \u00bd Main St   | 123 1/2 main street",
        "Apt 1.5              | apartment 1.5",
        "007 Bond St          | 007 bond street"
    })
    @DisplayName("hyphens, slashes and dots between digits carry meaning and stay")
    void meaningfulPunctuation(String input, String expected) {
      assertThat(normalize(input)).isEqualTo(expected);
    }

    @Test
    @DisplayName("dotted initials join")
    void dottedInitials() {
      assertThat(normalize("P.O. Box 5")).isEqualTo("po box 5");
      assertThat(normalize("N.E. 2nd Ave")).isEqualTo("northeast 2nd avenue");
      assertThat(normalize("U.S.A.")).isEqualTo("usa");
      assertThat(normalize("St.Louis")).isEqualTo("saint louis");
    }
  }

  @Nested
  @DisplayName("street suffixes (USPS Publication 28, Appendix C1)")
  class StreetSuffixes {

    @ParameterizedTest(name = "\"{0}\" → \"{1}\"")
    @CsvSource(delimiter = '|', value = {
        "aly | alley", "anx | annex", "arc | arcade", "ave | avenue", "av | avenue",
        "byu | bayou", "bch | beach", "blvd | boulevard", "boul | boulevard", "br | branch",
        "brg | bridge", "byp | bypass", "cyn | canyon", "cswy | causeway", "ctr | center",
        "centre | center", "cir | circle", "clf | cliff", "cmns | commons", "ct | court",
        "cv | cove", "crk | creek", "cres | crescent", "xing | crossing", "curv | curve",
        "dr | drive", "est | estate", "expy | expressway", "ext | extension", "fls | falls",
        "fry | ferry", "fld | field", "frst | forest", "fwy | freeway", "gdns | gardens",
        "gtwy | gateway", "gln | glen", "grn | green", "grv | grove", "hbr | harbor",
        "hts | heights", "hwy | highway", "hl | hill", "holw | hollow", "is | island",
        "jct | junction", "ky | key", "knls | knolls", "lk | lake", "lndg | landing",
        "ln | lane", "ldg | lodge", "loops | loop", "mnr | manor", "mdws | meadows",
        "ml | mill", "mtwy | motorway", "mt | mount", "mtn | mountain", "opas | overpass",
        "pkwy | parkway", "pkwys | parkway", "pl | place", "plz | plaza", "pt | point",
        "pr | prairie", "radl | radial", "rnch | ranch", "rdg | ridge", "riv | river",
        "rd | road", "rte | route", "shr | shore", "skwy | skyway", "spg | spring",
        "sq | square", "sta | station", "stra | stravenue", "strm | stream", "st | street",
        "strt | street", "smt | summit", "ter | terrace", "trce | trace", "trak | track",
        "trfy | trafficway", "trl | trail", "trlr | trailer", "tunl | tunnel",
        "tpke | turnpike", "upas | underpass", "un | union", "vly | valley",
        "viadct | viaduct", "vw | view", "vlg | village", "vl | ville", "vis | vista",
        "wy | way", "wl | well", "tce | terrace", "pde | parade"
    })
    @DisplayName("every spelling becomes the full lower-case primary name")
    void abbreviationBecomesFullWord(String abbreviation, String canonical) {
      assertThat(normalize("10 Elm " + abbreviation)).isEqualTo("10 elm " + canonical);
      assertThat(normalize("10 Elm " + abbreviation.toUpperCase(Locale.ROOT) + "."))
          .isEqualTo("10 elm " + canonical);
    }

    @Test
    @DisplayName("full words are already canonical")
    void fullWordsStay() {
      assertThat(normalize("10 elm street")).isEqualTo("10 elm street");
      assertThat(normalize("10 elm boulevard")).isEqualTo("10 elm boulevard");
    }

    @Test
    @DisplayName("\"via\" stays the Italian street type, not the USPS viaduct")
    void viaIsItalian() {
      assertThat(normalize("Via Roma 1")).isEqualTo("via roma 1");
    }
  }

  @Nested
  @DisplayName("unit designators (USPS Publication 28, Appendix C2)")
  class UnitDesignators {

    @ParameterizedTest(name = "\"{0}\" → \"{1}\"")
    @CsvSource(delimiter = '|', value = {
        "Apt 4B    | apartment 4b", "Bsmt     | basement", "Bldg C    | building c",
        "Dept 12   | department 12", "Fl 3      | floor 3", "Flr 3     | floor 3",
        "Frnt      | front", "Hngr 2    | hangar 2", "Lbby      | lobby",
        "Lot 7     | lot 7", "Lowr      | lower", "Ofc       | office",
        "PH        | penthouse", "Pier 39   | pier 39", "Rm 101    | room 101",
        "Spc 5     | space 5", "Ste 200   | suite 200", "Trlr 9    | trailer 9",
        "Unit 4    | unit 4", "Uppr      | upper", "Rear      | rear",
        "Slip 3    | slip 3", "Stop 2    | stop 2", "Key 1     | key 1"
    })
    @DisplayName("designators become full words")
    void designatorBecomesFullWord(String unit, String canonical) {
      assertThat(normalize("10 Elm St " + unit)).isEqualTo("10 elm street " + canonical);
    }

    @Test
    @DisplayName("a bare # is \"unit\"; after a designator it is dropped")
    void hash() {
      assertThat(normalize("10 Elm St #4")).isEqualTo("10 elm street unit 4");
      assertThat(normalize("10 Elm St # 4")).isEqualTo("10 elm street unit 4");
      assertThat(normalize("10 Elm St Apt #4")).isEqualTo("10 elm street apartment 4");
      assertThat(normalize("10 Elm St Apt# 4")).isEqualTo("10 elm street apartment 4");
      assertThat(normalize("10 Elm St Ste #200")).isEqualTo("10 elm street suite 200");
    }

    @Test
    @DisplayName("a letter identifier after a designator is not a directional")
    void identifierKeptAsWritten() {
      assertThat(normalize("10 Elm St Apt N")).isEqualTo("10 elm street apartment n");
      assertThat(normalize("10 Elm St #E")).isEqualTo("10 elm street unit e");
      assertThat(normalize("10 Elm St Ste NE")).isEqualTo("10 elm street suite ne");
    }
  }

  @Nested
  @DisplayName("directionals")
  class Directionals {

    @ParameterizedTest(name = "\"{0}\" → \"{1}\"")
    @CsvSource(delimiter = '|', value = {
        "100 N Main St        | 100 north main street",
        "100 S. Main St       | 100 south main street",
        "100 E Main St        | 100 east main street",
        "100 W Main St        | 100 west main street",
        "100 Main St NE       | 100 main street northeast",
        "100 Main St N.W.     | 100 main street northwest",
        "100 SE Main St       | 100 southeast main street",
        "100 Main St sw       | 100 main street southwest",
        "100 North Main St    | 100 north main street",
        "100 N Park Ave       | 100 north park avenue",
        "100 W Lake St        | 100 west lake street"
    })
    @DisplayName("abbreviations become full words")
    void abbreviationsExpand(String input, String expected) {
      assertThat(normalize(input)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "\"{0}\" → \"{1}\"")
    @CsvSource(delimiter = '|', value = {
        "100 E St NW          | 100 e street northwest",
        "100 N St             | 100 n street",
        "1 N E St             | 1 north e street",
        "25 Avenue N          | 25 avenue n",
        "Ave S, Brooklyn      | avenue s brooklyn"
    })
    @DisplayName("a letter naming a street stays a letter")
    void letterStreets(String input, String expected) {
      assertThat(normalize(input)).isEqualTo(expected);
    }

    @Test
    @DisplayName("\"n e\" with a blank is two words, not northeast")
    void spacedPairIsNotJoined() {
      assertThat(normalize("100 N E Main St")).isEqualTo("100 north east main street");
    }
  }

  @Nested
  @DisplayName("saint, sainte, doctor")
  class SaintRule {

    @ParameterizedTest(name = "\"{0}\" → \"{1}\"")
    @CsvSource(delimiter = '|', value = {
        "St. Louis                        | saint louis",
        "St Paul St                       | saint paul street",
        "100 St Paul St                   | 100 saint paul street",
        "Main St                          | main street",
        "100 Main St, St Louis, MO        | 100 main street saint louis mo",
        "100 Main St St Louis MO 63101    | 100 main street saint louis mo 63101",
        "100 Main St Louis                | 100 main street louis",
        "100 Park St Springfield          | 100 park street springfield",
        "100 Main St Apt 5                | 100 main street apartment 5",
        "100 Main St N                    | 100 main street north",
        "Ste. Genevieve                   | sainte genevieve",
        "100 Main St Ste 200              | 100 main street suite 200",
        "100 Main St Ste B                | 100 main street suite b",
        "Rue Ste-Catherine                | rue sainte catherine",
        "Rue St-Denis                     | rue saint denis",
        "Port St. Lucie                   | port saint lucie",
        "Fort St. John                    | fort saint john",
        "Pointe St Charles                | pointe saint charles",
        "Île Ste-Hélène                   | île sainte hélène",
        "Mt. St. Helens                   | mount saint helens",
        "Apt 4 St Louis                   | apartment 4 saint louis",
        "100 E St Louis Ave               | 100 east saint louis avenue",
        "Sankt Augustin                   | saint augustin",
        "Sint-Niklaas                     | saint niklaas",
        "2 Dr Martin Luther King Jr Blvd  | 2 doctor martin luther king jr boulevard",
        "2 Park Dr                        | 2 park drive",
        "2 Park Dr Springfield            | 2 park drive springfield"
    })
    @DisplayName("st/ste/dr begin a name when a name follows a start, number, direction or type")
    void positional(String input, String expected) {
      assertThat(normalize(input)).isEqualTo(expected);
    }
  }

  @Nested
  @DisplayName("ordinals")
  class Ordinals {

    @ParameterizedTest(name = "\"{0}\" → \"{1}\"")
    @CsvSource(delimiter = '|', value = {
        "1st Ave               | 1st avenue",
        "1ST AVE               | 1st avenue",
        "1 st Ave              | 1st avenue",
        "First Ave             | 1st avenue",
        "2 nd St               | 2nd street",
        "Second St             | 2nd street",
        "3 rd Ave              | 3rd avenue",
        "11 th St              | 11th street",
        "Twenty-First St       | 21st street",
        "twenty first street   | 21st street",
        "Ninetieth St          | 90th street",
        "E 57 th St            | east 57th street",
        "1 st N                | 1st north"
    })
    @DisplayName("ordinals are numeric")
    void numeric(String input, String expected) {
      assertThat(normalize(input)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "\"{0}\" → \"{1}\"")
    @CsvSource(delimiter = '|', value = {
        "1 St Paul St          | 1 saint paul street",
        "3 Rd                  | 3 road",
        "2 rd Ave              | 2 road avenue",
        "12 St                 | 12 street",
        "Twenty Oaks           | twenty oaks"
    })
    @DisplayName("a number and a suffix that do not make an ordinal stay apart")
    void notOrdinals(String input, String expected) {
      assertThat(normalize(input)).isEqualTo(expected);
    }
  }

  @Nested
  @DisplayName("non-English forms")
  class NonEnglish {

    @ParameterizedTest(name = "\"{0}\" → \"{1}\"")
    @CsvSource(delimiter = '|', value = {
        "Hauptstr. 5                       | hauptstrasse 5",
        "Hauptstraße 5                     | hauptstrasse 5",
        "Hauptstrasse 5                    | hauptstrasse 5",
        "Berliner Str. 5                   | berliner strasse 5",
        "Berliner Straße 5                 | berliner strasse 5",
        "5 Berliner Str, Berlin, Germany   | 5 berliner strasse berlin germany",
        "5 Berliner Str, Berlin, DE        | 5 berliner strasse berlin de",
        "123 Main Str                      | 123 main street",
        "Kalverstraat 92                   | kalverstraat 92",
        "Kalverstr. 92, Amsterdam, NL      | kalverstraat 92 amsterdam nl",
        "Damstr 1, Den Haag, Nederland     | damstraat 1 den haag nederland",
        "12 Rue de la Paix                 | 12 rue de la paix",
        "12 av. de l'Opéra                 | 12 avenue de lopéra",
        "5 Bd Haussmann                    | 5 boulevard haussmann",
        "5 Boul. René-Lévesque             | 5 boulevard rené lévesque",
        "3 Imp. des Lilas                  | 3 impasse des lilas",
        "C/ Mayor 5                        | calle mayor 5",
        "c/Mayor 5                         | calle mayor 5",
        "Avenida Corrientes 1234           | avenue corrientes 1234",
        "Av. Corrientes 1234               | avenue corrientes 1234",
        "Avda. de América 2                | avenue de américa 2",
        "Ctra. de Valencia km 7            | carretera de valencia km 7",
        "Rua Augusta 100                   | rua augusta 100",
        "Via del Corso 12                  | via del corso 12",
        "V.le Europa 10                    | viale europa 10",
        "P.zza Navona 3                    | piazza navona 3",
        "P.za Duomo 1                      | piazza duomo 1",
        "C.so Vittorio Emanuele 4          | corso vittorio emanuele 4",
        "L.go Argentina 2                  | largo argentina 2",
        "P.le Loreto 1                     | piazzale loreto 1"
    })
    @DisplayName("street types take one canonical form per language")
    void canonicalForms(String input, String expected) {
      assertThat(normalize(input)).isEqualTo(expected);
    }
  }

  @Nested
  @DisplayName("US region codes")
  class RegionCodes {

    @ParameterizedTest(name = "\"{0}\" → \"{1}\"")
    @CsvSource(delimiter = '|', value = {
        "Hartford, CT 06103       | hartford ct 06103",
        "Omaha NE 68102-1234      | omaha ne 68102-1234",
        "Miami, FL 33101          | miami fl 33101",
        "Helena, MT 59601         | helena mt 59601",
        "San Juan, PR 00901       | san juan pr 00901",
        "Hartford, CT             | hartford court",
        "100 Main St NE           | 100 main street northeast"
    })
    @DisplayName("a state code before a ZIP stays a state code")
    void stateBeforeZip(String input, String expected) {
      assertThat(normalize(input)).isEqualTo(expected);
    }
  }
}
