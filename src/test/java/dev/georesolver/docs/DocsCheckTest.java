package dev.georesolver.docs;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The rules {@link DocsTest} applies to the documentation, on Markdown made up for each case. */
class DocsCheckTest {

  @Test
  @DisplayName("anchors follow GitHub's rule: lower case, punctuation dropped, spaces to hyphens, repeats numbered")
  void anchorsAsGitHubMakesThem() {
    assertThat(Docs.slug("Tenants, residency and per-tier TLS")).isEqualTo("tenants-residency-and-per-tier-tls");
    assertThat(Docs.slug("More than one machine: a clustered event bus")).isEqualTo("more-than-one-machine-a-clustered-event-bus");
    assertThat(Docs.slug("(b, c) Latency at half the saturating load: 6009 req/s, open loop"))
        .isEqualTo("b-c-latency-at-half-the-saturating-load-6009-reqs-open-loop");
    assertThat(Docs.slug("Drop-in compatible endpoints (`compat`)")).isEqualTo("drop-in-compatible-endpoints-compat");
    assertThat(Docs.slug("Île de `state_store`")).isEqualTo("île-de-state_store");
    Docs.Page page = Docs.parse(Path.of("x.md"), "# A `b` c\n\n## Notes\n\ntext\n\n## Notes\n\n```console\n# Not a heading\n```\n");
    assertThat(page.anchors()).containsExactly("a-b-c", "notes", "notes-1");
  }

  @Test
  @DisplayName("a link to a missing file, to a heading that is not there, or a bad line anchor is reported; external links are not checked")
  void brokenLinksAreReported(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("guide.md"), "# Guide\n\n## Setting up\n");
    Files.writeString(dir.resolve("Code.java"), "class Code {}\n");
    Path readme = dir.resolve("README.md");
    Files.writeString(readme, String.join("\n",
        "# Top", "",
        "[ok](guide.md#setting-up) [ok too](#top) [file](Code.java#L1) ![img](guide.md) [web](https://example.org/none)",
        "[gone](missing.md) [no heading](guide.md#set-up) [here neither](#bottom) [bad line](Code.java#main)",
        "`[in code](nowhere.md)`", ""));
    Docs.Page page = Docs.read(readme);
    List<String> broken = Docs.brokenRefs(page, dir, p -> {
      try {
        return Docs.read(p);
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    });
    assertThat(broken).hasSize(4);
    assertThat(broken.get(0)).contains("missing.md", "no file");
    assertThat(broken.get(1)).contains("#set-up", "guide.md");
    assertThat(broken.get(2)).contains("#bottom");
    assertThat(broken.get(3)).contains("#main", "line anchor");
  }

  @Test
  @DisplayName("console blocks are split into commands, continuation lines and shown output; the not-run marker is read")
  void consoleBlocksParsed() {
    Docs.Page page = Docs.parse(Path.of("x.md"), String.join("\n",
        "<!-- not run: needs a running server -->",
        "```console",
        "$ curl -s localhost:8080/health/live",
        "{\"status\":\"UP\"}",
        "```", "",
        "```console",
        "$ java -jar target/georesolver.jar geocode \\",
        "    \"Paris, Texas\"",
        "resolved    33.66094, -95.55551",
        "…",
        "$ echo done",
        "done",
        "```", "",
        "```sh",
        "$ curl x",
        "```", "",
        "```text",
        "$ a screen capture",
        "```", ""));
    List<Docs.Block> blocks = page.blocks();
    assertThat(blocks).hasSize(4);
    assertThat(blocks.get(0).notRun()).isEqualTo("needs a running server");
    Docs.Block run = blocks.get(1);
    assertThat(run.notRun()).isNull();
    assertThat(run.problem()).isNull();
    assertThat(run.commands()).extracting(Docs.Command::text)
        .containsExactly("java -jar target/georesolver.jar geocode \\\n    \"Paris, Texas\"", "echo done");
    assertThat(run.commands().get(0).shown()).containsExactly("resolved    33.66094, -95.55551", "…");
    assertThat(run.commands().get(0).line()).isEqualTo(8);
    assertThat(blocks.get(2).problem()).contains("make it a ```console block");
    assertThat(blocks.get(3).problem()).isNull();
  }

  @Test
  @DisplayName("only local file commands and the jar's offline commands count as runnable without a marker")
  void runnableClassification() {
    assertThat(Docs.whyNotRunnable("java -jar target/georesolver.jar geocode qwxzv plorkington; echo \"exit $?\"")).isEmpty();
    assertThat(Docs.whyNotRunnable("java -jar target/georesolver.jar validate conf/manifest.yaml")).isEmpty();
    assertThat(Docs.whyNotRunnable("cat docs/examples/customers.csv | head -2")).isEmpty();
    assertThat(Docs.whyNotRunnable("curl -s 'localhost:8080/v1/geocode?q=Paris'")).get().asString().contains("curl");
    assertThat(Docs.whyNotRunnable("java -jar target/georesolver.jar geocode --server http://localhost:8080 x")).get().asString().contains("--server");
    assertThat(Docs.whyNotRunnable("java -jar target/georesolver.jar --port 8080")).get().asString().contains("--port");
    assertThat(Docs.whyNotRunnable("java -jar target/georesolver.jar serve")).get().asString().contains("serve");
    assertThat(Docs.whyNotRunnable("java -jar other.jar geocode x")).isPresent();
    assertThat(Docs.whyNotRunnable("scripts/test.sh")).isPresent();
    assertThat(Docs.whyNotRunnable("echo ok && mvn -q package")).get().asString().contains("mvn");
    assertThat(Docs.whyNotRunnable("GEO_JAVA=/opt/jdk scripts/jvm.sh")).get().asString().contains("scripts/jvm.sh");
    assertThat(Docs.whyNotRunnable("echo $(curl -s x)")).get().asString().contains("substitution");
    assertThat(Docs.whyNotRunnable("java -jar target/georesolver.jar geocode x &")).get().asString().contains("background");
    assertThat(Docs.whyNotRunnable("echo 'a;b|c' # curl in a comment")).isEmpty();
  }

  @Test
  @DisplayName("shown output must appear in order; … lines skip, … in a line matches any text")
  void outputMatching() {
    String printed = String.join("\n",
        "12:00:00.000 WARN  d.g.GeoResolver - a log line on standard error",
        "resolved    33.66094, -95.55551  (lat, lon, EPSG:4326)",
        "attempts    osm_nominatim degradable 613 ms · world_gazetteer hit 14 ms   ",
        "trace       e3b9e926c4f8fdab72a67a954d2c1481, 697 ms",
        "exit 0", "");
    assertThat(Docs.missingOutput(List.of(
        "resolved    33.66094, -95.55551  (lat, lon, EPSG:4326)",
        "attempts    osm_nominatim degradable … ms · world_gazetteer hit … ms",
        "...",
        "exit 0"), printed)).isEmpty();
    assertThat(Docs.missingOutput(List.of("exit 0", "resolved    33.66094, -95.55551  (lat, lon, EPSG:4326)"), printed))
        .as("out of order").contains("resolved    33.66094, -95.55551  (lat, lon, EPSG:4326)");
    assertThat(Docs.missingOutput(List.of("exit 1"), printed)).contains("exit 1");
    assertThat(Docs.missingOutput(List.of("resolved    33.66094"), printed)).as("a shown line is a whole line").isPresent();
    assertThat(Docs.missingOutput(List.of("trace       …, … ms"), printed)).isEmpty();
  }
}
