package dev.georesolver.sampling;

import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.Node;
import dev.georesolver.web.Problems;
import dev.georesolver.web.RouteModule;
import io.vertx.core.json.JsonObject;

/**
 * {@code GET /v1/shadow} (an admin's once tenants exist): the shadow figures per ordered pair of
 * rungs and intent, merged across every node sharing the state store — {@code {"pairs": [{"served",
 * "shadow", "intent", "samples", "distance_m": {"p50", "p90", "p99"}, "within_m": {"50", "250",
 * "1000", "5000"}, "found_disagreement", "latency_ratio", "window", …}], "samples", "window",
 * "node"}} ({@code shadow.ShadowView} defines each figure; {@code node} is the answering node's own
 * counts of samples offered, dropped, skipped and failed). 503 when the node's shadow verticle or
 * the store does not answer.
 */
public final class ShadowRoutes {

  /** The path mounted. */
  public static final String PATH = "/v1/shadow";

  private ShadowRoutes() {}

  /** The route as a module of the ingress. */
  public static final RouteModule MODULE = (router, m) -> router.get(PATH).handler(m.auth().admin()).handler(ctx ->
      m.bus().<JsonObject>request(Addresses.SHADOW_VIEW, "", Node.of(ctx.vertx()).to(Addresses.SHADOW_VIEW).setSendTimeout(10_000))
          .onSuccess(reply -> ctx.response().putHeader("content-type", "application/json").end(reply.body().toBuffer()))
          .onFailure(t -> Problems.status(ctx.response(), 503, "Service Unavailable",
              "the shadow figures are not available here: " + t.getMessage(), null)));
}
