package dev.georesolver.config;

/**
 * Batch jobs (manifest {@code batch:}): how big a submitted file may be, how much of each tier a
 * batch may use, and how much of its work is in flight. Immutable and thread-safe.
 */
public final class BatchConfig extends Settings {

  /** The keys of {@code batch:}. */
  public static final Section<BatchConfig> SECTION = new Section<>(BatchConfig::new);

  /** Whether this process runs batch jobs and serves {@code /v1/batches}; default true. */
  public static final Field<Boolean> ENABLED = SECTION.bool("enabled").byDefault(true);

  /** Data rows a submitted file may hold (the header row not counted); one more is 413; default 1,000,000. */
  public static final Field<Long> MAX_ROWS = SECTION.longs("max_rows", 1, 100_000_000).byDefault(1_000_000L);

  /** Bytes a submitted file may take, megabytes; a larger upload is 413; default 1,024 MB. */
  public static final Field<Long> MAX_UPLOAD_MB = SECTION.longs("max_upload_mb", 1, 1_048_576).byDefault(1024L).live();

  /**
   * The share of each tier's {@code rate_limit_per_s} and of its connection pool ({@code pool_size})
   * that batch attempts may use, (0, 1]; live traffic keeps the rest; default 0.5.
   */
  public static final Field<Double> MAX_SHARE = SECTION.number("max_share", Double.NEGATIVE_INFINITY,
      Double.POSITIVE_INFINITY).byDefault(0.5).check(r -> r > 0 && r <= 1, "must be in (0, 1]")
      .redeploysTiers();

  /** Rows of one job in flight at most in this process (the window shrinks when tiers push back); default 32. */
  public static final Field<Integer> CONCURRENCY = SECTION.ints("concurrency", 1, 4096).byDefault(32);

  /** Rows of all jobs together in flight at most in this process; default 64. */
  public static final Field<Integer> MAX_IN_FLIGHT = SECTION.ints("max_in_flight", 1, 65_536).byDefault(64);

  /** Jobs this process works on at the same time; default 4. */
  public static final Field<Integer> MAX_JOBS = SECTION.ints("max_jobs", 1, 1024).byDefault(4);

  /** The budget of one row's walk, milliseconds; default 10,000 ms. */
  public static final Field<Long> BUDGET_MS = SECTION.longs("budget_ms", 1, 600_000).byDefault(10_000L);

  /** Rows in one slice: the unit a process leases from a job (instances on one Redis share a job by slices); default 200. */
  public static final Field<Integer> SLICE_ROWS = SECTION.ints("slice_rows", 1, 100_000).byDefault(200);

  /**
   * How long a leased slice stays with its process without being renewed before another may take
   * it over, milliseconds; default 30,000 ms. Renewed every third of it while worked on.
   */
  public static final Field<Long> LEASE_MS = SECTION.longs("lease_ms", 300, 86_400_000).byDefault(30_000L);

  /** How long a row waits before it is sent again after a tier pushed back, milliseconds (doubles, capped at 30 s); default 500 ms. */
  public static final Field<Long> BACKOFF_MS = SECTION.longs("backoff_ms", 1, 60_000).byDefault(500L);

  /** Times a row whose walk failed (no answer in time, a router error) is tried again before it is {@code failed}; default 3. */
  public static final Field<Integer> RETRIES = SECTION.ints("retries", 0, 100).byDefault(3);

  /**
   * Days a finished job (done, failed or cancelled) and its rows and results are kept after it
   * ended; then the state store's housekeeping removes them and the job answers 404; default 7.
   */
  public static final Field<Integer> KEEP_DAYS = SECTION.ints("keep_days", 1, 3650).byDefault(7)
      .readAtStart("the state store's housekeeping runs from it");

  /**
   * Uploads this process receives and loads at the same time; one more is refused 503 with
   * {@code Retry-After} before its body is read. Also the size of the pool that reads uploads
   * into the store (its own threads, never the shared worker pool); default 4.
   */
  public static final Field<Integer> MAX_UPLOADS = SECTION.ints("max_uploads", 1, 256).byDefault(4);

  /**
   * The slowest an upload may arrive, bytes per second, judged over {@link #UPLOAD_WINDOW_MS}: an
   * upload slower than this over a whole window is cut off with 408 (the server's
   * {@code body_timeout_ms} does not apply to it); default 16,384 (16 KiB/s).
   */
  public static final Field<Long> UPLOAD_MIN_BYTES_PER_S = SECTION.longs("upload_min_bytes_per_s", 1, 1L << 40).byDefault(16_384L);

