package dev.georesolver.cli;

import dev.georesolver.batch.BatchInputException;
import dev.georesolver.batch.BatchLimits;
import dev.georesolver.batch.OutputFormat;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code georesolver batch <input> -o <output> [--resume] [--concurrency N] [--format F] [--progress P] …}:
 * resolves every row of a CSV, JSON Lines or JSON array file, in this process or against
 * {@code --server}, and writes the input columns with the results, in input order.
 *
 * <p>The input is read through once first, so a file that is no batch (or is over
 * {@code --max-rows}) is refused before anything is sent, and the total is known for the progress
 * bar. Ctrl-C (or a crash) leaves {@code <output>.progress}; {@code --resume} continues from it, and
 * the finished output is the same as an uninterrupted run's. Exit 0 when every row resolved, 1 when
 * some did not, 2 for usage, 3 when no answer could be had, 130 when interrupted.
 *
 * <p>Against {@code --server} the whole file is one job of the server's batch API
 * ({@link ServerBatch}): submitted, followed with the same progress bar, and its results
 * downloaded; running the same command again follows the same job (the server knows the file by
 * its content), so {@code --resume} needs no progress file there.
 */
@Command(name = "batch", mixinStandardHelpOptions = true, versionProvider = Cli.Version.class,
    description = {"Resolves every row of a CSV (address; or street, city, region, postcode, country; or lat, lon), JSON Lines "
        + "or JSON array file and writes the input columns with the results, in input order.",
        "Ctrl-C or a crash leaves OUTPUT.progress: run the same command with --resume to continue.",
        "Exit 0 every row resolved, 1 some did not, 2 usage, 3 no answer could be had, 130 interrupted."})
final class BatchCommand implements Callable<Integer> {

  /** Requests in flight by default: the manifest's {@code batch.concurrency} default. */
  static final int DEFAULT_CONCURRENCY = 32;
  private static final long PLAIN_EVERY_MS = 5_000;

  /** How progress is shown. */
  enum ProgressMode { AUTO, BAR, LINES, NONE }

  private final Cli.Context context;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", paramLabel = "INPUT", description = "the input file")
  Path input;

  @Option(names = {"-o", "--output"}, required = true, paramLabel = "OUTPUT", description = "the output file")
  Path output;

  @Option(names = "--format", paramLabel = "csv|ndjson|geojson",
      description = "the output format (default: from OUTPUT's extension, .ndjson/.jsonl, .geojson/.json; else csv)")
  String format;

  @Option(names = "--resume", description = "continue the interrupted run that left OUTPUT.progress")
  boolean resume;

  @Option(names = "--concurrency", paramLabel = "N", defaultValue = "" + DEFAULT_CONCURRENCY,
      description = "requests in flight at most (default ${DEFAULT-VALUE})")
  int concurrency;

  @Option(names = "--max-rows", paramLabel = "N", defaultValue = "" + BatchLimits.DEFAULT_MAX_ROWS,
      description = "refuse an input of more rows (default ${DEFAULT-VALUE})")
  long maxRows;

  @Option(names = "--retries", paramLabel = "N", defaultValue = "5",
      description = "times a row whose answer may come later is asked again, with backoff: no answer in time (then the row "
          + "is failed), or refused for lack of time (budget_exhausted; then the refusal is kept); with --server the "
          + "server's job retries its rows itself (default ${DEFAULT-VALUE})")
  int retries;

  @Option(names = "--progress", paramLabel = "auto|bar|lines|none", defaultValue = "auto",
      description = "a bar redrawn in place (auto: when standard error is a terminal), a line every 5 s (auto: otherwise), "
          + "or only the last line")
  ProgressMode progressMode;

  @Mixin
  RequestOptions request;

  @Mixin
  ResolverOptions where;

  private Progress progress;

  BatchCommand(Cli.Context context) {
    this.context = context;
  }

  @Override
  public Integer call() {
    try {
      return run();
    } catch (CliException e) {
      if (progress != null) {
        progress.clear();
      }
      context.err().println("georesolver: " + e.getMessage());
      return e.status();
    }
  }

