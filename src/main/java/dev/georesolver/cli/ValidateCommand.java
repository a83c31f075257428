package dev.georesolver.cli;

import dev.georesolver.config.Manifest;
import dev.georesolver.config.Reference;
import dev.georesolver.config.TierConfig;
import dev.georesolver.logging.Logs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.concurrent.Callable;

/**
 * {@code georesolver validate [manifest]}: checks a manifest as {@code serve} would at start, for a
 * GitOps repository's CI step. Exit 0 with the revision and the ladder on standard output, or 2 with
 * every problem listed (each with its path) on standard error. Tiers whose credential is not in
 * this environment are reported as left out, not as problems: CI rarely holds production secrets.
 * With {@code --explain} it then prints the effective manifest, one value a line, each annotated
 * as {@code docs/configuration.md} describes its key (type, unit, default, allowed values, whether
 * a reload applies it or it needs a restart).
 *
 * <p>With {@code --simulate} it then proves the ladder offline ({@link Simulation}): stand-ins for the
 * remote rungs answering at their {@code typical_ms}, each rung forced open in turn under a
 * synthetic load, and per case which rung answered, p99 against the budget, replay idempotency and
 * residency of strict tenants ({@link SimulationReport}). Exit 1 when a case fails; with
 * {@code --json} the report alone, as one JSON object.
 */
@Command(name = "validate", mixinStandardHelpOptions = true, versionProvider = Cli.Version.class,
    description = {"Checks a manifest as serve would at start: exit 0 if it is valid, 2 with every problem listed.",
        "Tiers whose credential is unset here are reported as left out, not as problems.",
        "With --simulate, also runs the ladder against local stand-ins with each breaker forced open in turn:",
        "exit 1 when a case breaks the budget, replay idempotency or a strict tenant's residency."})
final class ValidateCommand implements Callable<Integer> {

  /** The simulation's defaults, written once: the options' defaults and the check that they go with --simulate. */
  private static final int REQUESTS = 200;
  private static final int CONCURRENCY = 8;
  private static final int RATE = 20;

  private final Cli.Context context;

  @Parameters(index = "0", arity = "0..1", paramLabel = "MANIFEST",
      description = "the manifest file (default: GEO_MANIFEST, else conf/manifest.yaml)")
  String file;

  @Option(names = "--explain", description = "also print the effective manifest, each value with its type, unit, default, "
      + "allowed values and whether a reload applies it (as docs/configuration.md)")
  boolean explain;

  @Option(names = "--simulate", description = "then start the ladder against local stand-ins answering in each rung's dialect "
      + "at its typical_ms, force each rung's breaker open in turn under a synthetic load, and report per case which rung "
      + "answered, p99 against the budget, whether a replay is idempotent and whether each strict tenant's addresses stayed "
      + "in its region; exit 1 when a case fails. No network, no credentials, no Redis")
  boolean simulate;

  @Option(names = "--requests", paramLabel = "N", defaultValue = "" + REQUESTS,
      description = "with --simulate: requests per case, 1 to " + SimulationPlan.MAX_REQUESTS + " (default: ${DEFAULT-VALUE})")
  int requests;

  @Option(names = "--concurrency", paramLabel = "N", defaultValue = "" + CONCURRENCY,
      description = "with --simulate: requests in flight at once, 1 to " + SimulationPlan.MAX_CONCURRENCY + " (default: ${DEFAULT-VALUE})")
  int concurrency;

  @Option(names = "--rate", paramLabel = "R", defaultValue = "" + RATE,
      description = "with --simulate: requests started per second at most, 0.1 to " + SimulationPlan.MAX_RATE + " (default: ${DEFAULT-VALUE})")
  double rate;

  @Option(names = "--json", description = "with --simulate: print the report as one JSON object instead of the table")
  boolean json;

  ValidateCommand(Cli.Context context) {
    this.context = context;
  }

  @Override
  public Integer call() {
    String path = file != null ? file : context.env().getOrDefault("GEO_MANIFEST", Manifests.DEFAULT_PATH);
    if (!simulate && (json || requests != REQUESTS || concurrency != CONCURRENCY || rate != RATE)) {
      context.err().println("georesolver: --requests, --concurrency, --rate and --json go with --simulate");
      return Exit.USAGE;
    }
    if (requests < 1 || requests > SimulationPlan.MAX_REQUESTS || concurrency < 1 || concurrency > SimulationPlan.MAX_CONCURRENCY
        || !(rate >= 0.1 && rate <= SimulationPlan.MAX_RATE)) {
      context.err().println("georesolver: --requests must be 1 to " + SimulationPlan.MAX_REQUESTS + ", --concurrency 1 to "
          + SimulationPlan.MAX_CONCURRENCY + " and --rate 0.1 to " + SimulationPlan.MAX_RATE);
      return Exit.USAGE;
    }
    Manifest m;
    Manifests.Loaded loaded;
    try {
      loaded = Manifests.load(path, context.env(), "", context.err());
      m = loaded.manifest();
      path = loaded.where();
    } catch (CliException e) {
      context.err().println("georesolver: " + e.getMessage());
      return e.status();
    }
    if (simulate && json) {
      return simulate(loaded);
    }
    var out = context.out();
    out.println(path + ": valid (revision " + m.revision() + ")");
    out.println("  ladder: " + String.join(" > ", m.enabledTiers().stream().map(TierConfig::name).toList()));
    m.disabledTiers().forEach((name, why) -> out.println("  left out here: " + name + " (" + why + ")"));
    out.println("  intents: " + String.join(", ", m.intentNames()) + " (default " + m.defaultIntent() + ")");
    if (explain) {
      out.println("effective manifest (see docs/configuration.md):");
      Reference.explain(m).forEach(line -> out.println("  " + line));
    }
    return simulate ? simulate(loaded) : Exit.OK;
  }

  /**
   * Runs the simulation on the valid manifest {@code loaded} and prints its report: exit 0 when
   * every case passed, {@link Exit#NOT_RESOLVED} when one broke the budget, idempotency or
   * residency, {@link Exit#UNAVAILABLE} when the simulation itself could not run.
   */
  private int simulate(Manifests.Loaded loaded) {
    // The report is the answer: the resolver's log goes to standard error, warnings only.
    Logs.toStandardError(context.env());
    Simulation.Outcome o;
    try {
      String yaml = loaded.file() == null ? Manifests.bundled() : Files.readString(loaded.file(), StandardCharsets.UTF_8);
      o = Simulation.run(loaded.manifest(), yaml, requests, concurrency, rate);
    } catch (IOException e) {
      context.err().println("georesolver: cannot read manifest " + loaded.where() + ": " + e.getMessage());
      return Exit.USAGE;
    } catch (CliException e) {
      context.err().println("georesolver: simulation: " + e.getMessage());
      return e.status();
    }
    String revision = loaded.manifest().revision();
    if (json) {
      context.out().println(SimulationReport.json(loaded.where(), revision, o.plan(), requests, o.results()).encode());
    } else {
      SimulationReport.table(loaded.where(), revision, o.plan(), requests, o.results()).forEach(context.out()::println);
    }
    return SimulationReport.passed(o.results()) ? Exit.OK : Exit.NOT_RESOLVED;
  }
}
