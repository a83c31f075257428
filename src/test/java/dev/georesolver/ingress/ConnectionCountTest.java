package dev.georesolver.ingress;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ConnectionCountTest {

  @Test
  @DisplayName("places are taken up to the cap and given back on close")
  void cap() {
    ConnectionCount c = new ConnectionCount(2);
    assertThat(c.tryAcquire()).isTrue();
    assertThat(c.tryAcquire()).isTrue();
    assertThat(c.tryAcquire()).isFalse();
    assertThat(c.open()).isEqualTo(2);
    c.release();
    assertThat(c.tryAcquire()).isTrue();
  }

  @Test
  @DisplayName("refusals are reported at once, then at most once per interval with how many there were")
  void refusalsAreReportedRateLimited() {
    ConnectionCount c = new ConnectionCount(1);
    long s = 1_000_000_000L;
    assertThat(c.refused(100 * s)).isEqualTo(1);
    assertThat(c.refused(101 * s)).isZero();
    assertThat(c.refused(105 * s)).isZero();
    assertThat(c.refused(110 * s)).isEqualTo(3);
    assertThat(c.refused(111 * s)).isZero();
  }
}
