package dev.georesolver.ingress;

import dev.georesolver.web.RequestFields;
import dev.georesolver.web.QueryString;
import dev.georesolver.web.Problems;
import dev.georesolver.bus.Addresses;
import io.vertx.core.Handler;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code POST /admin/reload[?git_sha=<hex>]}: asks the reloader ({@link Addresses#MANIFEST_RELOAD})
 * to read the manifest file now and answers what came of it. 200 with the reload status
 * ({@code {"ok", "serving_revision", "applied", "refused", "last_attempt": {…}}}) when the file was
 * applied or is the revision serving; 422 problem {@code reload_refused} with the same status under
 * {@code reload} when it was refused (invalid, or needing a restart): the old revision keeps
 * serving; 503 problem {@code reload_unavailable} when no reloader runs or it did not answer in
 * time. {@code git_sha} (7 to 40 lower-case hex digits) replaces {@code MANIFEST_GIT_SHA} in the
 * revision from this reload on. A request body, if any, is ignored.
 */
final class ReloadHandler implements Handler<RoutingContext> {

  /** Time allowed for deploying a reload's new tiers, on top of the old revision's drain, milliseconds. */
  static final long DEPLOY_ALLOWANCE_MS = 30_000;

  private final EventBus bus;
  private final long timeoutMs;

  /** @param timeoutMs how long the reloader's answer is waited for, milliseconds */
  ReloadHandler(EventBus bus, long timeoutMs) {
    this.bus = bus;
    this.timeoutMs = timeoutMs;
  }

  @Override
  public void handle(RoutingContext ctx) {
    RequestFields q = QueryString.parse(ctx.request().query());
    if (!q.problems().isEmpty()) {
      Problems.badRequest(ctx.response(), q.problems(), null);
      return;
    }
    JsonObject ask = new JsonObject().put("trigger", "http");
    Object sha = q.fields().getValue("git_sha");
    if (sha != null) {
      ask.put("git_sha", sha);
    }
    bus.<JsonObject>request(Addresses.MANIFEST_RELOAD, ask, new DeliveryOptions().setSendTimeout(timeoutMs).setLocalOnly(true))
        .map(Message::body)
        .onSuccess(status -> answer(ctx, status))
        .onFailure(t -> Problems.reloadUnavailable(ctx.response(), t instanceof ReplyException re && re.failureType() == ReplyFailure.NO_HANDLERS
            ? "no reloader runs in this process" : "the reloader did not answer in time"));
  }

  private static void answer(RoutingContext ctx, JsonObject status) {
    if (status.getBoolean("ok", false)) {
      ctx.response().putHeader("content-type", "application/json").end(status.toBuffer());
    } else {
      Problems.reloadRefused(ctx.response(), status);
    }
  }
}
