package dev.georesolver.tier;

import dev.georesolver.bus.TierRequest;
import dev.georesolver.config.Secret;
import dev.georesolver.config.TierConfig;
import dev.georesolver.provider.AdapterRegistry;
import dev.georesolver.provider.CredentialPlacement;
import dev.georesolver.geo.Direction;
import dev.georesolver.geo.FailureClass;
import dev.georesolver.provider.OutboundRequest;
import dev.georesolver.provider.ProviderAdapter;
import dev.georesolver.provider.ProviderAnswer;
import dev.georesolver.provider.ProviderText;
import dev.georesolver.trace.Hop;
import dev.georesolver.trace.SpanNames;
import dev.georesolver.trace.UrlRedaction;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A rung answered over HTTP by a {@link ProviderAdapter}: builds the request, adds the tier's
 * credential, extra headers and {@code Idempotency-Key}, sends it on the tier's own connection pool
 * and parses the answer. Every answer — candidates and failures alike, including failures of the
 * transport — leaves through {@link ProviderText#clean(ProviderAnswer)}: the tier's credential
 * redacted, control characters escaped, every text bounded. Use on the owning verticle's context only.
 *
 * <p>The pool is the tier's alone, and so is its TLS material ({@link TlsMaterial}): another tier's
 * client certificate can never be presented on its connections. A credential given as a file and
 * the TLS files are watched ({@link FileWatch}); a change is read on a worker and swapped in
 * between requests — the credential for the next request, the TLS material for the next
 * connection (requests in flight finish on the connections they have) — so rotation needs no
 * restart. A changed file that cannot be used keeps the previous value, said in the log.
 */
final class HttpTierCall implements TierCall {

  private static final Logger log = LoggerFactory.getLogger(HttpTierCall.class);

  /** Sent unless the manifest sets its own {@code User-Agent}. */
  static final String DEFAULT_USER_AGENT = "georesolver/0.1 (+https://github.com/georesolver/georesolver)";

  private final Vertx vertx;
  private final TierConfig cfg;
  private final ProviderAdapter adapter;
  private final CredentialPlacement placement;
  private final Map<String, String> constantHeaders;
  private final List<FileWatch> watches = new ArrayList<>();
  /** Replaced when its file changes; read and written on this context only. */
  private Secret secret;
  /** Redacts the current credential from provider text; replaced with it. */
  private ProviderText text;
  private HttpClientAgent client;
  private HttpAttempt http;

  private HttpTierCall(Vertx vertx, TierConfig cfg, AdapterRegistry.Adapter adapter, Secret secret) {
    this.vertx = vertx;
    this.cfg = cfg;
    this.adapter = adapter.http();
    this.secret = secret;
    CredentialPlacement p = cfg.credential() == null ? null : cfg.credential().placement();
    CredentialPlacement byDefault = adapter.capabilities().defaultCredential();
    this.placement = p != null ? p : byDefault != null ? byDefault : CredentialPlacement.header("X-Api-Key");
    this.constantHeaders = constantHeaders(cfg);
    this.text = ProviderText.forTier(secret == null ? null : secret.reveal(), placement);
  }

  /**
   * The tier's call, ready: its credential file and TLS files watched from now on, the TLS files
   * read and checked on a worker, the client built with them. Fails, naming the file, when the TLS
   * material cannot be used.
   *
   * @param adapter the registry's entry for the tier's {@code adapter} (an HTTP one)
   * @param secret the tier's credential as the manifest read it, or null
   */
  static Future<TierCall> start(Vertx vertx, TierConfig cfg, AdapterRegistry.Adapter adapter, Secret secret) {
    HttpTierCall call = new HttpTierCall(vertx, cfg, adapter, secret);
    return call.watch()
        .compose(v -> cfg.tls() == null ? Future.<TlsMaterial>succeededFuture(null)
            : vertx.executeBlocking(() -> TlsMaterial.read(vertx, cfg.tls()), false))
        .map(tls -> {
          call.build(tls);
          if (tls != null) {
            log.info("tier {}: TLS with {}", cfg.name(), tls);
          }
          return (TierCall) call;
        })
        .onFailure(e -> call.stopWatching());
  }

  private void build(TlsMaterial tls) {
    // Decompression is ours (BoundedBody): Vert.x's would inflate a body of any size.
    HttpClientOptions options = new HttpClientOptions().setKeepAlive(true).setTcpNoDelay(true).setDecompressionSupported(false);
    this.client = vertx.httpClientBuilder()
        .with(tls == null ? options : tls.applyTo(options))
        .with(new PoolOptions().setHttp1MaxSize(cfg.poolSize()).setMaxWaitQueueSize(cfg.poolSize() * 16))
        // A malformed response (broken chunk framing, a bad status line) fails the attempt, which
        // classifies it; without a handler Vert.x would also log it at ERROR, quoting the provider's bytes.
        .withConnectHandler(conn -> conn.exceptionHandler(ignored -> { }))
        .build();
    this.http = new HttpAttempt(vertx, client, cfg.tls() == null ? null : cfg.tls().serverName());
  }

  /** Starts watching the credential file (when the credential is one) and the TLS files. */
  private Future<Void> watch() {
    Future<Void> started = Future.succeededFuture();
    if (secret != null && cfg.credential().file() != null) {
      started = started.compose(v -> watch(List.of(Path.of(cfg.credential().file())), this::reloadCredential));
    }
    if (cfg.tls() != null) {
      List<Path> files = cfg.tls().files().values().stream().map(Path::of).toList();
      started = started.compose(v -> watch(files, this::reloadTls));
    }
    return started;
  }

  private Future<Void> watch(List<Path> files, Runnable onChange) {
    FileWatch w = new FileWatch(vertx, files, onChange);
    watches.add(w);
    return w.start();
  }

  private void stopWatching() {
    watches.forEach(FileWatch::stop);
  }

  private void reloadCredential() {
    vertx.executeBlocking(() -> Secret.reread(cfg.credential()), false)
        .onSuccess(s -> {
          secret = s;
          text = ProviderText.forTier(s == null ? null : s.reveal(), placement);
          log.info("tier {}: credential reloaded from {}", cfg.name(), cfg.credential().sourceDescription());
        })
        .onFailure(e -> log.warn("tier {}: credential file changed but cannot be used ({}): keeping the previous credential",
            cfg.name(), e.getMessage()));
  }

  private void reloadTls() {
    vertx.executeBlocking(() -> TlsMaterial.read(vertx, cfg.tls()), false)
        .compose(m -> client.updateSSLOptions(m.sslOptions(), true).map(m))
        .onSuccess(m -> log.info("tier {}: TLS material reloaded: {}", cfg.name(), m))
        .onFailure(e -> log.warn("tier {}: TLS files changed but cannot be used ({}): keeping the previous material",
            cfg.name(), e.getMessage()));
  }

  @Override
  public Future<ProviderAnswer> attempt(TierRequest req, long timeoutMs, Hop span) {
    Direction dir = req.direction();
    OutboundRequest r;
    try {
      r = dir == Direction.FORWARD ? adapter.forward(cfg.endpoint(), req.forward()) : adapter.reverse(cfg.endpoint(), req.reverse());
    } catch (RuntimeException e) {
      return Future.succeededFuture(new ProviderAnswer.Failed(FailureClass.UNCLASSIFIED,
          "adapter could not build the request: " + e.getClass().getSimpleName(), null));
    }
    r = decorate(r, req.idempotencyKey(), span);
    describe(span, r);
    return http.send(r, timeoutMs)
        .map(resp -> {
          span.set(SpanNames.HTTP_RESPONSE_STATUS_CODE, resp.status());
          return adapter.parse(dir, resp, cfg.schemaMode());
        })
        .otherwise(TransportClassifier::classify)
        .map(text::clean);
  }

  /**
   * The client span's HTTP attributes: method, server, and the URL with its query values (the
   * credential, when it is a query parameter, and the address) redacted. Only when it is recorded.
   */
  private static void describe(Hop span, OutboundRequest r) {
    if (!span.recording()) {
      return;
    }
    String method = r.method().name();
    span.rename(method).set(SpanNames.HTTP_REQUEST_METHOD, method).set(SpanNames.URL_FULL, UrlRedaction.redact(r.url()));
    try {
      URI u = URI.create(r.url());
      span.set(SpanNames.SERVER_ADDRESS, u.getHost());
      int port = u.getPort() >= 0 ? u.getPort() : "https".equalsIgnoreCase(u.getScheme()) ? 443 : 80;
      span.set(SpanNames.SERVER_PORT, port);
    } catch (IllegalArgumentException e) {
      // An endpoint the client could still send to (it parses URLs itself): no server attributes.
    }
  }

  /**
   * Adds the tier's constant headers, the trace context, the key and the credential, copying the
   * request once.
   */
  private OutboundRequest decorate(OutboundRequest r, String idempotencyKey, Hop span) {
    Map<String, String> headers = new LinkedHashMap<>(constantHeaders);
    headers.putAll(r.headers());
    span.headers(headers::put);
    headers.put("Idempotency-Key", idempotencyKey);
    String url = r.url();
    if (secret != null) {
      if (placement.header() != null) {
        headers.put(placement.header(), secret.reveal());
      } else {
        url = OutboundRequest.withParam(url, placement.queryParam(), secret.reveal());
      }
    }
    return new OutboundRequest(r.method(), url, headers, r.body());
  }

  /**
   * User-Agent, Accept and Accept-Encoding defaults (the encodings {@link BoundedBody} reads), then
   * the manifest's headers (which win).
   */
  private static Map<String, String> constantHeaders(TierConfig cfg) {
    Map<String, String> h = new LinkedHashMap<>();
    if (cfg.headers().keySet().stream().noneMatch(k -> k.equalsIgnoreCase("user-agent"))) {
      h.put("User-Agent", DEFAULT_USER_AGENT);
    }
    h.put("Accept", "application/json");
    h.put("Accept-Encoding", "gzip, deflate");
    h.putAll(cfg.headers());
    return Map.copyOf(h);
  }

  @Override
  public Future<Void> close() {
    stopWatching();
    return client == null ? Future.succeededFuture() : client.close();
  }
}
