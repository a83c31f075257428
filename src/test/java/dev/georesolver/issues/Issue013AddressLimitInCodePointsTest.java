package dev.georesolver.issues;

import dev.georesolver.batch.RowRequests;
import dev.georesolver.bus.RequestValidator;
import dev.georesolver.geo.Direction;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The 1,000-character address limit counts code points, so an address of 600 emoji or CJK supplementary characters is accepted by the resolver as by a batch row. */
class Issue013AddressLimitInCodePointsTest {

  private final RequestValidator validator = new RequestValidator(Set.of("describe"), "describe", 2500, 10_000);

  @Test
  @DisplayName("1,000 supplementary characters (2,000 UTF-16 units) are within the limit; 1,001 are not, and the message counts characters")
  void supplementaryCharactersCountOnce() {
    String thousand = "\uD840\uDC0B".repeat(RequestValidator.MAX_ADDRESS_CHARS);
    assertThat(validator.validate(new JsonObject().put("q", thousand), Direction.FORWARD, null, "t").valid()).isTrue();
    assertThat(RowRequests.text(thousand)).isInstanceOf(RowRequests.Request.class);

    var over = validator.validate(new JsonObject().put("q", thousand + "\uD840\uDC0B"), Direction.FORWARD, null, "t");
    assertThat(over.problems()).singleElement().satisfies(p -> assertThat(p.message()).isEqualTo("must be at most 1000 characters (got 1001)"));
    assertThat(RowRequests.text(thousand + "\uD840\uDC0B")).isEqualTo(new RowRequests.Problem("address is 1001 characters; at most 1000"));
  }

  @Test
  @DisplayName("structured components count their code points in all, the same way")
  void componentsInAll() {
    String half = "\uD840\uDC0B".repeat(499);
    JsonObject address = new JsonObject().put("street", half).put("locality", half);
    assertThat(validator.validate(new JsonObject().put("address", address), Direction.FORWARD, null, "t").valid()).isTrue();
    address.put("country", "xy");
    assertThat(validator.validate(new JsonObject().put("address", address), Direction.FORWARD, null, "t").valid()).isFalse();
  }
}
