package dev.georesolver.cli;

import dev.georesolver.GeoResolver;
import dev.georesolver.redis.RedisUrl;
import dev.georesolver.bus.Addresses;
import dev.georesolver.reload.HangUp;
import dev.georesolver.reload.HeldUntilStarted;
import dev.georesolver.bus.Role;
import dev.georesolver.bus.Node;
import dev.georesolver.state.StateStoreException;
import dev.georesolver.config.Manifest;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.dns.AddressResolverOptions;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * {@code georesolver [serve] [--manifest F] [--port N] [--host ADDRESS] [--redis URL] [--event-loops N] [--log-format text|json]
 * [--roles R,...] [--cluster [--cluster-members H:P,...] [--cluster-host H] [--cluster-port P] [--cluster-name N]
 * [--bus-port P] (--cluster-cert F --cluster-key F --cluster-ca F | --cluster-insecure)]}: deploys the resolver and keeps running until the process is stopped. Flags win
 * over the environment ({@code GEO_MANIFEST}, {@code GEO_PORT}, {@code GEO_REDIS_URL},
 * {@code GEO_EVENT_LOOPS}, {@code GEO_ROLES}, {@code GEO_CLUSTER}, {@code GEO_CLUSTER_*},
 * {@code GEO_BUS_PORT}). An invalid manifest, or a role set that cannot serve ({@link Role#cannotServe}),
 * stops it before anything listens, with exit status 2; so does a clustered start without the
 * certificates for mutual TLS between nodes and {@code --cluster-host}
 * ({@link ClusterBus#missing}), unless {@code --cluster-insecure} says it is for local development.
 */
@Command(name = "serve", mixinStandardHelpOptions = true, versionProvider = Cli.Version.class,
    description = {"Runs the resolver: HTTP (/v1, the Nominatim and Google endpoints, /health, /metrics, /manifest) and the "
        + "event-bus service. The default command.",
        "Flags win over the environment variables named with each."})
final class ServeCommand implements Callable<Integer> {

  private static final Logger log = LoggerFactory.getLogger(ServeCommand.class);

  private final Cli.Context context;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--manifest", paramLabel = "FILE", defaultValue = "conf/manifest.yaml",
      description = "the routing manifest (GEO_MANIFEST; default ${DEFAULT-VALUE})")
  String manifest;

  @Option(names = "--port", paramLabel = "PORT", defaultValue = "8080",
      description = "HTTP port, 0 for any free one (GEO_PORT; default ${DEFAULT-VALUE})")
  int port;

  @Option(names = "--host", paramLabel = "ADDRESS",
      description = "the address the HTTP server listens on: 127.0.0.1 for this machine only, 0.0.0.0 for every interface "
          + "(GEO_HOST; default: the manifest's server.host, 0.0.0.0)")
  String host;

  @Option(names = "--redis", paramLabel = "URL",
      description = "the shared store, redis://host:port or redis-cluster://host:port,host:port; turns Redis on whatever the manifest says (GEO_REDIS_URL)")
  String redis;

  @Option(names = "--event-loops", paramLabel = "N",
      description = "event-loop threads, and instances of the chain and ingress verticles (GEO_EVENT_LOOPS; default: the "
          + "available processors)")
  Integer eventLoops;

  @Option(names = "--log-format", paramLabel = "text|json",
      description = "one line of text per event, or one JSON object (GEO_LOG_FORMAT; default text)")
  String logFormat;

  @Option(names = "--roles", paramLabel = "ROLE,...", defaultValue = "all",
      description = "the parts this process runs: ingress, chain, tiers, state, or all (GEO_ROLES; default all). "
          + "Anything short of all needs --cluster")
  String roles;

  @Option(names = "--cluster", description = "join a clustered event bus (Hazelcast, TCP/IP join) (GEO_CLUSTER=true)")
  boolean cluster;

  @Option(names = "--cluster-members", paramLabel = "HOST:PORT,...",
      description = "other members' Hazelcast addresses (GEO_CLUSTER_MEMBERS); none: this node starts the cluster")
  String clusterMembers;

  @Option(names = "--cluster-host", paramLabel = "HOST",
      description = "this node's address for Hazelcast and the event bus (GEO_CLUSTER_HOST; default: Hazelcast's choice)")
  String clusterHost;

  @Option(names = "--cluster-port", paramLabel = "PORT", defaultValue = "5701",
      description = "this node's Hazelcast port (GEO_CLUSTER_PORT; default ${DEFAULT-VALUE})")
  int clusterPort;

  @Option(names = "--cluster-name", paramLabel = "NAME",
      description = "the cluster to join: only members of that name (GEO_CLUSTER_NAME; default georesolver)")
  String clusterName;

  @Option(names = "--cluster-cert", paramLabel = "FILE",
      description = "this node's certificate (PEM) for mutual TLS on the event bus between nodes (GEO_CLUSTER_CERT)")
  String clusterCert;

  @Option(names = "--cluster-key", paramLabel = "FILE",
      description = "the private key (PEM) of --cluster-cert (GEO_CLUSTER_KEY)")
  String clusterKey;

  @Option(names = "--cluster-ca", paramLabel = "FILE",
      description = "the cluster CA's certificate (PEM): only nodes whose certificate it signed are talked to (GEO_CLUSTER_CA)")
  String clusterCa;

  @Option(names = "--cluster-insecure",
      description = "local development only: a plaintext, unauthenticated event bus between nodes, without certificates "
          + "(GEO_CLUSTER_INSECURE=true)")
  boolean clusterInsecure;

  @Option(names = "--bus-port", paramLabel = "PORT", defaultValue = "0",
      description = "the event bus's port between nodes (GEO_BUS_PORT; default: any free one)")
  int busPort;

  ServeCommand(Cli.Context context) {
    this.context = context;
  }

  @Override
  public Integer call() {
    int loops = eventLoops == null ? Runtime.getRuntime().availableProcessors() : eventLoops;
    if (port < 0 || port > 65535) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--port must be in [0, 65535], got " + port);
    }
    if (loops < 1 || loops > 256) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--event-loops must be in [1, 256], got " + loops);
    }
    if (redis != null && !redis.isBlank()) {
      try {
        RedisUrl.parse(redis);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--redis: " + e.getMessage());
      }
    }
    Set<Role> running;
    ClusterBus.Settings joining = null;
    try {
      running = Role.parse(roles);
      if (cluster) {
        if (clusterPort < 1 || clusterPort > 65535 || busPort < 0 || busPort > 65535) {
          throw new IllegalArgumentException("--cluster-port must be in [1, 65535] and --bus-port in [0, 65535]");
        }
        List<String> members = ClusterBus.members(clusterMembers);
        String refused = clusterTrust();
        if (refused != null) {
          context.err().println("georesolver: refusing to start: " + refused);
          return Exit.USAGE;
        }
        joining = new ClusterBus.Settings(ClusterBus.name(clusterName, context.env()), members,
            clusterHost == null || clusterHost.isBlank() ? null : clusterHost.strip(), clusterPort, busPort,
            clusterInsecure ? null : new ClusterBus.Tls(Path.of(clusterCert.strip()), Path.of(clusterKey.strip()),
                Path.of(clusterCa.strip())));
      }
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    String refusal = Role.cannotServe(running, cluster).orElse(null);
    if (refusal != null) {
      context.err().println("georesolver: refusing to start: " + refusal);
      return Exit.USAGE;
    }
    Manifest m;
    Path file;
    try {
      Manifests.Loaded loaded = Manifests.load(manifest, context.env(), "refusing to start: ", context.err());
      m = loaded.manifest();
      file = loaded.file();
    } catch (CliException e) {
      context.err().println("georesolver: " + e.getMessage());
      return e.status();
    }
    // One event loop per core: nothing here blocks, and fewer loops means more of the event-bus
    // hops between verticles stay on one thread instead of waking another (Vert.x's default is two per core).
    VertxOptions vo = new VertxOptions().setEventLoopPoolSize(loops).setAddressResolverOptions(dnsOptions());
    GeoResolver.Options options = GeoResolver.Options.defaults(port, context.env())
        .withRedis(storeUrl(redis, m))
        .withInstances(loops)
        .withManifestFile(file)
        .withHost(host)
        .withRoles(running);
    if (joining == null) {
      start(Vertx.vertx(vo), m, options);
      return Exit.SERVING;
    }
    ClusterBus.Settings s = joining;
    if (s.tls() == null) {
      log.warn("CLUSTER INSECURE (--cluster-insecure): the event bus between nodes is plaintext and unauthenticated, and "
          + "Hazelcast binds {}: any process that reaches these ports can join, read every message and act as any tenant or "
          + "admin. For local development only; give --cluster-cert, --cluster-key and --cluster-ca in production",
          s.host() == null ? "every interface" : s.host());
    }
    ClusterBus.join(vo, s).onSuccess(j -> {
      log.info("joined cluster {} as node {} ({} member(s); Hazelcast {}:{}, event bus port {}, {})", s.name(), j.nodeId(), j.members(),
          s.host() == null ? "*" : s.host(), s.port(), s.busPort() == 0 ? "any" : s.busPort(),
          s.tls() == null ? "PLAINTEXT" : "mutual TLS");
      Node.install(j.vertx(), new Node(true, j.nodeId(), running));
      start(j.vertx(), m, options);
    }).onFailure(t -> {
      log.error("georesolver could not join cluster {}: {}", s.name(), t.getMessage(), t);
      System.exit(1);
    });
    return Exit.SERVING;
  }

  /**
   * Why this clustered start may not go on, or null: without {@code --cluster-insecure} it needs
   * the three certificate files and {@code --cluster-host} (every one missing is named); with it,
   * none of the certificates (a start that gives both is ambiguous about what it wants).
   */
  private String clusterTrust() {
    boolean anyTls = clusterCert != null || clusterKey != null || clusterCa != null;
    if (clusterInsecure) {
      return anyTls ? "--cluster-insecure turns TLS between nodes off: give it or the certificates (--cluster-cert, "
          + "--cluster-key, --cluster-ca), not both" : null;
    }
    List<String> missing = ClusterBus.missing(clusterCert, clusterKey, clusterCa, clusterHost);
    if (missing.isEmpty()) {
      return null;
    }
    return "a clustered node talks to the others over mutual TLS only, and this start lacks:\n  "
        + String.join("\n  ", missing)
        + "\nsee docs/clusters-and-redis.md (certificates); --cluster-insecure runs a plaintext, unauthenticated cluster "
        + "for local development only";
  }

  /** Deploys the resolver on {@code vertx}; a failed start ends the process (2 for a state file the operator must fix, else 1). */
  private void start(Vertx vertx, Manifest m, GeoResolver.Options options) {
    // Installed before the deployment: a SIGHUP while the verticles deploy is held and reloads once
    // they are up (the HTTP port opens before the last of them is deployed).
    HeldUntilStarted hangUp = onHangUpReload(vertx);
    java.util.concurrent.atomic.AtomicReference<GeoResolver.Running> running = new java.util.concurrent.atomic.AtomicReference<>();
    GeoResolver.deploy(vertx, m, options).onSuccess(r -> {
      running.set(r);
      hangUp.started();
    }).onFailure(t -> {
      if (t instanceof StateStoreException) {
        // A state file that is not a database or is held by another process: the operator's to fix, like a manifest.
        context.err().println("georesolver: refusing to start: " + t.getMessage());
        vertx.close().onComplete(x -> System.exit(Exit.USAGE));
        return;
      }
      log.error("georesolver failed to start: {}", t.getMessage(), t);
      vertx.close().onComplete(x -> System.exit(1));
    });
    // Part by part, so the chain hands its buffered audit records to a state store still running.
    Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(vertx, running.get()), "georesolver-shutdown"));
  }

  private static void stop(Vertx vertx, GeoResolver.Running running) {
    if (running != null) {
      try {
        running.stop().toCompletionStage().toCompletableFuture().get(15, java.util.concurrent.TimeUnit.SECONDS);
      } catch (Exception e) {
        log.warn("stopping part by part did not finish ({}); closing", String.valueOf(e.getMessage()));
      }
    }
    vertx.close().await();
  }

  /** SIGHUP reloads the manifest, where the JVM lets the signal be handled (see {@link HangUp}); held until started. */
  private static HeldUntilStarted onHangUpReload(Vertx vertx) {
    HeldUntilStarted reload = new HeldUntilStarted(() -> vertx.eventBus().request(Addresses.MANIFEST_RELOAD,
        new JsonObject().put("trigger", "signal"), new DeliveryOptions().setSendTimeout(60_000).setLocalOnly(true)));
    HangUp.install(reload::fire);
    return reload;
  }

  /**
   * DNS that fails fast: a query gives up after a second and a name that does not resolve is
   * remembered for ten seconds, so an offline machine does not wait out its resolver on every call.
   */
  static AddressResolverOptions dnsOptions() {
    return new AddressResolverOptions().setQueryTimeout(1000).setCacheNegativeTimeToLive(10);
  }

  /**
   * The shared store's URL: {@code --redis} / {@code GEO_REDIS_URL} turns Redis on whatever the
   * manifest says; a manifest asking for Redis without a URL gets the local default.
   *
   * @param flag the URL given, or null
   */
  static String storeUrl(String flag, Manifest manifest) {
    if (flag != null && !flag.isBlank()) {
      return flag;
    }
    return manifest.routing().idempotency().redis() ? "redis://localhost:6379" : null;
  }
}
