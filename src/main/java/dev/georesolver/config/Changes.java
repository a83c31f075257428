package dev.georesolver.config;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Walks two readings of one section side by side and lists every setting that differs with what a
 * reload does with it, from the fields' own declarations ({@link Field#reload()}): a field that
 * declares nothing is as the field enclosing it. Nested mappings are compared field by field, list
 * elements by their unique field (else by position) and named entries by name; an element or entry
 * only one side has is one change. Pure.
 */
final class Changes {

  /** What a top-level field that declares nothing is. */
  static final Reload ROOT = Reload.RESTART;

  /** Why, for a top-level field that declares nothing. */
  static final String ROOT_WHY = "read only at start";

  private Changes() {}

  /** Every setting {@code after} changes against {@code before}, in declaration order. */
  static List<Change> of(Settings before, Settings after) {
    List<Change> out = new java.util.ArrayList<>();
    section(before.section(), before, after, "", ROOT, ROOT_WHY, out);
    return List.copyOf(out);
  }

  private static void section(Section<?> s, Settings b, Settings a, String path, Reload inherited, String why, List<Change> out) {
    for (Field<?> f : s.fields()) {
      Object vb = b.get(f);
      Object va = a.get(f);
      if (Objects.equals(vb, va)) {
        continue;
      }
      Reload r = f.reload() != null ? f.reload() : inherited;
      String w = f.reload() != null ? f.readAtStartWhy() : why;
      String at = Section.child(path, f.key());
      switch (f.kind().shape()) {
        case SECTION -> {
          if (vb == null || va == null) {
            out.add(change(at, r, w));
          } else {
            section(f.nested(), (Settings) vb, (Settings) va, at, r, w, out);
          }
        }
        case LIST -> list(f, vb, va, at, r, w, out);
        case MAP -> map(f, vb, va, at, r, w, out);
        default -> out.add(change(at, r, w));
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static void list(Field<?> f, Object vb, Object va, String at, Reload r, String why, List<Change> out) {
    if (vb == null || va == null) {
      out.add(change(at, r, why));
      return;
    }
    List<Settings> b = (List<Settings>) vb;
    List<Settings> a = (List<Settings>) va;
    Field<?> key = f.kind().uniqueBy();
    Map<Object, Settings> was = new HashMap<>();
    for (int i = 0; i < b.size(); i++) {
      was.put(key == null ? i : b.get(i).get(key), b.get(i));
    }
    int matched = 0;
    for (int i = 0; i < a.size(); i++) {
      Settings old = was.get(key == null ? i : a.get(i).get(key));
      String element = at + "[" + i + "]";
      if (old == null) {
        out.add(change(element, r, why));
      } else {
        matched++;
        if (!old.equals(a.get(i))) {
          section(f.nested(), old, a.get(i), element, r, why, out);
        }
      }
    }
    if (matched < b.size()) {
      // An element only the serving revision has: the list as a whole changes.
      out.add(change(at, r, why));
    }
  }

  @SuppressWarnings("unchecked")
  private static void map(Field<?> f, Object vb, Object va, String at, Reload r, String why, List<Change> out) {
    if (vb == null || va == null) {
      out.add(change(at, r, why));
      return;
    }
    Map<String, Settings> b = (Map<String, Settings>) vb;
    Map<String, Settings> a = (Map<String, Settings>) va;
    a.forEach((name, entry) -> {
      Settings old = b.get(name);
      String path = Section.child(at, name);
      if (old == null) {
        out.add(change(path, r, why));
      } else if (!old.equals(entry)) {
        section(f.nested(), old, entry, path, r, why, out);
      }
    });
    b.keySet().stream().filter(name -> !a.containsKey(name)).forEach(name -> out.add(change(Section.child(at, name), r, why)));
  }

  private static Change change(String path, Reload r, String why) {
    return new Change(path, r, r == Reload.RESTART ? why : null);
  }
}
