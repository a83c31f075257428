package dev.georesolver;

import dev.georesolver.audit.AuditRoutes;
import dev.georesolver.corrections.CorrectionRoutes;
import dev.georesolver.jobs.BatchRoutes;
import dev.georesolver.web.RouteModule;
import dev.georesolver.sampling.ShadowRoutes;
import dev.georesolver.sampling.ShadowVerticle;
import dev.georesolver.bus.Role;
import dev.georesolver.cli.Main;
import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.Codecs;
import dev.georesolver.bus.Node;
import dev.georesolver.bus.ReplayView;
import dev.georesolver.cache.DedupeVerticle;
import dev.georesolver.ladder.Ladders;
import dev.georesolver.cache.IndexVerticle;
import dev.georesolver.chain.ChainVerticle;
import dev.georesolver.config.IntentConfig;
import dev.georesolver.corrections.CorrectionsVerticle;
import dev.georesolver.config.Manifest;
import dev.georesolver.config.TenantConfig;
import dev.georesolver.config.TierConfig;
import dev.georesolver.crs.CrsCatalog;
import dev.georesolver.deadline.Ticker;
import dev.georesolver.ingress.IngressVerticle;
import dev.georesolver.jobs.BatchVerticle;
import dev.georesolver.metrics.Metrics;
import dev.georesolver.ops.OpsVerticle;
import dev.georesolver.geo.Direction;
import dev.georesolver.tenant.Tenants;
import dev.georesolver.tier.Backoff;
import dev.georesolver.provider.AdapterRegistry;
import dev.georesolver.reconcile.ReconcilerVerticle;
import dev.georesolver.reload.LiveManifest;
import dev.georesolver.reload.ReloadVerticle;
import dev.georesolver.tier.TierBreaker;
import dev.georesolver.state.StateVerticle;
import dev.georesolver.tier.LocalAdapterFactory;
import dev.georesolver.tier.TierSpec;
import dev.georesolver.tier.TierVerticle;
import dev.georesolver.trace.Tracing;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Deployable;
import io.vertx.core.VerticleBase;
import io.vertx.core.ThreadingModel;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * The resolver as one verticle: its {@code start} deploys every part as its child, in dependency
 * order — the state store, dedupe, the cached index when a rung reads it, one verticle per tier,
 * the shadow verticle, the chain instances, the reconciler and the corrections delivery, the ops verticle (the
 * operator's live view), the reloader (hot reload of the manifest file), then ingress — so nothing
 * takes traffic before what it talks to is listening. Every verticle that reads the manifest per
 * request shares one {@link LiveManifest}, which a reload swaps.
 *
 * <p>A part that fails to start undeploys the parts started before it (last first) and fails the
 * start, so a failed deploy leaves nothing running and no port open. Undeploying this verticle
 * undeploys every part: Vert.x undeploys a verticle's children before its own {@code stop}.
 *
 * <p>Used by {@link Main} and by the scenario tests, which run the whole stack in-process
 * ({@link #deploy}).
 */
public final class GeoResolver extends VerticleBase {

  private static final Logger log = LoggerFactory.getLogger(GeoResolver.class);

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
   * @param random the jitter source, asked for on every draw on the drawing thread
   *     ({@link Backoff#THREAD_LOCAL}; a test may hand a seeded generator as {@code () -> seeded})
   * @param roles the parts this process runs
   * @param manifestFile the file the manifest was loaded from, watched and read again on a reload
   *     ({@code POST /admin/reload}, SIGHUP); null when it came from elsewhere (reloads are then refused)
   * @param host the address the HTTP server listens on ({@code serve --host}); null for the
   *     manifest's {@code server.host}
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
      Supplier<RandomGenerator> random,
      Set<Role> roles,
      Path manifestFile,
      String host) {

    public Options {
      roles = Set.copyOf(roles);
    }

    /** Listening where the manifest's {@code server.host} says. */
    public Options(int port, int chainInstances, int ingressInstances, Map<String, String> env, String redisUrl,
        Map<String, LocalAdapterFactory> localAdapters, Clock clock, Ticker ticker, Supplier<RandomGenerator> random, Set<Role> roles,
        Path manifestFile) {
      this(port, chainInstances, ingressInstances, env, redisUrl, localAdapters, clock, ticker, random, roles, manifestFile, null);
    }

    /** No manifest file to reload from. */
    public Options(int port, int chainInstances, int ingressInstances, Map<String, String> env, String redisUrl,
        Map<String, LocalAdapterFactory> localAdapters, Clock clock, Ticker ticker, Supplier<RandomGenerator> random, Set<Role> roles) {
      this(port, chainInstances, ingressInstances, env, redisUrl, localAdapters, clock, ticker, random, roles, null);
    }

    /** Every role ({@link Role#ALL}), as a process serving alone runs. */
    public Options(int port, int chainInstances, int ingressInstances, Map<String, String> env, String redisUrl,
        Map<String, LocalAdapterFactory> localAdapters, Clock clock, Ticker ticker, Supplier<RandomGenerator> random) {
      this(port, chainInstances, ingressInstances, env, redisUrl, localAdapters, clock, ticker, random, Role.ALL);
    }

    /** Production defaults: one chain and one ingress instance per core, every role. */
    public static Options defaults(int port, Map<String, String> env) {
      int cores = Runtime.getRuntime().availableProcessors();
      return new Options(port, cores, cores, env, null, Map.of(), Clock.systemUTC(), Ticker.SYSTEM, Backoff.THREAD_LOCAL);
    }

    /** These options with {@code n} chain and {@code n} ingress instances. */
    public Options withInstances(int n) {
      return new Options(port, n, n, env, redisUrl, localAdapters, clock, ticker, random, roles, manifestFile, host);
    }

    /** These options with a shared store (null: in-process only). */
    public Options withRedis(String url) {
      return new Options(port, chainInstances, ingressInstances, env, url, localAdapters, clock, ticker, random, roles, manifestFile, host);
    }

    /** These options running only {@code roles}. */
    public Options withRoles(Set<Role> roles) {
      return new Options(port, chainInstances, ingressInstances, env, redisUrl, localAdapters, clock, ticker, random, roles, manifestFile, host);
    }

    /** These options listening on {@code host} (null: the manifest's {@code server.host}). */
    public Options withHost(String host) {
      return new Options(port, chainInstances, ingressInstances, env, redisUrl, localAdapters, clock, ticker, random, roles, manifestFile, host);
    }

    /** These options reloading from {@code file} (null: no reloads). */
    public Options withManifestFile(Path file) {
      return new Options(port, chainInstances, ingressInstances, env, redisUrl, localAdapters, clock, ticker, random, roles, file, host);
    }

    /**
     * How often the manifest file is looked at, milliseconds: {@code GEO_RELOAD_POLL_MS} of
     * {@link #env}, default {@value ReloadVerticle#DEFAULT_POLL_MS}; 0 turns the watch off.
     */
    public long reloadPollMs() {
      String v = env.get("GEO_RELOAD_POLL_MS");
      if (v == null || v.isBlank()) {
        return ReloadVerticle.DEFAULT_POLL_MS;
      }
      try {
        return Math.max(0, Long.parseLong(v.trim()));
      } catch (NumberFormatException e) {
        log.warn("GEO_RELOAD_POLL_MS is not a number of milliseconds; watching every {} ms", ReloadVerticle.DEFAULT_POLL_MS);
        return ReloadVerticle.DEFAULT_POLL_MS;
      }
    }

    /** Whether this process runs {@code role}. */
    public boolean runs(Role role) {
      return roles.contains(role);
    }
  }

  /**
   * A running resolver.
   *
   * @param port the HTTP port bound
   * @param deploymentId this verticle's deployment: undeploy it to stop the resolver (its parts all at once)
   * @param orderly stops the parts one by one, last started first, then the resolver (see {@link #stop()})
   */
  public record Running(int port, String deploymentId, Supplier<Future<Void>> orderly) {
    /**
     * Stops the resolver part by part, the last started first (ingress before the chain, the chain
     * before the state store), so each part hands what it buffered (audit records) to parts still
     * running. What a clean stop of the process uses.
     */
    public Future<Void> stop() {
      return orderly.get();
    }
  }

  private final Manifest manifest;
  private final Options o;
  private final CrsCatalog crs;
  private final Metrics metrics = new Metrics();
  /** The revision serving (with its tenants and their rate limits, shared by every ingress instance). */
  private final LiveManifest live;
  /** The deployment of each tier verticle, by tier name, for the reloader. */
  private final Map<String, String> tierDeployments = new HashMap<>();
  /** Children started so far, in order; confined to this verticle's context. */
  private final List<String> started = new ArrayList<>();
  private volatile int port = -1;
  /** Given by a test, else built from the environment at start ({@link Tracing#fromEnv}). */
  private final Tracing givenTracing;
  /** The spans' tracing once started; confined to this verticle's context. */
  private Tracing tracing = Tracing.off();

  /**
   * A resolver for {@code manifest}; deploy it with {@link #deploy} or {@code vertx.deployVerticle}.
   * Each tier's credential is the one the manifest read (and checked) when it was loaded.
   */
  public GeoResolver(Manifest manifest, Options options) {
    this(manifest, options, null);
  }

  /**
   * A resolver recording its spans with {@code tracing} rather than with what the environment
   * configures ({@code null}: the environment's, {@link Tracing#fromEnv}); tests hand an in-memory one.
   */
  public GeoResolver(Manifest manifest, Options options, Tracing tracing) {
    this.givenTracing = tracing;
    this.manifest = manifest;
    this.o = options;
    this.crs = CrsCatalog.of(manifest.crsDefinitions());
    this.live = new LiveManifest(revision(manifest));
  }

  /**
   * What every verticle of the process shares for one revision: its tenants' rate limits, the
   * buckets of tenants whose limits did not change carried over from the revision serving now.
   */
  private LiveManifest.Revision revision(Manifest m) {
    return new LiveManifest.Revision(m, live == null ? Tenants.of(m, o.ticker()) : Tenants.of(m, o.ticker(), live.current().tenants()));
  }

  /** Deploys a resolver on {@code vertx}; fails, with nothing left deployed, if any part fails to start. */
  public static Future<Running> deploy(Vertx vertx, Manifest manifest, Options o) {
    return deploy(vertx, manifest, o, null);
  }

  /** As {@link #deploy(Vertx, Manifest, Options)}, the spans recorded with {@code tracing} (null: as the environment says). */
  public static Future<Running> deploy(Vertx vertx, Manifest manifest, Options o, Tracing tracing) {
    GeoResolver resolver = new GeoResolver(manifest, o, tracing);
    return vertx.deployVerticle(resolver)
        .map(id -> new Running(resolver.port, id, () -> resolver.undeployStarted().compose(v -> vertx.undeploy(id))));
  }

  @Override
  public Future<?> start() {
    Codecs.registerAll(vertx.eventBus());
    // The command line installs the node it joined the cluster as; a resolver deployed otherwise is a node of its own.
    Node.install(vertx, new Node(vertx.isClustered(), vertx.isClustered() ? "node-" + java.util.UUID.randomUUID() : Node.STANDALONE_ID,
        o.roles()));
    Node node = Node.of(vertx);
    reportNode(node);
    reportLeftOut(manifest);
    reportTenants(manifest);
    boolean index = IndexVerticle.neededBy(manifest);
    // The cached-index rung reads its own node's index (its lookups never leave the node), so a tier node has one too.
    boolean indexHere = index && (o.runs(Role.CHAIN) || o.runs(Role.TIERS));
    var idem = manifest.routing().idempotency();
    // This node's replay store as the chains read it: the dedupe verticle publishes it, the chains answer replays from it.
    ReplayView replays = new ReplayView();
    Future<?> deployed = startTracing();
    if (o.runs(Role.STATE)) {
      deployed = deployed.compose(v -> deployState());
    }
    if (o.runs(Role.CHAIN)) {
      deployed = deployed.compose(v -> child(new DedupeVerticle(idem, manifest.routing().margins(), o.redisUrl(), o.clock(),
          () -> o.ticker().nanoTime(), metrics).replays(replays)));
    }
    if (indexHere) {
      deployed = deployed.compose(v -> child(new IndexVerticle(idem, o.redisUrl(), o.clock(), metrics)));
    }
    if (o.runs(Role.TIERS)) {
      // The EPSG database is a file scan: the common CRSs are looked up on a worker before any tier answers.
      deployed = deployed.compose(v -> vertx.executeBlocking(() -> {
        crs.warm();
        return null;
      }));
      for (TierConfig t : manifest.enabledTiers()) {
        deployed = deployed.compose(v -> child(tier(manifest, t, null, Addresses.tier(t.name())))
            .onSuccess(id -> tierDeployments.put(t.name(), id)));
      }
    }
    if (o.runs(Role.CHAIN)) {
      // Debts are queued only where a state store can take them: this node's, or on a cluster a state node's.
      boolean owesDebts = o.runs(Role.STATE) || node.clustered();
      // Listening before the chains sample anything.
      deployed = deployed.compose(v -> child(new ShadowVerticle(live, o.clock(), o.ticker(), metrics)));
      deployed = deployed.compose(v -> children(() -> new ChainVerticle(live, o.clock(), o.ticker(), metrics, index, owesDebts)
          .tracing(tracing).replays(replays), o.chainInstances()));
    }
    if (o.runs(Role.STATE)) {
      deployed = deployed.compose(v -> deployReconciler());
      if (manifest.batch().enabled()) {
        // Batch rows go through the chains deployed above; the store keeps the jobs.
        deployed = deployed.compose(v -> child(new BatchVerticle(manifest, o.clock())));
      }
    }
    if (o.runs(Role.INGRESS)) {
      deployed = deployed.compose(v -> child(new OpsVerticle(live, metrics, o.clock())));
    }
    deployed = deployed.compose(v -> child(reloader(index)));
    if (o.runs(Role.INGRESS)) {
      deployed = deployed.compose(v -> ingress());
    }
    return deployed
        .onSuccess(v -> {
          List<String> ladder = manifest.enabledTiers().stream().map(TierConfig::name).toList();
          if (o.runs(Role.INGRESS)) {
            log.info("georesolver listening on port {} (manifest {}, ladder {})", port, manifest.revision(), ladder);
          } else {
            log.info("georesolver node ready, no HTTP port (roles {}, manifest {}, ladder {})", Role.names(o.roles()),
                manifest.revision(), ladder);
          }
        })
        .recover(failure -> undeployStarted().compose(x -> tracing.shutdown()).transform(x -> Future.failedFuture(failure)));
  }

  /**
   * The process's tracing, first: built on a worker (the SDK loads classes and starts its batch
   * thread) when the environment names an OTLP endpoint; a configuration the SDK refuses fails the start.
   */
  private Future<?> startTracing() {
    Future<Tracing> t = givenTracing != null ? Future.succeededFuture(givenTracing)
        : vertx.executeBlocking(() -> Tracing.fromEnv(o.env()), false);
    return t.onSuccess(made -> {
      tracing = made;
      log.info("tracing: {}", made.describe());
    });
  }

  /** Flushes the spans still queued once every part has stopped (Vert.x undeploys the children first). */
  @Override
  public Future<?> stop() {
    return givenTracing != null ? Future.succeededFuture() : tracing.shutdown();
  }

  /** One tier's verticle for revision {@code m}, its breaker starting in {@code forced} (null: closed), visited at {@code visitAddress}. */
  private TierVerticle tier(Manifest m, TierConfig t, TierBreaker.Force forced, String visitAddress) {
    return new TierVerticle(new TierSpec(t, m.secret(t.name()).orElse(null), m.routing().admissionFactor(), m.routing().margins(), crs,
        o.localAdapters().get(t.adapter()), o.clock(), o.ticker(), o.random(), metrics, m.batch().maxShare()), forced, visitAddress)
        .tracing(tracing);
  }

  /**
   * The reloader: watches the manifest file (when there is one and {@code GEO_RELOAD_POLL_MS} is
   * not 0) and answers reloads asked for; it deploys and undeploys this process's tiers when it runs them.
   */
  private ReloadVerticle reloader(boolean index) {
    return new ReloadVerticle(live, o.manifestFile(), o.env(), o.reloadPollMs(), tierDeployments,
        o.runs(Role.TIERS) ? this::tier : null, index, this::revision, this::reportTenants, o.clock());
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
  private Future<?> deployState() {
    String backend = stateBackend(manifest, o);
    boolean withCache = "sqlite".equals(backend) && o.redisUrl() == null && manifest.state().writeBehind();
    DeploymentOptions d = new DeploymentOptions();
    if (StateVerticle.needsWorker(backend)) {
      d.setThreadingModel(ThreadingModel.WORKER);
    }
    return vertx.deployVerticle(new StateVerticle(manifest, backend, o.redisUrl(), withCache, o.clock(), metrics), d)
        .onSuccess(started::add);
  }

  /**
   * The reconciler and the corrections delivery, once the tiers and chains they use are up. The
   * reconciler reads tenants, residency and ladders from the serving revision, so a reload that
   * makes a tenant strict holds its retries too.
   */
  private Future<?> deployReconciler() {
    boolean durableBusCursor = "sqlite".equals(stateBackend(manifest, o));
    return child(new ReconcilerVerticle(manifest, () -> live.current().manifest(), o.clock(), o.ticker(), o.random(), metrics))
        .compose(v -> child(new CorrectionsVerticle(manifest.corrections(), durableBusCursor, o.env(), o.random(), metrics)));
  }

  /** The HTTP port bound; -1 until started. */
  public int port() {
    return port;
  }

  private Future<String> child(Deployable v) {
    return vertx.deployVerticle(v).onSuccess(started::add);
  }

  private Future<String> children(Supplier<? extends Deployable> factory, int instances) {
    return vertx.deployVerticle(factory, new DeploymentOptions().setInstances(instances)).onSuccess(started::add);
  }

  /** The feature routes every ingress instance mounts: the corrections feed, the audit trail, batch jobs, the shadow figures. */
  public static final List<RouteModule> ROUTE_MODULES = List.of(CorrectionRoutes.MODULE, AuditRoutes.MODULE, BatchRoutes.MODULE,
      ShadowRoutes.MODULE);

  /**
   * The ingress instances, sharing one port. Port 0 with several instances becomes Vert.x's shared
   * random port (-1): a server bound on 0 is not shared, so the others could not join it.
   */
  private Future<?> ingress() {
    int listen = o.port() == 0 && o.ingressInstances() > 1 ? -1 : o.port();
    IngressVerticle first = new IngressVerticle(live, listen, metrics).host(o.host()).tracing(tracing).modules(ROUTE_MODULES);
    return child(first).compose(id -> {
      port = first.actualPort();
      return o.ingressInstances() <= 1 ? Future.succeededFuture()
          : children(() -> new IngressVerticle(live, listen, metrics).host(o.host()).tracing(tracing).modules(ROUTE_MODULES),
              o.ingressInstances() - 1);
    });
  }

  /**
   * One line per rung left out at start (its credential unset or unreadable: the documented way to
   * leave an optional rung out), saying how to enable it and which intents it leaves without a
   * rung; an intent no rung of the manifest could ever serve is the manifest's mistake, a warning.
   */
  private static void reportLeftOut(Manifest manifest) {
    manifest.disabledTiers().forEach((name, why) -> {
      TierConfig t = manifest.routing().tiers().stream().filter(x -> x.name().equals(name)).findFirst().orElse(null);
      String enable = t == null || t.credential() == null ? "" : "; to enable it, provide " + t.credential().sourceDescription();
      List<String> stranded = manifest.intents().values().stream()
          .filter(i -> t != null && i.accepts(t.claim()) && manifest.enabledTiers().stream().noneMatch(e -> i.accepts(e.claim())))
          .map(i -> i.name()).toList();
      log.info("tier {} left out of the ladder: {}{}{}", name, why, enable, stranded.isEmpty() ? ""
          : "; until then intent" + (stranded.size() > 1 ? "s " : " ") + String.join(", ", stranded) + " (no other rung may answer it)"
              + " is answered 503 misconfigured");
    });
    manifest.intents().values().stream()
        .filter(i -> manifest.routing().tiers().stream().noneMatch(t -> i.accepts(t.claim())))
        .forEach(i -> log.warn("intent {} accepts no rung of the ladder: its requests will be answered 503 misconfigured", i.name()));
  }

  /**
   * Says at start who may call: open access in one line, or each tenant's keys that could not be
   * read and each strict tenant's intents left with no rung in its region (answered 503
   * {@code misconfigured}, never routed out of the region).
   */
  private void reportTenants(Manifest manifest) {
    if (!manifest.tenantsConfigured()) {
      log.info("no tenants configured: open access, every request is tenant public (a tenants: block requires keys)");
      return;
    }
    log.info("{} tenant(s) configured: {}; requests need a key", manifest.tenants().size(),
        manifest.tenants().stream().map(TenantConfig::id).toList());
    metrics.tenants(manifest.tenants().stream().map(TenantConfig::id).toList());
    manifest.missingTenantKeys().forEach((id, why) -> log.warn("tenant {}: key(s) left out: {}", id, why));
    Ladders ladders = Ladders.of(manifest);
    for (TenantConfig t : manifest.tenants()) {
      if (manifest.tenantKeys(t.id()).isEmpty()) {
        log.warn("tenant {} has no usable key: every request for it is refused 401", t.id());
      }
      if (t.strictRegion() == null) {
        continue;
      }
      for (IntentConfig i : manifest.intents().values()) {
        for (Direction d : Direction.values()) {
          if ((t.intents() == null || t.intents().contains(i.name())) && ladders.ladder(i.name(), d, t.strictRegion()).isEmpty()) {
            log.warn("tenant {} is misconfigured for intent {} ({}): residency strict, and no rung runs in region {}: "
                + "its requests are answered 503 misconfigured", t.id(), i.name(), d.name().toLowerCase(Locale.ROOT), t.strictRegion());
          }
        }
      }
    }
  }

  /**
   * Says at start what a node of a cluster shares and what it leaves to the others: replay and
   * coalescing are shared through Redis only, and a tier node without a chain reads a cached index
   * only Redis fills.
   */
  private void reportNode(Node node) {
    if (!node.clustered()) {
      return;
    }
    log.info("cluster node {} runs roles {}", node.id(), Role.names(o.roles()));
    if (o.redisUrl() == null && o.runs(Role.CHAIN)) {
      log.warn("clustered without Redis: replay and coalescing are per node (each chain's own dedupe and index); "
          + "give every node --redis to share them");
    }
    if (o.redisUrl() == null && o.runs(Role.TIERS) && !o.runs(Role.CHAIN) && IndexVerticle.neededBy(manifest)) {
      log.warn("a tiers node without a chain and without Redis: its cached-index rung reads an index no chain writes to");
    }
  }

  /** Undeploys the children started so far, last first (after a failed start, or for a clean stop); their failures are logged, not raised. */
  private Future<Void> undeployStarted() {
    Future<Void> f = Future.succeededFuture();
    for (int i = started.size() - 1; i >= 0; i--) {
      String id = started.get(i);
      f = f.compose(v -> vertx.undeploy(id).otherwise(t -> {
        log.warn("undeploying {}: {}", id, t.getMessage());
        return null;
      }));
    }
    return f.onComplete(x -> started.clear());
  }
}
