package dev.georesolver.client;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The embedding guide cannot drift from the code that runs: each Java block of
 * {@code docs/embedding.md} marked {@code <!-- snippet: NAME -->} is, verbatim (less its common
 * indentation), the region {@code // snippet:begin NAME} … {@code // snippet:end NAME} of
 * {@link EmbeddingGuideTest} or of the example verticle, which the build compiles and runs. When the
 * code changes on purpose, copy it into the guide with
 * {@code mvn test -Dtest=GuideSnippetsTest -Dsnippets.update=true} and commit both.
 */
class GuideSnippetsTest {

  static final Path GUIDE = Path.of("docs/embedding.md");
  static final List<Path> SOURCES = List.of(
      Path.of("src/test/java/dev/georesolver/client/EmbeddingGuideTest.java"),
      Path.of("src/test/java/dev/georesolver/client/example/StoreLocator.java"));

  /** A marked region of a source file: its name and its lines. */
  private static final Pattern REGION = Pattern.compile(
      "(?m)^[ \\t]*// snippet:begin (\\S+)[ \\t]*\\R(.*?)^[ \\t]*// snippet:end \\1[ \\t]*$", Pattern.DOTALL);
  private static final Pattern BEGIN = Pattern.compile("(?m)^[ \\t]*// snippet:begin (\\S+)");
  /** A marked block of the guide: the marker's indentation (a block inside a list item), its name, its body. */
  private static final Pattern BLOCK = Pattern.compile(
      "(?m)^([ \\t]*)<!-- snippet: (\\S+) -->\\R\\1```java\\R(.*?)^\\1```[ \\t]*$", Pattern.DOTALL);
  private static final Pattern MARKER = Pattern.compile("<!-- snippet: (\\S+) -->");

  static Map<String, String> regions;
  static String guide;

  @BeforeAll
  static void read() throws IOException {
    regions = new LinkedHashMap<>();
    for (Path source : SOURCES) {
      String text = Files.readString(source, StandardCharsets.UTF_8);
      Matcher m = REGION.matcher(text);
      while (m.find()) {
        assertThat(regions.put(m.group(1), dedent(m.group(2)))).as("snippet %s is marked twice", m.group(1)).isNull();
      }
      Matcher b = BEGIN.matcher(text);
      int begins = 0;
      while (b.find()) {
        begins++;
      }
      assertThat(begins).as("every snippet:begin of %s has its snippet:end", source).isEqualTo((int) REGION.matcher(text).results().count());
    }
    guide = Files.readString(GUIDE, StandardCharsets.UTF_8);
  }

  /** The lines less their common indentation, each ending in a newline. */
  static String dedent(String lines) {
    List<String> all = lines.lines().toList();
    int indent = all.stream().filter(l -> !l.isBlank()).mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
    StringBuilder b = new StringBuilder();
    all.forEach(l -> b.append(l.isBlank() ? "" : l.substring(indent).stripTrailing()).append('\n'));
    return b.toString();
  }

  /** A block's body as the guide holds it: each line less the marker's indentation. */
  static String body(String indent, String raw) {
    StringBuilder b = new StringBuilder();
    raw.lines().forEach(l -> b.append(l.startsWith(indent) ? l.substring(indent.length()) : l.strip()).append('\n'));
    return b.toString();
  }

  /** {@code code} as a block body under {@code indent}. */
  static String indented(String indent, String code) {
    StringBuilder b = new StringBuilder();
    code.lines().forEach(l -> b.append(l.isEmpty() ? "" : indent + l).append('\n'));
    return b.toString();
  }

  @Test
  @DisplayName("every marked block of the guide is its region of the test code, verbatim")
  void guideBlocksAreTheTestCode() throws IOException {
    Matcher m = BLOCK.matcher(guide);
    StringBuilder updated = new StringBuilder();
    List<String> stale = new ArrayList<>();
    while (m.find()) {
      String indent = m.group(1);
      String name = m.group(2);
      String code = regions.get(name);
      assertThat(code).as("the guide's snippet %s is marked in no source of %s", name, SOURCES).isNotNull();
      if (!body(indent, m.group(3)).equals(code)) {
        stale.add(name);
      }
      m.appendReplacement(updated, Matcher.quoteReplacement(indent + "<!-- snippet: " + name + " -->\n" + indent + "```java\n"
          + indented(indent, code) + indent + "```"));
    }
    m.appendTail(updated);
    if (!stale.isEmpty() && Boolean.getBoolean("snippets.update")) {
      Files.writeString(GUIDE, updated.toString(), StandardCharsets.UTF_8);
      guide = updated.toString();
      return;
    }
    assertThat(stale).as("snippets of docs/embedding.md that differ from the test code: run "
        + "mvn test -Dtest=GuideSnippetsTest -Dsnippets.update=true and commit the guide").isEmpty();
  }

  @Test
  @DisplayName("every region of the test code is shown in the guide once, and every marker heads a Java block")
  void everyRegionIsShownOnce() {
    List<String> blocks = BLOCK.matcher(guide).results().map(r -> r.group(2)).toList();
    List<String> markers = MARKER.matcher(guide).results().map(r -> r.group(1)).toList();
    assertThat(markers).as("markers not directly followed by a ```java block").containsExactlyElementsOf(blocks);
    assertThat(blocks).as("snippets shown in docs/embedding.md").containsExactlyInAnyOrderElementsOf(regions.keySet());
  }
}
