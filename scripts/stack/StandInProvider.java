import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Stand-in geocoding providers for scripts/stack.sh, answering georesolver's {@code generic}
 * contract: {@code GET /?q=…} gives {@code {"x": lon, "y": lat, "crs": "EPSG:4326", "confidence": 0.9}},
 * a point made up from the hash of {@code q} (the same {@code q}, the same point). JDK only: run it
 * from source, {@code java scripts/stack/StandInProvider.java --listen primary=18101 --listen secondary=18102}.
 *
 * <p>Each {@code --listen NAME=PORT} is one provider on 127.0.0.1:PORT with its own behaviour,
 * changed at run time through its control paths:
 * <ul>
 *   <li>{@code GET /_ctl/health} → {@code {"name", "mode", "status", "calls"}};
 *   <li>{@code GET /_ctl/mode?set=ok} answers again; {@code set=fail[&status=503]} answers every
 *       request with that status; {@code set=hang} never answers (the caller's timeout ends it).
 * </ul>
 */
public final class StandInProvider {

  private static final class Provider {
    final String name;
    volatile String mode = "ok";
    volatile int status = 503;
    final AtomicLong calls = new AtomicLong();

    Provider(String name) {
      this.name = name;
    }

    String health() {
      return String.format(Locale.ROOT, "{\"name\":\"%s\",\"mode\":\"%s\",\"status\":%d,\"calls\":%d}", name, mode, status, calls.get());
    }
  }

  public static void main(String[] args) throws IOException {
    Map<String, Integer> listen = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--listen") && i + 1 < args.length) {
        String[] nameAndPort = args[++i].split("=", 2);
        listen.put(nameAndPort[0], Integer.parseInt(nameAndPort[1]));
      } else {
        System.err.println("usage: java StandInProvider.java --listen NAME=PORT [--listen NAME=PORT ...]");
        System.exit(2);
      }
    }
    if (listen.isEmpty()) {
      System.err.println("usage: java StandInProvider.java --listen NAME=PORT [--listen NAME=PORT ...]");
      System.exit(2);
    }
    for (Map.Entry<String, Integer> e : listen.entrySet()) {
      Provider p = new Provider(e.getKey());
      HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", e.getValue()), 64);
      server.createContext("/", x -> handle(p, x));
      server.setExecutor(Executors.newCachedThreadPool());
      server.start();
      System.out.println("stand-in provider " + p.name + " listening on 127.0.0.1:" + e.getValue());
    }
  }

  private static void handle(Provider p, HttpExchange x) throws IOException {
    String path = x.getRequestURI().getPath();
    Map<String, String> q = query(x.getRequestURI().getRawQuery());
    if (path.equals("/_ctl/health")) {
      send(x, 200, p.health());
      return;
    }
    if (path.equals("/_ctl/mode")) {
      String set = q.getOrDefault("set", "");
      if (!set.equals("ok") && !set.equals("fail") && !set.equals("hang")) {
        send(x, 400, "{\"error\":\"set must be ok, fail or hang\"}");
        return;
      }
      if (q.containsKey("status")) {
        p.status = Integer.parseInt(q.get("status"));
      }
      p.mode = set;
      send(x, 200, p.health());
      return;
    }
    p.calls.incrementAndGet();
    switch (p.mode) {
      case "hang" -> {
        // Leave the exchange open: the caller's own timeout ends it.
      }
      case "fail" -> send(x, p.status, "{\"error\":\"stand-in " + p.name + " set to fail\"}");
      default -> {
        int h = q.getOrDefault("q", "").hashCode();
        double lon = -180.0 + 360.0 * ((h >>> 8) % 100_000) / 100_000.0;
        double lat = -60.0 + 130.0 * ((h & 0xffff) % 10_000) / 10_000.0;
        send(x, 200, String.format(Locale.ROOT, "{\"x\":%.6f,\"y\":%.6f,\"crs\":\"EPSG:4326\",\"confidence\":0.9}", lon, lat));
      }
    }
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> out = new LinkedHashMap<>();
    if (raw == null) {
      return out;
    }
    for (String pair : raw.split("&")) {
      String[] kv = pair.split("=", 2);
      out.put(URLDecoder.decode(kv[0], StandardCharsets.UTF_8), kv.length > 1 ? URLDecoder.decode(kv[1], StandardCharsets.UTF_8) : "");
    }
    return out;
  }

  private static void send(HttpExchange x, int status, String body) throws IOException {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    x.getResponseHeaders().set("content-type", "application/json");
    x.sendResponseHeaders(status, b.length);
    try (OutputStream out = x.getResponseBody()) {
      out.write(b);
    }
  }
}
