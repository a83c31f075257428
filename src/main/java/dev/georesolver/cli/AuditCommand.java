package dev.georesolver.cli;

import dev.georesolver.config.Manifest;
import dev.georesolver.config.TenantConfig;
import dev.georesolver.state.AuditKey;
import dev.georesolver.state.AuditReader;
import dev.georesolver.state.StateStoreException;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * {@code georesolver audit verify [--tenant T] [--manifest M] [--redis URL]}: opens the state store
 * the manifest names (its SQLite file read-only, or its Redis), checks each anchor's signature and
 * age and each configured tenant's trail with the audit key ({@code AuditKey}), recomputes every
 * tenant's hash chain from its anchor, and prints each tenant's record count and its gap records
 * (records that never reached the store, which the chain says: refused by a full buffer, or lost
 * with a writer that stopped without closing). Exit 0 when every chain holds; 1 naming the first
 * broken record of each broken chain (tenant, seq, id, why), or, with {@code --complete}, when a
 * chain holds a gap record; 2 for a bad manifest or tenant; 3 when the store cannot be read.
 */
@Command(name = "audit", mixinStandardHelpOptions = true, versionProvider = Cli.Version.class,
    description = "The audit trail.", subcommands = {AuditCommand.Verify.class})
final class AuditCommand implements Runnable {

  @picocli.CommandLine.Spec
  picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** {@code audit verify}. */
  @Command(name = "verify", mixinStandardHelpOptions = true, versionProvider = Cli.Version.class,
      description = {"Recomputes each tenant's audit hash chain in the manifest's state store.",
          "Exit 0 when every chain holds, 1 naming the first broken record (tenant, seq, id)",
          "(or, with --complete, when a chain records missing records)."})
  static final class Verify implements Callable<Integer> {

    private final Cli.Context context;

    @Option(names = "--tenant", paramLabel = "T", description = "only this tenant's partition (default: every tenant's)")
    String tenant;

    @Option(names = "--manifest", paramLabel = "FILE", defaultValue = "conf/manifest.yaml",
        description = "the manifest whose state store is read (GEO_MANIFEST; default ${DEFAULT-VALUE})")
    String manifest;

    @Option(names = "--redis", paramLabel = "URL",
        description = "the shared store, redis://host:port, as serve was given it (GEO_REDIS_URL)")
    String redis;

    @Option(names = "--complete", description = "also fail when a chain holds gap records (records that never reached the store)")
    boolean complete;

    Verify(Cli.Context context) {
      this.context = context;
    }

    @Override
    public Integer call() {
      Manifest m;
      try {
        m = Manifests.load(manifest, context.env(), "", context.err()).manifest();
      } catch (CliException e) {
        context.err().println("georesolver: " + e.getMessage());
        return e.status();
      }
      if (tenant != null && !TenantConfig.ID_PATTERN.matcher(tenant).matches()) {
        context.err().println("georesolver: --tenant must be a tenant id (" + TenantConfig.ID_PATTERN.pattern() + ")");
        return Exit.USAGE;
      }
      String url = ServeCommand.storeUrl(redis, m);
      String backend = m.state().storeFor(url != null);
      List<AuditReader.Report> reports;
      try {
        AuditKey key = AuditKey.forVerify(m);
        if (!key.present()) {
          context.err().println("georesolver: no audit key (" + m.audit().keyEnv() + ", audit.key_file or " + AuditKey.generatedFile(m)
              + "): signed anchors cannot be checked");
        }
        AuditReader.Expect expect = AuditReader.Expect.of(m);
        reports = "redis".equals(backend)
            ? AuditReader.redis(url == null ? "redis://localhost:6379" : url, m.routing().idempotency().keyPrefix(), tenant, key, expect)
            : AuditReader.sqlite(Path.of(m.state().path()), tenant, key, expect);
      } catch (StateStoreException e) {
        context.err().println("georesolver: " + e.getMessage());
        return Exit.UNAVAILABLE;
      } catch (Exception e) {
        context.err().println("georesolver: cannot read the audit trail: " + e.getMessage());
        return Exit.UNAVAILABLE;
      }
      return print(reports, "redis".equals(backend) ? "Redis store" : "SQLite store " + m.state().path());
    }

    private int print(List<AuditReader.Report> reports, String where) {
      var out = context.out();
      boolean ok = true;
      long total = 0;
      for (AuditReader.Report r : reports) {
        total += r.records();
        String from = r.anchor().seq() == 0 ? "" : " (from anchor seq " + r.anchor().seq() + ")";
        if (r.ok()) {
          out.println("  " + r.tenant() + ": " + r.records() + " record(s)" + from + ", chain intact"
              + (r.gaps().records() == 0 ? "" : "; " + r.gaps().describe()));
        } else {
          ok = false;
          out.println("  " + r.tenant() + ": BROKEN at seq " + r.broken().seq() + " (id " + r.broken().id() + "): " + r.broken().why());
        }
      }
      long gapped = reports.stream().filter(r -> r.ok() && !r.complete()).count();
      if (ok && complete && gapped > 0) {
        context.err().println("georesolver: " + gapped + " tenant(s)' chains hold gap records: records never reached the store");
        return Exit.NOT_RESOLVED;
      }
      if (ok) {
        out.println("audit verify: OK, " + reports.size() + " tenant(s), " + total + " record(s) in the " + where
            + (gapped == 0 ? "" : "; " + gapped + " tenant(s) with gap records"));
        return Exit.OK;
      }
      AuditReader.Report first = reports.stream().filter(r -> !r.ok()).findFirst().orElseThrow();
      context.err().println("georesolver: audit chain broken: tenant " + first.tenant() + ", seq " + first.broken().seq() + ", id "
          + first.broken().id());
      return Exit.NOT_RESOLVED;
    }
  }
}
