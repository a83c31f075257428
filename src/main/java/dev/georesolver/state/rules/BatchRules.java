package dev.georesolver.state.rules;

import dev.georesolver.bus.BatchJob;
import dev.georesolver.bus.BatchQuota;

import java.util.List;
import java.util.Map;

/**
 * Every decision about a batch job's state and figures, for every backend. Pure and thread-safe.
 *
 * <ul>
 *   <li><b>States</b>: {@code loading} (rows being stored) → {@code queued} when sealed with rows left
 *       to resolve, or {@code done} when none is left → {@code running} when a worker first takes a
 *       slice → {@code done} once every row has a result; {@code cancelled} from any state that has
 *       not ended; {@code failed}, with a {@code reason} in its spec, when loading stopped (the process
 *       stopped while storing its rows, or a write failed) — {@link #staleLoading}, {@link #failed}. A
 *       failed job does not hold its idem key: the same content submitted again is a fresh job
 *       ({@link #reusable}).
 *   <li><b>Counts</b>: a row's first result counts once, by its status ({@link #tally}); a second
 *       result for a row is ignored (a slice taken over after its lease ended never counts a row
 *       twice).
 *   <li><b>Quotas</b>: a tenant's live jobs and the rows in them are bounded ({@link #overQuota}, bounds {@link BatchQuota});
 *       a job counts from its creation until it ends ({@link #live}).
 *   <li><b>Expiry</b>: a job that ended more than {@code keep_days} ago is removed with its rows and
 *       results ({@link #expired}).
 *   <li><b>Slices</b> of {@code slice_rows} rows are leased: a slice with rows left whose lease ended
 *       is claimable ({@link #claimable}); only its holder renews it while the job is open.
 * </ul>
 */
public final class BatchRules {

  private BatchRules() {}

  /** The counters a set of first results moves. */
  public record Tally(long done, long resolved, long refused, long invalid, long failed) {
    public static final Tally NONE = new Tally(0, 0, 0, 0, 0);

    /** This and {@code o} together. */
    public Tally plus(Tally o) {
      return new Tally(done + o.done, resolved + o.resolved, refused + o.refused, invalid + o.invalid, failed + o.failed);
    }
  }

  /** The counts of first results with these statuses ({@code resolved}, {@code refused}, {@code invalid}; anything else failed). */
  public static Tally tally(List<String> statuses) {
    long resolved = 0;
    long refused = 0;
    long invalid = 0;
    long failed = 0;
    for (String s : statuses) {
      switch (s == null ? "" : s) {
        case "resolved" -> resolved++;
        case "refused" -> refused++;
        case "invalid" -> invalid++;
        default -> failed++;
      }
    }
    return new Tally(statuses.size(), resolved, refused, invalid, failed);
  }

  /** Rows a job of {@code total} rows is cut into slices of. */
  public static long slices(long total, int sliceRows) {
    return (total + sliceRows - 1) / sliceRows;
  }

  /** The job after rows with results were stored while loading (invalid rows have theirs at once). */
  public static BatchJob loaded(BatchJob j, Tally t) {
    return counted(j, t, j.state(), j.finishedAtMs());
  }

  /** Spec key: when the job's loader last stored rows (epoch ms), its heartbeat while loading. */
  public static final String LOADED_AT = "loaded_at_ms";
  /** Spec key: why a job failed, for its owner. */
  public static final String REASON = "reason";

  /**
   * Whether a job is loading with no loader left at {@code nowMs} ({@code loadedAtMs}: when its
   * loader last stored rows, its {@link #LOADED_AT}, or null): on a store only this process
   * uses ({@code shared} false), every loading job found at start is (its loader died with the
   * process before); on a shared store, one whose last stored rows (or creation) are older than
   * {@code staleMs}.
   */
  public static boolean staleLoading(BatchJob j, Long loadedAtMs, boolean shared, long nowMs, long staleMs) {
    if (!BatchJob.LOADING.equals(j.state())) {
      return false;
    }
    if (!shared) {
      return true;
    }
    long last = loadedAtMs != null ? loadedAtMs : j.createdAtMs();
    return nowMs - last > staleMs;
  }

  /** The job failed (its store adds the {@link #REASON} to its spec), unless it had ended. */
  public static BatchJob failed(BatchJob j, long nowMs) {
    if (j.finished()) {
      return j;
    }
    return new BatchJob(j.id(), j.tenant(), j.idemKey(), BatchJob.FAILED, j.spec(), j.total(), j.done(),
        j.resolved(), j.refused(), j.invalid(), j.failed(), j.createdAtMs(), j.startedAtMs(), nowMs);
  }

  /** An open job as the lease sees it: its id and tenant, oldest first. */
  public record Open(String id, String tenant) {}

  /**
   * The order the lease tries open jobs in, fair across tenants: tenants take turns (by name,
   * starting with the first after {@code lastTenant}, the tenant the previous lease went to), and
   * each tenant's jobs go oldest first. One tenant's many large jobs therefore never keep another
   * tenant's job waiting for them: each lease goes to the next tenant with work.
   *
   * @param oldestFirst open jobs, oldest first
   * @param lastTenant the tenant of the previous lease, or null
   */
  public static List<String> fairOrder(List<Open> oldestFirst, String lastTenant) {
    java.util.TreeMap<String, List<String>> byTenant = new java.util.TreeMap<>();
    for (Open o : oldestFirst) {
      byTenant.computeIfAbsent(o.tenant() == null ? "" : o.tenant(), k -> new java.util.ArrayList<>()).add(o.id());
    }
    List<String> tenants = new java.util.ArrayList<>(byTenant.tailMap(lastTenant == null ? "" : lastTenant, lastTenant == null).keySet());
    tenants.addAll(byTenant.headMap(lastTenant == null ? "" : lastTenant, lastTenant != null).keySet());
    List<String> out = new java.util.ArrayList<>();
    for (String t : tenants) {
      out.addAll(byTenant.get(t));
    }
    return out;
  }

