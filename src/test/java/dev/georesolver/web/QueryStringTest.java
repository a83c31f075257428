package dev.georesolver.web;

import dev.georesolver.bus.FieldProblem;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class QueryStringTest {

  @Test
  @DisplayName("decodes escapes, plus signs and raw UTF-8 bytes, keeping the order given")
  void decodes() {
    RequestFields f = QueryString.parse("q=Z%C3%BCrich+Hbf&bbox=1%2C2%2C3%2C4&&flag&x=a=b");
    assertThat(f.problems()).isEmpty();
    assertThat(f.fields().getString("q")).isEqualTo("Zürich Hbf");
    assertThat(f.fields().getString("bbox")).isEqualTo("1,2,3,4");
    assertThat(f.fields().getString("flag")).isEmpty();
    assertThat(f.fields().getString("x")).isEqualTo("a=b");
    assertThat(f.fields().fieldNames()).containsExactly("q", "bbox", "flag", "x");
    // The request line arrives one character per byte: "ü" unescaped is the two bytes C3 BC.
    assertThat(QueryString.parse("q=Z\u00C3\u00BCrich").fields().getString("q")).isEqualTo("Zürich");
    assertThat(QueryString.parse("q=a;b").fields().getString("q")).as("only & separates").isEqualTo("a;b");
    assertThat(QueryString.parse(null).fields().isEmpty()).isTrue();
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', value = {
      "q=%            | q",
      "q=%Z1          | q",
      "q=ab%4         | q",
      "q=%C3%28       | q",
      "q=%ED%A0%80    | q",
      "q=%F4%90%80%80 | q",
      "q=x&%ZZ=1      | query",
      "%E2=1          | query",
      "q=x&q=y        | q",
  })
  void problems(String raw, String field) {
    RequestFields f = QueryString.parse(raw);
    assertThat(f.problems()).extracting(FieldProblem::field).containsExactly(field);
    assertThat(f.fields().isEmpty()).isTrue();
  }

  @Test
  @DisplayName("a name repeated many times is reported once")
  void repeatedOnce() {
    assertThat(QueryString.parse("q=a&q=b&q=c").problems()).hasSize(1);
  }

  @Test
  @DisplayName("finds a malformed escape in a raw path")
  void malformedPath() {
    assertThat(QueryString.hasMalformedEscape("/v1/geo%ZZcode")).isTrue();
    assertThat(QueryString.hasMalformedEscape("/v1/geocode%")).isTrue();
    assertThat(QueryString.hasMalformedEscape("/v1/geo%63ode")).isFalse();
    assertThat(QueryString.hasMalformedEscape("/v1/geocode")).isFalse();
  }
}