  /** The window an upload's progress is judged over, milliseconds; default 30,000 ms. */
  public static final Field<Long> UPLOAD_WINDOW_MS = SECTION.longs("upload_window_ms", 200, 3_600_000).byDefault(30_000L);

  /**
   * Live batch jobs (loading, queued or running) one tenant may hold at once; one more is refused 429
   * {@code quota_exceeded}. A tenant's {@code batch_max_live_jobs} overrides it; default 16.
   */
  public static final Field<Long> TENANT_MAX_LIVE_JOBS = SECTION.longs("tenant_max_live_jobs", 1, 1_000_000).byDefault(16L).live();

  /**
   * Rows one tenant's live batch jobs may hold together (each job counts all its rows until it
   * ends); a file that would go over is refused 429 {@code quota_exceeded}. A tenant's
   * {@code batch_max_live_rows} overrides it; default 10,000,000.
   */
  public static final Field<Long> TENANT_MAX_LIVE_ROWS = SECTION.longs("tenant_max_live_rows", 1, 1L << 40)
      .byDefault(10_000_000L).live();

  static {
    SECTION.rule((v, at) -> {
      Integer per = v.get(CONCURRENCY);
      Integer total = v.get(MAX_IN_FLIGHT);
      if (per != null && total != null && per > total) {
        at.problem(CONCURRENCY.key(), "must be <= " + at.path(MAX_IN_FLIGHT.key()));
      }
    });
  }

  private BatchConfig(Settings read) {
    super(read);
  }

  /** See {@link #ENABLED}. */
  public boolean enabled() {
    return get(ENABLED);
  }

  /** See {@link #MAX_ROWS}. */
  public long maxRows() {
    return get(MAX_ROWS);
  }

  /** See {@link #MAX_UPLOAD_MB}, in bytes. */
  public long maxUploadBytes() {
    return get(MAX_UPLOAD_MB) * 1024 * 1024;
  }

  /** See {@link #MAX_SHARE}. */
  public double maxShare() {
    return get(MAX_SHARE);
  }

  /** See {@link #CONCURRENCY}. */
  public int concurrency() {
    return get(CONCURRENCY);
  }

  /** See {@link #MAX_IN_FLIGHT}. */
  public int maxInFlight() {
    return get(MAX_IN_FLIGHT);
  }

  /** See {@link #MAX_JOBS}. */
  public int maxJobs() {
    return get(MAX_JOBS);
  }

  /** See {@link #BUDGET_MS}. */
  public long budgetMs() {
    return get(BUDGET_MS);
  }

  /** See {@link #SLICE_ROWS}. */
  public int sliceRows() {
    return get(SLICE_ROWS);
  }

  /** See {@link #LEASE_MS}. */
  public long leaseMs() {
    return get(LEASE_MS);
  }

  /** See {@link #BACKOFF_MS}. */
  public long backoffMs() {
    return get(BACKOFF_MS);
  }

  /** See {@link #RETRIES}. */
  public int retries() {
    return get(RETRIES);
  }

  /** See {@link #MAX_UPLOADS}. */
  public int maxUploads() {
    return get(MAX_UPLOADS);
  }

  /** See {@link #UPLOAD_MIN_BYTES_PER_S}. */
  public long uploadMinBytesPerS() {
    return get(UPLOAD_MIN_BYTES_PER_S);
  }

  /** See {@link #UPLOAD_WINDOW_MS}. */
  public long uploadWindowMs() {
    return get(UPLOAD_WINDOW_MS);
  }

  /** See {@link #KEEP_DAYS}. */
  public int keepDays() {
    return get(KEEP_DAYS);
  }

  /** See {@link #TENANT_MAX_LIVE_JOBS}. */
  public long tenantMaxLiveJobs() {
    return get(TENANT_MAX_LIVE_JOBS);
  }

  /** See {@link #TENANT_MAX_LIVE_ROWS}. */
  public long tenantMaxLiveRows() {
    return get(TENANT_MAX_LIVE_ROWS);
  }

  /** See {@link #KEEP_DAYS}, in milliseconds. */
  public long keepMs() {
    return keepDays() * 86_400_000L;
  }
}
