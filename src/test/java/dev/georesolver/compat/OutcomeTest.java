package dev.georesolver.compat;

import dev.georesolver.bus.FailureCode;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OutcomeTest {

  @Test
  @DisplayName("an answer is found; a not_found refusal is no result; any other refusal is unavailable (503)")
  void ofAnswer() {
    assertThat(Outcome.of(Results.answer(Results.resolved("exact", "rooftop", false)))).isInstanceOf(Outcome.Found.class);
    assertThat(Outcome.of(Results.answer(Results.refused("not_found", "n")))).isInstanceOf(Outcome.NotFound.class);
    Outcome u = Outcome.of(Results.answer(Results.refused("not_found_where_asked", "osm was not asked")));
    assertThat(u).isEqualTo(new Outcome.Unavailable(503, "osm was not asked",
        Results.answer(Results.refused("not_found_where_asked", "osm was not asked"))));
  }

  @Test
  @DisplayName("chain failures map as on /v1: timeout 504, misconfigured 503, deadline 504, bad request invalid, router error failed")
  void ofFailure() {
    assertThat(Outcome.ofFailure(new ReplyException(ReplyFailure.TIMEOUT, "t"))).isInstanceOf(Outcome.Unavailable.class)
        .extracting(o -> ((Outcome.Unavailable) o).status()).isEqualTo(504);
    assertThat(Outcome.ofFailure(new ReplyException(ReplyFailure.RECIPIENT_FAILURE, FailureCode.MISCONFIGURED.code(), "no rung")))
        .extracting(o -> ((Outcome.Unavailable) o).status()).isEqualTo(503);
    assertThat(Outcome.ofFailure(new ReplyException(ReplyFailure.RECIPIENT_FAILURE, FailureCode.DEADLINE_EXCEEDED.code(), "spent")))
        .extracting(o -> ((Outcome.Unavailable) o).status()).isEqualTo(504);
    assertThat(Outcome.ofFailure(new ReplyException(ReplyFailure.RECIPIENT_FAILURE, FailureCode.BAD_REQUEST.code(),
        "{\"detail\":\"q must not be empty\"}"))).isEqualTo(new Outcome.Invalid(null, "q must not be empty"));
    assertThat(Outcome.ofFailure(new ReplyException(ReplyFailure.RECIPIENT_FAILURE, FailureCode.ROUTER_ERROR.code(), "npe")))
        .isInstanceOf(Outcome.Failed.class);
    // No chain up (an ingress-only node's cluster has none): unavailable, as /v1 answers 503 no_chain.
    assertThat(Outcome.ofFailure(new ReplyException(ReplyFailure.NO_HANDLERS, "none"))).isInstanceOf(Outcome.Unavailable.class)
        .extracting(o -> ((Outcome.Unavailable) o).status()).isEqualTo(503);
    assertThat(Outcome.ofFailure(new IllegalStateException())).isInstanceOf(Outcome.Failed.class);
  }

  @Test
  @DisplayName("gate verdicts: a denial keeps its status, a rate limit its Retry-After (at least 1 s); an admission has no outcome")
  void ofGate() {
    assertThat(Outcome.of(new GateVerdict.Denied(403, "no"))).isEqualTo(new Outcome.Denied(403, "no"));
    assertThat(Outcome.of(new GateVerdict.RateLimited(0, "slow down"))).isEqualTo(new Outcome.RateLimited(1, "slow down"));
    assertThatThrownBy(() -> Outcome.of(new GateVerdict.Admitted("public"))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new GateVerdict.Denied(500, "x")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  @DisplayName("the open gate admits every request as tenant public")
  void openGate() {
    assertThat(Gate.open().admit(Credentials.NONE).result()).isEqualTo(new GateVerdict.Admitted("public"));
    assertThat(Gate.open().admit(new Credentials("anything", "key")).result()).isEqualTo(new GateVerdict.Admitted("public"));
  }
}
