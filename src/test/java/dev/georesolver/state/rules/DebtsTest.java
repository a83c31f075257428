package dev.georesolver.state.rules;

import dev.georesolver.bus.Debt;
import dev.georesolver.bus.ResolveResult;
import dev.georesolver.geo.Claim;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static dev.georesolver.reconcile.Samples.at;
import static dev.georesolver.reconcile.Samples.refused;
import static dev.georesolver.reconcile.Samples.request;
import static dev.georesolver.reconcile.Samples.resolved;
import static org.assertj.core.api.Assertions.assertThat;

/** What is a debt: a degraded answer or a refusal caused by rungs that failed, never a "no match". */
class DebtsTest {

  @Test
  @DisplayName("a degraded answer is a debt when a rung above failed, with its served rung, claim, point and accepted_at")
  void degradedAfterFailureIsDebt() {
    ResolveResult r = resolved("fallback", Claim.OPEN_DATA, true, 1000, at("primary", "transient"), at("fallback", "hit"));
    Debt d = Debts.of(Debts.PUBLIC_TENANT, request("1 Main St"), r, 5000);
    assertThat(d).isNotNull();
    assertThat(d.servedRung()).isEqualTo("fallback");
    assertThat(d.claim()).isEqualTo("open_data");
    assertThat(d.lon()).isEqualTo(2.35);
    assertThat(d.answerResolvedAtMs()).isEqualTo(1000);
    assertThat(d.acceptedAtMs()).isEqualTo(5000);
    assertThat(d.request().traceId()).as("the trace id is not kept").isNull();
    assertThat(d.debtKey()).isEqualTo("k1|describe|forward");
  }

  @Test
  @DisplayName("skips for breaker open, admission, rate limit and deadline above the served rung are debts")
  void skipsAreDebts() {
    for (String outcome : new String[] {"skipped_breaker_open", "skipped_admission", "skipped_rate_limited", "deadline",
        "unavailable", "degradable", "quota", "credential"}) {
      ResolveResult r = resolved("fallback", Claim.OPEN_DATA, true, 1, at("primary", outcome), at("fallback", "hit"));
      assertThat(Debts.of(Debts.PUBLIC_TENANT, request("x"), r, 2)).as(outcome).isNotNull();
    }
  }

  @Test
  @DisplayName("a degraded answer whose rungs above only found nothing or rejected the input is no debt")
  void noMatchAboveIsNoDebt() {
    for (String outcome : new String[] {"no_match", "out_of_bbox", "rejected"}) {
      ResolveResult r = resolved("fallback", Claim.OPEN_DATA, true, 1, at("primary", outcome), at("fallback", "hit"));
      assertThat(Debts.of(Debts.PUBLIC_TENANT, request("x"), r, 2)).as(outcome).isNull();
    }
  }

  @Test
  @DisplayName("a failure below the served rung does not make a debt; one failure among no-matches above does")
  void onlyRungsAboveCount() {
    ResolveResult r = resolved("fallback", Claim.OPEN_DATA, true, 1, at("primary", "no_match"), at("fallback", "hit"));
    assertThat(Debts.of(Debts.PUBLIC_TENANT, request("x"), r, 2)).isNull();
    ResolveResult mixed = resolved("gazetteer", Claim.LOCALITY, true, 1, at("primary", "no_match"), at("osm", "transient"),
        at("gazetteer", "hit"));
    assertThat(Debts.of(Debts.PUBLIC_TENANT, request("x"), mixed, 2)).isNotNull();
  }

  @Test
  @DisplayName("an answer from the first rung is no debt")
  void undegradedIsNoDebt() {
    assertThat(Debts.of(Debts.PUBLIC_TENANT, request("x"), resolved("primary", Claim.EXACT, false, 1, at("primary", "hit")), 2)).isNull();
  }

  @Test
  @DisplayName("refusals are debts only when the rungs failed: budget_exhausted and no_rung_available")
  void refusals() {
    assertThat(Debts.of(Debts.PUBLIC_TENANT, request("x"), refused("budget_exhausted", 1, at("primary", "skipped_admission")), 2)).isNotNull();
    Debt d = Debts.of(Debts.PUBLIC_TENANT, request("x"), refused("no_rung_available", 1, at("primary", "transient")), 2);
    assertThat(d.servedRung()).as("every rung is above a refusal").isNull();
    assertThat(d.lon()).isNull();
    assertThat(Debts.of(Debts.PUBLIC_TENANT, request("x"), refused("not_found", 1, at("primary", "no_match")), 2)).isNull();
    assertThat(Debts.of(Debts.PUBLIC_TENANT, request("x"), refused("not_found_where_asked", 1, at("primary", "no_match"), at("osm", "transient")), 2))
        .isNull();
  }

  @Test
  @DisplayName("replays and coalesced deliveries are never debts: their walk was counted once")
  void replaysAreNotDebts() {
    ResolveResult r = resolved("fallback", Claim.OPEN_DATA, true, 1, at("primary", "transient"), at("fallback", "hit"));
    assertThat(Debts.of(Debts.PUBLIC_TENANT, request("x"), r.toBuilder().replayAgeS(3L).build(), 2)).isNull();
    assertThat(Debts.of(Debts.PUBLIC_TENANT, request("x"), r.toBuilder().coalesced(true).build(), 2)).isNull();
  }

  @Test
  @DisplayName("a debt reads back from its JSON as it was")
  void jsonRoundTrip() {
    ResolveResult r = resolved("fallback", Claim.OPEN_DATA, true, 1000, at("primary", "transient"), at("fallback", "hit"));
    Debt d = Debts.of(Debts.PUBLIC_TENANT, request("1 Main St"), r, 5000);
    assertThat(Debt.fromJson(d.toJson())).isEqualTo(d);
  }
}
