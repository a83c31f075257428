package dev.georesolver.sampling;

import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.Node;
import dev.georesolver.web.Problems;
import dev.georesolver.web.RouteModule;
import dev.georesolver.tenant.Tenant;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code GET /v1/shadow} (an admin's once tenants exist): the shadow figures per ordered pair of
 * rungs and intent, merged across every node sharing the state store — {@code {"pairs": [{"served",
 * "shadow", "intent", "samples", "distance_m": {"p50", "p90", "p99"}, "within_m": {"50", "250",
 * "1000", "5000"}, "found_disagreement", "latency_ratio", "window", …}], "samples", "window",
 * "node"}} ({@code shadow.ShadowView} defines each figure; {@code node} is the answering node's own
 * counts of samples offered, dropped, skipped and failed). 503 when the node's shadow verticle or
 * the store does not answer.
 *
 * <p>{@code GET /v1/shadow/worst[?tenant=id]}: the worst disagreements this node kept, address and
 * both answers included, of the tenants whose manifest entry allows it ({@code shadow_keep_worst}):
 * {@code {"tenants": {id: [{"tenant", "id", "intent", "at_ms", "query", "agreement", "distance_m",
 * "served": {...}, "shadow": {...}}]}, "node"}}. A tenant sees only its own (403 when it names
 * another); an admin sees every tenant's, or the one it names. Node-local: the cases are kept in the
 * memory of the node that sampled them.
 */
public final class ShadowRoutes {

  /** The path mounted. */
  public static final String PATH = "/v1/shadow";
  /** The path of the kept worst disagreements. */
  public static final String WORST_PATH = "/v1/shadow/worst";

  private ShadowRoutes() {}

  /** The route as a module of the ingress. */
  public static final RouteModule MODULE = (router, m) -> {
    router.get(PATH).handler(m.auth().admin()).handler(ctx -> ask(ctx, m, Addresses.SHADOW_VIEW, ""));
    router.get(WORST_PATH).handler(ctx -> {
      Tenant caller = m.auth().tenant(ctx);
      String asked = ctx.queryParams().get("tenant");
      JsonObject body = new JsonObject();
      if (asked != null || !caller.admin()) {
        String whose = m.auth().feedTenant(ctx, asked);
        if (whose == null) {
          return;
        }
        body.put("tenant", whose);
      }
      ask(ctx, m, Addresses.SHADOW_WORST, body);
    });
  };

  private static void ask(RoutingContext ctx, RouteModule.Mount m, String address, Object body) {
    m.bus().<JsonObject>request(address, body, Node.of(ctx.vertx()).to(address).setSendTimeout(10_000))
        .onSuccess(reply -> ctx.response().putHeader("content-type", "application/json").end(reply.body().toBuffer()))
        .onFailure(t -> Problems.status(ctx.response(), 503, "Service Unavailable",
            "the shadow figures are not available here: " + t.getMessage(), null));
  }
}
