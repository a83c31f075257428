package dev.georesolver.web;

import dev.georesolver.config.Manifest;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;

/**
 * A group of HTTP routes that the ingress mounts on every router it builds (one per manifest
 * revision), behind the tenant guards it has already put in front of {@code /v1/*} and
 * {@code /admin/*}. A module knows only this interface and the pieces in {@link Mount}; it never
 * imports the ingress, so a new feature's routes are one class and one line where the modules are
 * listed. Implementations are stateless and thread-safe (several ingress instances mount the same one).
 */
@FunctionalInterface
public interface RouteModule {

  /** Mounts this module's routes; called once per router, on the ingress instance's context. */
  void mount(Router router, Mount mount);

  /**
   * Whether this module's route judges {@code req}'s body by its progress itself (a large upload):
   * the ingress then applies no {@code body_timeout_ms} deadline to it. Default false. Called on
   * the ingress's event loop; must not block.
   */
  default boolean pacesBody(HttpServerRequest req) {
    return false;
  }

  /**
   * What a module may use when it mounts.
   *
   * @param vertx the ingress instance's Vert.x
   * @param auth the guard of this revision's tenants: names a request's tenant, answers 401/403/429
   * @param manifest the revision the router is built for
   */
  record Mount(Vertx vertx, TenantAuth auth, Manifest manifest) {
    /** The event bus the routes talk to the rest of the resolver over. */
    public EventBus bus() {
      return vertx.eventBus();
    }
  }
}
