package dev.georesolver.bus;

import dev.georesolver.bus.RequestValidator.Validated;
import dev.georesolver.geo.Direction;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The strict parts of the request contract: plain decimals, characters counted as code points, text with something in it. */
class RequestValidatorStrictnessTest {

  private final RequestValidator validator = new RequestValidator(Set.of("describe"), "describe", 2500, 10_000);

  private Validated forward(JsonObject body) {
    return validator.validate(body, Direction.FORWARD, null, "t");
  }

  private Validated reverse(Object lat) {
    return validator.validate(new JsonObject().put("lat", lat).put("lon", 2), Direction.REVERSE, null, "t");
  }

  @ParameterizedTest(name = "lat={0} is refused")
  @ValueSource(strings = {"0x1p4", "45d", "45f", "45D", "4.5e1", "1E2", "NaN", "Infinity", "-", ".", "+", "1.2.3", "0x2D",
      "1_000", "\u0664\u0665", "12345678901234567890123456789012345"})
  void onlyPlainDecimalText(String lat) {
    Validated v = reverse(lat);
    assertThat(v.valid()).isFalse();
    assertThat(v.problems()).extracting(FieldProblem::field).containsExactly("lat");
  }

  @ParameterizedTest(name = "lat={0} is taken")
  @ValueSource(strings = {"45", "-45", "+45", "45.5", "45.", ".5", " 45.25 ", "0", "-0.0"})
  void plainDecimalTextPasses(String lat) {
    assertThat(reverse(lat).valid()).isTrue();
  }

  @Test
  @DisplayName("JSON numbers stay numbers whatever their notation; hex bbox text is refused")
  void jsonNumbers() {
    assertThat(reverse(4.5e1).valid()).isTrue();
    assertThat(forward(new JsonObject().put("q", "x").put("bbox", new JsonArray().add(1).add(2e0).add(3).add(4))).valid()).isTrue();
    assertThat(forward(new JsonObject().put("q", "x").put("bbox", "0x1,2,3,4")).problems())
        .extracting(FieldProblem::field).containsExactly("bbox");
  }

  @Test
  @DisplayName("the address limit counts characters: 1,000 emoji pass with a letter, 1,001 do not")
  void codePoints() {
    String emoji = "\uD83D\uDDFA";
    assertThat(forward(new JsonObject().put("q", "a" + emoji.repeat(999))).valid()).isTrue();
    Validated over = forward(new JsonObject().put("q", "a" + emoji.repeat(1000)));
    assertThat(over.problems().get(0).message()).contains("got 1001");
    assertThat(forward(new JsonObject().put("address", new JsonObject().put("street", "a" + emoji.repeat(999)))).valid()).isTrue();
  }

  @ParameterizedTest(name = "q={0} is refused")
  @ValueSource(strings = {"\u2603", "\u20AC", "~", "\u200B", "\uFEFF", "\u0301", "\u2603 \u20AC", "\uD83D\uDDFA", "\uD800", "a\uDC00b"})
  void nothingToLookUp(String q) {
    Validated v = forward(new JsonObject().put("q", q));
    assertThat(v.valid()).isFalse();
    assertThat(v.problems()).extracting(FieldProblem::field).containsExactly("q");
  }

  @Test
  @DisplayName("a structured component with nothing to look up is refused naming the component")
  void emptyComponent() {
    Validated v = forward(new JsonObject().put("address", new JsonObject().put("street", "\u2603").put("locality", "Paris")));
    assertThat(v.problems()).extracting(FieldProblem::field).containsExactly("address.street");
  }

  @Test
  @DisplayName("a problem answer lists at most 20 problems, and problem fields outside the API are not in the known set")
  void boundedAnswers() {
    JsonObject body = new JsonObject().put("q", "x");
    for (int i = 0; i < 500; i++) {
      body.put("unknown" + i, "1");
    }
    Validated v = forward(body);
    assertThat(v.problems()).hasSize(500);
    assertThat(RequestValidator.problemJson(v.problems()).getJsonArray("errors")).hasSize(RequestValidator.MAX_REPORTED_PROBLEMS);
    assertThat(RequestValidator.PROBLEM_FIELDS).contains("q", "lat", "bbox", "address.street", "body", "query", "Request-Timeout")
        .doesNotContain("unknown0");
  }
}
