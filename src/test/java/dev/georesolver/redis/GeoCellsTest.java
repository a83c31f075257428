package dev.georesolver.redis;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The geohash cells of the sharded cached index, without Redis. */
class GeoCellsTest {

  private final GeoCells cells = new GeoCells(5, 9);

  @Test
  @DisplayName("encodes standard geohashes")
  void encodesStandardGeohash() {
    assertThat(GeoCells.encode(57.64911, 10.40744, 11)).isEqualTo("u4pruydqqvj");
    assertThat(GeoCells.encode(48.8584, 2.2945, 5)).isEqualTo("u09tu");
    assertThat(GeoCells.encode(-33.8568, 151.2153, 5)).isEqualTo("r3gx2");
  }

  @Test
  @DisplayName("a small radius in the middle of a cell reads that cell only")
  void smallRadiusOneCell() {
    // u09tu's centre is about 48.8599, 2.2925.
    assertThat(cells.covering(48.8599, 2.2925, 250)).containsExactly("u09tu");
  }

  @Test
  @DisplayName("a radius across a cell edge reads the neighbour too, own cell first")
  void radiusAcrossEdge() {
    List<String> c = cells.covering(48.8584, 2.2945, 3000);
    assertThat(c.get(0)).isEqualTo("u09tu");
    assertThat(c).hasSizeGreaterThan(1).doesNotHaveDuplicates().allSatisfy(x -> assertThat(x).hasSize(5));
  }

  @Test
  @DisplayName("a huge radius reads a bounded number of cells, the nearest")
  void hugeRadiusBounded() {
    List<String> c = cells.covering(48.8584, 2.2945, 100_000);
    assertThat(c).hasSize(9).contains("u09tu").doesNotHaveDuplicates();
  }

  @Test
  @DisplayName("a radius across the antimeridian reads cells on both sides")
  void antimeridian() {
    List<String> c = cells.covering(0.0, 179.99, 3000);
    assertThat(c).anyMatch(x -> x.startsWith("x") || x.startsWith("r") || x.startsWith("8") || x.startsWith("2"));
    assertThat(c.stream().anyMatch(x -> GeoCells.encode(0.0, -179.99, 5).equals(x))).isTrue();
  }

  @Test
  @DisplayName("near the pole the bounding box is clamped, not wrapped into nonsense")
  void nearPole() {
    assertThat(cells.covering(89.999, 0, 5000)).isNotEmpty().allSatisfy(x -> assertThat(x).hasSize(5));
  }
}
