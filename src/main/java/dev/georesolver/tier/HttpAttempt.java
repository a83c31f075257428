package dev.georesolver.tier;

import dev.georesolver.provider.OutboundRequest;
import dev.georesolver.provider.ProviderResponse;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;

import java.util.HashMap;
import java.util.Map;

/**
 * Sends one attempt and enforces its <em>total</em> timeout.
 *
 * <p>The client's own timeouts are connect and idle timeouts: a provider that trickles a byte every
 * second never trips them. So a timer bounds the whole exchange; when it fires the attempt fails
 * with {@link AttemptTimeoutException} and the request is reset, freeing the connection. A request
 * still waiting for a pooled connection when the timer fires is reset as soon as it gets one,
 * without being sent. A body is held to {@link #MAX_BODY_BYTES} however it arrives, and once
 * inflated ({@link BoundedBody}); over it the attempt fails with {@link BodyRefusedException} and
 * the request is reset. Use on the owning verticle's context only.
 */
final class HttpAttempt {

  /**
   * The largest provider body read, bytes, counted as received and again once inflated; a larger
   * answer is a degradable failure of the attempt.
   */
  static final long MAX_BODY_BYTES = 4L * 1024 * 1024;

  private static final String[] KEPT_HEADERS = {"retry-after", "content-type"};

  private final Vertx vertx;
  private final HttpClient client;
  private final String serverName;
  private String prefix;
  private String host;
  private int port;
  private boolean ssl;
  private SocketAddress server;

  HttpAttempt(Vertx vertx, HttpClient client) {
    this(vertx, client, null);
  }

  /**
   * @param serverName the name the provider's certificate carries, sent as SNI and {@code Host}
   *     while the connection goes to the URL's host; null to use the URL's host for both
   */
  HttpAttempt(Vertx vertx, HttpClient client, String serverName) {
    this.vertx = vertx;
    this.client = client;
    this.serverName = serverName;
  }

  /** Sends {@code r}, failing after {@code timeoutMs} in all. */
  Future<ProviderResponse> send(OutboundRequest r, long timeoutMs) {
    Promise<ProviderResponse> done = Promise.promise();
    RequestOptions o = new RequestOptions()
        .setMethod(r.method())
        .setConnectTimeout(timeoutMs)
        .setIdleTimeout(timeoutMs);
    target(o, r.url());
    r.headers().forEach(o::putHeader);
    HttpClientRequest[] sent = new HttpClientRequest[1];
    long timer = vertx.setTimer(Math.max(1, timeoutMs), id -> {
      if (done.tryFail(new AttemptTimeoutException(timeoutMs)) && sent[0] != null) {
        sent[0].reset();
      }
    });
    client.request(o)
        .compose(req -> {
          sent[0] = req;
          // Failures reach the attempt through the response future; without a handler here Vert.x
          // would also log a reset request at ERROR.
          req.exceptionHandler(ignored -> { });
          if (done.future().isComplete()) {
            req.reset();
            return Future.failedFuture(new AttemptTimeoutException(timeoutMs));
          }
          return r.body() == null ? req.send() : req.send(r.body());
        })
        .compose(HttpAttempt::read)
        .onComplete(ar -> {
          vertx.cancelTimer(timer);
          if (ar.succeeded()) {
            done.tryComplete(ar.result());
          } else {
            done.tryFail(ar.cause());
          }
        });
    return done.future();
  }

  /**
   * Sets host, port, TLS and path from an absolute URL, as {@code setAbsoluteURI} does, but parses
   * the scheme and authority only when they change: a tier calls one provider all day.
   */
  private void target(RequestOptions o, String url) {
    String p = prefix;
    if (p == null || !url.startsWith(p) || url.length() == p.length()
        || (url.charAt(p.length()) != '/' && url.charAt(p.length()) != '?')) {
      o.setAbsoluteURI(url);
      prefix = url.substring(0, authorityEnd(url));
      host = o.getHost();
      port = o.getPort();
      ssl = o.isSsl();
      server = serverName == null ? null : SocketAddress.inetSocketAddress(port, host);
    } else {
      String rest = url.substring(p.length());
      o.setHost(host).setPort(port).setSsl(ssl).setURI(rest.charAt(0) == '?' ? "/" + rest : rest);
    }
    if (server != null) {
      o.setServer(server).setHost(serverName);
    }
  }

  /** Index just past {@code scheme://authority} in an absolute URL. */
  static int authorityEnd(String url) {
    int start = url.indexOf("//") + 2;
    for (int i = start; i < url.length(); i++) {
      char c = url.charAt(i);
      if (c == '/' || c == '?' || c == '#') {
        return i;
      }
    }
    return url.length();
  }

  /**
   * Reads the response's body through a {@link BoundedBody}. An exception handler is on the response
   * before anything can reset it: without one, Vert.x logs every reset at ERROR. Over the cap, or
   * undecodable, the request is reset (its connection closed, not returned to the pool) and the
   * attempt fails with {@link BodyRefusedException}.
   */
  private static Future<ProviderResponse> read(HttpClientResponse resp) {
    Promise<ProviderResponse> read = Promise.promise();
    long declared = parseLong(resp.getHeader("content-length"));
    BoundedBody body;
    try {
      if (declared > MAX_BODY_BYTES) {
        throw new BodyRefusedException("body over " + MAX_BODY_BYTES + " bytes: Content-Length " + declared);
      }
      body = BoundedBody.of(resp.getHeader("content-encoding"), declared, MAX_BODY_BYTES);
    } catch (BodyRefusedException e) {
      resp.exceptionHandler(ignored -> { });
      resp.request().reset();
      return Future.failedFuture(e);
    }
    resp.exceptionHandler(t -> {
      body.close();
      read.tryFail(t);
    });
    resp.handler(chunk -> {
      if (read.future().isComplete()) {
        return;
      }
      try {
        body.accept(chunk);
      } catch (BodyRefusedException e) {
        body.close();
        read.tryFail(e);
        resp.request().reset();
      }
    });
    resp.endHandler(v -> {
      try {
        read.tryComplete(new ProviderResponse(resp.statusCode(), kept(resp), body.finish()));
      } catch (BodyRefusedException e) {
        read.tryFail(e);
      } finally {
        body.close();
      }
    });
    return read.future();
  }

  private static Map<String, String> kept(HttpClientResponse resp) {
    Map<String, String> headers = new HashMap<>(4);
    for (String h : KEPT_HEADERS) {
      String v = resp.getHeader(h);
      if (v != null) {
        headers.put(h, v);
      }
    }
    return headers;
  }

  private static long parseLong(String s) {
    if (s == null) {
      return -1;
    }
    try {
      return Long.parseLong(s.trim());
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
