package dev.georesolver.cli;

import dev.georesolver.GeoResolver;
import dev.georesolver.cache.RedisUrl;
import dev.georesolver.bus.Addresses;
import dev.georesolver.reload.HangUp;
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
import java.util.concurrent.Callable;

/**
 * {@code georesolver [serve] [--manifest F] [--port N] [--redis URL] [--event-loops N] [--log-format text|json]}:
 * deploys the resolver and keeps running until the process is stopped. Flags win over the
 * environment ({@code GEO_MANIFEST}, {@code GEO_PORT}, {@code GEO_REDIS_URL}, {@code GEO_EVENT_LOOPS}).
 * An invalid manifest stops it before anything listens, with every problem listed and exit status 2.
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
    Manifest m;
    try {
      m = Manifests.load(manifest, context.env(), "refusing to start: ");
    } catch (CliException e) {
      context.err().println("georesolver: " + e.getMessage());
      return e.status();
    }
    // One event loop per core: nothing here blocks, and fewer loops means more of the event-bus
    // hops between verticles stay on one thread instead of waking another (Vert.x's default is two per core).
    Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(loops).setAddressResolverOptions(dnsOptions()));
    GeoResolver.Options options = GeoResolver.Options.defaults(port, context.env())
        .withRedis(storeUrl(redis, m))
        .withInstances(loops)
        .withManifestFile(Path.of(manifest).toAbsolutePath());
    GeoResolver.deploy(vertx, m, options).onSuccess(r -> onHangUpReload(vertx)).onFailure(t -> {
      if (t instanceof StateStoreException) {
        // A state file that is not a database or is held by another process: the operator's to fix, like a manifest.
        context.err().println("georesolver: refusing to start: " + t.getMessage());
        vertx.close().onComplete(x -> System.exit(Exit.USAGE));
        return;
      }
      log.error("georesolver failed to start: {}", t.getMessage(), t);
      vertx.close().onComplete(x -> System.exit(1));
    });
    Runtime.getRuntime().addShutdownHook(new Thread(() -> vertx.close().await(), "georesolver-shutdown"));
    return Exit.SERVING;
  }

  /** SIGHUP reloads the manifest, where the JVM lets the signal be handled (see {@link HangUp}). */
  private static void onHangUpReload(Vertx vertx) {
    HangUp.install(() -> vertx.eventBus().request(Addresses.MANIFEST_RELOAD, new JsonObject().put("trigger", "signal"),
        new DeliveryOptions().setSendTimeout(60_000).setLocalOnly(true)));
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
