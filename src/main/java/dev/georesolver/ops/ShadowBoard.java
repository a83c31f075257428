package dev.georesolver.ops;

import dev.georesolver.shadow.PairKey;
import dev.georesolver.shadow.PairSummary;
import dev.georesolver.shadow.ShadowFormatException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The shadow figures as the dashboard's agreement matrix: the merged view the shadow verticle
 * answers ({@code GET /v1/shadow}'s body) folded into one cell per ordered pair of rungs, the
 * intents added up, with the rungs in ladder order. Each {@code shadow} event it returns has the
 * shape
 *
 * <pre>{@code
 * {"type": "shadow", "at_ms", "state": "off" | "waiting" | "unavailable" | "empty" | "live",
 *  "detail"?: why unavailable, "samples", "rungs": [name, …],
 *  "cells": [{"served", "shadow", "samples", "both_found", "within_250", "within_250_share",
 *             "found_disagreement", "intents": [{"intent", "samples", "both_found", "p50_m", "p90_m"}]}]}
 * }</pre>
 *
 * A cell's counts are the sums over its intents, so its shares are exact: {@code within_250_share}
 * is the within-250 m count over the samples both rungs found (each intent's share weighted by its
 * both-found samples; null when none was both found), {@code found_disagreement} the samples only
 * one rung found over all samples. Distance percentiles do not add up across intents, so they stay
 * per intent (metres, null when none was both found). Shares are rounded to four decimals.
 *
 * <p>Whatever the view holds, what is served stays bounded: at most {@value #MAX_PAIRS} pairs are
 * read, each by the shadow core's reader ({@link PairSummary#fromMap}); a pair it refuses (names
 * that are not rung names, counts that are not whole numbers or contradict each other) is left
 * out, and so is a view that is not one.
 *
 * <p>Not thread-safe: confine to one verticle.
 */
public final class ShadowBoard {

  /** The distance a cell's agreement is measured within, metres (a key of the view's {@code within_count}). */
  public static final int WITHIN_M = 250;
  /** The most pairs read from one view (the shadow table holds no more). */
  public static final int MAX_PAIRS = 512;
  /** The longest reason kept for {@code unavailable}, characters. */
  public static final int MAX_DETAIL = 200;

  private JsonObject last;

  /**
   * A board that starts "off" when {@code on} is false, else "waiting" for the first answer.
   *
   * @param nowMs wall-clock time, epoch milliseconds
   */
  public ShadowBoard(boolean on, long nowMs) {
    last = status(on ? "waiting" : "off", null, nowMs);
  }

  /** The last event (a copy): what a dashboard that connects starts from. */
  public JsonObject last() {
    return last.copy();
  }

  /** Sampling is off in the revision serving. @return the event to relay, or null when the last one said so already */
  public JsonObject off(long nowMs) {
    return relayed(status("off", null, nowMs));
  }

  /** The shadow verticle did not answer, or could not read the figures. @return as {@link #off} */
  public JsonObject unavailable(String why, long nowMs) {
    String detail = why == null ? "" : why.length() > MAX_DETAIL ? why.substring(0, MAX_DETAIL) : why;
    return relayed(status("unavailable", detail, nowMs));
  }

  /**
   * Folds a view into the matrix.
   *
   * @param view the shadow verticle's answer
   * @param ladder the rung names top rung first; rungs the view names beyond them follow, by name
   * @return as {@link #off}: "empty" when no pair has a sample, else "live"
   */
  public JsonObject onView(Object view, List<String> ladder, long nowMs) {
    if (!(view instanceof JsonObject v) || !(v.getValue("pairs") instanceof JsonArray pairs)) {
      return unavailable("the shadow figures were not a view", nowMs);
    }
    Map<String, Cell> cells = new LinkedHashMap<>();
    Set<String> named = new TreeSet<>();
    for (int i = 0; i < Math.min(pairs.size(), MAX_PAIRS); i++) {
      PairSummary p = read(pairs.getValue(i), i);
      if (p != null && p.samples() > 0) {
        String served = p.key().served();
        String shadowRung = p.key().shadow();
        cells.computeIfAbsent(served + "\n" + shadowRung, k -> new Cell(served, shadowRung)).add(p);
        named.add(served);
        named.add(shadowRung);
      }
    }
    Set<String> rungs = new LinkedHashSet<>();
    ladder.stream().filter(PairKey::isName).forEach(rungs::add);
    rungs.addAll(named);
    long samples = 0;
    JsonArray out = new JsonArray();
    for (Cell c : cells.values()) {
      samples += c.samples;
      out.add(c.toJson());
    }
    return relayed(new JsonObject()
        .put("type", "shadow")
        .put("at_ms", nowMs)
        .put("state", samples == 0 ? "empty" : "live")
        .put("samples", samples)
        .put("rungs", new JsonArray(new ArrayList<>(rungs)))
        .put("cells", out));
  }

  private static JsonObject status(String state, String detail, long nowMs) {
    JsonObject e = new JsonObject().put("type", "shadow").put("at_ms", nowMs).put("state", state);
    if (detail != null) {
      e.put("detail", detail);
    }
    return e.put("samples", 0).put("rungs", new JsonArray()).put("cells", new JsonArray());
  }

  /** Keeps {@code e} as the last event; returns it unless it says what the last one said. */
  private JsonObject relayed(JsonObject e) {
    JsonObject before = last.copy();
    before.remove("at_ms");
    JsonObject now = e.copy();
    now.remove("at_ms");
    last = e;
    return now.equals(before) ? null : e.copy();
  }

  /**
   * One element of the view's {@code pairs}, read by the shadow core's own reader
   * ({@link PairSummary#fromMap}, which checks every figure against the others), or null when it is
   * not a pair or pairs a rung with itself.
   */
  private static PairSummary read(Object element, int at) {
    try {
      PairSummary p = PairSummary.fromMap(element, "pairs[" + at + "]");
      return p.key().served().equals(p.key().shadow()) ? null : p;
    } catch (ShadowFormatException notAPair) {
      return null;
    }
  }

  /** One (served, shadow) cell: its intents' counts added up. */
  private static final class Cell {
    final String served;
    final String shadow;
    final List<PairSummary> intents = new ArrayList<>();
    long samples;
    long bothFound;
    long disagreed;
    long within;

    Cell(String served, String shadow) {
      this.served = served;
      this.shadow = shadow;
    }

    void add(PairSummary p) {
      intents.add(p);
      samples += p.samples();
      bothFound += p.bothFound();
      disagreed += p.servedOnly() + p.shadowOnly();
      within += p.within().count(WITHIN_M);
    }

    JsonObject toJson() {
      JsonArray perIntent = new JsonArray();
      for (PairSummary p : intents) {
        PairSummary.Distances d = p.distanceM();
        perIntent.add(new JsonObject().put("intent", p.key().intent()).put("samples", p.samples()).put("both_found", p.bothFound())
            .put("p50_m", d == null ? null : d.p50()).put("p90_m", d == null ? null : d.p90()));
      }
      return new JsonObject()
          .put("served", served)
          .put("shadow", shadow)
          .put("samples", samples)
          .put("both_found", bothFound)
          .put("within_250", within)
          .put("within_250_share", bothFound == 0 ? null : round4((double) within / bothFound))
          .put("found_disagreement", round4((double) disagreed / samples))
          .put("intents", perIntent);
    }

    private static double round4(double v) {
      return Math.round(v * 10_000) / 10_000.0;
    }
  }
}
