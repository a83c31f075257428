package dev.georesolver.state.rules;

import dev.georesolver.bus.Attempt;
import dev.georesolver.bus.Debt;
import dev.georesolver.bus.ResolveRequest;
import dev.georesolver.bus.ResolveResult;

import java.util.List;
import java.util.Set;

/**
 * What is a debt. Pure and thread-safe.
 *
 * <p>A walked answer is a debt when a rung above the one that served it failed or was skipped —
 * breaker open, admission, rate limit, deadline, transport, 5xx, quota, credential, anything but
 * "found nothing" — so a better answer may exist once it recovers:
 * <ul>
 *   <li>a degraded answer (served below the first eligible rung) with such a rung above it;
 *   <li>a refusal whose reason is that rungs failed ({@code budget_exhausted},
 *       {@code no_rung_available}); every rung of its ladder is above it.
 * </ul>
 * Never when the rungs above only answered "no match" or rejected the input: the answer stands.
 * A replayed or coalesced delivery of a degraded answer to another tenant is a debt of that tenant's
 * ({@link #ofDelivery}): every tenant that received the answer is owed the correction.
 */
public final class Debts {

  /** Refusal reasons that mean "the rungs failed", not "nothing is there". */
  public static final Set<String> OWED_REFUSALS = Set.of("budget_exhausted", "no_rung_available");

  /** The tenant of every request while tenants are not configured. */
  public static final String PUBLIC_TENANT = "public";

  private Debts() {}

  /**
   * The debt a walked result leaves, or null.
   *
   * @param tenant the tenant the request was made for: the reconciler walks for it, under its residency
   * @param req the request as validated (its trace id is dropped)
   * @param r the walk's result
   * @param acceptedAtMs when it is queued (epoch millis)
   */
  public static Debt of(String tenant, ResolveRequest req, ResolveResult r, long acceptedAtMs) {
    if (r.replayAgeS() != null || r.coalesced() || r.idempotencyKey() == null || r.intent() == null) {
      return null;
    }
    List<Attempt> above;
    String served = null;
    if (r.resolved()) {
      if (!r.degraded()) {
        return null;
      }
      served = r.resolutionSource();
      above = above(r.attempts(), served);
    } else {
      if (!OWED_REFUSALS.contains(r.reason())) {
        return null;
      }
      above = r.attempts();
    }
    if (above.stream().noneMatch(a -> owed(a.outcome()))) {
      return null;
    }
    ResolveRequest kept = new ResolveRequest(req.direction(), req.text(), req.components(), req.bbox(), req.lat(), req.lon(),
        r.intent(), req.language(), null);
    return new Debt(r.idempotencyKey(), r.intent(), r.direction(), tenant, kept, served, r.status(), r.reason(),
        r.claim() == null ? null : r.claim().wire(), r.lon(), r.lat(), r.confidence(), r.resolvedAtMs(), acceptedAtMs);
  }

  /**
   * The debt a replayed or coalesced delivery leaves its tenant: that of the stored answer's walk,
   * owed to this tenant (for the tenant that walked it, the same debt again: a duplicate the queue
   * drops), or null.
   *
   * @param stored the delivered answer's stored form, with the delivery's intent
   */
  public static Debt ofDelivery(String tenant, ResolveRequest req, ResolveResult stored, long acceptedAtMs) {
    return stored.degraded() ? of(tenant, req, stored, acceptedAtMs) : null;
  }

  /** The attempts before the one at {@code served}. */
  private static List<Attempt> above(List<Attempt> attempts, String served) {
    for (int i = 0; i < attempts.size(); i++) {
      if (attempts.get(i).tier().equals(served)) {
        return attempts.subList(0, i);
      }
    }
    return List.of();
  }

  /** Whether a rung with this outcome may answer better later: it neither answered nor found nothing. */
  public static boolean owed(String outcome) {
    return !foundNothing(outcome) && !outcome.equals("hit") && !outcome.equals("skipped_unsupported");
  }

  /** Whether the rung answered and found nothing (no match, nothing inside the bbox, input rejected). */
  public static boolean foundNothing(String outcome) {
    return outcome.equals("no_match") || outcome.equals("out_of_bbox") || outcome.equals("rejected");
  }
}
