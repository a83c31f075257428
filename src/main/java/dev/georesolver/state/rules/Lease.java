package dev.georesolver.state.rules;


/**
 * When a queued item may be leased: it is pending and due (its backoff is over), or it is in
 * progress under a lease that expired (its reconciler died or stalled). The SQLite store's lease
 * query applies exactly this rule; Redis gets it from its consumer group ({@code XAUTOCLAIM} after
 * the lease time). Pure.
 */
public final class Lease {

  /** Queue states. */
  public static final String PENDING = "pending";
  public static final String IN_PROGRESS = "in_progress";
  public static final String DONE = "done";
  public static final String DEAD = "dead";

  private Lease() {}

  /** Whether an item in {@code state} may be leased at {@code nowMs}. */
  public static boolean claimable(String state, long notBeforeMs, Long leaseUntilMs, long nowMs) {
    if (PENDING.equals(state)) {
      return notBeforeMs <= nowMs;
    }
    return IN_PROGRESS.equals(state) && leaseUntilMs != null && leaseUntilMs < nowMs;
  }

  /** Whether {@code owner} still holds a lease: it is the item's owner and the item is in progress. */
  public static boolean held(String state, String leaseOwner, String owner) {
    return IN_PROGRESS.equals(state) && owner != null && owner.equals(leaseOwner);
  }
}
