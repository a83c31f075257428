package dev.georesolver.bus;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Which messages stay on a node and which may cross a clustered bus, and how a node applies it. */
class AddressReachTest {

  @Test
  @DisplayName("a dedupe claim and its completion, the index and the operator's feed never leave the node")
  void nodeLocalAddresses() {
    for (String a : new String[] {Addresses.DEDUPE_CLAIM, Addresses.DEDUPE_COMPLETE, Addresses.DEDUPE_STATUS,
        Addresses.INDEX_LOOKUP, Addresses.INDEX_WRITE, Addresses.INDEX_STATUS, Addresses.OPS_EVENTS, Addresses.OPS_STATE,
        Addresses.CORRECTIONS_COMMITTED, Addresses.STATE_CACHE_WRITE, Addresses.STATE_CACHE_LOAD}) {
      assertThat(Addresses.reach(a)).as(a).isEqualTo(Addresses.Reach.NODE);
    }
  }

  @Test
  @DisplayName("resolution goes to a chain, tier visits to a tier node, the store to a state node; events to everyone")
  void servedAddresses() {
    assertThat(Addresses.reach(Addresses.RESOLVE)).isEqualTo(Addresses.Reach.CHAIN);
    assertThat(Addresses.reach(Addresses.REVERSE)).isEqualTo(Addresses.Reach.CHAIN);
    assertThat(Addresses.reach(Addresses.HEALTH)).isEqualTo(Addresses.Reach.CHAIN);
    assertThat(Addresses.reach(Addresses.tier("primary"))).isEqualTo(Addresses.Reach.TIERS);
    assertThat(Addresses.reach(Addresses.tierStatus("primary"))).isEqualTo(Addresses.Reach.TIERS);
    assertThat(Addresses.reach(Addresses.tierControl("primary"))).isEqualTo(Addresses.Reach.TIERS);
    assertThat(Addresses.reach(Addresses.STATE_DEBTS_ENQUEUE)).isEqualTo(Addresses.Reach.STATE);
    assertThat(Addresses.reach(Addresses.STATE_CORRECTIONS_PAGE)).isEqualTo(Addresses.Reach.STATE);
    assertThat(Addresses.reach(Addresses.RECONCILE_STATUS)).isEqualTo(Addresses.Reach.STATE);
    for (String a : new String[] {Addresses.BREAKER_EVENTS, Addresses.TIER_STATS, Addresses.CORRECTIONS, Addresses.RECONCILE_EVENTS}) {
      assertThat(Addresses.reach(a)).as(a).isEqualTo(Addresses.Reach.CLUSTER);
    }
  }

  @Test
  @DisplayName("a node keeps a message when the address is node-local or served by a role it runs, else lets the cluster route it")
  void nodeKeepsWhatItServes() {
    Node ingressOnly = new Node(true, "n1", Set.of(Role.INGRESS));
    Node chainAndTiers = new Node(true, "n2", Set.of(Role.CHAIN, Role.TIERS));

    assertThat(ingressOnly.keepsLocal(Addresses.RESOLVE)).isFalse();
    assertThat(ingressOnly.to(Addresses.RESOLVE).isLocalOnly()).isFalse();
    assertThat(ingressOnly.keepsLocal(Addresses.OPS_STATE)).isTrue();

    assertThat(chainAndTiers.to(Addresses.RESOLVE).isLocalOnly()).isTrue();
    assertThat(chainAndTiers.to(Addresses.tier("primary")).isLocalOnly()).isTrue();
    assertThat(chainAndTiers.to(Addresses.DEDUPE_CLAIM).isLocalOnly()).isTrue();
    assertThat(chainAndTiers.to(Addresses.STATE_DEBTS_ENQUEUE).isLocalOnly()).as("debts go to a state node").isFalse();
    assertThat(chainAndTiers.to(Addresses.BREAKER_EVENTS).isLocalOnly()).isFalse();
  }
}
