package dev.georesolver.audit;

import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** The canonical form's strings are byte for byte what Jackson wrote before, so stored records' hashes still verify. */
class CanonicalJsonTest {

  private static String quoted(String s) {
    StringBuilder sb = new StringBuilder();
    CanonicalJson.quote(sb, s);
    return sb.toString();
  }

  @Test
  @DisplayName("every UTF-16 code unit, alone and between letters, is quoted as Json.encode quotes it")
  void everyCodeUnitAsJackson() {
    for (int c = 0; c <= 0xFFFF; c++) {
      String alone = String.valueOf((char) c);
      String between = "a" + (char) c + "b" + (char) c;
      assertThat(quoted(alone)).as("U+%04X", c).isEqualTo(Json.encode(alone));
      assertThat(quoted(between)).as("U+%04X between letters", c).isEqualTo(Json.encode(between));
    }
  }

  @Test
  @DisplayName("random strings of control characters, quotes, backslashes, accents and surrogate pairs agree with Json.encode")
  void randomStringsAsJackson() {
    String alphabet = "\u0000\u0001\u001f\u007f\b\t\n\f\r\"\\/ aZ9éß東\u2028\u2029\ud83d\ude00\ud800\udfff";
    SplittableRandom r = new SplittableRandom(42);
    for (int k = 0; k < 20_000; k++) {
      StringBuilder sb = new StringBuilder();
      int n = r.nextInt(0, 24);
      for (int i = 0; i < n; i++) {
        sb.append(alphabet.charAt(r.nextInt(alphabet.length())));
      }
      String s = sb.toString();
      assertThat(quoted(s)).as("%s", Json.encode(s)).isEqualTo(Json.encode(s));
    }
  }

  @Test
  @DisplayName("the canonical form sorts keys at every depth, leaves out nulls and escapes keys as values")
  void canonicalShape() {
    JsonObject o = new JsonObject().put("b", 1).put("a\n", "x\"y").put("n", null)
        .put("z", new JsonArray().add(new JsonObject().put("d", 0.97).put("c", true)).addNull());
    assertThat(CanonicalJson.canonical(o)).isEqualTo("{\"a\\n\":\"x\\\"y\",\"b\":1,\"z\":[{\"c\":true,\"d\":0.97},null]}");
  }

  @Test
  @DisplayName("a record id is the millisecond in hex, a dash and 16 hex digits of randomness, zeros kept")
  void recordIds() {
    assertThat(AuditRecords.id(0x18f3a2b4c5dL, 0x1fL)).isEqualTo("18f3a2b4c5d-000000000000001f");
    assertThat(AuditRecords.id(1L, -1L)).isEqualTo("1-ffffffffffffffff");
    assertThat(AuditRecords.id(1L, 0L)).isEqualTo("1-0000000000000000");
    assertThat(AuditRecords.newId(1764431000123L)).matches("19ad[0-9a-f]{7}-[0-9a-f]{16}");
  }
}
