package dev.georesolver.compat;

import dev.georesolver.bus.RequestValidator;
import dev.georesolver.config.MarginsConfig;
import io.vertx.core.eventbus.EventBus;
import io.vertx.ext.web.Router;

import java.util.List;

/**
 * Mounts the compatible endpoints on a router: Nominatim's {@code /search}, {@code /reverse},
 * {@code /status} (and their old {@code .php} names) and Google's
 * {@code /maps/api/geocode/json}, each with a CORS preflight answer for {@code OPTIONS}.
 */
public final class CompatRoutes {

  /** The paths mounted. */
  public static final List<String> PATHS = List.of("/search", "/search.php", "/reverse", "/reverse.php",
      "/status", "/status.php", "/maps/api/geocode/json");

  /** What a browser may send in a cross-origin request to these paths. */
  static final String ALLOWED_HEADERS = "Authorization, X-Api-Key, Accept-Language, Request-Timeout, "
      + "X-Request-Id, traceparent, tracestate, Content-Type";

  private CompatRoutes() {}

  /** Mounts every compatible route; {@code gate} decides who may ask; {@code margins} the ingress grace. */
  public static void mount(Router router, EventBus bus, RequestValidator validator, Gate gate, MarginsConfig margins) {
    long grace = margins.ingressGraceMs();
    var search = CompatHandler.nominatimSearch(bus, validator, gate, grace);
    var reverse = CompatHandler.nominatimReverse(bus, validator, gate, grace);
    var status = new StatusHandler(bus, margins.healthTimeoutMs());
    router.get("/search").handler(search);
    router.get("/search.php").handler(search);
    router.get("/reverse").handler(reverse);
    router.get("/reverse.php").handler(reverse);
    router.get("/status").handler(status);
    router.get("/status.php").handler(status);
    router.get("/maps/api/geocode/json").handler(CompatHandler.google(bus, validator, gate, grace));
    for (String path : PATHS) {
      router.options(path).handler(ctx -> ctx.response()
          .setStatusCode(204)
          .putHeader("Access-Control-Allow-Origin", "*")
          .putHeader("Access-Control-Allow-Methods", "GET, OPTIONS")
          .putHeader("Access-Control-Allow-Headers", ALLOWED_HEADERS)
          .putHeader("Access-Control-Max-Age", "86400")
          .end());
    }
  }
}
