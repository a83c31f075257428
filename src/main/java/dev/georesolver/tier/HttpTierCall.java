package dev.georesolver.tier;

import dev.georesolver.bus.TierRequest;
import dev.georesolver.config.Secret;
import dev.georesolver.config.TierConfig;
import dev.georesolver.provider.AdapterRegistry;
import dev.georesolver.provider.CredentialPlacement;
import dev.georesolver.provider.Direction;
import dev.georesolver.provider.FailureClass;
import dev.georesolver.provider.OutboundRequest;
import dev.georesolver.provider.ProviderAdapter;
import dev.georesolver.provider.ProviderAnswer;
import dev.georesolver.provider.ProviderText;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A rung answered over HTTP by a {@link ProviderAdapter}: builds the request, adds the tier's
 * credential, extra headers and {@code Idempotency-Key}, sends it on the tier's own connection pool
 * and parses the answer. Every answer — candidates and failures alike, including failures of the
 * transport — leaves through {@link ProviderText#clean(ProviderAnswer)}: the tier's credential
 * redacted, control characters escaped, every text bounded. Use on the owning verticle's context only.
 */
final class HttpTierCall implements TierCall {

  /** Sent unless the manifest sets its own {@code User-Agent}. */
  static final String DEFAULT_USER_AGENT = "georesolver/0.1 (+https://github.com/georesolver/georesolver)";

  private final TierConfig cfg;
  private final ProviderAdapter adapter;
  private final Secret secret;
  private final CredentialPlacement placement;
  private final HttpClientAgent client;
  private final HttpAttempt http;
  private final Map<String, String> constantHeaders;
  private final ProviderText text;

  /**
   * @param adapter the registry's entry for the tier's {@code adapter} (an HTTP one)
   * @param secret the tier's credential, or null
   */
  HttpTierCall(Vertx vertx, TierConfig cfg, AdapterRegistry.Adapter adapter, Secret secret) {
    this.cfg = cfg;
    this.adapter = adapter.http();
    this.secret = secret;
    CredentialPlacement p = cfg.credential() == null ? null : cfg.credential().placement();
    CredentialPlacement byDefault = adapter.capabilities().defaultCredential();
    this.placement = p != null ? p : byDefault != null ? byDefault : CredentialPlacement.header("X-Api-Key");
    this.client = vertx.httpClientBuilder()
        // Decompression is ours (BoundedBody): Vert.x's would inflate a body of any size.
        .with(new HttpClientOptions().setKeepAlive(true).setTcpNoDelay(true).setDecompressionSupported(false))
        .with(new PoolOptions().setHttp1MaxSize(cfg.poolSize()).setMaxWaitQueueSize(cfg.poolSize() * 16))
        // A malformed response (broken chunk framing, a bad status line) fails the attempt, which
        // classifies it; without a handler Vert.x would also log it at ERROR, quoting the provider's bytes.
        .withConnectHandler(conn -> conn.exceptionHandler(ignored -> { }))
        .build();
    this.http = new HttpAttempt(vertx, client);
    this.constantHeaders = constantHeaders(cfg);
    this.text = ProviderText.forTier(secret, placement);
  }

  @Override
  public Future<ProviderAnswer> attempt(TierRequest req, long timeoutMs) {
    Direction dir = req.direction();
    OutboundRequest r;
    try {
      r = dir == Direction.FORWARD ? adapter.forward(cfg.endpoint(), req.forward()) : adapter.reverse(cfg.endpoint(), req.reverse());
    } catch (RuntimeException e) {
      return Future.succeededFuture(new ProviderAnswer.Failed(FailureClass.UNCLASSIFIED,
          "adapter could not build the request: " + e.getClass().getSimpleName(), null));
    }
    r = decorate(r, req.idempotencyKey());
    return http.send(r, timeoutMs)
        .map(resp -> adapter.parse(dir, resp, cfg.schemaMode()))
        .otherwise(TransportClassifier::classify)
        .map(text::clean);
  }

  /** Adds the tier's constant headers, the key and the credential, copying the request once. */
  private OutboundRequest decorate(OutboundRequest r, String idempotencyKey) {
    Map<String, String> headers = new LinkedHashMap<>(constantHeaders);
    headers.putAll(r.headers());
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
    return client.close();
  }
}
