package dev.georesolver.docs;

import dev.georesolver.config.Field;
import dev.georesolver.config.Reference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.ArrayList;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code docs/configuration.md} is what {@link Reference#markdown} makes of the manifest's
 * declarations, each key described by its field's Javadoc (the one place a field is described):
 * a stale file fails; regenerate it with
 * {@code mvn -q -o test -Dtest=ConfigurationDocTest -Dconfig.update=true} and commit it.
 */
class ConfigurationDocTest {

  static final Path DOC = Path.of("docs/configuration.md");
  static final Path SOURCES = Path.of("src/main/java");

  private static final Pattern DECLARED = Pattern.compile(
      "/\\*\\*((?:(?!\\*/).)*)\\*/\\s*public static final Field<.*?>\\s+(\\w+)\\s*=", Pattern.DOTALL);

  @Test
  @DisplayName("docs/configuration.md is generated from the manifest's declarations and is not stale")
  void referenceIsCurrent() throws IOException {
    Map<Field<?>, String> described = javadocs();
    String now = Reference.markdown(k -> described.get(k.field()));
    String was = Files.exists(DOC) ? Files.readString(DOC, StandardCharsets.UTF_8) : "";
    if (!now.equals(was) && Boolean.getBoolean("config.update")) {
      Files.writeString(DOC, now, StandardCharsets.UTF_8);
      return;
    }
    assertThat(was).as("docs/configuration.md is stale: run mvn -q -o test -Dtest=ConfigurationDocTest -Dconfig.update=true "
        + "and commit the file").isEqualTo(now);
  }

  @Test
  @DisplayName("every key has a type, a default, a reload rule and a description")
  void everyKeyIsDescribed() throws IOException {
    Map<Field<?>, String> described = javadocs();
    assertThat(Reference.keys()).isNotEmpty().allSatisfy(k -> {
      assertThat(described.get(k.field())).as(k.path() + " has Javadoc").isNotBlank();
      assertThat(k.reload()).as(k.path()).isNotNull();
      assertThat(k.defaultText()).as(k.path()).isNotBlank();
    });
  }

  /** Each {@code public static final Field} constant's Javadoc as one line of Markdown, by field. */
  static Map<Field<?>, String> javadocs() throws IOException {
    Map<Field<?>, String> out = new IdentityHashMap<>();
    try (Stream<Path> files = Files.walk(SOURCES)) {
      for (Path p : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        String src = Files.readString(p, StandardCharsets.UTF_8);
        if (!src.contains("public static final Field<")) {
          continue;
        }
        String type = SOURCES.relativize(p).toString().replace('/', '.').replaceAll("\\.java$", "");
        Matcher m = DECLARED.matcher(src);
        while (m.find()) {
          try {
            Object f = enclosing(type, src, m.group(2), m.start()).getField(m.group(2)).get(null);
            if (f instanceof Field<?> field) {
              out.put(field, markdown(m.group(1)));
            }
          } catch (ReflectiveOperationException e) {
            throw new AssertionError(type + "." + m.group(2) + ": " + e);
          }
        }
      }
    }
    return out;
  }

  /**
   * The class, of the top-level {@code type} and the classes nested in it, that declares the field
   * {@code name} found at position {@code at} of {@code src}: the only one declaring it, or else the
   * one whose declaration comes last before {@code at}.
   */
  static Class<?> enclosing(String type, String src, String name, int at) throws ClassNotFoundException {
    List<Class<?>> all = new ArrayList<>();
    Deque<Class<?>> todo = new ArrayDeque<>(List.of(Class.forName(type)));
    while (!todo.isEmpty()) {
      Class<?> c = todo.pop();
      all.add(c);
      todo.addAll(List.of(c.getDeclaredClasses()));
    }
    List<Class<?>> declaring = all.stream().filter(c -> {
      try {
        c.getDeclaredField(name);
        return true;
      } catch (NoSuchFieldException e) {
        return false;
      }
    }).toList();
    if (declaring.size() <= 1) {
      return declaring.isEmpty() ? Class.forName(type) : declaring.get(0);
    }
    return declaring.stream().max(java.util.Comparator.comparingInt(c -> {
      int k = src.lastIndexOf("class " + c.getSimpleName() + " ", at);
      return k < 0 ? -1 : k;
    })).orElseThrow();
  }


  /** Javadoc text as one line of Markdown: {@code {@code x}} as code, {@code {@link A#b}} as its name. */
  static String markdown(String javadoc) {
    String text = javadoc.replaceAll("(?m)^\\s*\\*\\s?", " ").replaceAll("\\s+", " ").trim();
    StringBuilder sb = new StringBuilder();
    int i = 0;
    while (i < text.length()) {
      if (text.startsWith("{@", i)) {
        int depth = 0;
        int j = i;
        for (; j < text.length(); j++) {
          char c = text.charAt(j);
          if (c == '{') {
            depth++;
          } else if (c == '}' && --depth == 0) {
            break;
          }
        }
        String tag = text.substring(i + 2, Math.min(j, text.length()));
        int space = tag.indexOf(' ');
        String name = space < 0 ? tag : tag.substring(0, space);
        String body = space < 0 ? "" : tag.substring(space + 1).trim();
        if (name.equals("code") || name.equals("value")) {
          sb.append('`').append(body).append('`');
        } else {
          String target = body.contains(" ") ? body.substring(body.indexOf(' ') + 1) : body;
          sb.append('`').append(target.replaceAll(".*#", "").replaceAll("\\(.*\\)", "")).append('`');
        }
        i = j + 1;
      } else {
        sb.append(text.charAt(i++));
      }
    }
    return sb.toString().replaceAll("</?(p|em|b|i)>", "");
  }
}
