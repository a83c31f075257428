package dev.georesolver.ingress;

import dev.georesolver.web.ServerLimits;
import dev.georesolver.ingress.ConnectionWatch.Phase;
import dev.georesolver.ingress.ConnectionWatch.Verdict;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ConnectionWatchTest {

  private static final long MS = 1_000_000;
  private final ServerLimits limits = ServerLimits.defaults().withTimeouts(30_000, 10_000, 5_000);

  @Test
  @DisplayName("a new connection has the header timeout to complete its first request's headers")
  void firstHeaders() {
    ConnectionWatch w = new ConnectionWatch(limits, 0);
    assertThat(w.check(9_999 * MS, Phase.AWAITING_HEADERS)).isEqualTo(Verdict.KEEP);
    assertThat(w.check(10_000 * MS, Phase.AWAITING_HEADERS)).isEqualTo(Verdict.HEADERS_LATE);
  }

  @Test
  @DisplayName("a body has the body timeout from its headers; a request being answered has no deadline here")
  void body() {
    ConnectionWatch w = new ConnectionWatch(limits, 0);
    w.requestStarted(1_000 * MS);
    assertThat(w.check(5_999 * MS, Phase.READING_BODY)).isEqualTo(Verdict.KEEP);
    assertThat(w.check(6_000 * MS, Phase.READING_BODY)).isEqualTo(Verdict.BODY_LATE);
    assertThat(w.check(600_000 * MS, Phase.ANSWERING)).isEqualTo(Verdict.KEEP);
  }

  @Test
  @DisplayName("after an answer the next request's headers have the idle timeout, counted from the answer")
  void keptAlive() {
    ConnectionWatch w = new ConnectionWatch(limits, 0);
    w.requestStarted(1_000 * MS);
    w.answered(50_000 * MS);
    assertThat(w.check(79_999 * MS, Phase.AWAITING_HEADERS)).isEqualTo(Verdict.KEEP);
    assertThat(w.check(80_000 * MS, Phase.AWAITING_HEADERS)).isEqualTo(Verdict.HEADERS_LATE);
  }
}
