package dev.georesolver.state.rules;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Fair leasing across tenants: tenants take turns after the last one served; each tenant's jobs go oldest first. */
class BatchRulesFairOrderTest {

  private static final List<BatchRules.Open> OPEN = List.of(
      new BatchRules.Open("a1", "acme"), new BatchRules.Open("a2", "acme"), new BatchRules.Open("a3", "acme"),
      new BatchRules.Open("b1", "beta"), new BatchRules.Open("c1", "cern"), new BatchRules.Open("b2", "beta"));

  @Test
  @DisplayName("with no lease before, tenants go by name, each one's jobs oldest first")
  void firstLease() {
    assertThat(BatchRules.fairOrder(OPEN, null)).containsExactly("a1", "a2", "a3", "b1", "b2", "c1");
  }

  @Test
  @DisplayName("after a lease to acme, beta comes first, then cern, then acme again")
  void turnsAfterTheLastTenant() {
    assertThat(BatchRules.fairOrder(OPEN, "acme")).containsExactly("b1", "b2", "c1", "a1", "a2", "a3");
    assertThat(BatchRules.fairOrder(OPEN, "beta")).containsExactly("c1", "a1", "a2", "a3", "b1", "b2");
    assertThat(BatchRules.fairOrder(OPEN, "cern")).containsExactly("a1", "a2", "a3", "b1", "b2", "c1");
  }

  @Test
  @DisplayName("a last tenant with no open job any more: the next name after it goes first")
  void lastTenantGone() {
    assertThat(BatchRules.fairOrder(OPEN, "bank")).containsExactly("b1", "b2", "c1", "a1", "a2", "a3");
    assertThat(BatchRules.fairOrder(List.of(), "acme")).isEmpty();
  }

  @Test
  @DisplayName("leasing in turn, one tenant's four jobs do not keep another tenant's one job waiting")
  void noStarvation() {
    List<BatchRules.Open> open = List.of(new BatchRules.Open("big1", "big"), new BatchRules.Open("big2", "big"),
        new BatchRules.Open("big3", "big"), new BatchRules.Open("big4", "big"), new BatchRules.Open("small", "small"));
    String first = BatchRules.fairOrder(open, null).get(0);
    assertThat(first).isEqualTo("big1");
    assertThat(BatchRules.fairOrder(open, "big").get(0)).isEqualTo("small");
  }
}
