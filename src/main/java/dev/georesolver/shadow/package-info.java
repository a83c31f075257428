/**
 * Shadow sampling's pure core: what one sample measures, how samples add up per pair of rungs,
 * the durable and wire forms of those figures, the report, the advice on the ladder's order, and
 * the sampling decisions. No Vert.x here; time comes from the caller.
 *
 * <ul>
 *   <li>{@link dev.georesolver.shadow.ShadowSample}: an answer that left and its shadow rung's answer
 *       to the same question, identified only by a {@link dev.georesolver.shadow.KeyHasher} id;
 *       distance ({@link dev.georesolver.geo.GreatCircle}), found/not found, and
 *       {@link dev.georesolver.shadow.LabelSimilarity}.
 *   <li>{@link dev.georesolver.shadow.PairStats} per {@link dev.georesolver.shadow.PairKey} (served
 *       rung, shadow rung, intent), gathered in a {@link dev.georesolver.shadow.ShadowTable}: exact,
 *       associative and commutative merge; a versioned, bounded binary form (and Base64).
 *   <li>{@link dev.georesolver.shadow.PairSummary} and {@link dev.georesolver.shadow.ShadowView}: the
 *       {@code GET /v1/shadow} shape as plain maps and lists, and back.
 *   <li>{@link dev.georesolver.shadow.ShadowReport} (the report's tables and sentences) and
 *       {@link dev.georesolver.shadow.Advisor} (a proposed {@code routing.tiers} reorder as a diff,
 *       with its evidence and the rule that decides it).
 *   <li>{@link dev.georesolver.shadow.Sampler} (whether to sample),
 *       {@link dev.georesolver.shadow.ShadowCeilings} (shadow calls per second per tier) and
 *       {@link dev.georesolver.shadow.DriftCheck} (when a cached answer is re-asked, and when it moved).
 * </ul>
 *
 * <p>Privacy: only a sample holds points and labels, and it is folded into counts and histograms
 * at once; nothing here stores an address, a point or a label, except {@link
 * dev.georesolver.shadow.WorstKept}: the worst disagreements of a tenant whose manifest entry allows
 * keeping them, bounded in number and age, in memory only.
 */
package dev.georesolver.shadow;
