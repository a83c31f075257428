package dev.georesolver.audit;

import dev.georesolver.state.rules.AuditChain;
import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.Caller;
import dev.georesolver.bus.FieldProblem;
import dev.georesolver.config.TenantConfig;
import dev.georesolver.web.Problems;
import dev.georesolver.web.RouteModule;
import dev.georesolver.web.TenantAuth;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code GET /v1/audit?tenant=&from=&to=&after=&limit=}: one tenant's audit partition, oldest first,
 * mounted on the ingress router behind the tenant guard; it talks to the state verticle over the bus.
 *
 * <ul>
 *   <li>whose: the caller's own tenant ({@code public} without tenants); another's only with an
 *       admin key ({@code tenant=<id>}); a non-admin asking for another's gets 403;
 *   <li>{@code from} (inclusive) and {@code to} (exclusive): an ISO-8601 instant
 *       ({@code 2026-12-01T14:00:00Z}, an offset allowed) or epoch milliseconds ({@code 1764597600000});
 *   <li>{@code after}: the {@code next} of an earlier page (a sequence number); {@code limit} 1–1000,
 *       default 100;
 *   <li>answer: {@code {"records": [...], "next": "<cursor>"}}, or with
 *       {@code Accept: application/x-ndjson} one record a line, the cursor to continue from in the
 *       {@code X-Next-Cursor} header. An empty page keeps the cursor; a page narrowed by
 *       {@code from}/{@code to} may hold fewer than {@code limit} records while {@code next} moves on.
 * </ul>
 * Each record is the stored body plus {@code seq}, {@code prev_hash} and {@code hash}, so a reader can
 * check the chain itself ({@code state.rules.AuditChain}). Bad parameters are problem+json naming the field.
 */
public final class AuditRoutes {

  /** The path mounted. */
  public static final String PATH = "/v1/audit";
  /** The header that carries the next cursor of an NDJSON page. */
  public static final String NEXT_HEADER = "X-Next-Cursor";
  /** NDJSON's media type. */
  public static final String NDJSON = "application/x-ndjson";

  static final int DEFAULT_LIMIT = 100;

  private AuditRoutes() {}

  /** The route as a module of the ingress. */
  public static final RouteModule MODULE = (router, m) -> mount(router, m.bus(), m.auth());

  /** Mounts the route; {@code auth} (in front of {@code /v1/*}) names the caller's tenant. */
  static void mount(Router router, EventBus bus, TenantAuth auth) {
    router.get(PATH).handler(ctx -> {
      String tenant = auth.feedTenant(ctx, ctx.queryParams().get("tenant"));
      if (tenant != null) {
        read(ctx, bus, tenant);
      }
    });
  }

  /** The query, checked: every problem named by its field. */
  record Query(String tenant, String after, Long fromMs, Long toMs, int limit) {}

  static Query parse(String tenant, String after, String from, String to, String limit, List<FieldProblem> problems) {
    if (!TenantConfig.ID_PATTERN.matcher(tenant).matches()) {
      problems.add(new FieldProblem("tenant", "must be a tenant id (" + TenantConfig.ID_PATTERN.pattern() + ")"));
    }
    if (after != null && !after.isEmpty() && !after.matches("\\d{1,18}")) {
      problems.add(new FieldProblem("after", "must be a cursor from an earlier page (its \"next\")"));
    }
    Long f = time("from", from, problems);
    Long t = time("to", to, problems);
    if (f != null && t != null && f > t) {
      problems.add(new FieldProblem("to", "must not be before from"));
    }
    int n = DEFAULT_LIMIT;
    if (limit != null) {
      try {
        n = Integer.parseInt(limit);
      } catch (NumberFormatException e) {
        n = -1;
      }
      if (n < 1 || n > Addresses.MAX_PAGE) {
        problems.add(new FieldProblem("limit", "must be an integer in [1, " + Addresses.MAX_PAGE + "]"));
      }
    }
    return new Query(tenant, after == null || after.isEmpty() ? null : after, f, t, n);
  }

  /** An ISO-8601 instant or epoch milliseconds, or null when absent (or wrong, with the problem added). */
  static Long time(String field, String v, List<FieldProblem> problems) {
    if (v == null || v.isEmpty()) {
      return null;
    }
    if (v.matches("-?\\d{1,16}")) {
      return Long.parseLong(v);
    }
    try {
      return Instant.parse(v).toEpochMilli();
    } catch (DateTimeParseException notInstant) {
      try {
        return OffsetDateTime.parse(v).toInstant().toEpochMilli();
      } catch (DateTimeParseException e) {
        problems.add(new FieldProblem(field, "must be an ISO-8601 instant (2026-12-01T14:00:00Z) or epoch milliseconds"));
        return null;
      }
    }
  }

  private static void read(RoutingContext ctx, EventBus bus, String tenant) {
    var p = ctx.queryParams();
    List<FieldProblem> problems = new ArrayList<>();
    Query q = parse(tenant, p.get("after"), p.get("from"), p.get("to"), p.get("limit"), problems);
    if (!problems.isEmpty()) {
      Problems.badRequest(ctx.response(), problems, null);
      return;
    }
    JsonObject ask = new JsonObject().put("tenant", q.tenant()).put("after", q.after()).put("limit", q.limit());
    if (q.fromMs() != null) {
      ask.put("from_ms", q.fromMs());
    }
    if (q.toMs() != null) {
      ask.put("to_ms", q.toMs());
    }
    boolean ndjson = wantsNdjson(ctx.request().getHeader("Accept"));
    // The partition feedTenant let this caller read, and no other: the store checks it again.
    bus.<JsonObject>request(Addresses.STATE_AUDIT_PAGE, ask, Caller.tenant(q.tenant()).on(new DeliveryOptions().setSendTimeout(10_000)))
        .onSuccess(m -> answer(ctx.response(), m.body(), ndjson))
        .onFailure(t -> {
          if (!ctx.response().ended()) {
            Problems.status(ctx.response(), 503, "Store Unavailable", "the state store did not answer: " + t.getMessage(), null);
          }
        });
  }

  static boolean wantsNdjson(String accept) {
    return accept != null && accept.toLowerCase(java.util.Locale.ROOT).contains(NDJSON);
  }

  private static void answer(HttpServerResponse resp, JsonObject page, boolean ndjson) {
    if (resp.ended()) {
      return;
    }
    if (!ndjson) {
      resp.putHeader("content-type", "application/json").end(page.toBuffer());
      return;
    }
    JsonArray records = page.getJsonArray("records", new JsonArray());
    Buffer out = Buffer.buffer(records.size() * 512);
    for (int i = 0; i < records.size(); i++) {
      out.appendString(records.getJsonObject(i).encode()).appendByte((byte) '\n');
    }
    resp.putHeader("content-type", NDJSON).putHeader(NEXT_HEADER, page.getString("next", "0")).end(out);
  }
}
