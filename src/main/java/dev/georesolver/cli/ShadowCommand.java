package dev.georesolver.cli;

import dev.georesolver.config.Manifest;
import dev.georesolver.shadow.Advisor;
import dev.georesolver.shadow.PairSummary;
import dev.georesolver.shadow.ShadowFormatException;
import dev.georesolver.shadow.ShadowReport;
import dev.georesolver.shadow.ShadowView;
import dev.georesolver.state.ShadowReader;
import dev.georesolver.state.StateStoreException;
import io.vertx.core.json.JsonObject;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code georesolver shadow report} and {@code georesolver shadow advise}: the shadow figures read
 * from a running server's {@code GET /v1/shadow} ({@code --server URL}, with an admin's
 * {@code --key}), or else straight from the state store the manifest names (its SQLite file
 * read-only, or its Redis). {@code report} prints a table per pair and one plain sentence each;
 * {@code advise} proposes a reorder of the manifest's {@code routing.tiers} as a diff with its
 * evidence, and never changes anything. Exit 0 once printed; 2 for a bad manifest or flag; 3 when
 * the figures cannot be had.
 */
@Command(name = "shadow", mixinStandardHelpOptions = true, versionProvider = Cli.Version.class,
    description = "How far each rung's answers lie from the rung above, from shadow sampling.",
    subcommands = {ShadowCommand.Report.class, ShadowCommand.Advise.class})
final class ShadowCommand implements Runnable {

  @picocli.CommandLine.Spec
  picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** Where the figures come from: a server, or the manifest's state store. */
  static final class Source {

    @Option(names = "--server", paramLabel = "URL", description = "a running resolver, e.g. http://localhost:8080 (GEO_SERVER)")
    String server;

    @Option(names = "--key", paramLabel = "KEY", description = "an admin tenant's key for the server (GEO_API_KEY)")
    String key;

    @Option(names = "--manifest", paramLabel = "FILE", defaultValue = "conf/manifest.yaml",
        description = "the manifest whose state store (and, for advise, ladder) is read (GEO_MANIFEST; default ${DEFAULT-VALUE})")
    String manifest;

    @Option(names = "--redis", paramLabel = "URL", description = "the shared store, redis://host:port, as serve was given it (GEO_REDIS_URL)")
    String redis;

    /** The figures, and where they were read. */
    List<PairSummary> read(Cli.Context context, Manifest m) throws CliException {
      if (server != null && !server.isBlank()) {
        return fromServer();
      }
      String url = ServeCommand.storeUrl(redis, m);
      try {
        var table = "redis".equals(m.state().storeFor(url != null))
            ? ShadowReader.redis(url == null ? "redis://localhost:6379" : url, m.routing().idempotency().keyPrefix())
            : ShadowReader.sqlite(Path.of(m.state().path()));
        return table.summaries();
      } catch (StateStoreException | ShadowFormatException e) {
        throw new CliException(Exit.UNAVAILABLE, e.getMessage());
      }
    }

    private List<PairSummary> fromServer() throws CliException {
      URI uri;
      try {
        uri = URI.create(server.replaceAll("/+$", "") + "/v1/shadow");
      } catch (IllegalArgumentException e) {
        throw new CliException(Exit.USAGE, "--server must be a URL such as http://localhost:8080");
      }
      HttpRequest.Builder req = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).GET();
      if (key != null && !key.isBlank()) {
        req.header("Authorization", "Bearer " + key);
      }
      try {
        HttpResponse<String> resp = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build()
            .send(req.build(), HttpResponse.BodyHandlers.ofString());
        if (resp.statusCode() != 200) {
          throw new CliException(Exit.UNAVAILABLE, uri + " answered " + resp.statusCode()
              + (resp.statusCode() == 401 || resp.statusCode() == 403 ? " (the figures are an admin's: --key)" : ""));
        }
        return ShadowView.parse(new JsonObject(resp.body()).getMap());
      } catch (IOException e) {
        throw new CliException(Exit.UNAVAILABLE, "cannot reach " + uri + ": " + e.getMessage());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new CliException(Exit.UNAVAILABLE, "interrupted");
      } catch (ShadowFormatException | io.vertx.core.json.DecodeException e) {
        throw new CliException(Exit.UNAVAILABLE, uri + " did not answer shadow figures: " + e.getMessage());
      }
    }
  }

  /** {@code shadow report}. */
  @Command(name = "report", mixinStandardHelpOptions = true, versionProvider = Cli.Version.class,
      description = {"Per pair of rungs: how far the shadow rung's answers lie from the served one's, how often only one",
          "found something, and at what latency; one plain sentence each."})
  static final class Report implements Callable<Integer> {

    private final Cli.Context context;

    @Mixin
    Source source = new Source();

    Report(Cli.Context context) {
      this.context = context;
    }

    @Override
    public Integer call() {
      try {
        Manifest m = source.server != null ? null : Manifests.load(source.manifest, context.env(), "", context.err()).manifest();
        context.out().print(ShadowReport.text(source.read(context, m)));
        return Exit.OK;
      } catch (CliException e) {
        context.err().println("georesolver: " + e.getMessage());
        return e.status();
      }
    }
  }

  /** {@code shadow advise}. */
  @Command(name = "advise", mixinStandardHelpOptions = true, versionProvider = Cli.Version.class,
      description = {"Proposes a reorder of routing.tiers, as a diff with its evidence, from the shadow figures.",
          "Nothing is changed: edit the manifest to take it."})
  static final class Advise implements Callable<Integer> {

    private final Cli.Context context;

    @Mixin
    Source source = new Source();

    @Option(names = "--allow-weaker-claim", description = "propose a rung above one with a stronger claim when the figures qualify")
    boolean allowWeakerClaim;

    Advise(Cli.Context context) {
      this.context = context;
    }

    @Override
    public Integer call() {
      try {
        Manifest m = Manifests.load(source.manifest, context.env(), "", context.err()).manifest();
        List<Advisor.Rung> ladder = m.routing().tiers().stream().map(t -> new Advisor.Rung(t.name(), t.claim())).toList();
        Advisor.Advice advice = Advisor.advise(ladder, source.read(context, m),
            Advisor.Rule.DEFAULT.withAllowWeakerClaim(allowWeakerClaim));
        context.out().print(advice.text());
        return Exit.OK;
      } catch (CliException e) {
        context.err().println("georesolver: " + e.getMessage());
        return e.status();
      }
    }
  }
}
