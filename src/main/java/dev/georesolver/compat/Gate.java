package dev.georesolver.compat;

import io.vertx.core.Future;

/**
 * Decides who may use the compatible endpoints: the one place tenant authentication and the
 * per-tenant rate limit plug in. The compatible handlers ask it before anything else and render its
 * verdict in their own dialect (Nominatim 401/403/429 error JSON, Google {@code REQUEST_DENIED} /
 * {@code OVER_QUERY_LIMIT}).
 *
 * <p>Implementations must be thread-safe (every ingress instance shares one), must compare keys in
 * constant time, and must never log a key.
 */
@FunctionalInterface
public interface Gate {

  /** The tenant of every request when no tenants are configured. */
  String PUBLIC_TENANT = "public";

  /** The verdict for one request's credentials (which may carry no key at all). */
  Future<GateVerdict> admit(Credentials credentials);

  /**
   * Whether an admitted tenant may ask with {@code intent} (known once the request is translated):
   * {@code admitted} itself, or a 403 {@link GateVerdict.Denied}. By default every intent.
   */
  default GateVerdict authorize(GateVerdict.Admitted admitted, String intent) {
    return admitted;
  }

  /** Open access: every request, with or without a key, is tenant {@value #PUBLIC_TENANT}. */
  static Gate open() {
    Future<GateVerdict> admitted = Future.succeededFuture(new GateVerdict.Admitted(PUBLIC_TENANT));
    return credentials -> admitted;
  }
}
