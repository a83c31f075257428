package dev.georesolver.normalize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.georesolver.geo.Bbox;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@code sha256(normalized + "|" + canonical_bbox)} in lower-case hex (DESIGN §5). */
@DisplayName("IdempotencyKey")
class IdempotencyKeyTest {

  private static final Bbox ST_LOUIS = Bbox.of(-90.3, 38.5, -90.1, 38.7);

  @Test
  @DisplayName("without a bbox the key hashes the address and an empty bbox part")
  void keyWithoutBbox() {
    assertThat(IdempotencyKey.of("123 main street", null))
        .isEqualTo("13f5c79a06c27d85a88faffd98ede2612221f87f52bb7b8fc3af508b448c2545");
  }

  @Test
  @DisplayName("with a bbox the key hashes the address and the bbox rounded to 6 decimals")
  void keyWithBbox() {
    assertThat(IdempotencyKey.of("123 main street", ST_LOUIS))
        .isEqualTo("1c69f1087cac69ad1044f3d698e28d8d0eafe642f6c4971a40430ac741c72641");
  }

  @Test
  @DisplayName("a bbox changes the key, and so does a different bbox")
  void bboxChangesTheKey() {
    String address = AddressNormalizer.standard().normalize("123 Main St, St Louis, MO");
    String none = IdempotencyKey.of(address, null);
    String one = IdempotencyKey.of(address, ST_LOUIS);
    String other = IdempotencyKey.of(address, Bbox.of(-90.3, 38.5, -90.1, 38.8));
    assertThat(one).isNotEqualTo(none).isNotEqualTo(other);
  }

  @Test
  @DisplayName("bboxes equal to 6 decimals give the same key")
  void bboxRoundedToSixDecimals() {
    Bbox nudged = Bbox.of(-90.3000001, 38.5, -90.1, 38.7000004);
    assertThat(IdempotencyKey.of("a", nudged)).isEqualTo(IdempotencyKey.of("a", ST_LOUIS));
  }

  @Test
  @DisplayName("equivalent spellings with the same bbox share a key")
  void equivalentSpellingsWithBbox() {
    AddressNormalizer n = AddressNormalizer.standard();
    assertThat(IdempotencyKey.of(n.normalize("123 Main St."), ST_LOUIS))
        .isEqualTo(IdempotencyKey.of(n.normalize("123 main street"), ST_LOUIS));
  }

  @Test
  @DisplayName("keys are 64 lower-case hex digits")
  void keyShape() {
    assertThat(IdempotencyKey.of("", null)).matches("[0-9a-f]{64}")
        .isEqualTo("cbe5cfdf7c2118a9c3d78ef1d684f3afa089201352886449a06a6511cfef74a7");
  }
}