  /** Whether a job counts against its tenant's quota: until it has ended. */
  public static boolean live(BatchJob j) {
    return j != null && !j.finished();
  }

  /**
   * Why a tenant whose live jobs hold {@code liveRows} (rows by job id) may not submit a job of
   * {@code rows} more rows under {@code q}, naming the bound and the current use; null when it may.
   */
  public static String overQuota(String tenant, Map<String, Long> liveRows, BatchQuota q, long rows) {
    long jobs = liveRows.size();
    long held = 0;
    for (long r : liveRows.values()) {
      held += r;
    }
    if (jobs + 1 > q.maxJobs()) {
      return "tenant " + tenant + " has " + jobs + " live batch job(s) (loading, queued or running) and may have at most "
          + q.maxJobs() + " (" + q.jobsKey() + "): wait until one ends, or cancel one";
    }
    if (held + rows > q.maxRows()) {
      return "tenant " + tenant + "'s live batch jobs hold " + held + " row(s) and this file has " + rows + ": more than the "
          + q.maxRows() + " it may hold (" + q.rowsKey() + "): wait until a job ends, or cancel one";
    }
    return null;
  }

  /**
   * Whether a job has been kept long enough at {@code nowMs} to be removed with its rows and
   * results: it ended more than {@code keepMs} ago. A job that has not ended is never removed.
   */
  public static boolean expired(BatchJob j, long nowMs, long keepMs) {
    return j.finished() && j.finishedAtMs() != null && nowMs - j.finishedAtMs() > keepMs;
  }

  /** Whether a submission with an existing job's idem key gets that job back; false for a failed one (a fresh job is made). */
  public static boolean reusable(BatchJob existing) {
    return existing != null && !BatchJob.FAILED.equals(existing.state());
  }

  /** The job sealed with {@code total} rows: queued, or done when every row already has a result. */
  public static BatchJob sealed(BatchJob j, long total, long nowMs) {
    if (!BatchJob.LOADING.equals(j.state())) {
      return j;
    }
    boolean nothingLeft = j.done() >= total;
    return new BatchJob(j.id(), j.tenant(), j.idemKey(), nothingLeft ? BatchJob.DONE : BatchJob.QUEUED, j.spec(), total, j.done(),
        j.resolved(), j.refused(), j.invalid(), j.failed(), j.createdAtMs(), j.startedAtMs(), nothingLeft ? nowMs : null);
  }

  /** The job once a worker took a slice: running, started now unless it started before. */
  public static BatchJob started(BatchJob j, long nowMs) {
    if (!BatchJob.QUEUED.equals(j.state())) {
      return j;
    }
    return new BatchJob(j.id(), j.tenant(), j.idemKey(), BatchJob.RUNNING, j.spec(), j.total(), j.done(), j.resolved(), j.refused(),
        j.invalid(), j.failed(), j.createdAtMs(), j.startedAtMs() == null ? nowMs : j.startedAtMs(), j.finishedAtMs());
  }

  /** The job after first results were recorded: done when every row has one and it was open. */
  public static BatchJob recorded(BatchJob j, Tally t, long nowMs) {
    boolean ends = j.open() && j.done() + t.done() >= j.total();
    return counted(j, t, ends ? BatchJob.DONE : j.state(), ends ? Long.valueOf(nowMs) : j.finishedAtMs());
  }

  /** The job cancelled, unless it had ended. */
  public static BatchJob cancelled(BatchJob j, long nowMs) {
    if (j.finished()) {
      return j;
    }
    return new BatchJob(j.id(), j.tenant(), j.idemKey(), BatchJob.CANCELLED, j.spec(), j.total(), j.done(), j.resolved(), j.refused(),
        j.invalid(), j.failed(), j.createdAtMs(), j.startedAtMs(), nowMs);
  }

  private static BatchJob counted(BatchJob j, Tally t, String state, Long finishedAtMs) {
    return new BatchJob(j.id(), j.tenant(), j.idemKey(), state, j.spec(), j.total(), j.done() + t.done(), j.resolved() + t.resolved(),
        j.refused() + t.refused(), j.invalid() + t.invalid(), j.failed() + t.failed(), j.createdAtMs(), j.startedAtMs(),
        finishedAtMs);
  }

  /**
   * A slice's lease as stored.
   *
   * @param owner who holds it, or null
   * @param leaseUntilMs when its lease ends (epoch ms; 0 for a free slice)
   * @param done whether every row of it has a result
   */
  public record Slice(String owner, long leaseUntilMs, boolean done) {
    /** A free slice. */
    public static final Slice FREE = new Slice(null, 0, false);
  }

  /** Whether a slice may be leased at {@code nowMs}: rows left and no lease running. */
  public static boolean claimable(Slice s, long nowMs) {
    return !s.done() && s.leaseUntilMs() < nowMs;
  }

  /** The slice leased by {@code owner}. */
  public static Slice lease(String owner, long leaseMs, long nowMs) {
    return new Slice(owner, nowMs + leaseMs, false);
  }

  /** Whether {@code owner} may renew the slice of a job in {@code jobState}. */
  public static boolean renewable(Slice s, String owner, BatchJob job) {
    return job != null && job.open() && s != null && !s.done() && owner != null && owner.equals(s.owner());
  }
}
