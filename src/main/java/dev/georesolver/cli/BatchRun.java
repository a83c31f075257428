package dev.georesolver.cli;

import dev.georesolver.batch.BatchInputException;
import dev.georesolver.batch.BatchLimits;
import dev.georesolver.batch.BatchReader;
import dev.georesolver.batch.BatchReaders;
import dev.georesolver.batch.BatchRow;
import dev.georesolver.batch.InputFormat;
import dev.georesolver.batch.OutputFormat;
import dev.georesolver.batch.ResultWriter;
import dev.georesolver.batch.ResultWriters;
import dev.georesolver.batch.RowResult;
import dev.georesolver.jobs.Pushback;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One run of {@code batch}: every row of the input through the resolver, at most
 * {@code concurrency} at a time, the results written in input order, with a progress file beside
 * the output ({@link ProgressJournal}) from which an interrupted run resumes.
 *
 * <p>Runs on the command's own thread, which alone reads the input, writes the output and the
 * progress file; answers arrive on Vert.x threads and are only handed over through a queue. A row
 * is not sent before the output has caught up to within a window of it, so the rows answered but
 * not yet written — what a resumed run replays — stay few.
 *
 * <p>A resumed run truncates the output to the last marker, skips the rows before it, replays the
 * answers recorded after it, and asks only for the rest; since writers continue a file exactly,
 * the finished output is the one an uninterrupted run makes.
 */
final class BatchRun {

  /**
   * What to run.
   *
   * @param input the input file
   * @param output the output file
   * @param format the output format
   * @param concurrency requests in flight at most
   * @param resume whether to continue an interrupted run
   * @param request the options added to every request
   * @param limits the input's bounds
   * @param retries times a row refused for lack of time ({@code budget_exhausted}) is sent again
   *     before its refusal is kept ({@code --retries})
   */
  record Plan(Path input, Path output, OutputFormat format, int concurrency, boolean resume, RequestOptions request,
      BatchLimits limits, int retries) {}

  /**
   * What the input holds, from reading it through once before anything is sent.
   *
   * @param rows data rows
   * @param invalid rows invalid as read
   * @param columns its columns (for JSON: every field of every row)
   * @param format its format
   * @param delimiter its CSV delimiter (the output's too)
   * @param bom whether it began with a byte-order mark (the output will too)
   * @param sha256 the file's sha256, hex
   */
  record Scan(long rows, long invalid, List<String> columns, InputFormat format, char delimiter, boolean bom, String sha256) {}

  /**
   * How a run ended.
   *
   * @param total rows in the input
   * @param resolved rows resolved (in the whole output, earlier runs included)
   * @param refused rows refused
   * @param invalid rows invalid
   * @param failed rows the resolver failed on
   * @param replayed answers taken from the progress file instead of asked again
   * @param doneAtStart rows the output held when this run began
   * @param elapsedS seconds this run took
   * @param complete whether the output is finished (and the progress file gone)
   * @param interrupted whether it was interrupted
   * @param fatal what stopped it early, or null
   */
  record Outcome(long total, long resolved, long refused, long invalid, long failed, long replayed, long doneAtStart,
      double elapsedS, boolean complete, boolean interrupted, Unanswered fatal) {
    long done() {
      return resolved + refused + invalid + failed;
    }
  }

  /** Request fields that are the job's, not the row's: a problem with them stops the run. */
  private static final Set<String> JOB_FIELDS = Set.of("intent", "bbox", "budget_ms");
  private static final long MARKER_EVERY_ROWS = 1_000;
  private static final long MARKER_EVERY_NS = TimeUnit.SECONDS.toNanos(1);
  private static final long STOP_GRACE_NS = TimeUnit.SECONDS.toNanos(3);
  private static final long COMPACT_BYTES = 64L << 20;

  private record Completion(long index, JsonObject result, Throwable failure) {}

  private record Done(BatchRow row, RowResult result) {}

  private final Plan plan;
  private final Scan scan;
  private final LinkedBlockingQueue<Completion> completions = new LinkedBlockingQueue<>();
  private final Map<Long, BatchRow> inFlight = new HashMap<>();
  private final Map<Long, Done> ready = new HashMap<>();
  private volatile boolean stopping;
  private volatile boolean interrupted;
  private Unanswered fatal;
  private Map<Long, RowResult> recorded = new HashMap<>();
  private long nextToWrite;
  private long resolved;
  private long refused;
  private long invalid;
  private long failed;
  private long replayed;
  /** The resolver rows go to; set by the first dispatch, used to send a pushed-back row again. */
  private Resolver sending;
  /** Times each row in flight was pushed back by a tier (batch share, rate limit, open breaker, quota). */
  private final Map<Long, Integer> pushedBack = new HashMap<>();

