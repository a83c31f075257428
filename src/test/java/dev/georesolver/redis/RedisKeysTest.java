package dev.georesolver.redis;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The hash-tag rule of {@link RedisKeys}: every group of keys that one operation touches together
 * (a pipeline, MULTI/EXEC or Lua script) maps to one Redis Cluster slot, computed here as the
 * cluster does (CRC16/XMODEM of the hash tag, modulo 16384). A new module adds its groups here.
 */
class RedisKeysTest {

  private static final RedisKeys CLUSTER = new RedisKeys("geo:", true);
  private static final RedisKeys SINGLE = new RedisKeys("geo:", false);
  private static final String KEY = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
  private static final String COALESCE = KEY + "|describe|FORWARD";

  /** The Redis Cluster slot of {@code key}: CRC16/XMODEM of its hash tag (or the whole key) mod 16384. */
  static int slot(String key) {
    int open = key.indexOf('{');
    if (open >= 0) {
      int close = key.indexOf('}', open + 1);
      if (close > open + 1) {
        key = key.substring(open + 1, close);
      }
    }
    int crc = 0;
    for (byte b : key.getBytes(StandardCharsets.UTF_8)) {
      crc ^= (b & 0xff) << 8;
      for (int i = 0; i < 8; i++) {
        crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1;
        crc &= 0xffff;
      }
    }
    return crc % 16384;
  }

  private static Set<Integer> slots(List<String> keys) {
    return keys.stream().map(RedisKeysTest::slot).collect(Collectors.toSet());
  }

  @Test
  @DisplayName("the slot function agrees with Redis on its published vectors")
  void slotFunctionMatchesRedis() {
    assertThat(slot("123456789")).isEqualTo(0x31C3 % 16384);
    assertThat(slot("foo")).isEqualTo(12182);
    assertThat(slot("{foo}bar")).isEqualTo(12182);
  }

  @Test
  @DisplayName("a request's answer, claim and outcome (one poll, one completion pipeline) share one slot")
  void requestGroupIsOneSlot() {
    assertThat(slots(List.of(CLUSTER.idem(KEY), CLUSTER.lock(COALESCE), CLUSTER.done(COALESCE)))).hasSize(1);
    assertThat(CLUSTER.idem(KEY)).isEqualTo("geo:idem:{" + KEY + "}");
    assertThat(CLUSTER.lock(COALESCE)).isEqualTo("geo:lock:{" + KEY + "}|describe|FORWARD");
  }

  @Test
  @DisplayName("every key of the reconcile queue and its outbox (the lease, finish, stats and correction scripts) shares one slot")
  void queueGroupIsOneSlot() {
    List<String> queue = List.of(CLUSTER.reconcile(), CLUSTER.marker("k|describe|FORWARD"), CLUSTER.marker("other|contain|REVERSE"),
        CLUSTER.markerPrefix() + "computed-in-lua", CLUSTER.delayed(), CLUSTER.dead(), CLUSTER.doneCount(), CLUSTER.corrections(),
        CLUSTER.corrected("c-1"), CLUSTER.cursors());
    assertThat(slots(queue)).hasSize(1);
    assertThat(CLUSTER.reconcile()).isEqualTo("geo:{reconcile}");
  }

  @Test
  @DisplayName("different requests and different index cells spread over slots: no group holds everything")
  void groupsSpread() {
    Set<Integer> s = new java.util.HashSet<>();
    for (int i = 0; i < 64; i++) {
      s.add(slot(CLUSTER.idem("k" + i)));
      s.add(slot(CLUSTER.indexCell("u09t" + "0123456789bcdefghjkmnpqrstuvwxyz".charAt(i % 32))));
    }
    assertThat(s.size()).isGreaterThan(50);
  }

  @Test
  @DisplayName("on one server the keys keep the plain names earlier releases wrote")
  void singleServerNamesUnchanged() {
    assertThat(SINGLE.idem(KEY)).isEqualTo("geo:idem:" + KEY);
    assertThat(SINGLE.lock(COALESCE)).isEqualTo("geo:lock:" + COALESCE);
    assertThat(SINGLE.done(COALESCE)).isEqualTo("geo:done:" + COALESCE);
    assertThat(SINGLE.addr("a")).isEqualTo("geo:addr:a");
    assertThat(SINGLE.reconcile()).isEqualTo("geo:reconcile");
    assertThat(SINGLE.marker("d")).isEqualTo("geo:rq:d");
    assertThat(SINGLE.delayed()).isEqualTo("geo:reconcile:delayed");
    assertThat(SINGLE.dead()).isEqualTo("geo:reconcile:dead");
    assertThat(SINGLE.doneCount()).isEqualTo("geo:reconcile:done");
    assertThat(SINGLE.corrections()).isEqualTo("geo:corrections");
    assertThat(SINGLE.corrected("c")).isEqualTo("geo:corrected:c");
    assertThat(SINGLE.cursors()).isEqualTo("geo:corrections:cursors");
    assertThat(SINGLE.indexCell("u09tu")).as("the index is sharded on one server too").isEqualTo("geo:index:u09tu");
  }

  @Test
  @DisplayName("a prefix with a brace is refused in cluster mode: it would put every key in one slot")
  void braceInPrefixRefused() {
    assertThatThrownBy(() -> new RedisKeys("geo{x}:", true)).hasMessageContaining("key_prefix");
    assertThat(new RedisKeys("geo{x}:", false).idem("k")).isEqualTo("geo{x}:idem:k");
  }
}
