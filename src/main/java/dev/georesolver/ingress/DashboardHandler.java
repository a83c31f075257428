package dev.georesolver.ingress;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /dashboard/…}: the operator's page ({@code /dashboard} itself is redirected to
 * {@code /dashboard/}, so the page's relative links resolve under it), shipped in the jar under {@code dashboard/} and
 * served from memory. Only the files named in {@link #FILES} exist (anything else falls through to
 * the router's 404), so no path can reach another resource. Each answer carries a strong
 * {@code ETag} and {@code Cache-Control: no-cache} (a browser revalidates and gets 304 until the
 * jar changes), and a Content-Security-Policy that allows only this origin's own script, style,
 * images and event stream: the page has no inline script or style.
 *
 * <p>Not vertx-web's {@code StaticHandler}: it resolves its root against the working directory
 * before the classpath (a {@code dashboard/} directory where the resolver is started would be served
 * instead) and marks files {@code immutable}, which unversioned names are not. Immutable once
 * loaded; shareable between instances.
 */
public final class DashboardHandler implements Handler<RoutingContext> {

  /** The page's files, under {@code dashboard/} on the classpath; the first is the index. */
  static final List<String> FILES = List.of("index.html", "dashboard.css", "dashboard.js", "favicon.svg");

  /** The Content-Security-Policy of every answer. */
  static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
      + "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

  private record Asset(Buffer body, String contentType, String etag) {}

  private final Map<String, Asset> assets;

  private DashboardHandler(Map<String, Asset> assets) {
    this.assets = assets;
  }

  /** Reads the page's files from the classpath on a worker; fails when one is missing. */
  public static Future<DashboardHandler> load(Vertx vertx) {
    return vertx.executeBlocking(() -> {
      Map<String, Asset> assets = new LinkedHashMap<>();
      for (String name : FILES) {
        byte[] bytes = read("dashboard/" + name);
        assets.put(name, new Asset(Buffer.buffer(bytes), contentType(name), "\"" + hash(bytes) + "\""));
      }
      return new DashboardHandler(Map.copyOf(assets));
    }, false);
  }

  @Override
  public void handle(RoutingContext ctx) {
    String path = ctx.request().path();
    if (path.equals("/dashboard")) {
      ctx.response().setStatusCode(301).putHeader("location", "dashboard/").end();
      return;
    }
    String name = path.substring(path.lastIndexOf('/') + 1);
    Asset a = assets.get(name.isEmpty() ? FILES.get(0) : name);
    if (a == null || !path.equals("/dashboard/" + name)) {
      ctx.next();
      return;
    }
    HttpServerResponse resp = ctx.response()
        .putHeader("content-type", a.contentType())
        .putHeader("cache-control", "no-cache")
        .putHeader("etag", a.etag())
        .putHeader("content-security-policy", CSP)
        .putHeader("x-content-type-options", "nosniff")
        .putHeader("referrer-policy", "no-referrer");
    if (a.etag().equals(ctx.request().getHeader("if-none-match"))) {
      resp.setStatusCode(304).end();
    } else if (ctx.request().method() == HttpMethod.HEAD) {
      resp.putHeader("content-length", Integer.toString(a.body().length())).end();
    } else {
      resp.end(a.body());
    }
  }

  private static byte[] read(String resource) {
    try (InputStream in = DashboardHandler.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("the dashboard's " + resource + " is not on the classpath");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String contentType(String name) {
    String ext = name.substring(name.lastIndexOf('.') + 1);
    return switch (ext) {
      case "html" -> "text/html; charset=utf-8";
      case "css" -> "text/css; charset=utf-8";
      case "js" -> "text/javascript; charset=utf-8";
      case "svg" -> "image/svg+xml";
      default -> throw new IllegalArgumentException("no content type for " + name);
    };
  }

  private static String hash(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes), 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
