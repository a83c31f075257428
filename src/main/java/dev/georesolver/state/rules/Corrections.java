package dev.georesolver.state.rules;

import dev.georesolver.bus.Correction;
import dev.georesolver.bus.Debt;
import dev.georesolver.bus.IndexEntry;
import dev.georesolver.bus.Repair;
import dev.georesolver.bus.ResolveResult;
import dev.georesolver.bus.StoredAnswer;
import dev.georesolver.geo.Claim;
import dev.georesolver.geo.GreatCircle;
import dev.georesolver.normalize.IdempotencyKey;

import java.util.Locale;

/**
 * The outbox rules, the same for both stores. Pure and thread-safe.
 *
 * <ul>
 *   <li><b>Identity</b>: a correction is identified by key, intent, direction and the degraded
 *       answer's {@code resolved_at}, so no key is ever corrected twice for the same answer (the
 *       stores refuse a second record with the same id);
 *   <li><b>Newer wins</b>: a correction computed from an answer resolved at T1 never replaces a
 *       stored answer resolved after T1 ({@link #replaces});
 *   <li><b>Write-through</b>: the cached index takes the corrected point only from exact and
 *       open-data rungs, as for a fresh answer ({@link #indexEntry});
 *   <li>the corrected answer is what the same request replays afterwards ({@link #answer}), with
 *       the address components of the rung that corrected it (a point that moved carries the
 *       components of where it moved to, never the degraded answer's).
 * </ul>
 */
public final class Corrections {

  private Corrections() {}

  /** The correction's id: the first 32 hex digits of sha256(key | intent | direction | degraded resolved_at). */
  public static String id(Debt d) {
    return IdempotencyKey.sha256Hex(d.debtKey() + "|" + d.answerResolvedAtMs()).substring(0, 32);
  }

  /**
   * Whether a correction of the answer resolved at {@code degradedResolvedAtMs} may replace the
   * stored answer resolved at {@code storedResolvedAtMs} (null: nothing stored): only if the stored
   * one is not newer.
   */
  public static boolean replaces(Long storedResolvedAtMs, long degradedResolvedAtMs) {
    return storedResolvedAtMs == null || storedResolvedAtMs <= degradedResolvedAtMs;
  }

  /** The corrected result, as the same request replays it afterwards. */
  public static ResolveResult answer(Debt d, Repair r) {
    return ResolveResult.builder()
        .status(ResolveResult.RESOLVED)
        .direction(d.direction())
        .lon(r.hit().lon())
        .lat(r.hit().lat())
        .label(r.hit().label())
        .precision(r.hit().precision())
        .distanceM(r.hit().distanceM())
        .address(r.hit().address())
        .resolutionSource(r.tier())
        .claim(Claim.fromWire(r.claim()).orElse(null))
        .confidence(r.hit().confidence())
        .degraded(r.degraded())
        .notice(r.notice())
        .intent(d.intent())
        .idempotencyKey(d.idempotencyKey())
        .manifestRevision(r.manifestRevision())
        .attempts(r.attempts())
        .transform(r.hit().transform())
        .observedAtMs(r.hit().observedAtMs())
        .resolvedAtMs(r.correctedAtMs())
        .build();
  }

  /**
   * The id of a drift correction of the stored answer {@code basis} describes: the first 32 hex
   * digits of sha256(the debt key | its resolved_at | drift), so however many
   * samples or nodes find the same stored answer moved, it is corrected once, and never under a
   * degraded answer's correction id.
   */
  public static String driftId(Debt basis) {
    return IdempotencyKey.sha256Hex(basis.debtKey() + "|" + basis.answerResolvedAtMs() + "|" + Correction.DRIFT).substring(0, 32);
  }

  /** The outbox record for debt {@code d} repaired by {@code r} (no cursor yet). */
  public static Correction build(Debt d, Repair r) {
    return build(d, r, id(d), Correction.DEGRADED);
  }

  /**
   * The outbox record of drift: the stored answer {@code basis} describes (its point, rung and
   * time, as a debt would) now placed at {@code fresh} by the rung that produced it (no cursor yet).
   * The corrected answer replaces the stored one under the newer-wins rule, as any correction does.
   */
  public static Correction drift(Debt basis, Repair fresh) {
    return build(basis, fresh, driftId(basis), Correction.DRIFT);
  }

  private static Correction build(Debt d, Repair r, String id, String reason) {
    Correction.Place before = new Correction.Place(d.lon(), d.lat(), d.claim(), d.servedRung(), d.confidence(),
        d.answerResolvedAtMs());
    Correction.Place after = new Correction.Place(r.hit().lon(), r.hit().lat(), r.claim(), r.tier(), r.hit().confidence(),
        r.correctedAtMs(), r.hit().address());
    Double moved = d.lon() == null || d.lat() == null ? null
        : Math.round(GreatCircle.metres(d.lat(), d.lon(), r.hit().lat(), r.hit().lon()) * 10) / 10.0;
    return new Correction(id, null, d.idempotencyKey(), d.intent(), d.direction(), d.tenant(), before, after, moved, reason,
        r.correctedAtMs(), r.manifestRevision(), r.addrKey(), StoredAnswer.of(answer(d, r)));
  }

  /** The cached-index entry the correction writes through, or null (no key, or a claim that is not indexed). */
  public static IndexEntry indexEntry(Repair r) {
    String claim = r.claim().toLowerCase(Locale.ROOT);
    if (r.addrKey() == null || !(claim.equals(Claim.EXACT.wire()) || claim.equals(Claim.OPEN_DATA.wire()))) {
      return null;
    }
    return new IndexEntry(r.addrKey(), r.hit().lon(), r.hit().lat(), r.tier(), r.claim(), r.hit().confidence(),
        r.hit().label(), r.hit().precision(), r.correctedAtMs(), null);
  }
}
