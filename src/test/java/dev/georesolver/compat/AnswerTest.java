package dev.georesolver.compat;

import dev.georesolver.bus.ResolveResult;
import dev.georesolver.bus.StoredAnswer;
import dev.georesolver.geo.Claim;
import dev.georesolver.geo.Direction;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class AnswerTest {

  @Test
  @DisplayName("a stored answer (only its encoded stable JSON) reads exactly as the fresh result it was stored from")
  void replayedFormReadsAsFresh() {
    ResolveResult fresh = Results.result(Results.resolved("exact", "rooftop", false));
    StoredAnswer stored = StoredAnswer.of(fresh);

    Answer a = Answer.of(stored);

    assertThat(a).isEqualTo(Answer.of(fresh));
    assertThat(a.resolved()).isTrue();
    assertThat(a.lat()).isEqualTo(51.5034);
    assertThat(a.claim()).isEqualTo(Claim.EXACT);
    assertThat(a.precision()).isEqualTo("rooftop");
    assertThat(a.source()).isEqualTo("primary");
  }

  @Test
  @DisplayName("a stored refusal shared with a coalesced waiter keeps its reason and notice")
  void storedRefusal() {
    ResolveResult refused = Results.result(Results.refused("no_rung_available", "No rung could answer: primary failed (transient)."));
    Answer a = Answer.of(StoredAnswer.of(refused));
    assertThat(a.resolved()).isFalse();
    assertThat(a.reason()).isEqualTo("no_rung_available");
    assertThat(a.notFound()).isFalse();
    assertThat(a.notice()).startsWith("No rung could answer");
    assertThat(a.direction()).isEqualTo(Direction.FORWARD);
  }

  @Test
  @DisplayName("only the not_found reason counts as nothing found")
  void notFoundOnlyForNotFound() {
    assertThat(Results.answer(Results.refused("not_found", "n")).notFound()).isTrue();
    for (String reason : new String[] {"budget_exhausted", "not_found_where_asked", "no_rung_available"}) {
      assertThat(Results.answer(Results.refused(reason, "n")).notFound()).as(reason).isFalse();
    }
  }
}
