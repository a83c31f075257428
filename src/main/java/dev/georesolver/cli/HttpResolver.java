package dev.georesolver.cli;

import dev.georesolver.geo.Direction;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A running resolver at {@code --server URL}, asked over HTTP: {@code POST /v1/geocode} with the
 * request JSON, {@code GET /v1/reverse?lat=…&lon=…}. The key, when given, goes as
 * {@code Authorization: Bearer}; it is never printed.
 *
 * <p>Answers that may succeed later (the server unreachable, 429 — after its Retry-After —, 502,
 * 503, 504, no answer in time) are retried up to {@code retries} times with jittered exponential
 * backoff from 500 ms (at most 30 s a wait); the last one fails {@link Unanswered.Kind#TRANSIENT}.
 */
final class HttpResolver implements Resolver {

  /** Time allowed past the budget (or past 10 s, the default cap, when the request names none). */
  private static final long SLACK_MS = 5_000;
  private static final long DEFAULT_BUDGET_MS = 10_000;
  private static final long MAX_WAIT_MS = 30_000;
  private static final int MAX_ERROR_CHARS = 300;

  private final Vertx vertx;
  private final WebClient client;
  private final String base;
  private final String key;
  private final int retries;

  private HttpResolver(Vertx vertx, WebClient client, String base, String key, int retries) {
    this.vertx = vertx;
    this.client = client;
    this.base = base;
    this.key = key;
    this.retries = retries;
  }

  /**
   * A client for {@code url}.
   *
   * @param key the API key, or null
   * @param connections connections kept to the server (the batch's concurrency)
   * @param retries retries of an answer that may succeed later
   * @throws CliException when the URL is not an http(s) URL
   */
  static HttpResolver open(String url, String key, int connections, int retries) throws CliException {
    String base = baseUrl(url);
    Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setAddressResolverOptions(ServeCommand.dnsOptions()));
    WebClient client = WebClient.create(vertx, new WebClientOptions().setConnectTimeout(5_000)
        .setUserAgent("georesolver-cli").setDecompressionSupported(true), new PoolOptions().setHttp1MaxSize(Math.max(1, connections)));
    return new HttpResolver(vertx, client, base, key == null || key.isBlank() ? null : key, retries);
  }

  /** {@code url} without a trailing slash, checked to be http(s) with a host. */
  static String baseUrl(String url) throws CliException {
    try {
      URI u = new URI(url.strip());
      String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
      if (!scheme.equals("http") && !scheme.equals("https") || u.getHost() == null || u.getRawQuery() != null
          || u.getRawUserInfo() != null) {
        throw new URISyntaxException(url, "not an http(s) URL with a host and no query or user info");
      }
      String s = u.toString();
      return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    } catch (URISyntaxException e) {
      throw new CliException(Exit.USAGE, "--server must be a URL such as http://localhost:8080, got " + Terminal.safe(url, 80));
    }
  }

  /** Whether the key would travel in clear text to another machine. */
  boolean keyInClearText() {
    if (key == null || !base.startsWith("http:")) {
      return false;
    }
    String host = URI.create(base).getHost();
    return !(host.equals("localhost") || host.startsWith("127.") || host.equals("[::1]"));
  }

  @Override
  public Future<JsonObject> resolve(Direction direction, JsonObject request, boolean batch) {
    return attempt(direction, request, 0);
  }

  private Future<JsonObject> attempt(Direction direction, JsonObject request, int n) {
    return send(direction, request).recover(t -> {
      Unanswered u = t instanceof Unanswered a ? a : transport(t);
      if (u.kind() != Unanswered.Kind.TRANSIENT || n >= retries) {
        return Future.failedFuture(u);
      }
      long backoff = Math.min(MAX_WAIT_MS, (500L << Math.min(n, 10)) / 2 + ThreadLocalRandom.current().nextLong(500L << Math.min(n, 10)) / 2);
      long wait = u.retryAfterMs() >= 0 ? Math.min(MAX_WAIT_MS, u.retryAfterMs()) : backoff;
      Promise<Void> p = Promise.promise();
      vertx.setTimer(Math.max(1, wait), id -> p.complete());
      return p.future().compose(v -> attempt(direction, request, n + 1));
    });
  }

  private Future<JsonObject> send(Direction direction, JsonObject request) {
    long timeout = (request.getValue("budget_ms") instanceof Number b ? b.longValue() : DEFAULT_BUDGET_MS) + SLACK_MS;
    HttpRequest<Buffer> req;
    Future<HttpResponse<Buffer>> sent;
    if (direction == Direction.FORWARD) {
      req = authorised(client.postAbs(base + "/v1/geocode")).timeout(timeout);
      sent = req.sendJsonObject(request);
    } else {
      req = authorised(client.getAbs(base + "/v1/reverse")).timeout(timeout);
      request.forEach(e -> req.addQueryParam(e.getKey(), String.valueOf(e.getValue())));
      sent = req.send();
    }
    return sent.compose(this::answer);
  }

  private HttpRequest<Buffer> authorised(HttpRequest<Buffer> req) {
    return key == null ? req : req.bearerTokenAuthentication(key);
  }

  /** The result JSON of a 200, or the failure its status means. */
  private Future<JsonObject> answer(HttpResponse<Buffer> r) {
    int s = r.statusCode();
    if (s == 200) {
      try {
        return Future.succeededFuture(r.bodyAsJsonObject());
      } catch (DecodeException | ClassCastException e) {
        return Future.failedFuture(new Unanswered(Unanswered.Kind.FAILED, base + " answered 200 with a body that is not a result"));
      }
    }
    String detail = detail(r);
    Unanswered u = switch (s) {
      case 400, 413, 422 -> r.bodyAsString() != null && isProblem(r) ? Unanswered.invalid(r.bodyAsString())
          : new Unanswered(Unanswered.Kind.INVALID, "HTTP " + s + detail);
      case 401, 403 -> new Unanswered(Unanswered.Kind.DENIED, base + " refused the key (HTTP " + s + ")" + detail);
      case 404, 405 -> new Unanswered(Unanswered.Kind.UNAVAILABLE, base + " answered HTTP " + s + " for the /v1 API: is it a georesolver?");
      case 429 -> new Unanswered(Unanswered.Kind.TRANSIENT, base + " is rate limiting (HTTP 429)" + detail, null, retryAfterMs(r));
      case 502, 503, 504 -> misconfigured(r)
          ? new Unanswered(Unanswered.Kind.UNAVAILABLE, "misconfigured" + detail)
          : new Unanswered(Unanswered.Kind.TRANSIENT, base + " answered HTTP " + s + detail, null, retryAfterMs(r));
      default -> new Unanswered(Unanswered.Kind.FAILED, base + " answered HTTP " + s + detail);
    };
    return Future.failedFuture(u);
  }

  private static boolean isProblem(HttpResponse<Buffer> r) {
    String ct = r.getHeader("content-type");
    return ct != null && ct.toLowerCase(Locale.ROOT).contains("json");
  }

  private static boolean misconfigured(HttpResponse<Buffer> r) {
    try {
      JsonObject p = r.bodyAsJsonObject();
      return p != null && String.valueOf(p.getValue("type")).endsWith("/misconfigured");
    } catch (DecodeException | ClassCastException e) {
      return false;
    }
  }

  /** ": <the problem's detail>", bounded and made safe to print; "" when there is none. */
  private static String detail(HttpResponse<Buffer> r) {
    try {
      JsonObject p = r.bodyAsJsonObject();
      Object d = p == null ? null : p.getValue("detail");
      return d == null ? "" : ": " + Terminal.safe(String.valueOf(d), MAX_ERROR_CHARS);
    } catch (DecodeException | ClassCastException e) {
      return "";
    }
  }

  private static long retryAfterMs(HttpResponse<Buffer> r) {
    String h = r.getHeader("Retry-After");
    if (h == null) {
      return -1;
    }
    try {
      return Math.max(0, Long.parseLong(h.strip())) * 1000;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private Unanswered transport(Throwable t) {
    String what = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    return new Unanswered(Unanswered.Kind.TRANSIENT, "cannot reach " + base + ": " + Terminal.safe(what, MAX_ERROR_CHARS));
  }

  @Override
  public String describe() {
    return base;
  }

  @Override
  public void close() {
    client.close();
    vertx.close().await();
  }
}
