package dev.georesolver.state;

import dev.georesolver.shadow.ShadowTable;
import dev.georesolver.state.rules.ShadowMerge;
import dev.georesolver.state.tables.Table;
import dev.georesolver.state.tables.Tables;
import io.vertx.core.Future;

import java.util.Map;

/**
 * The shadow figures over {@link Tables}: one row holding every pair's aggregate
 * ({@code shadow.ShadowTable}'s durable form), to which each node adds what it counted
 * ({@link ShadowMerge}). One group, so a merge is one transaction on Redis Cluster too; a lost race
 * runs again, so no node's figures are lost or counted twice. Use from the state verticle's context.
 */
final class ShadowStore implements StateStore.Shadow {

  static final String GROUP = "shadow";
  static final Table FIGURES = Table.of(GROUP, "figures");
  static final String ROW = "pairs";

  private final Tables tables;

  ShadowStore(Tables tables) {
    this.tables = tables;
  }

  @Override
  public Future<ShadowTable> merge(ShadowTable delta) {
    return tables.transact(x -> x.get(FIGURES, ROW).map(row -> {
      ShadowTable merged = ShadowMerge.merged(row.body(), delta);
      x.put(FIGURES, ROW, merged.encode(), Map.of());
      return merged;
    }));
  }

  @Override
  public Future<ShadowTable> read() {
    return tables.read(x -> x.get(FIGURES, ROW)).map(row -> ShadowMerge.read(row.body()));
  }
}
