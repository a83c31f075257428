package dev.georesolver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Which refusals the embedded batch takes for a shortage of time, and so asks again. */
class BatchRunTimeRefusalTest {

  private static JsonObject refused(String reason, JsonObject... attempts) {
    return new JsonObject().put("status", "refused").put("reason", reason).put("attempts", new JsonArray(java.util.List.of((Object[]) attempts)));
  }

  private static JsonObject attempt(String outcome, String detail) {
    return new JsonObject().put("tier", "t").put("outcome", outcome).put("detail", detail);
  }

  @Test
  @DisplayName("budget_exhausted, or every rung timed out at its tier, is a shortage of time; anything the address has is not")
  void shortageOfTimeOnly() {
    assertThat(BatchRun.refusedForTime(refused("budget_exhausted", attempt("deadline", null)))).isTrue();
    assertThat(BatchRun.refusedForTime(refused("no_rung_available", attempt("transient", "attempt timed out after 380 ms")))).isTrue();
    assertThat(BatchRun.refusedForTime(refused("no_rung_available", attempt("transient", "timed out"),
        attempt("transient", "HTTP 503")))).isFalse();
    assertThat(BatchRun.refusedForTime(refused("not_found", attempt("no_match", null)))).isFalse();
    assertThat(BatchRun.refusedForTime(refused("no_rung_available"))).isFalse();
    assertThat(BatchRun.refusedForTime(new JsonObject().put("status", "resolved"))).isFalse();
  }
}
