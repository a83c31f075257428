package dev.georesolver.state.rules;

import dev.georesolver.shadow.ShadowFormatException;
import dev.georesolver.shadow.ShadowTable;

/**
 * How stored shadow figures take a node's new ones, the same for every backend. Pure and thread-safe.
 *
 * <ul>
 *   <li><b>Exact merge</b>: the stored table plus the node's, pair by pair ({@link ShadowTable#add}:
 *       counts and histogram buckets add up), so nodes sharing a store may merge in any order and
 *       every node reads the same figures;
 *   <li><b>Bounded</b>: a merge that would pass {@link ShadowTable#MAX_PAIRS} pairs keeps the stored
 *       pairs and adds to them only ({@link #merged}), rather than failing every later merge;
 *   <li><b>Unreadable figures are not overwritten</b>: a stored row that does not decode fails the
 *       merge ({@link ShadowFormatException}); the node keeps its figures, and nothing is lost by
 *       writing over what an operator may still recover.
 * </ul>
 */
public final class ShadowMerge {

  private ShadowMerge() {}

  /**
   * The stored figures with {@code delta} added.
   *
   * @param stored the stored row's body, or null when there is none
   * @throws ShadowFormatException when {@code stored} is not a table's durable form
   */
  public static ShadowTable merged(byte[] stored, ShadowTable delta) {
    ShadowTable t = stored == null ? new ShadowTable() : ShadowTable.decode(stored);
    try {
      t.add(delta);
    } catch (IllegalStateException tooMany) {
      ShadowTable known = delta.copy();
      known.removeIf(k -> !t.keys().contains(k));
      t.add(known);
    }
    return t;
  }

  /** The stored figures as read: an empty table when there is no row. */
  public static ShadowTable read(byte[] stored) {
    return stored == null ? new ShadowTable() : ShadowTable.decode(stored);
  }
}
