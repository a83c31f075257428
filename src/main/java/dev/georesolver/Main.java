package dev.georesolver;

import dev.georesolver.config.Manifest;
import dev.georesolver.config.ManifestException;
import dev.georesolver.config.ManifestLoader;
import dev.georesolver.logging.Logs;
import dev.georesolver.state.StateStoreException;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.dns.AddressResolverOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * {@code java -jar target/georesolver.jar [--manifest conf/manifest.yaml] [--port 8080] [--redis redis://host:6379]}.
 *
 * <p>Flags win over the environment ({@code GEO_MANIFEST}, {@code GEO_PORT}, {@code GEO_REDIS_URL}).
 * An invalid manifest stops the process before anything listens, with every problem listed and exit
 * status 2; so does a state file that cannot be used (not a database, locked by another process).
 */
public final class Main {

  private static final Logger log = LoggerFactory.getLogger(Main.class);

  /** Exit status for bad flags or an invalid manifest. */
  static final int EXIT_CONFIG = 2;

  private Main() {}

  public static void main(String[] args) {
    Cli cli;
    try {
      args = Logs.configure(args, System.getenv());
      cli = Cli.parse(args, System.getenv());
    } catch (IllegalArgumentException e) {
      System.err.println("georesolver: " + e.getMessage());
      System.err.println(Cli.USAGE);
      System.exit(EXIT_CONFIG);
      return;
    }
    if (cli.help()) {
      System.out.println(Cli.USAGE);
      return;
    }
    Manifest manifest;
    try {
      manifest = ManifestLoader.load(Path.of(cli.manifest()), System.getenv());
    } catch (ManifestException e) {
      System.err.println("georesolver: refusing to start: " + cli.manifest() + " is invalid:");
      e.problems().forEach(p -> System.err.println("  - " + p));
      System.exit(EXIT_CONFIG);
      return;
    } catch (IOException e) {
      System.err.println("georesolver: cannot read manifest " + cli.manifest() + ": " + e.getMessage());
      System.exit(EXIT_CONFIG);
      return;
    }
    String redis = storeUrl(cli, manifest);
    // One event loop per core: nothing here blocks, and fewer loops means more of the event-bus
    // hops between verticles stay on one thread instead of waking another (Vert.x's default is two per core).
    Vertx vertx = Vertx.vertx(new VertxOptions()
        .setEventLoopPoolSize(cli.eventLoops())
        .setAddressResolverOptions(dnsOptions()));
    GeoResolver.Options options = GeoResolver.Options.defaults(cli.port(), System.getenv())
        .withRedis(redis)
        .withInstances(cli.eventLoops());
    GeoResolver.deploy(vertx, manifest, options).onFailure(t -> {
      if (t instanceof StateStoreException) {
        System.err.println("georesolver: refusing to start: " + t.getMessage());
        vertx.close().onComplete(x -> System.exit(EXIT_CONFIG));
        return;
      }
      log.error("georesolver failed to start: {}", t.getMessage(), t);
      vertx.close().onComplete(x -> System.exit(1));
    });
    Runtime.getRuntime().addShutdownHook(new Thread(() -> vertx.close().await(), "georesolver-shutdown"));
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
   */
  static String storeUrl(Cli cli, Manifest manifest) {
    if (cli.redisUrl() != null) {
      return cli.redisUrl();
    }
    return manifest.routing().idempotency().redis() ? "redis://localhost:6379" : null;
  }

  /**
   * Parsed command line.
   *
   * @param manifest manifest path
   * @param port HTTP port
   * @param redisUrl Redis URL, or null for the manifest's store choice
   * @param help whether usage was asked for
   * @param eventLoops event-loop threads, and instances of the chain and ingress verticles
   */
  record Cli(String manifest, int port, String redisUrl, boolean help, int eventLoops) {
    static final String USAGE = "usage: java -jar target/georesolver.jar [--manifest conf/manifest.yaml] [--port 8080] "
        + "[--redis redis://host:6379] [--event-loops N] [--log-format text|json]\n"
        + "  environment: GEO_MANIFEST, GEO_PORT, GEO_REDIS_URL, GEO_EVENT_LOOPS, GEO_LOG_FORMAT (flags win)\n"
        + "  --event-loops defaults to the number of available processors";

    static Cli parse(String[] args, Map<String, String> env) {
      String manifest = env.getOrDefault("GEO_MANIFEST", "conf/manifest.yaml");
      String port = env.getOrDefault("GEO_PORT", "8080");
      String redis = env.get("GEO_REDIS_URL");
      String loops = env.getOrDefault("GEO_EVENT_LOOPS", Integer.toString(Runtime.getRuntime().availableProcessors()));
      boolean help = false;
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        switch (a) {
          case "--manifest" -> manifest = value(args, ++i, a);
          case "--port" -> port = value(args, ++i, a);
          case "--redis" -> redis = value(args, ++i, a);
          case "--event-loops" -> loops = value(args, ++i, a);
          case "-h", "--help" -> help = true;
          default -> throw new IllegalArgumentException("unknown argument " + a);
        }
      }
      int p;
      try {
        p = Integer.parseInt(port);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("port must be a number, got " + port);
      }
      if (p < 0 || p > 65535) {
        throw new IllegalArgumentException("port must be in [0, 65535], got " + p);
      }
      int n;
      try {
        n = Integer.parseInt(loops);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("event loops must be a number, got " + loops);
      }
      if (n < 1 || n > 256) {
        throw new IllegalArgumentException("event loops must be in [1, 256], got " + n);
      }
      return new Cli(manifest, p, redis == null || redis.isBlank() ? null : redis, help, n);
    }

    private static String value(String[] args, int i, String flag) {
      if (i >= args.length) {
        throw new IllegalArgumentException(flag + " needs a value");
      }
      return args[i];
    }
  }
}
