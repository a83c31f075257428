package dev.georesolver.trace;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class TraceIdsTest {

  @Test
  @DisplayName("trace ids are 32 lowercase hex digits, span ids 16, and they differ")
  void w3cFormat() {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < 1000; i++) {
      String id = TraceIds.next();
      assertThat(id).matches("[0-9a-f]{32}");
      assertThat(TraceIds.isTraceId(id)).isTrue();
      assertThat(TraceIds.nextSpanId()).matches("[0-9a-f]{16}");
      seen.add(id);
    }
    assertThat(seen).hasSize(1000);
  }

  @Test
  @DisplayName("all zeros, upper case, or the wrong length are not trace ids")
  void invalid() {
    assertThat(TraceIds.isTraceId("0".repeat(32))).isFalse();
    assertThat(TraceIds.isTraceId("4BF92F3577B34DA6A3CE929D0E0E4736")).isFalse();
    assertThat(TraceIds.isTraceId("4bf92f3577b34da6")).isFalse();
    assertThat(TraceIds.isTraceId(null)).isFalse();
  }
}
