package dev.georesolver;

import dev.georesolver.bus.Codecs;
import dev.georesolver.cache.CachedIndexAdapter;
import dev.georesolver.cache.DedupeVerticle;
import dev.georesolver.cache.IndexVerticle;
import dev.georesolver.chain.ChainVerticle;
import dev.georesolver.corrections.CorrectionsVerticle;
import dev.georesolver.config.Manifest;
import dev.georesolver.config.Secret;
import dev.georesolver.config.TierConfig;
import dev.georesolver.deadline.Ticker;
import dev.georesolver.gazetteer.Gazetteer;
import dev.georesolver.gazetteer.GazetteerAdapter;
import dev.georesolver.ingress.IngressVerticle;
import dev.georesolver.metrics.Metrics;
import dev.georesolver.provider.AdapterRegistry;
import dev.georesolver.reconcile.ReconcilerVerticle;
import dev.georesolver.state.StateVerticle;
import dev.georesolver.tier.LocalAdapterFactory;
import dev.georesolver.tier.TierSpec;
import dev.georesolver.tier.TierVerticle;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.ThreadingModel;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;

/**
 * Deploys the resolver's verticles on a Vertx in dependency order — the state store, dedupe, one
 * verticle per tier, the chain instances, the reconciler and the corrections delivery, then
 * ingress — so nothing takes traffic before what it talks to is listening. Used by {@link Main}
 * and by the scenario tests, which run the whole stack in-process.
 */
public final class GeoResolver {

  private static final Logger log = LoggerFactory.getLogger(GeoResolver.class);

  private GeoResolver() {}

  /**
   * How to deploy.
   *
   * @param port HTTP port; 0 picks a free one
   * @param chainInstances chain verticle instances
   * @param ingressInstances ingress verticle instances (sharing the port)
   * @param env the environment credentials are read from
   * @param redisUrl the shared store's URL, or null for the in-process store only
   * @param localAdapters factories of local adapters by manifest adapter name, overriding the
   *     built-in ones ({@code cached_index}, {@code gazetteer}); tests use it
   * @param clock wall clock
   * @param ticker monotonic clock
   * @param random jitter source
   */
  public record Options(
      int port,
      int chainInstances,
      int ingressInstances,
      Map<String, String> env,
      String redisUrl,
      Map<String, LocalAdapterFactory> localAdapters,
      Clock clock,
      Ticker ticker,
      RandomGenerator random) {

    /** Production defaults: one chain and one ingress instance per core. */
    public static Options defaults(int port, Map<String, String> env) {
      int cores = Runtime.getRuntime().availableProcessors();
      return new Options(port, cores, cores, env, null, Map.of(), Clock.systemUTC(), Ticker.SYSTEM, ThreadLocalRandom.current());
    }

    /** These options with other local adapter factories. */
    public Options withLocalAdapters(Map<String, LocalAdapterFactory> factories) {
      return new Options(port, chainInstances, ingressInstances, env, redisUrl, factories, clock, ticker, random);
    }

    /** These options with {@code n} chain and {@code n} ingress instances. */
    public Options withInstances(int n) {
      return new Options(port, n, n, env, redisUrl, localAdapters, clock, ticker, random);
    }

    /** These options with one chain and one ingress instance (tests). */
    public Options single() {
      return new Options(port, 1, 1, env, redisUrl, localAdapters, clock, ticker, random);
    }

    /** These options with a shared store (null: in-process only). */
    public Options withRedis(String url) {
      return new Options(port, chainInstances, ingressInstances, env, url, localAdapters, clock, ticker, random);
    }
  }

  /**
   * A running resolver.
   *
   * @param port the HTTP port bound
   * @param deploymentIds every deployment, in deployment order
   */
  public record Running(int port, List<String> deploymentIds, Metrics metrics) {}

  /** Deploys everything; fails (having deployed part) if any verticle fails to start. */
  public static Future<Running> deploy(Vertx vertx, Manifest manifest, Options o) {
    Codecs.registerAll(vertx.eventBus());
    Metrics metrics = new Metrics();
    List<String> ids = new ArrayList<>();
    manifest.disabledTiers().forEach((name, why) -> log.info("tier {} left out of the ladder: {}", name, why));
    manifest.intents().values().stream()
        .filter(i -> manifest.enabledTiers().stream().noneMatch(t -> i.accepts(t.claim())))
        .forEach(i -> log.warn("intent {} has no rung left (tiers disabled at start): its requests will be answered 503 misconfigured",
            i.name()));
    var idem = manifest.routing().idempotency();
    Future<Void> chain = deployState(vertx, manifest, o, metrics, ids)
        .compose(v -> vertx.deployVerticle(new DedupeVerticle(idem, o.redisUrl(), o.clock(), () -> o.ticker().nanoTime(), metrics)))
        .map(ids::add).mapEmpty();
    if (usesCachedIndex(manifest)) {
      chain = chain.compose(v -> vertx.deployVerticle(new IndexVerticle(idem, o.redisUrl(), o.clock(), metrics))).map(ids::add).mapEmpty();
    }
    for (TierConfig t : manifest.enabledTiers()) {
      chain = chain.compose(v -> deployTier(vertx, manifest, t, manifest.secret(t.name()).orElse(null), o, metrics)).map(ids::add).mapEmpty();
    }
    return chain
        .compose(v -> vertx.deployVerticle(() -> new ChainVerticle(manifest, o.clock(), o.ticker(), metrics),
            new DeploymentOptions().setInstances(o.chainInstances())))
        .map(ids::add)
        .compose(v -> deployReconciler(vertx, manifest, o, metrics, ids))
        .compose(v -> deployIngress(vertx, manifest, o, ids, metrics))
        .map(port -> {
          log.info("georesolver listening on port {} (manifest {}, ladder {})", port, manifest.revision(),
              manifest.enabledTiers().stream().map(TierConfig::name).toList());
          return new Running(port, List.copyOf(ids), metrics);
        });
  }

