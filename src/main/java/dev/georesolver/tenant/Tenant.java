package dev.georesolver.tenant;

import dev.georesolver.config.TenantConfig;

import java.util.Set;

/**
 * One tenant as requests are checked against it: its id, the intents it may ask for, whether it is
 * an admin, and the region its addresses must stay in. Immutable and thread-safe.
 *
 * @param id the tenant id (a fixed set from the manifest, safe as a metric label)
 * @param intents the intents it may ask for; null for every intent
 * @param admin whether it may use the admin endpoints and read other tenants' feeds
 * @param strictRegion the region its addresses must stay in, or null when its residency is {@code none}
 */
public record Tenant(String id, Set<String> intents, boolean admin, String strictRegion) {

  /** The id of every request when no tenants are configured. */
  public static final String PUBLIC_ID = "public";

  /**
   * The tenant of a request from this machine when no tenants are configured: every intent, admin,
   * no residency.
   */
  public static final Tenant PUBLIC = new Tenant(PUBLIC_ID, null, true, null);

  /**
   * The tenant of a request from elsewhere when no tenants are configured: every intent, no
   * residency, and no admin (with no admin key configured, the admin surface answers only on loopback).
   */
  public static final Tenant PUBLIC_REMOTE = new Tenant(PUBLIC_ID, null, false, null);

  public Tenant {
    intents = intents == null ? null : Set.copyOf(intents);
  }

  /** The tenant a manifest entry describes. */
  public static Tenant of(TenantConfig c) {
    return new Tenant(c.id(), c.intents(), c.admin(), c.strictRegion());
  }

  /** Whether it may ask for {@code intent}. */
  public boolean allows(String intent) {
    return intents == null || intents.contains(intent);
  }

  /** Whether its addresses must stay in one region. */
  public boolean strict() {
    return strictRegion != null;
  }
}
