package dev.georesolver.config;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The configuration reference, made from the manifest's own declarations ({@link Section},
 * {@link Field}): every key with its type, unit, default, allowed values, what a reload does with
 * it ({@link Reload}) and its description. {@code docs/configuration.md} is {@link #markdown} (a
 * test fails when the committed file is stale) and {@code georesolver validate --explain} prints
 * {@link #explain}. Pure and stateless.
 */
public final class Reference {

  /**
   * One key.
   *
   * @param path its path, {@code []} for each element of a list and {@code <name>} for each entry
   *     of named sections ({@code routing.tiers[].timeout_ms}, {@code intents.<name>.claims})
   * @param unit what a number counts, from the key's suffix ({@code ms}, {@code s}, {@code MB},
   *     {@code days}, {@code per second}, {@code bytes}, {@code metres}), or null
   * @param defaultText {@code required}, {@code computed}, {@code none} or the default as the
   *     effective configuration shows it
   * @param allowed see {@link Field#allowed()}, or null
   * @param why for {@link Reload#RESTART}, what holds the value read at start
   */
  public record Key(String path, Field<?> field, String type, String unit, String defaultText, String allowed, Reload reload,
                    String why) {

    /** {@code applied by a reload} or {@code needs a restart (<why>)}. */
    public String reloadText() {
      return reload == Reload.RESTART ? reload.words() + " (" + why + ")" : reload.words();
    }
  }

  private Reference() {}

  /** Every key of the manifest, in declaration order, nested keys after the key that holds them. */
  public static List<Key> keys() {
    List<Key> out = new ArrayList<>();
    walk(Manifest.SECTION, "", Changes.ROOT, Changes.ROOT_WHY, out);
    return List.copyOf(out);
  }

  private static void walk(Section<?> s, String path, Reload inherited, String why, List<Key> out) {
    for (Field<?> f : s.fields()) {
      Reload r = f.reload() != null ? f.reload() : inherited;
      String w = f.reload() != null ? f.readAtStartWhy() : why;
      String at = Section.child(path, f.key());
      out.add(new Key(at, f, f.type(), unit(f.key()), defaultText(f), f.allowed(), r, r == Reload.RESTART ? w : null));
      if (f.nested() != null) {
        String inner = f.repeated() ? (f.named() ? at + ".<name>" : at + "[]") : at;
        walk(f.nested(), inner, r, w, out);
      }
    }
  }

  /** The unit a key's suffix names, or null. */
  static String unit(String key) {
    if (key.endsWith("_per_s")) {
      return "per second";
    }
    if (key.endsWith("_ms")) {
      return "ms";
    }
    if (key.endsWith("_s") || key.endsWith("_seconds")) {
      return "s";
    }
    if (key.endsWith("_mb")) {
      return "MB";
    }
    if (key.endsWith("_days")) {
      return "days";
    }
    if (key.endsWith("_bytes")) {
      return "bytes";
    }
    if (key.endsWith("_m")) {
      return "metres";
    }
    return null;
  }

  private static String defaultText(Field<?> f) {
    if (f.isRequired()) {
      return "required";
    }
    if (f.defaultComputed()) {
      return "computed";
    }
    Object d = f.defaultShown();
    if (d == null) {
      return "none";
    }
    if (f.nested() != null && !f.repeated()) {
      return "each field's";
    }
    return d instanceof JsonObject || d instanceof JsonArray ? d.toString() : String.valueOf(d);
  }

  /**
   * The reference as Markdown: a title, how to read it, and one table per top-level key.
   *
   * @param describe a key's description (one line of Markdown), or null when there is none
   */
  public static String markdown(Function<Key, String> describe) {
    StringBuilder sb = new StringBuilder();
    sb.append("# Configuration reference\n\n")
        .append("<!-- generated from the manifest's declarations (config.Section/Field) by ConfigurationDocTest; do not edit by hand:\n")
        .append("     mvn -q -o test -Dtest=ConfigurationDocTest -Dconfig.update=true -->\n\n")
        .append("Every key of `conf/manifest.yaml`, as the resolver reads it. `[]` stands for each element of a list and\n")
        .append("`<name>` for each entry of named sections. **Reload** says what `POST /admin/reload`, SIGHUP or an edit\n")
        .append("of the watched file does with a change of the key: *applied by a reload* (requests begun after the swap\n")
        .append("see it), *applied by a reload, which redeploys every tier* (breakers and latency windows start afresh, a\n")
        .append("forced state is carried over), or *needs a restart*: the reload is refused, names the key in its answer,\n")
        .append("the log and `/manifest` (`pending_restart`), and the old revision keeps serving. A key nested in another\n")
        .append("is as the key that holds it unless it says otherwise. `georesolver validate --explain` prints a\n")
        .append("manifest's effective values with the same annotations.\n");
    String group = null;
    for (Key k : keys()) {
      String top = k.path().split("[.\\[]", 2)[0];
      if (!top.equals(group)) {
        group = top;
        sb.append("\n## `").append(top).append("`\n\n")
            .append("| Key | Type | Unit | Default | Allowed | Reload | Description |\n")
            .append("|---|---|---|---|---|---|---|\n");
      }
      String d = describe.apply(k);
      sb.append("| `").append(k.path()).append("` | ").append(k.type()).append(" | ").append(cell(k.unit())).append(" | ")
          .append(k.defaultText().equals("required") || k.defaultText().equals("computed") || k.defaultText().equals("none")
              || k.defaultText().equals("each field's") ? k.defaultText() : "`" + cellCode(k.defaultText()) + "`")
          .append(" | ").append(cell(k.allowed())).append(" | ").append(k.reloadText()).append(" | ").append(cell(d)).append(" |\n");
    }
    return sb.toString();
  }

  private static String cell(String s) {
    return s == null || s.isEmpty() ? "" : s.replace("|", "\\|").replace("\n", " ");
  }

  private static String cellCode(String s) {
    return s.replace("|", "\\|").replace("`", "'");
  }

  /**
   * {@code m}'s effective configuration, one line per value: {@code path: value  # type, unit,
   * default, allowed, reload}; elements of lists at {@code path[i]}, entries at {@code path.name}.
   * Credentials show as in {@code /manifest} (references only).
   */
  public static List<String> explain(Manifest m) {
    List<Key> keys = keys();
    List<String> out = new ArrayList<>();
    explain(m.describe().getJsonObject("manifest"), "", "", keys, out);
    return out;
  }

  private static void explain(JsonObject values, String path, String schemaPath, List<Key> keys, List<String> out) {
    for (String name : values.fieldNames()) {
      String at = Section.child(path, name);
      String schema = Section.child(schemaPath, name);
      Key k = keys.stream().filter(x -> x.path().equals(schema)).findFirst().orElse(null);
      Object v = values.getValue(name);
      if (k != null && k.field().nested() != null && v != null) {
        if (!k.field().repeated()) {
          explain((JsonObject) v, at, schema, keys, out);
        } else if (k.field().named()) {
          JsonObject entries = (JsonObject) v;
          for (String e : entries.fieldNames()) {
            explain(entries.getJsonObject(e), at + "." + e, schema + ".<name>", keys, out);
          }
        } else {
          JsonArray list = (JsonArray) v;
          for (int i = 0; i < list.size(); i++) {
            explain(list.getJsonObject(i), at + "[" + i + "]", schema + "[]", keys, out);
          }
        }
        continue;
      }
      out.add(at + ": " + (v == null ? "null" : v instanceof String ? v : v.toString()) + (k == null ? "" : "  # " + note(k)));
    }
  }

  private static String note(Key k) {
    List<String> parts = new ArrayList<>();
    parts.add(k.type());
    if (k.unit() != null) {
      parts.add(k.unit());
    }
    parts.add("default " + k.defaultText());
    if (k.allowed() != null) {
      parts.add(k.allowed());
    }
    parts.add(k.reloadText().toLowerCase(Locale.ROOT));
    return String.join("; ", parts);
  }
}
