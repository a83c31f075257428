package dev.georesolver.deadline;

/**
 * Admission and attempt-timeout arithmetic. Pure and thread-safe.
 *
 * <p>A rung (or a retry) may use the time left minus the reserve kept for the rungs below it. It is
 * admitted only if that is at least {@code factor × typical}, its observed median latency; a rung
 * that would probably not finish is skipped so a cheaper lower rung still gets its chance. An
 * admitted attempt's timeout is the smaller of the tier's {@code timeout_ms} and that usable time,
 * so a hung rung can never starve the rungs below.
 *
 * <p>The reserve is what the rungs below need to have a real chance, not only their medians: each
 * callable rung below is kept {@link #share} — at least a floor however fast its median, plus the
 * tier's reply margin and the two event-bus hops of its visit — and the rung being admitted adds
 * {@link #ownVisitMs} for its own two hops, which are paid after its attempt is cut off. The walker
 * waits for a visit until only what the rungs below {@link #need} to be admitted is left
 * ({@link #visitWaitMs}), so a tier that answers late costs them their floors, never their chance.
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

  /**
   * Milliseconds kept for one rung below: {@code max(typicalMs, floorMs) + tierReplyMs + 2 × hopMs}.
   *
   * @param typicalMs the rung's observed median latency
   * @param floorMs the least time kept for any rung (the manifest's {@code rung_floor_ms})
   * @param tierReplyMs what its tier keeps to send its reply ({@code tier_reply_ms})
   * @param hopMs one event-bus hop ({@code hop_ms})
   */
  public static long share(long typicalMs, long floorMs, long tierReplyMs, long hopMs) {
    return Math.max(typicalMs, floorMs) + tierReplyMs + 2 * hopMs;
  }

  /**
   * Milliseconds the rung being admitted costs the rungs below beyond its attempt: its visit's hop
   * there (the tier counts its deadline from arrival) and its reply's hop back.
   */
  public static long ownVisitMs(long hopMs) {
    return 2 * hopMs;
  }

  /**
   * The least a rung below needs to still be admitted, milliseconds:
   * {@code ceil(factor × typicalMs) + tierReplyMs + 2 × hopMs}.
   */
  public static long need(long typicalMs, double factor, long tierReplyMs, long hopMs) {
    return (long) Math.ceil(factor * typicalMs) + tierReplyMs + 2 * hopMs;
  }

  /**
   * How long the walker waits for a rung's visit, milliseconds: the time left less what the rungs
   * below need to still be admitted ({@code neededBelowMs}, the sum of their {@link #need}), or all
   * of it when nothing below is kept for. The tier cuts its attempt earlier (it keeps the whole
   * reserve, floors included), so it normally answers first; the difference is the lateness its
   * timer and reply may have on a loaded loop before the walker stops waiting and the rungs below
   * still get their chance (the lowest of them at least).
   */
  public static long visitWaitMs(long leftMs, long neededBelowMs) {
    return leftMs - neededBelowMs;
  }
}
