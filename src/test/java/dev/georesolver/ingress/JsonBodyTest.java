package dev.georesolver.ingress;

import dev.georesolver.web.RequestFields;
import dev.georesolver.bus.FieldProblem;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.math.BigInteger;

import static org.assertj.core.api.Assertions.assertThat;

class JsonBodyTest {

  private static RequestFields parse(String json) {
    return JsonBody.parse(Buffer.buffer(json));
  }

  @Test
  @DisplayName("an object parses into the same values Vert.x's own decoder gives")
  void parses() {
    String json = "{\"q\":\"Paris\",\"budget_ms\":1500,\"big\":123456789012345678901234567890,\"f\":1.5,"
        + "\"bbox\":[1,2,3,4],\"address\":{\"street\":\"Main\"},\"t\":true,\"n\":null}";
    RequestFields f = parse(json);
    assertThat(f.problems()).isEmpty();
    assertThat(f.fields()).isEqualTo(new JsonObject(json));
    assertThat(f.fields().getValue("big")).isInstanceOf(BigInteger.class);
    assertThat(f.fields().getValue("bbox")).isInstanceOf(JsonArray.class);
    assertThat(f.fields().getValue("address")).isInstanceOf(JsonObject.class);
    assertThat(parse("\uFEFF{\"q\":\"x\"}").fields().getString("q")).as("a byte-order mark is skipped").isEqualTo("x");
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
      "`{\"q\":\"a\",\"q\":\"b\"}`                       | q",
      "`{\"address\":{\"street\":\"a\",\"street\":\"b\"}}` | address.street",
      "`{\"x\":[{\"k\":1,\"k\":2}]}`                     | x[0].k",
      "`{\"q\": `                                        | body",
      "`[1,2]`                                           | body",
      "`\"q\"`                                           | body",
      "``                                                | body",
      "`{\"q\":\"a\"} {\"q\":\"b\"}`                     | body",
      "`{\"q\":\"a\"}]`                                  | body",
  })
  void problems(String json, String field) {
    assertThat(parse(json).problems()).extracting(FieldProblem::field).containsExactly(field);
  }

  @Test
  @DisplayName("bytes that are not UTF-8 are a problem naming the body")
  void notUtf8() {
    byte[] latin1 = "{\"q\":\"Z\u00FCrich\"}".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    RequestFields f = JsonBody.parse(Buffer.buffer(latin1));
    assertThat(f.problems()).extracting(FieldProblem::message).containsExactly("must be encoded in UTF-8");
  }

  @Test
  @DisplayName("a syntax error says where, and never quotes the body")
  void syntaxErrorSaysWhere() {
    String message = parse("{\"q\": \"secret\" x}").problems().get(0).message();
    assertThat(message).contains("line 1, column").doesNotContain("secret");
  }
}
