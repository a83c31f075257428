package dev.georesolver.cli;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The command line's reading of a result: the address line. */
class AnswerTextTest {

  private static JsonObject resolved() {
    return new JsonObject().put("status", "resolved").put("lon", -0.1276).put("lat", 51.5034)
        .put("label", "10 Downing Street, London").put("claim", "exact").put("resolution_source", "primary");
  }

  @Test
  @DisplayName("geocode and reverse print an address line: house number before the road, finest first, the country code in brackets")
  void addressLine() {
    JsonObject r = resolved().put("address", new JsonObject().put("house_number", "10").put("road", "Downing Street")
        .put("locality", "London").put("region", "England").put("postcode", "SW1A 2AA").put("country", "United Kingdom")
        .put("country_code", "GB").put("place_type", "place/house"));
    assertThat(AnswerText.lines(r)).contains("address     10 Downing Street, London, England, SW1A 2AA, United Kingdom (GB)");
  }

  @Test
  @DisplayName("no address line when the answer has no components, and provider text is made safe for the terminal")
  void noAddressOrUnsafe() {
    assertThat(AnswerText.lines(resolved())).noneMatch(l -> l.startsWith("address"));
    String line = AnswerText.address(new JsonObject().put("locality", "Evil\u001b[31mTown"));
    assertThat(line).doesNotContain("\u001b");
  }
}
