package dev.georesolver.state.rules;

import dev.georesolver.bus.AuditEvent;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * How the audit trail grows and shrinks, for every backend. Pure and thread-safe.
 *
 * <ul>
 *   <li><b>Extending</b> a tenant's chain: each record takes the next sequence number after the
 *       chain's head and is hashed over the head's hash ({@link AuditChain#hash}); a record whose id
 *       the chain already holds is not appended again (a batch retried whole after part of it was
 *       written, on any backend) ({@link #extend}).
 *   <li><b>Retention</b> removes only whole prefixes: the longest run of the oldest records that are
 *       all older than the cut-off, at most {@link #RETAIN_SLICE} records a step, and the chain's
 *       anchor moves to the last record removed ({@link #removable}).
 * </ul>
 */
public final class AuditRules {

  /** The most records one retention step removes, on every backend. */
  public static final int RETAIN_SLICE = 1000;

  private AuditRules() {}

  /**
   * One record placed in its chain.
   *
   * @param seq its sequence number
   * @param id its id
   * @param tsMs when it happened, epoch ms
   * @param prevHash the hash of the record before it (or of the anchor)
   * @param hash its hash
   * @param body its canonical JSON
   */
  public record Link(long seq, String id, long tsMs, String prevHash, String hash, String body) {
    /** Where the chain continues after this record. */
    public AuditChain.Anchor anchor() {
      return new AuditChain.Anchor(seq, hash);
    }
  }

  /**
   * The links {@code events} (one tenant's, in order) add after {@code head}, leaving out those whose
   * id is in {@code recentIds} (the ids of this batch the chain already holds) or repeated in the batch.
   */
  public static List<Link> extend(AuditChain.Anchor head, List<AuditEvent> events, Collection<String> recentIds) {
    Set<String> seen = new HashSet<>(recentIds);
    List<Link> out = new ArrayList<>(events.size());
    long seq = head.seq();
    String prev = head.hash();
    for (AuditEvent e : events) {
      if (!seen.add(e.id())) {
        continue;
      }
      seq++;
      String hash = AuditChain.hash(prev, seq, e.body());
      out.add(new Link(seq, e.id(), e.tsMs(), prev, hash, e.body()));
      prev = hash;
    }
    return out;
  }

  /** One record as retention sees it: its number and when it happened. */
  public record Stamp(long seq, long tsMs) {}

  /**
   * The number of the last record retention may remove from {@code oldestFirst} (the chain's oldest
   * records, in order), or 0 for none: the end of the longest prefix older than {@code cutoffMs},
   * within the first {@link #RETAIN_SLICE}.
   */
  public static long removable(List<Stamp> oldestFirst, long cutoffMs) {
    long last = 0;
    int n = 0;
    for (Stamp s : oldestFirst) {
      if (n++ >= RETAIN_SLICE || s.tsMs() >= cutoffMs) {
        break;
      }
      last = s.seq();
    }
    return last;
  }
}
