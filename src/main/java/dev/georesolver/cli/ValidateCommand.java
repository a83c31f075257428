package dev.georesolver.cli;

import dev.georesolver.config.Manifest;
import dev.georesolver.config.Reference;
import dev.georesolver.config.TierConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.concurrent.Callable;

/**
 * {@code georesolver validate [manifest]}: checks a manifest as {@code serve} would at start, for a
 * GitOps repository's CI step. Exit 0 with the revision and the ladder on standard output, or 2 with
 * every problem listed (each with its path) on standard error. Tiers whose credential is not in
 * this environment are reported as left out, not as problems: CI rarely holds production secrets.
 * With {@code --explain} it then prints the effective manifest, one value a line, each annotated
 * as {@code docs/configuration.md} describes its key (type, unit, default, allowed values, whether
 * a reload applies it or it needs a restart).
 */
@Command(name = "validate", mixinStandardHelpOptions = true, versionProvider = Cli.Version.class,
    description = {"Checks a manifest as serve would at start: exit 0 if it is valid, 2 with every problem listed.",
        "Tiers whose credential is unset here are reported as left out, not as problems."})
final class ValidateCommand implements Callable<Integer> {

  private final Cli.Context context;

  @Parameters(index = "0", arity = "0..1", paramLabel = "MANIFEST",
      description = "the manifest file (default: GEO_MANIFEST, else conf/manifest.yaml)")
  String file;

  @Option(names = "--explain", description = "also print the effective manifest, each value with its type, unit, default, "
      + "allowed values and whether a reload applies it (as docs/configuration.md)")
  boolean explain;

  ValidateCommand(Cli.Context context) {
    this.context = context;
  }

  @Override
  public Integer call() {
    String path = file != null ? file : context.env().getOrDefault("GEO_MANIFEST", Manifests.DEFAULT_PATH);
    Manifest m;
    try {
      Manifests.Loaded loaded = Manifests.load(path, context.env(), "", context.err());
      m = loaded.manifest();
      path = loaded.where();
    } catch (CliException e) {
      context.err().println("georesolver: " + e.getMessage());
      return e.status();
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
    return Exit.OK;
  }
}