  /** The durable store's backend for this deployment: {@code state.store}, where {@code auto} follows the idempotency store. */
  public static String stateBackend(Manifest manifest, Options o) {
    return manifest.state().storeFor(o.redisUrl() != null);
  }

  /**
   * The state verticle, first: the dedupe and index verticles load the memory store's write-behind
   * from it at start. A worker for SQLite (blocking JDBC); it fails with a
   * {@code StateStoreException} when the file cannot be used.
   */
  private static Future<Void> deployState(Vertx vertx, Manifest manifest, Options o, Metrics metrics, List<String> ids) {
    String backend = stateBackend(manifest, o);
    boolean withCache = "sqlite".equals(backend) && o.redisUrl() == null && manifest.state().writeBehind();
    DeploymentOptions d = new DeploymentOptions();
    if (StateVerticle.needsWorker(backend)) {
      d.setThreadingModel(ThreadingModel.WORKER);
    }
    return vertx.deployVerticle(new StateVerticle(manifest, backend, o.redisUrl(), withCache, o.clock(), metrics), d)
        .map(ids::add).mapEmpty();
  }

  /** The reconciler and the corrections delivery, once the tiers and chains they use are up. */
  private static Future<Void> deployReconciler(Vertx vertx, Manifest manifest, Options o, Metrics metrics, List<String> ids) {
    boolean durableBusCursor = "sqlite".equals(stateBackend(manifest, o));
    return vertx.deployVerticle(new ReconcilerVerticle(manifest, o.clock(), o.ticker(), o.random(), metrics)).map(ids::add)
        .compose(v -> vertx.deployVerticle(new CorrectionsVerticle(manifest.corrections(), durableBusCursor, o.env(), o.random(),
            metrics)))
        .map(ids::add).mapEmpty();
  }

  /** Whether the ladder has a cached-index rung (then the index is deployed and written through). */
  public static boolean usesCachedIndex(Manifest manifest) {
    return manifest.enabledTiers().stream().anyMatch(t -> AdapterRegistry.CACHED_INDEX.equals(t.adapter()));
  }

  /** The local adapters built in, overridden by {@code Options.localAdapters}. */
  private static LocalAdapterFactory localFactory(String adapter, Options o) {
    LocalAdapterFactory given = o.localAdapters().get(adapter);
    if (given != null) {
      return given;
    }
    if (AdapterRegistry.CACHED_INDEX.equals(adapter)) {
      return (vertx, tier) -> Future.succeededFuture(new CachedIndexAdapter(vertx, tier, o.clock()));
    }
    if (AdapterRegistry.GAZETTEER.equals(adapter)) {
      return (vertx, tier) -> gazetteer(vertx).map(g -> new GazetteerAdapter(g,
          tier.reverseRadiusM() > 0 ? tier.reverseRadiusM() : Gazetteer.DEFAULT_MAX_REVERSE_DISTANCE_M));
    }
    return null;
  }

  /**
   * The bundled gazetteer, loaded once per process off the event loop. The loaded (immutable)
   * gazetteer is kept, not a future, since a future belongs to the Vertx that made it.
   */
  private static Future<Gazetteer> gazetteer(Vertx vertx) {
    Gazetteer g = gazetteer;
    return g != null ? Future.succeededFuture(g) : vertx.executeBlocking(GeoResolver::loadGazetteer);
  }

  private static synchronized Gazetteer loadGazetteer() {
    if (gazetteer == null) {
      long t0 = System.nanoTime();
      gazetteer = Gazetteer.loadDefault();
      log.info("gazetteer: {} places loaded in {} ms", gazetteer.size(), (System.nanoTime() - t0) / 1_000_000);
    }
    return gazetteer;
  }

  private static volatile Gazetteer gazetteer;

  private static Future<String> deployTier(Vertx vertx, Manifest manifest, TierConfig t, Secret secret, Options o,
      Metrics metrics) {
    LocalAdapterFactory local = null;
    if (AdapterRegistry.isLocal(t.adapter())) {
      local = localFactory(t.adapter(), o);
      if (local == null) {
        return Future.failedFuture(new IllegalStateException("tier " + t.name() + ": adapter " + t.adapter()
            + " is not available in this build"));
      }
    }
    TierSpec spec = new TierSpec(t, secret, manifest.routing().admissionFactor(), manifest.crsDefinitions(), local,
        o.clock(), o.ticker(), o.random(), metrics);
    return vertx.deployVerticle(new TierVerticle(spec));
  }

  private static Future<Integer> deployIngress(Vertx vertx, Manifest manifest, Options o, List<String> ids, Metrics metrics) {
    IngressVerticle first = new IngressVerticle(manifest, o.port(), metrics);
    return vertx.deployVerticle(first).compose(id -> {
      ids.add(id);
      int port = first.actualPort();
      if (o.ingressInstances() <= 1) {
        return Future.succeededFuture(port);
      }
      return vertx.deployVerticle(() -> new IngressVerticle(manifest, port, metrics),
              new DeploymentOptions().setInstances(o.ingressInstances() - 1))
          .map(more -> {
            ids.add(more);
            return port;
          });
    });
  }
}
