package dev.georesolver.reconcile;

import dev.georesolver.bus.Attempt;
import dev.georesolver.bus.Debt;
import dev.georesolver.bus.Hit;
import dev.georesolver.bus.Repair;
import dev.georesolver.bus.ResolveRequest;
import dev.georesolver.bus.ResolveResult;
import dev.georesolver.crs.TransformInfo;
import dev.georesolver.geo.Address;
import dev.georesolver.geo.Claim;
import dev.georesolver.geo.Direction;

import java.util.List;
import java.util.Map;

/** Requests, results, debts and repairs for the reconcile tests. */
public final class Samples {

  private Samples() {}

  public static ResolveRequest request(String q) {
    return new ResolveRequest(Direction.FORWARD, q, Map.of(), null, null, null, "describe", null, "trace-1");
  }

  /** A walked result served by {@code source} after {@code attempts}. */
  public static ResolveResult resolved(String source, Claim claim, boolean degraded, long resolvedAt, Attempt... attempts) {
    return ResolveResult.builder().status(ResolveResult.RESOLVED).lon(2.35).lat(48.85).resolutionSource(source).claim(claim)
        .confidence(0.6).degraded(degraded).intent("describe").idempotencyKey("k1").manifestRevision("rev")
        .attempts(List.of(attempts)).resolvedAtMs(resolvedAt).build();
  }

  public static ResolveResult refused(String reason, long resolvedAt, Attempt... attempts) {
    return ResolveResult.builder().status(ResolveResult.REFUSED).reason(reason).intent("describe").idempotencyKey("k1")
        .manifestRevision("rev").attempts(List.of(attempts)).resolvedAtMs(resolvedAt).build();
  }

  public static Attempt at(String tier, String outcome) {
    return new Attempt(tier, outcome, outcome.startsWith("skipped") ? 0 : 1, 3, null);
  }

  /** A debt of key {@code key} whose degraded answer was resolved at {@code resolvedAt}, queued at {@code acceptedAt}. */
  public static Debt debt(String key, long resolvedAt, long acceptedAt) {
    return new Debt(key, "describe", Direction.FORWARD, "public", request("addr " + key), "fallback", "resolved", null,
        "open_data", 2.35, 48.85, 0.6, resolvedAt, acceptedAt);
  }

  /** The primary's answer for a debt, at {@code at}. */
  public static Repair repair(long at, String addrKey) {
    Hit hit = new Hit(2.2945, 48.8584, 0.95, "Tour Eiffel", "rooftop", null, null, new TransformInfo("EPSG:4326", "", ""));
    return new Repair("primary", "exact", false, hit, "Matched to the address by primary, ", List.of(at("primary", "hit")), at,
        "rev2", 3_600_000, addrKey, 86_400);
  }

  /** The components of the primary's answer in {@link #repairWithAddress}. */
  public static final Address EIFFEL = Address.builder().put(Address.Component.ROAD, "Avenue Gustave Eiffel")
      .put(Address.Component.LOCALITY, "Paris").put(Address.Component.POSTCODE, "75007")
      .put(Address.Component.COUNTRY_CODE, "FR").build();

  /** {@link #repair} whose answer carries the components of where the point moved to ({@link #EIFFEL}). */
  public static Repair repairWithAddress(long at, String addrKey) {
    Repair r = repair(at, addrKey);
    return new Repair(r.tier(), r.claim(), r.degraded(), r.hit().withAddress(EIFFEL), r.notice(), r.attempts(), r.correctedAtMs(),
        r.manifestRevision(), r.ttlMs(), r.addrKey(), r.indexTtlS());
  }
}
