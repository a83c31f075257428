package dev.georesolver.config;

/**
 * The time the resolver keeps for itself inside a request's budget, and the waits that are not a
 * request's budget (manifest {@code routing.margins}). The one place these figures live; every
 * default fits a loaded 2-core host, so an operator changes them only with a measurement in hand
 * ({@code scripts/deadline-check.sh} shows the overshoot). Immutable and thread-safe.
 *
 * <p>How they add up for one request of budget B: the chain walks until {@code B − chain_reply_ms};
 * each tier answers by its own deadline minus {@code tier_reply_ms}; the ingress waits
 * {@code B + ingress_grace_ms} for the chain before it answers 504 itself. A request waiting for an
 * identical one in flight gives up at {@code B − waiter_ms}; the leader's claim is given up
 * {@code leader_grace_ms} after the leader's own deadline.
 *
 * <p>Before rung i the chain keeps a reserve for the rungs below it: for each callable rung below,
 * {@code max(typical, rung_floor_ms) + tier_reply_ms + 2 × hop_ms} (its visit there and back), plus
 * {@code 2 × hop_ms} for rung i's own visit, whose hops are paid out of the time left after it; and
 * it waits for rung i's visit only until what the rungs below need to be admitted is all that is
 * left. So a hung rung above a fast local one (a gazetteer of {@code typical_ms: 2}) is cut off
 * early enough for the local rung to answer, even when the hung rung's tier answers late.
 */
public final class MarginsConfig extends Settings {

  /** The keys of {@code margins:}. */
  public static final Section<MarginsConfig> SECTION = new Section<>(MarginsConfig::new);

  /** Milliseconds the chain keeps to assemble and send its reply before the deadline; default 5 ms. */
  public static final Field<Long> CHAIN_REPLY_MS = SECTION.longs("chain_reply_ms", 0, 1000).byDefault(5L);

  /** Milliseconds each tier keeps to build and send its reply before the deadline; default 2 ms. */
  public static final Field<Long> TIER_REPLY_MS = SECTION.longs("tier_reply_ms", 0, 1000).byDefault(2L);

  /**
   * Milliseconds past the budget the ingress (and the compatible endpoints) wait for the chain's
   * reply, absorbing event-loop jitter so a late answer is still the real answer; default 250 ms.
   */
  public static final Field<Long> INGRESS_GRACE_MS = SECTION.longs("ingress_grace_ms", 0, 10_000).byDefault(250L);

  /**
   * Milliseconds a coalesced waiter keeps, before its own deadline, to walk or reply after giving up
   * on the leader; default 5 ms.
   */
  public static final Field<Long> WAITER_MS = SECTION.longs("waiter_ms", 0, 1000).byDefault(5L);

  /** Milliseconds past a leader's deadline before its waiters and its claim are given up; default 250 ms. */
  public static final Field<Long> LEADER_GRACE_MS = SECTION.longs("leader_grace_ms", 0, 10_000).byDefault(250L);

  /**
   * Milliseconds a health or status question waits for each part that answers it (a tier, the
   * store, the chain); a part that does not answer in time reads as unreachable; default 1,000 ms.
   */
  public static final Field<Long> STATUS_TIMEOUT_MS = SECTION.longs("status_timeout_ms", 1, 60_000).byDefault(1000L);

  /**
   * Milliseconds one event-bus hop (chain to tier, or tier back to chain) is allowed in the reserve
   * for the rungs below; default 2 ms. A configured figure, not a measured one: what matters is the
   * rare slow hop on a loaded loop, which a running median would not show.
   */
  public static final Field<Long> HOP_MS = SECTION.longs("hop_ms", 0, 1000).byDefault(2L);

  /**
   * The least time, milliseconds, kept for each rung below however fast its median is; default
   * 25 ms. A rung whose median is 1 or 2 ms would otherwise be reserved less than the lateness of
   * the timers that cut the rung above it: on a loaded 2-core host (load average 11) the chain's
   * timer was seen 13 ms late, and a floor of 10 ms left the gazetteer refused.
   */
  public static final Field<Long> RUNG_FLOOR_MS = SECTION.longs("rung_floor_ms", 0, 10_000).byDefault(25L);

  private MarginsConfig(Settings read) {
    super(read);
  }

  /** See {@link #CHAIN_REPLY_MS}. */
  public long chainReplyMs() {
    return get(CHAIN_REPLY_MS);
  }

  /** See {@link #TIER_REPLY_MS}. */
  public long tierReplyMs() {
    return get(TIER_REPLY_MS);
  }

  /** See {@link #INGRESS_GRACE_MS}. */
  public long ingressGraceMs() {
    return get(INGRESS_GRACE_MS);
  }

  /** See {@link #WAITER_MS}. */
  public long waiterMs() {
    return get(WAITER_MS);
  }

  /** See {@link #LEADER_GRACE_MS}. */
  public long leaderGraceMs() {
    return get(LEADER_GRACE_MS);
  }

  /** See {@link #HOP_MS}. */
  public long hopMs() {
    return get(HOP_MS);
  }

  /** See {@link #RUNG_FLOOR_MS}. */
  public long rungFloorMs() {
    return get(RUNG_FLOOR_MS);
  }

  /** See {@link #STATUS_TIMEOUT_MS}. */
  public long statusTimeoutMs() {
    return get(STATUS_TIMEOUT_MS);
  }

  /**
   * How long a health answer that asks the chain (which in turn asks each part for
   * {@link #statusTimeoutMs()}) may take: twice the status timeout.
   */
  public long healthTimeoutMs() {
    return 2 * statusTimeoutMs();
  }
}
