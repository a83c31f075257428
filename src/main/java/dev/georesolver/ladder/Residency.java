package dev.georesolver.ladder;

import dev.georesolver.config.Manifest;
import dev.georesolver.config.RoutingConfig;
import dev.georesolver.config.TenantConfig;
import dev.georesolver.config.TierConfig;

import java.util.List;
import java.util.Objects;

/**
 * Where one tenant's addresses may be sent: the residency rule, written once. Every path that sends
 * a query to a tier (the chain's walk, the reconciler's retries, batch rows and the compatible
 * endpoints through the chain, and any later one such as shadow traffic) asks
 * {@link #of(Manifest, String)} of the manifest serving at the moment of the call — the reloaded
 * one, never the one the process started with — and sends only to tiers it {@link #allows}.
 *
 * <p>Three answers: {@link #ANYWHERE} (residency {@code none}, or open access with no
 * {@code tenants:} block); held to one region (residency {@code strict}: the tier's {@code region},
 * or {@code routing.region} for a local rung, must be the tenant's region; a {@code global} tier is
 * out of every region); {@link #NOWHERE} (tenants are configured and the id is not one of them, as
 * after a reload removed it): fail closed, no tier at all.
 *
 * <p>Pure and immutable; thread-safe.
 *
 * @param region the region the addresses must stay in; null when not held to one
 * @param nowhere whether no tier may be sent anything
 */
public record Residency(String region, boolean nowhere) {

  /** Any tier may be sent the address. */
  public static final Residency ANYWHERE = new Residency(null, false);
  /** No tier may be sent the address (an unknown tenant while tenants are configured). */
  public static final Residency NOWHERE = new Residency(null, true);

  public Residency {
    if (nowhere && region != null) {
      throw new IllegalArgumentException("nowhere has no region");
    }
  }

  /** Held to {@code region}; {@link #ANYWHERE} when it is null. */
  public static Residency heldTo(String region) {
    return region == null ? ANYWHERE : new Residency(region, false);
  }

  /**
   * The residency of {@code tenantId} under manifest {@code m}: {@link #ANYWHERE} with open access,
   * {@link #NOWHERE} for an id {@code m} does not configure, else its {@code residency}.
   */
  public static Residency of(Manifest m, String tenantId) {
    if (!m.tenantsConfigured()) {
      return ANYWHERE;
    }
    for (TenantConfig t : m.tenants()) {
      if (t.id().equals(tenantId)) {
        return heldTo(t.strictRegion());
      }
    }
    return NOWHERE;
  }

  /** Whether it is held to one region. */
  public boolean strict() {
    return region != null;
  }

  /** Whether {@code tier} may be sent the address: it runs in the region held to (see {@link RoutingConfig#regionOf}). */
  public boolean allows(TierConfig tier, RoutingConfig routing) {
    if (nowhere) {
      return false;
    }
    return region == null || region.equals(routing.regionOf(tier));
  }

  /** The tiers of {@code tiers} it allows, in order; unmodifiable. */
  public List<TierConfig> filter(List<TierConfig> tiers, RoutingConfig routing) {
    if (region == null && !nowhere) {
      return List.copyOf(tiers);
    }
    return tiers.stream().filter(t -> allows(t, routing)).toList();
  }

  /**
   * What a call made on behalf of both may do: the stricter of the two. Two different regions, or
   * either {@link #NOWHERE}, leave no tier (an address asked by two tenants held to different
   * regions cannot be sent anywhere on behalf of both).
   */
  public Residency and(Residency other) {
    if (nowhere || other.nowhere) {
      return NOWHERE;
    }
    if (region == null) {
      return other;
    }
    if (other.region == null || Objects.equals(region, other.region)) {
      return this;
    }
    return NOWHERE;
  }

  /** For log lines and problem details: {@code anywhere}, {@code nowhere} or {@code in region <r>}. */
  public String describe() {
    return nowhere ? "nowhere (tenant not configured)" : region == null ? "anywhere" : "in region " + region;
  }
}
