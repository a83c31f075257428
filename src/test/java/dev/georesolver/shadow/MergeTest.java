package dev.georesolver.shadow;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Merging is exact, associative and commutative: however the samples are split between nodes (or
 * between the store and memory) and in whatever order and grouping the parts are merged, the result
 * equals the table of all samples counted in one place, down to the encoded bytes.
 */
class MergeTest {

  private static final int SAMPLES = 600;
  private static final int SPLITS = 150;

  @Test
  @DisplayName("any split of the samples, merged in any order and grouping, equals counting them in one place")
  void shouldMergeExactlyWhateverTheSplitOrderAndGrouping() {
    SplittableRandom r = new SplittableRandom(2027);
    List<ShadowSample> samples = new ArrayList<>();
    for (int i = 0; i < SAMPLES; i++) {
      samples.add(Samples.random(i, r));
    }
    ShadowTable whole = new ShadowTable();
    samples.forEach(whole::record);
    byte[] wholeBytes = whole.encode();

    for (int trial = 0; trial < SPLITS; trial++) {
      int parts = 1 + r.nextInt(8);
      List<ShadowTable> tables = new ArrayList<>();
      for (int k = 0; k < parts; k++) {
        tables.add(new ShadowTable());
      }
      for (ShadowSample s : samples) {
        tables.get(r.nextInt(parts)).record(s);
      }
      // Merge random neighbours or random pairs until one is left: every grouping and order occurs.
      while (tables.size() > 1) {
        ShadowTable a = tables.remove(r.nextInt(tables.size()));
        ShadowTable b = tables.remove(r.nextInt(tables.size()));
        tables.add(r.nextBoolean() ? ShadowTable.merged(a, b) : ShadowTable.merged(b, a));
      }
      ShadowTable merged = tables.get(0);
      assertThat(merged).as("trial %s in %s parts", trial, parts).isEqualTo(whole);
      assertThat(merged.encode()).isEqualTo(wholeBytes);
      assertThat(merged.summaries()).isEqualTo(whole.summaries());
    }
  }

  @Test
  @DisplayName("(a + b) + c = a + (b + c), a + b = b + a, and the empty table changes nothing")
  void shouldBeAssociativeCommutativeWithTheEmptyTableAsIdentity() {
    SplittableRandom r = new SplittableRandom(7);
    ShadowTable a = new ShadowTable();
    ShadowTable b = new ShadowTable();
    ShadowTable c = new ShadowTable();
    for (int i = 0; i < 300; i++) {
      List.of(a, b, c).get(r.nextInt(3)).record(Samples.random(i, r));
    }

    assertThat(ShadowTable.merged(ShadowTable.merged(a, b), c)).isEqualTo(ShadowTable.merged(a, ShadowTable.merged(b, c)));
    assertThat(ShadowTable.merged(a, b)).isEqualTo(ShadowTable.merged(b, a));
    assertThat(ShadowTable.merged(a, new ShadowTable())).isEqualTo(a);
    assertThat(ShadowTable.merged(new ShadowTable(), a)).isEqualTo(a);
  }

  @Test
  @DisplayName("merging leaves both inputs as they were")
  void shouldNotChangeTheInputs() {
    SplittableRandom r = new SplittableRandom(8);
    ShadowTable a = new ShadowTable();
    ShadowTable b = new ShadowTable();
    for (int i = 0; i < 100; i++) {
      (i % 2 == 0 ? a : b).record(Samples.random(i, r));
    }
    byte[] aBefore = a.encode();
    byte[] bBefore = b.encode();

    ShadowTable.merged(a, b);
    PairStats.merged(a.get(a.keys().iterator().next()).orElseThrow(), b.get(b.keys().iterator().next()).orElseThrow());

    assertThat(a.encode()).isEqualTo(aBefore);
    assertThat(b.encode()).isEqualTo(bBefore);
  }

  @Test
  @DisplayName("a table holds at most 512 pairs: a new pair beyond is refused, a merge beyond fails whole")
  void shouldBoundThePairsItHolds() {
    ShadowTable t = new ShadowTable();
    LonLat p = new LonLat(0, 0);
    for (int i = 0; i < ShadowTable.MAX_PAIRS; i++) {
      assertThat(t.record(Samples.sample(i, "a", "b", "intent" + i, p, p, 1, 1))).isTrue();
    }
    assertThat(t.record(Samples.sample(1, "a", "b", "one-too-many", p, p, 1, 1))).isFalse();
    assertThat(t.record(Samples.sample(1, "a", "b", "intent0", p, p, 1, 1))).isTrue();

    ShadowTable other = new ShadowTable();
    other.record(Samples.sample(1, "a", "c", "describe", p, p, 1, 1));
    byte[] before = t.encode();
    assertThatThrownBy(() -> t.add(other)).isInstanceOf(IllegalStateException.class);
    assertThat(t.encode()).isEqualTo(before);
  }
}