  /** How often a row is sent again after a tier pushed back before its refusal is kept. */
  static final int MAX_PUSHBACKS = 60;
  /** Times each row in flight was refused for lack of time. */
  private final Map<Long, Integer> shortOfTime = new HashMap<>();
  /** First wait before a row refused for lack of time is sent again, ms; doubled each time, at most {@link #SHORT_OF_TIME_MAX_MS}. */
  static final long SHORT_OF_TIME_BASE_MS = 200;
  static final long SHORT_OF_TIME_MAX_MS = 5000;

  /**
   * Whether {@code result} is a refusal for lack of time — what a busy machine causes, not what the
   * address has: {@code budget_exhausted} (a rung cut off by the chain's deadline or skipped for
   * want of time), or a refusal whose every attempt timed out at its tier (the tier's own timer,
   * set to the time left, can fire before the chain's: the same shortage, classed transient).
   * Such a row is sent again, as a pushed-back one is, up to {@link Plan#retries} times.
   */
  static boolean refusedForTime(JsonObject result) {
    if (result == null || !"refused".equals(result.getString("status"))) {
      return false;
    }
    if ("budget_exhausted".equals(result.getString("reason"))) {
      return true;
    }
    JsonArray attempts = result.getJsonArray("attempts");
    if (attempts == null || attempts.isEmpty()) {
      return false;
    }
    for (Object o : attempts) {
      if (!(o instanceof JsonObject a) || !"transient".equals(a.getString("outcome"))
          || !String.valueOf(a.getString("detail")).contains("timed out")) {
        return false;
      }
    }
    return true;
  }

  BatchRun(Plan plan, Scan scan) {
    this.plan = plan;
    this.scan = scan;
  }

  /** Reads {@code input} through once: rows, columns, per-row checks and the file's sha256. */
  static Scan scan(Path input, BatchLimits limits) throws IOException, BatchInputException {
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    try (InputStream raw = new DigestInputStream(Files.newInputStream(input), sha);
        BatchReader r = BatchReaders.open(raw, limits)) {
      long invalid = 0;
      for (BatchRow row = r.next(); row != null; row = r.next()) {
        if (!row.valid()) {
          invalid++;
        }
      }
      raw.transferTo(OutputStream.nullOutputStream());
      return new Scan(r.rowsRead(), invalid, r.columns(), r.format(), r.delimiter(), r.byteOrderMark(),
          HexFormat.of().formatHex(sha.digest()));
    }
  }

  /**
   * Checks before anything starts that the progress file agrees with {@link Plan#resume}.
   *
   * @throws CliException ({@link Exit#USAGE}) saying what to do
   */
  static void precheck(Plan plan) throws CliException {
    Path journal = ProgressJournal.pathFor(plan.output());
    if (plan.resume() && !Files.exists(journal)) {
      throw new CliException(Exit.USAGE, "nothing to resume: " + journal + " does not exist (the run finished, or never began)");
    }
    if (!plan.resume() && Files.exists(journal)) {
      throw new CliException(Exit.USAGE, "an interrupted run left " + journal + ": add --resume to continue it, or delete it "
          + "to start over");
    }
  }

  /** Asks the run to stop soon: no more rows are sent, the answers in flight are awaited a moment and kept. */
  void interrupt() {
    interrupted = true;
    stopping = true;
  }

