package dev.georesolver.deadline;

/**
 * Admission and attempt-timeout arithmetic. Pure and thread-safe.
 *
 * <p>A rung (or a retry) may use the time left minus the reserve kept for the rungs below it. It is
 * admitted only if that is at least {@code factor × typical}, its observed median latency; a rung
 * that would probably not finish is skipped so a cheaper lower rung still gets its chance. An
 * admitted attempt's timeout is the smaller of the tier's {@code timeout_ms} and that usable time,
 * so a hung rung can never starve the rungs below.
 */
public final class Admission {

  private Admission() {}

  /**
   * The decision for one attempt.
   *
   * @param admitted whether to make the attempt
   * @param attemptTimeoutMs when admitted, the attempt's total timeout in milliseconds
   * @param usableMs the time the attempt could use: {@code left − reserve − backoff}
   */
  public record Decision(boolean admitted, long attemptTimeoutMs, long usableMs) {}

  /**
   * Decides one attempt.
   *
   * @param leftMs milliseconds left before the request's deadline (after the caller's reply margin)
   * @param reserveMs milliseconds kept for the rungs below
   * @param backoffMs milliseconds to wait before the attempt (0 for a first attempt)
   * @param typicalMs the rung's observed median latency
   * @param factor the manifest's {@code admission_factor}
   * @param timeoutMs the tier's {@code timeout_ms}
   */
  public static Decision decide(long leftMs, long reserveMs, long backoffMs, long typicalMs, double factor, long timeoutMs) {
    long usable = leftMs - reserveMs - backoffMs;
    boolean admitted = usable > 0 && usable >= factor * typicalMs;
    return new Decision(admitted, admitted ? Math.min(timeoutMs, usable) : 0, usable);
  }
}