  private int run() throws CliException {
    if (concurrency < 1 || concurrency > 1024) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--concurrency must be in [1, 1024], got " + concurrency);
    }
    if (retries < 0 || retries > 20) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--retries must be in [0, 20], got " + retries);
    }
    if (maxRows < 1) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--max-rows must be positive, got " + maxRows);
    }
    request.check();
    OutputFormat f = outputFormat();
    checkPaths();
    BatchRun.Plan plan = new BatchRun.Plan(input, output, f, concurrency, resume, request,
        BatchLimits.defaults().withMaxRows(maxRows), retries);
    BatchRun.precheck(plan);
    progress = newProgress();
    progress.note("reading " + input + " …");
    BatchRun.Scan scan;
    try {
      scan = BatchRun.scan(input, plan.limits());
    } catch (BatchInputException e) {
      throw new CliException(Exit.USAGE, input + ": " + e.getMessage());
    } catch (NoSuchFileException e) {
      throw new CliException(Exit.USAGE, input + ": no such file");
    } catch (IOException e) {
      throw new CliException(Exit.USAGE, input + ": " + e.getMessage());
    }
    if (where.server != null && !where.server.isBlank()) {
      return onServer(scan, f);
    }
    BatchRun run = new BatchRun(plan, scan);
    progress.note(Progress.count(scan.rows()) + " rows (" + Progress.count(scan.invalid()) + " invalid) in " + input
        + "; starting " + (where.server != null && !where.server.isBlank() ? "to ask " + where.server : "the resolver") + " …");
    try (Resolver resolver = where.open(context, concurrency, retries)) {
      if (resolver instanceof EmbeddedResolver e && request.intent != null
          && !e.manifest().intentNames().contains(request.intent)) {
        throw new CliException(Exit.USAGE, "--intent must be one of " + String.join(", ", e.manifest().intentNames()));
      }
      return execute(run, resolver);
    }
  }

  private int execute(BatchRun run, Resolver resolver) throws CliException {
    CountDownLatch reported = new CountDownLatch(1);
    Thread hook = new Thread(() -> {
      run.interrupt();
      try {
        reported.await(15, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "georesolver-batch-interrupt");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      BatchRun.Outcome o;
      try {
        o = run.run(resolver, progress);
      } catch (BatchInputException e) {
        throw new CliException(Exit.USAGE, input + " changed while it was read: " + e.getMessage());
      } catch (IOException e) {
        throw new CliException(Exit.USAGE, "batch stopped: " + e);
      }
      progress.finish(summary(o));
      if (o.fatal() != null) {
        context.err().println("georesolver: batch stopped after " + Progress.count(o.done()) + " of " + Progress.count(o.total())
            + " rows: " + Terminal.safe(o.fatal().getMessage(), 500));
        context.err().println("georesolver: fix that and run the same command with --resume to continue");
        return o.fatal().exitStatus();
      }
      if (!o.complete()) {
        context.err().println("georesolver: run the same command with --resume to continue");
        return Exit.INTERRUPTED;
      }
      return o.resolved() == o.total() ? Exit.OK : Exit.NOT_RESOLVED;
    } finally {
      reported.countDown();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // The hook is running: it only waited for the report above.
      }
    }
  }

  /** The file as one job of the server's batch API. */
  private int onServer(BatchRun.Scan scan, OutputFormat f) throws CliException {
    ServerBatch sb = new ServerBatch(where.server, where.key != null ? where.key : context.env().get("GEO_API_KEY"));
    progress.note(Progress.count(scan.rows()) + " rows (" + Progress.count(scan.invalid()) + " invalid) in " + input
        + "; submitting to " + where.server + " …");
    Thread hook = new Thread(sb::interrupt, "georesolver-batch-interrupt");
    Runtime.getRuntime().addShutdownHook(hook);
    long t0 = System.nanoTime();
    ServerBatch.Outcome o;
    try {
      o = sb.run(input, output, f, request.intent, progress);
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // The hook is running: following stops.
      }
    }
    io.vertx.core.json.JsonObject j = o.job();
    double s = (System.nanoTime() - t0) / 1e9;
    if (!o.complete()) {
      progress.finish("batch: job " + j.getString("id") + " goes on on the server (" + Progress.count(j.getLong("done", 0L))
          + " of " + Progress.count(j.getLong("total", 0L)) + " rows done)");
      context.err().println("georesolver: run the same command (with --resume) to follow it and download the results");
      return Exit.INTERRUPTED;
    }
    long total = j.getLong("total", 0L);
    long resolved = j.getLong("resolved", 0L);
    progress.finish("batch: " + Progress.count(total) + " rows in " + Progress.duration(s) + " (job " + j.getString("id") + ", "
        + j.getString("state") + ", " + j.getValue("rate_per_s") + " rows/s on the server): " + Progress.count(resolved)
        + " resolved, " + Progress.count(j.getLong("refused", 0L)) + " refused, " + Progress.count(j.getLong("invalid", 0L))
        + " invalid" + (j.getLong("failed", 0L) > 0 ? ", " + Progress.count(j.getLong("failed", 0L)) + " failed" : "")
        + " -> " + output);
    return resolved == total ? Exit.OK : Exit.NOT_RESOLVED;
  }

  private String summary(BatchRun.Outcome o) {
    double s = o.elapsedS();
    long thisRun = o.done() - o.doneAtStart();
    StringBuilder sb = new StringBuilder("batch: ");
    if (o.complete()) {
      sb.append(Progress.count(o.total())).append(" rows");
    } else {
      sb.append(o.interrupted() ? "interrupted after " : "stopped after ").append(Progress.count(o.done())).append(" of ")
          .append(Progress.count(o.total())).append(" rows");
    }
    sb.append(" in ").append(Progress.duration(s)).append(" (").append(Progress.count(s > 0 ? Math.round(thisRun / s) : thisRun))
        .append(" rows/s): ").append(Progress.count(o.resolved())).append(" resolved, ").append(Progress.count(o.refused()))
        .append(" refused, ").append(Progress.count(o.invalid())).append(" invalid");
    if (o.failed() > 0) {
      sb.append(", ").append(Progress.count(o.failed())).append(" failed");
    }
    if (o.doneAtStart() > 0 || o.replayed() > 0) {
      sb.append("; resumed at row ").append(Progress.count(o.doneAtStart() + 1)).append(", ")
          .append(Progress.count(o.replayed())).append(" answers replayed");
    }
    return sb.append(o.complete() ? " -> " + output : "").toString();
  }

  private Progress newProgress() {
    ProgressMode m = progressMode;
    if (m == ProgressMode.AUTO) {
      m = Terminal.stderrIsTerminal(context.env()) ? ProgressMode.BAR : ProgressMode.LINES;
    }
    return switch (m) {
      case BAR -> new Progress.Bar(context.err(), Terminal.width(context.env()), System::nanoTime).guardingStandardError();
      case LINES -> new Progress.Lines(context.err(), PLAIN_EVERY_MS, System::nanoTime);
      default -> new Progress.Quiet(context.err(), System::nanoTime);
    };
  }

  private OutputFormat outputFormat() throws CliException {
    if (format == null) {
      return OutputFormat.forFileName(output.getFileName().toString()).orElse(OutputFormat.CSV);
    }
    try {
      return OutputFormat.valueOf(format.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new CliException(Exit.USAGE, "--format must be csv, ndjson or geojson, got " + Terminal.safe(format, 40));
    }
  }

  private void checkPaths() throws CliException {
    if (!Files.isRegularFile(input)) {
      throw new CliException(Exit.USAGE, input + ": no such file");
    }
    Path dir = output.toAbsolutePath().getParent();
    if (dir != null && !Files.isDirectory(dir)) {
      throw new CliException(Exit.USAGE, "cannot write " + output + ": " + dir + " is not a directory");
    }
    try {
      if (Files.exists(output) && Files.isSameFile(input, output)) {
        throw new CliException(Exit.USAGE, "the output would overwrite the input: give another -o");
      }
    } catch (IOException e) {
      throw new CliException(Exit.USAGE, "cannot write " + output + ": " + e.getMessage());
    }
  }
}
