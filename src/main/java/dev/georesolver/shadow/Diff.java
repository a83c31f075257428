package dev.georesolver.shadow;

import java.util.ArrayList;
import java.util.List;

/** A unified diff of two short lists of rung names, as {@code routing.tiers} entries. Pure. */
final class Diff {

  private Diff() {}

  /** One hunk covering both lists whole (a ladder is short), lines from a longest common subsequence. */
  static String unified(List<String> before, List<String> after) {
    int n = before.size();
    int m = after.size();
    int[][] lcs = new int[n + 1][m + 1];
    for (int i = n - 1; i >= 0; i--) {
      for (int j = m - 1; j >= 0; j--) {
        lcs[i][j] = before.get(i).equals(after.get(j)) ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
      }
    }
    List<String> lines = new ArrayList<>();
    int i = 0;
    int j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && before.get(i).equals(after.get(j))) {
        lines.add(" " + entry(before.get(i++)));
        j++;
      } else if (j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j])) {
        lines.add("+" + entry(after.get(j++)));
      } else {
        lines.add("-" + entry(before.get(i++)));
      }
    }
    StringBuilder s = new StringBuilder();
    s.append("--- routing.tiers (now)\n+++ routing.tiers (proposed)\n");
    s.append("@@ -1,").append(n).append(" +1,").append(m).append(" @@\n");
    for (String l : lines) {
      s.append(l).append('\n');
    }
    return s.toString();
  }

  private static String entry(String name) {
    return "  - name: \"" + name + "\"";
  }
}
