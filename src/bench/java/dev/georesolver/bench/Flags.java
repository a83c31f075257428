package dev.georesolver.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code --name value} command-line flags; a flag may repeat, and {@code --target} takes three
 * values. Positional arguments are kept in order. Enough for the bench tools, no more.
 */
final class Flags {

  private final Map<String, List<String>> values = new HashMap<>();
  private final List<String> positional = new ArrayList<>();

  private Flags() {}

  /** Parses {@code args}; {@code arity} gives the number of values of flags taking more than one. */
  static Flags parse(String[] args, Map<String, Integer> arity) {
    Flags f = new Flags();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (!a.startsWith("--")) {
        f.positional.add(a);
        continue;
      }
      String name = a.substring(2);
      int n = arity.getOrDefault(name, 1);
      if (i + n >= args.length) {
        throw new IllegalArgumentException(a + " needs " + n + " value(s)");
      }
      for (int k = 0; k < n; k++) {
        f.values.computeIfAbsent(name, x -> new ArrayList<>()).add(args[++i]);
      }
    }
    return f;
  }

  static Flags parse(String[] args) {
    return parse(args, Map.of());
  }

  String get(String name, String dflt) {
    List<String> v = values.get(name);
    return v == null || v.isEmpty() ? dflt : v.get(v.size() - 1);
  }

  String required(String name) {
    String v = get(name, null);
    if (v == null) {
      throw new IllegalArgumentException("--" + name + " is required");
    }
    return v;
  }

  int integer(String name, int dflt) {
    String v = get(name, null);
    return v == null ? dflt : Integer.parseInt(v);
  }

  double number(String name, double dflt) {
    String v = get(name, null);
    return v == null ? dflt : Double.parseDouble(v);
  }

  /** Every value of a repeated flag, in order. */
  List<String> all(String name) {
    return values.getOrDefault(name, List.of());
  }

  List<String> positional() {
    return positional;
  }
}
