package dev.georesolver.bench;

import dev.georesolver.GeoResolver;
import dev.georesolver.config.Manifest;
import dev.georesolver.config.ManifestLoader;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;

import java.nio.file.Path;

/**
 * The resolver deployed as {@code dev.georesolver.cli.Main} deploys it, but on a Vert.x with a chosen
 * event-loop pool and chosen instance counts: the experiment behind a proposed fix
 * (docs/benchmarks.md, "what to change"). Generic/HTTP rungs only (no local adapters).
 *
 * <p>{@code java -jar target/georesolver-bench.jar resolver --manifest F --port N [--event-loops 1]
 * [--chain-instances 1] [--ingress-instances 1]}
 */
public final class ResolverLauncher {

  private ResolverLauncher() {}

  public static void main(String[] args) throws Exception {
    Flags f = Flags.parse(args);
    Manifest manifest = ManifestLoader.load(Path.of(f.required("manifest")), System.getenv());
    int cores = Runtime.getRuntime().availableProcessors();
    int loops = f.integer("event-loops", VertxOptions.DEFAULT_EVENT_LOOP_POOL_SIZE);
    Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(loops));
    GeoResolver.Options d = GeoResolver.Options.defaults(f.integer("port", 8080), System.getenv());
    GeoResolver.Options o = new GeoResolver.Options(d.port(), f.integer("chain-instances", cores),
        f.integer("ingress-instances", cores), d.env(), null, d.localAdapters(), d.clock(), d.ticker(), d.random());
    GeoResolver.deploy(vertx, manifest, o)
        .onSuccess(r -> System.out.println("resolver (bench launcher, " + loops + " event loop(s)) listening on " + r.port()))
        .onFailure(t -> {
          t.printStackTrace();
          System.exit(1);
        });
  }
}