  /** Runs it. Blocks until it is done, interrupted, or stopped by a failure that every row would meet. */
  Outcome run(Resolver resolver, Progress progress) throws IOException, CliException, BatchInputException {
    long started = System.nanoTime();
    Path journalPath = ProgressJournal.pathFor(plan.output());
    ProgressJournal journal;
    ProgressJournal.Marker from;
    if (plan.resume()) {
      ProgressJournal.Resumed r = ProgressJournal.resume(journalPath);
      journal = r.journal();
      try {
        checkSameRun(r.header(), journalPath);
        from = r.marker();
        if (from.written() > 0 && (!Files.exists(plan.output()) || Files.size(plan.output()) < from.bytes())) {
          throw new CliException(Exit.USAGE, plan.output() + " is shorter than " + journalPath + " says it was: delete "
              + journalPath + " to start over");
        }
      } catch (CliException | IOException e) {
        journal.close();
        throw e;
      }
      recorded = new HashMap<>(r.answers());
    } else {
      journal = ProgressJournal.create(journalPath, header());
      from = ProgressJournal.Marker.NONE;
    }
    nextToWrite = from.written();
    resolved = from.resolved();
    refused = from.refused();
    invalid = from.invalid();
    failed = from.failed();
    long startBytes = from.written() == 0 ? 0 : from.bytes();
    boolean complete;
    FileChannel ch = FileChannel.open(plan.output(), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    ch.truncate(startBytes);
    ch.position(startBytes);
    Counting out = new Counting(Channels.newOutputStream(ch), startBytes);
    try (ResultWriter writer = ResultWriters.open(plan.format(), out, scan.columns(), scan.delimiter(), scan.bom(),
        from.written());
        BatchReader reader = BatchReaders.open(Files.newInputStream(plan.input()), plan.limits())) {
      complete = loop(resolver, reader, writer, out, journal, progress, from.written());
      if (complete) {
        writer.finish();
      }
    } finally {
      journal.close();
    }
    if (complete) {
      journal.delete();
    }
    return new Outcome(scan.rows(), resolved, refused, invalid, failed, replayed, from.written(),
        (System.nanoTime() - started) / 1e9, complete, interrupted, fatal);
  }

  private boolean loop(Resolver resolver, BatchReader reader, ResultWriter writer, Counting out, ProgressJournal journal,
      Progress progress, long doneAtStart) throws IOException, BatchInputException {
    BatchRow next = reader.next();
    while (next != null && next.index() < nextToWrite) {
      next = reader.next();
    }
    long window = Math.max(64, plan.concurrency() * 8L);
    long lastMarkRows = nextToWrite;
    long lastMarkNs = System.nanoTime();
    long stopBy = Long.MAX_VALUE;
    while (true) {
      while (!stopping && next != null && inFlight.size() < plan.concurrency() && next.index() < nextToWrite + window) {
        dispatch(resolver, next);
        next = reader.next();
      }
      writeReady(writer);
      long now = System.nanoTime();
      if (nextToWrite - lastMarkRows >= MARKER_EVERY_ROWS || (nextToWrite > lastMarkRows && now - lastMarkNs >= MARKER_EVERY_NS)) {
        mark(writer, out, journal);
        lastMarkRows = nextToWrite;
        lastMarkNs = now;
      }
      progress.update(new Progress.Counts(scan.rows(), nextToWrite, resolved, refused + invalid + failed, doneAtStart));
      // Every row sent and written: done, even if an interrupt came at the very end.
      if (next == null && inFlight.isEmpty() && ready.isEmpty() && fatal == null) {
        mark(writer, out, journal);
        return true;
      }
      if (stopping) {
        stopBy = Math.min(stopBy, now + STOP_GRACE_NS);
        if (inFlight.isEmpty() || now > stopBy) {
          writeReady(writer);
          mark(writer, out, journal);
          return false;
        }
      }
      Completion c;
      try {
        c = completions.poll(100, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        interrupt();
        c = null;
      }
      for (; c != null; c = completions.poll()) {
        complete(c, journal);
      }
    }
  }

  private void dispatch(Resolver resolver, BatchRow row) {
    long i = row.index();
    if (!row.valid()) {
      ready.put(i, new Done(row, RowResult.invalid(row.problem())));
      return;
    }
    RowResult earlier = recorded.remove(i);
    if (earlier != null) {
      replayed++;
      ready.put(i, new Done(row, earlier));
      return;
    }
    inFlight.put(i, row);
    sending = resolver;
    send(resolver, row);
  }

  private void send(Resolver resolver, BatchRow row) {
    long i = row.index();
    resolver.resolve(row.direction(), plan.request().applied(row.direction(), row.request()), true)
        .onComplete(ar -> completions.add(new Completion(i, ar.result(), ar.cause())));
  }

  private void complete(Completion c, ProgressJournal journal) throws IOException {
    BatchRow row = inFlight.get(c.index());
    if (c.failure() == null && Pushback.pushedBack(c.result()) && !stopping) {
      // A tier said "not now" (its batch share, rate limit, open breaker or quota): the row waits
      // and is sent again, so the run slows down instead of writing a refusal it was not given.
      int n = pushedBack.merge(c.index(), 1, Integer::sum);
      if (n <= MAX_PUSHBACKS) {
        Resolver to = sending;
        CompletableFuture.delayedExecutor(Math.min(1000L, 10L << Math.min(n, 7)), TimeUnit.MILLISECONDS)
            .execute(() -> send(to, row));
        return;
      }
    } else if (c.failure() == null && refusedForTime(c.result()) && !stopping) {
      // The budget ran out (a busy machine, a slow first call): tried again after a pause, a bounded number of times.
      int n = shortOfTime.merge(c.index(), 1, Integer::sum);
      if (n <= plan.retries()) {
        Resolver to = sending;
        CompletableFuture.delayedExecutor(Math.min(SHORT_OF_TIME_MAX_MS, SHORT_OF_TIME_BASE_MS << Math.min(n - 1, 5)),
            TimeUnit.MILLISECONDS).execute(() -> send(to, row));
        return;
      }
    }
    inFlight.remove(c.index());
    pushedBack.remove(c.index());
    shortOfTime.remove(c.index());
    RowResult r;
    if (c.failure() == null) {
      r = RowResult.fromResult(c.result());
    } else {
      Unanswered u = c.failure() instanceof Unanswered a ? a : new Unanswered(Unanswered.Kind.FAILED, String.valueOf(c.failure()));
      if (u.kind() == Unanswered.Kind.INVALID && !JOB_FIELDS.contains(u.field())) {
        r = RowResult.invalid(u.getMessage());
      } else if (u.kind() == Unanswered.Kind.FAILED) {
        r = RowResult.failed(u.getMessage());
      } else {
        // Every later row would meet it too: stop, keep what is done, let a resumed run go on.
        if (fatal == null) {
          fatal = u;
        }
        stopping = true;
        return;
      }
    }
    journal.answered(c.index(), r);
    ready.put(c.index(), new Done(row, r));
  }

  private void writeReady(ResultWriter writer) throws IOException {
    for (Done d = ready.remove(nextToWrite); d != null; d = ready.remove(nextToWrite)) {
      writer.write(d.row(), d.result());
      switch (d.result().status()) {
        case RowResult.RESOLVED -> resolved++;
        case RowResult.REFUSED -> refused++;
        case RowResult.INVALID -> invalid++;
        default -> failed++;
      }
      nextToWrite++;
    }
  }

  /** Flushes the output and records how far it goes; compacts the progress file when it has grown. */
  private void mark(ResultWriter writer, Counting out, ProgressJournal journal) throws IOException {
    writer.flush();
    ProgressJournal.Marker m = new ProgressJournal.Marker(nextToWrite, out.count, resolved, refused, invalid, failed);
    journal.written(m);
    if (journal.size() > COMPACT_BYTES) {
      Map<Long, RowResult> waiting = new LinkedHashMap<>(recorded);
      ready.forEach((i, d) -> waiting.put(i, d.result()));
      journal.compact(m, waiting);
    }
  }

  private JsonObject header() {
    return new JsonObject()
        .put("input", plan.input().toAbsolutePath().toString())
        .put("input_sha256", scan.sha256())
        .put("input_rows", scan.rows())
        .put("output_format", plan.format().label())
        .put("request", plan.request().toJson());
  }

  private void checkSameRun(JsonObject recordedHeader, Path journalPath) throws CliException {
    JsonObject now = header();
    for (String k : List.of("input_sha256", "input_rows", "output_format", "request")) {
      // Compared as JSON text: a number read back may be an Integer where a Long was written.
      if (!Json.encode(now.getValue(k)).equals(Json.encode(recordedHeader.getValue(k)))) {
        String what = switch (k) {
          case "input_sha256", "input_rows" -> "another input (or this one changed since)";
          case "output_format" -> "the " + recordedHeader.getValue(k) + " format";
          default -> "other request options (" + recordedHeader.getValue(k) + ")";
        };
        throw new CliException(Exit.USAGE, journalPath + " was written for " + what + ": resume with the same input and "
            + "options, or delete it to start over");
      }
    }
  }

  /** Counts the bytes that reach the file. */
  private static final class Counting extends FilterOutputStream {
    long count;

    Counting(OutputStream out, long start) {
      super(out);
      this.count = start;
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      count++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      count += len;
    }
  }
}
