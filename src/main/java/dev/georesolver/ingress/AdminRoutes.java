package dev.georesolver.ingress;

import dev.georesolver.bus.TierAction;
import dev.georesolver.config.MarginsConfig;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import dev.georesolver.web.TenantAuth;

/**
 * The operator's routes, mounted in one call:
 *
 * <ul>
 *   <li>{@code POST /admin/tiers/{name}/force-open}, {@code /force-closed}, {@code /release} —
 *       drills ({@link TierControlHandler});
 *   <li>{@code POST /admin/reload} — reload the manifest now ({@link ReloadHandler});
 *   <li>{@code GET /admin/events} — the live feed as Server-Sent Events ({@link EventStreamHandler});
 *   <li>{@code GET /dashboard} (redirected to {@code /dashboard/}) and its files
 *       ({@link DashboardHandler}) — the page holds no data; everything it shows comes from
 *       {@code /admin/events}.
 * </ul>
 *
 * Everything that acts or tells is under {@code /admin/}, so one handler routed on
 * {@code /admin/*} before this call guards it all. No guard is applied here.
 */
public final class AdminRoutes {

  private AdminRoutes() {}

  /**
   * Mounts the operator's routes on {@code router}.
   *
   * @param auth the revision's guard: the live feed is watched with it, and ends when a reload revokes its key
   * @param margins the manifest's margins: commands and the feed's first picture wait
   *     {@code status_timeout_ms} for their answer
   * @param maxBudgetMs the manifest's {@code max_budget_ms}: a reload's answer waits for the old
   *     revision's walks, which may take that long
   * @param dashboard the page's files, loaded beforehand
   * @param events the live feed's handler: one per ingress instance, whatever the revision (it
   *     counts the streams it serves)
   */
  public static void mount(Router router, EventBus bus, TenantAuth auth, MarginsConfig margins, long maxBudgetMs,
      DashboardHandler dashboard, EventStreamHandler events) {
    long timeout = margins.statusTimeoutMs();
    router.post("/admin/reload").handler(new ReloadHandler(bus, maxBudgetMs + ReloadHandler.DEPLOY_ALLOWANCE_MS));
    for (TierAction action : TierAction.values()) {
      router.post("/admin/tiers/:name/" + action.pathSegment()).handler(new TierControlHandler(bus, action, timeout));
    }
    router.get("/admin/events").handler(ctx -> events.serve(ctx, auth));
    router.route("/dashboard/*").method(HttpMethod.GET).method(HttpMethod.HEAD).handler(dashboard);
  }
}
