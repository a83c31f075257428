package dev.georesolver.support;

import dev.georesolver.GeoResolver;
import dev.georesolver.config.Manifest;
import dev.georesolver.config.ManifestLoader;
import dev.georesolver.deadline.Ticker;
import dev.georesolver.tier.LocalAdapterFactory;
import dev.georesolver.trace.Tracing;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;

import java.time.Clock;
import java.util.Map;
import java.util.Random;

/** The whole resolver deployed in-process on a test's Vertx, with a client pointed at it. */
public final class Stack {

  public final Manifest manifest;
  public final int port;
  public final WebClient client;

  private Stack(Manifest manifest, int port, WebClient client) {
    this.manifest = manifest;
    this.port = port;
    this.client = client;
  }

  /** Deploys {@code yaml} with the system clocks and an empty environment. */
  public static Future<Stack> deploy(Vertx vertx, String yaml) {
    return deploy(vertx, yaml, Map.of(), Clock.systemUTC(), Map.of());
  }

  /** Deploys {@code yaml} with the given environment, wall clock and local adapters. */
  public static Future<Stack> deploy(Vertx vertx, String yaml, Map<String, String> env, Clock clock,
      Map<String, LocalAdapterFactory> local) {
    return deploy(vertx, yaml, env, clock, local, null);
  }

  /** Deploys {@code yaml} sharing the Redis at {@code redisUrl}. */
  public static Future<Stack> deployWithRedis(Vertx vertx, String yaml, String redisUrl) {
    return deploy(vertx, yaml, Map.of(), Clock.systemUTC(), Map.of(), redisUrl);
  }

  /** Deploys {@code yaml} with everything chosen. */
  public static Future<Stack> deploy(Vertx vertx, String yaml, Map<String, String> env, Clock clock,
      Map<String, LocalAdapterFactory> local, String redisUrl) {
    Manifest m;
    try {
      m = ManifestLoader.parse(TestState.isolate(yaml), env);
    } catch (Exception e) {
      return Future.failedFuture(e);
    }
    return deploy(vertx, m, env, clock, local, redisUrl);
  }

  /** Deploys a manifest loaded beforehand, with everything chosen. */
  public static Future<Stack> deploy(Vertx vertx, Manifest m, Map<String, String> env, Clock clock,
      Map<String, LocalAdapterFactory> local, String redisUrl) {
    return deploy(vertx, m, env, clock, local, redisUrl, null);
  }

  /** Deploys a manifest loaded beforehand, its spans recorded with {@code tracing} (null: as {@code env} says). */
  public static Future<Stack> deploy(Vertx vertx, Manifest m, Map<String, String> env, Clock clock,
      Map<String, LocalAdapterFactory> local, String redisUrl, Tracing tracing) {
    Random seeded = new Random(42);
    GeoResolver.Options o = new GeoResolver.Options(0, 1, 1, env, redisUrl, local, clock, Ticker.SYSTEM, () -> seeded);
    return GeoResolver.deploy(vertx, m, o, tracing).map(r -> new Stack(m, r.port(), WebClient.create(vertx, new io.vertx.ext.web.client.WebClientOptions(), new io.vertx.core.http.PoolOptions().setHttp1MaxSize(64))));
  }

  /**
   * Deploys the manifest in {@code file} (written by the test as is: give it its own {@code state:}
   * block, since every revision must keep the same one), reloading from that file.
   */
  public static Future<Stack> deployFile(Vertx vertx, java.nio.file.Path file, Map<String, String> env, Clock clock,
      Map<String, LocalAdapterFactory> local) {
    Manifest m;
    try {
      m = ManifestLoader.load(file, env);
    } catch (Exception e) {
      return Future.failedFuture(e);
    }
    Random seeded = new Random(42);
    GeoResolver.Options o = new GeoResolver.Options(0, 1, 1, env, null, local, clock, Ticker.SYSTEM, () -> seeded)
        .withManifestFile(file);
    return GeoResolver.deploy(vertx, m, o).map(r -> new Stack(m, r.port(), WebClient.create(vertx, new io.vertx.ext.web.client.WebClientOptions(), new io.vertx.core.http.PoolOptions().setHttp1MaxSize(64))));
  }

  /** {@code GET path} against the resolver. */
  public Future<HttpResponse<Buffer>> get(String pathAndQuery) {
    return client.get(port, "localhost", pathAndQuery).send();
  }

  /** {@code POST path} with a JSON body. */
  public Future<HttpResponse<Buffer>> post(String path, JsonObject body) {
    return client.post(port, "localhost", path).sendJsonObject(body);
  }

  /** {@code POST path} with a raw body. */
  public Future<HttpResponse<Buffer>> postRaw(String path, String body) {
    return client.post(port, "localhost", path).putHeader("content-type", "application/json").sendBuffer(Buffer.buffer(body));
  }

  /** {@code GET /v1/geocode?q=…} with the query URL-encoded. */
  public Future<HttpResponse<Buffer>> geocode(String q, String... extraParams) {
    var req = client.get(port, "localhost", "/v1/geocode").addQueryParam("q", q);
    for (int i = 0; i + 1 < extraParams.length; i += 2) {
      req.addQueryParam(extraParams[i], extraParams[i + 1]);
    }
    return req.send();
  }
}
