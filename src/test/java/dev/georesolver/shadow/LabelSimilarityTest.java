package dev.georesolver.shadow;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The label similarity: folded word sets, overlap coefficient. */
class LabelSimilarityTest {

  @Test
  @DisplayName("case, diacritics, punctuation and abbreviations fold away: the same label reads 1")
  void shouldFoldCaseDiacriticsPunctuationAndAbbreviations() {
    assertThat(LabelSimilarity.of("10 Downing St., LONDON", "10, downing street; london")).hasValue(1.0);
    assertThat(LabelSimilarity.of("Bahnhofstraße 1, Zürich", "bahnhofstrasse 1 zurich")).hasValue(1.0);
    assertThat(LabelSimilarity.of("Rue de l'Église, Montréal", "rue de leglise montreal")).hasValue(1.0);
    assertThat(LabelSimilarity.words("123 N. Main Ave")).containsExactlyInAnyOrder("123", "north", "main", "avenue");
  }

  @Test
  @DisplayName("a longer label of the same place is not a disagreement: verbosity does not lower it")
  void shouldNotPenaliseALongerLabelOfTheSamePlace() {
    String google = "10 Downing St, London SW1A 2AA, UK";
    String nominatim = "10, Downing Street, St. James's, Westminster, London, Greater London, England, SW1A 2AA, United Kingdom";

    // The shorter label's words: 10 downing street london sw1a 2aa uk — all but "uk" are in the longer one.
    assertThat(LabelSimilarity.of(google, nominatim)).hasValueCloseTo(6.0 / 7, within(1e-9));
  }

  @Test
  @DisplayName("a contradiction lowers it: another street or another number")
  void shouldFallWhenTheLabelsContradict() {
    assertThat(LabelSimilarity.of("10 Downing Street, London", "10 Downing Road, London")).hasValueCloseTo(0.75, within(1e-9));
    assertThat(LabelSimilarity.of("12 Elm Road, Leeds", "10 Downing Street, London")).hasValue(0.0);
  }

  @Test
  @DisplayName("symmetric, in [0, 1], and absent when a label is missing or has no word")
  void shouldBeSymmetricBoundedAndAbsentWithoutWords() {
    assertThat(LabelSimilarity.of("a b c", "b c d e")).isEqualTo(LabelSimilarity.of("b c d e", "a b c"));
    assertThat(LabelSimilarity.of(null, "x")).isEmpty();
    assertThat(LabelSimilarity.of("x", null)).isEmpty();
    assertThat(LabelSimilarity.of("  ,;. ", "x")).isEmpty();
  }

  @Test
  @DisplayName("a hostile label is cut before folding, so its cost is bounded")
  void shouldCutAVeryLongLabel() {
    String huge = "word ".repeat(200_000) + "tail";
    assertThat(LabelSimilarity.words(huge)).containsExactly("word");
  }
}
