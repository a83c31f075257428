package dev.georesolver.gazetteer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The fold both the index (build.mjs) and queries go through. */
class TextFoldTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = ';', quoteCharacter = '"', value = {
      "São Paulo;               sao paulo",
      "MÜNCHEN;                 munchen",
      "Straße;                  strasse",
      "Ærøskøbing;              aeroskobing",
      "Łódź;                    lodz",
      "Reykjavík;               reykjavik",
      "Þórshöfn;                thorshofn",
      "Washington, D.C.;        washington dc",
      "St. John's;              st johns",
      "Winston-Salem;           winston salem",
      "  Paris ,  Texas  ;      paris texas",
      "İstanbul;                istanbul",
      "Île-de-France;           ile de france",
      "'s-Hertogenbosch;        s hertogenbosch",
  })
  void foldsCaseAccentsAndPunctuation(String in, String out) {
    assertThat(TextFold.fold(in)).isEqualTo(out);
  }
}
