package dev.georesolver.bench;

import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * A fast stand-in geocoding provider answering the {@code generic} adapter's contract
 * ({@code GET {endpoint}?q=…} → {@code {"x":lon,"y":lat,"crs":"EPSG:4326","confidence":0.9}}).
 *
 * <p>Every path outside {@code /_ctl/} is a <em>lane</em> named by its first segment
 * ({@code /fast?q=…} is lane {@code fast}); each lane counts its calls and can be told to answer
 * late or never:
 * <ul>
 *   <li>{@code GET /_ctl/lane?name=L&hang=true|false&delay_ms=N} sets lane L's behaviour; a hung
 *       lane never answers (the caller's own timeout ends the exchange);
 *   <li>{@code GET /_ctl/count[?lane=L]} → {@code {"calls":n}} for L, or every lane's count;
 *   <li>{@code GET /_ctl/reset} zeroes the counters.
 * </ul>
 * Answers are chosen by a hash of {@code q} from 1,024 pre-encoded bodies (40-odd bytes), so the
 * provider spends its time on HTTP, not on making up coordinates.
 *
 * <p>{@code java -jar target/georesolver-bench.jar provider --port 18091 [--instances N]}
 */
public final class StandInProvider extends VerticleBase {

  /** A lane's behaviour. */
  record Lane(boolean hang, long delayMs) {
    static final Lane NORMAL = new Lane(false, 0);
  }

  private static final int BODY_COUNT = 1024;
  private static final Buffer[] BODIES = new Buffer[BODY_COUNT];
  private static final Map<String, LongAdder> CALLS = new ConcurrentHashMap<>();
  private static final Map<String, Lane> LANES = new ConcurrentHashMap<>();

  static {
    for (int i = 0; i < BODY_COUNT; i++) {
      double lon = -179.0 + 358.0 * i / BODY_COUNT;
      double lat = -60.0 + 130.0 * ((i * 37) % BODY_COUNT) / BODY_COUNT;
      String json = String.format(Locale.ROOT, "{\"x\":%.7f,\"y\":%.7f,\"crs\":\"EPSG:4326\",\"confidence\":0.9}", lon, lat);
      BODIES[i] = Buffer.buffer(json.getBytes(StandardCharsets.UTF_8));
    }
  }

  private final int port;

  StandInProvider(int port) {
    this.port = port;
  }

  public static void main(String[] args) {
    Flags f = Flags.parse(args);
    int port = f.integer("port", 18091);
    int instances = f.integer("instances", Runtime.getRuntime().availableProcessors());
    Vertx vertx = Vertx.vertx();
    vertx.deployVerticle(() -> new StandInProvider(port), new DeploymentOptions().setInstances(instances))
        .onSuccess(id -> System.out.println("stand-in provider listening on " + port + " (" + instances + " instance(s))"))
        .onFailure(t -> {
          t.printStackTrace();
          System.exit(1);
        });
  }

  @Override
  public Future<?> start() {
    return vertx.createHttpServer(new HttpServerOptions().setTcpNoDelay(true))
        .requestHandler(this::handle)
        .listen(port);
  }

  private void handle(HttpServerRequest req) {
    String path = req.path();
    if (path.startsWith("/_ctl/")) {
      control(req, path);
      return;
    }
    String lane = lane(path);
    CALLS.computeIfAbsent(lane, k -> new LongAdder()).increment();
    Lane l = LANES.getOrDefault(lane, Lane.NORMAL);
    if (l.hang()) {
      return;
    }
    String q = req.getParam("q");
    Buffer body = BODIES[(q == null ? 0 : q.hashCode()) & (BODY_COUNT - 1)];
    if (l.delayMs() > 0) {
      vertx.setTimer(l.delayMs(), id -> answer(req, body));
    } else {
      answer(req, body);
    }
  }

  private static void answer(HttpServerRequest req, Buffer body) {
    req.response().putHeader("content-type", "application/json").end(body);
  }

  private static String lane(String path) {
    int end = path.indexOf('/', 1);
    return end < 0 ? path.substring(1) : path.substring(1, end);
  }

  private void control(HttpServerRequest req, String path) {
    JsonObject out;
    switch (path) {
      case "/_ctl/lane" -> {
        String name = req.getParam("name");
        if (name == null) {
          req.response().setStatusCode(400).end("name is required");
          return;
        }
        Lane l = new Lane(Boolean.parseBoolean(req.getParam("hang", "false")), Long.parseLong(req.getParam("delay_ms", "0")));
        LANES.put(name, l);
        out = new JsonObject().put("lane", name).put("hang", l.hang()).put("delay_ms", l.delayMs());
      }
      case "/_ctl/count" -> {
        String name = req.getParam("lane");
        if (name != null) {
          LongAdder a = CALLS.get(name);
          out = new JsonObject().put("lane", name).put("calls", a == null ? 0 : a.sum());
        } else {
          Map<String, Object> all = new TreeMap<>();
          CALLS.forEach((k, v) -> all.put(k, v.sum()));
          out = new JsonObject().put("calls", new JsonObject(all));
        }
      }
      case "/_ctl/reset" -> {
        CALLS.clear();
        out = new JsonObject().put("reset", true);
      }
      default -> {
        req.response().setStatusCode(404).end();
        return;
      }
    }
    req.response().putHeader("content-type", "application/json").end(out.toBuffer());
  }
}
