package dev.georesolver.bus;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The role list of {@code --roles} and which role sets can serve. */
class RoleTest {

  @Test
  @DisplayName("a comma-separated list names roles; all names every role")
  void parses() {
    assertThat(Role.parse("ingress, chain")).containsExactlyInAnyOrder(Role.INGRESS, Role.CHAIN);
    assertThat(Role.parse("all")).isEqualTo(Role.ALL);
    assertThat(Role.parse("TIERS")).containsExactly(Role.TIERS);
  }

  @Test
  @DisplayName("an unknown role is refused naming it, escaped; an empty list is refused")
  void refusesUnknown() {
    assertThatThrownBy(() -> Role.parse("ingress,router")).hasMessageContaining("unknown role 'router'");
    assertThatThrownBy(() -> Role.parse("in\ngress")).hasMessageContaining("'in?gress'");
    assertThatThrownBy(() -> Role.parse(" , ")).hasMessageContaining("unknown role ''");
  }

  @Test
  @DisplayName("without a cluster only every role serves; on a cluster any non-empty set does")
  void whichSetsServe() {
    assertThat(Role.cannotServe(Role.ALL, false)).isEmpty();
    assertThat(Role.cannotServe(Set.of(Role.INGRESS), false)).get().asString()
        .contains("roles ingress without --cluster").contains("chain,tiers,state");
    assertThat(Role.cannotServe(Set.of(Role.INGRESS), true)).isEmpty();
    assertThat(Role.cannotServe(Set.of(Role.TIERS, Role.STATE), true)).isEmpty();
    assertThat(Role.cannotServe(Set.of(), true)).isPresent();
  }
}
