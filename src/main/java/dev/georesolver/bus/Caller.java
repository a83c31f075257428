package dev.georesolver.bus;

import io.vertx.core.MultiMap;
import io.vertx.core.eventbus.DeliveryOptions;

/**
 * Whom a request to the state store acts for, carried in {@link Addresses#TENANT_HEADER} and
 * {@link Addresses#ADMIN_HEADER}: one tenant, which sees only its own audit records, batches and
 * corrections; or all tenants (an admin the ingress authenticated as one, or the resolver's own
 * work across tenants: {@link #SYSTEM}). Every state handler reads it from the request
 * ({@link #of}) and answers only what {@link #mayRead} allows, so a request that names no caller,
 * or one tenant's caller asking for another's rows, is refused whatever its body says.
 *
 * <p>The headers are believed as sent: the bus is inside the trust boundary, and on a cluster
 * only nodes holding a certificate from the cluster's CA take part (mutual TLS). What this check
 * adds is that no request crosses tenants by omission: a sender must say whom it acts for, and the
 * store, not each sender, keeps one tenant's data from another's caller. Immutable.
 *
 * @param tenant the tenant acted for; null only for {@link #SYSTEM}
 * @param admin whether it acts for all tenants
 */
public record Caller(String tenant, boolean admin) {

  /** The resolver's own work across tenants (no HTTP caller behind it). */
  public static final Caller SYSTEM = new Caller(null, true);

  /** The longest tenant id a header may carry; a longer one names no caller. */
  static final int MAX_TENANT_CHARS = 128;

  /** One tenant's caller. */
  public static Caller tenant(String id) {
    return new Caller(id, false);
  }

  /**
   * The caller an authenticated request is for: {@code admin} only when the ingress admitted it as
   * an admin.
   */
  public static Caller of(String tenantId, boolean admin) {
    return new Caller(tenantId, admin);
  }

  /**
   * The caller a request's headers name, or null when they name none (no admin marker and no
   * tenant, or a tenant id that is empty or too long).
   */
  public static Caller of(MultiMap headers) {
    String t = headers.get(Addresses.TENANT_HEADER);
    boolean admin = "true".equals(headers.get(Addresses.ADMIN_HEADER));
    if (t != null && (t.isEmpty() || t.length() > MAX_TENANT_CHARS)) {
      t = null;
    }
    if (t == null && !admin) {
      return null;
    }
    return new Caller(t, admin);
  }

  /** Whether this caller may read or change the data of {@code tenantOfData}. */
  public boolean mayRead(String tenantOfData) {
    return admin || (tenant != null && tenant.equals(tenantOfData));
  }

  /** {@code options} with this caller's headers added. */
  public DeliveryOptions on(DeliveryOptions options) {
    if (tenant != null) {
      options.addHeader(Addresses.TENANT_HEADER, tenant);
    }
    if (admin) {
      options.addHeader(Addresses.ADMIN_HEADER, "true");
    }
    return options;
  }
}
